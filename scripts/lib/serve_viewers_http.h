/* serve_viewers_http.h: the HTTP side of serve_viewers.c — a viewer's and a connection's state, and reading an
 * answer: its head (status, Content-Length, chunked, Set-Cookie), whether its body is complete, and the body of a
 * chunked one. Included once, by serve_viewers.c (one file to compile). */
#ifndef SERVE_VIEWERS_HTTP_H
#define SERVE_VIEWERS_HTTP_H
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#define MAX_HEAD (64u << 10)            /* a head longer than this is a failed answer */
#define MAX_ANSWER (16u << 20)          /* so is an answer longer than this */
#define MAX_COOKIES 4                   /* cookies kept per viewer (okit's session, nginx's routing cookie) */
#define JOINING_AT_ONCE 8
#define STALE "event: stale"
#define STALE_LEN (sizeof STALE - 1)

/* IDLE: a viewer's page connection kept open between its GETs (with `keep-alive`), as a browser keeps it. */
enum kind { JOIN_PAGE, JOIN_EVENTS, EVENTS, REGET, STORM, IDLE };

typedef struct {
    char cookie[MAX_COOKIES][2][256];   /* name, value */
    int joined, fetching, again, seen, done, ok;
    long long stale_ns, done_ns;
    void *idle;                         /* with `keep-alive`: its page connection between GETs (a Conn), or NULL */
} Viewer;

typedef struct {
    int fd, kind, viewer, connected;    /* viewer: an index in `viewers`, or -1 */
    int reused;                         /* a kept connection sent this request: a close before any answer retries */
    char *request; size_t request_len, sent;
    char *in; size_t in_len, in_cap;    /* the answer so far (not kept for an open /events stream) */
    size_t head_len, chunk_at;          /* head_len 0 until the head's blank line came; chunk_at: next size line */
    int status, chunked; long long content_length;
    char tail[STALE_LEN]; size_t tail_len;  /* /events: the end of the previous read, for a marker split in two */
} Conn;

/* Keeps a Set-Cookie's name and value for the viewer (as serve_http.py's _take_cookies: not when empty). */
static void take_cookie(Viewer *v, const char *value, size_t len) {
    const char *end = memchr(value, ';', len), *eq = memchr(value, '=', len);
    if (!end) end = value + len;
    if (!eq || eq > end) return;
    const char *name = value, *val = eq + 1;
    size_t nlen = (size_t)(eq - name), vlen = (size_t)(end - val);
    while (nlen && name[nlen - 1] == ' ') nlen--;
    while (vlen && val[vlen - 1] == ' ') vlen--;
    while (vlen && *val == ' ') { val++; vlen--; }
    if (!nlen || !vlen || nlen >= sizeof v->cookie[0][0] || vlen >= sizeof v->cookie[0][1]) return;
    for (int i = 0; i < MAX_COOKIES; i++) {
        char *slot = v->cookie[i][0];
        if (slot[0] && (strlen(slot) != nlen || memcmp(slot, name, nlen))) continue;
        memcpy(slot, name, nlen); slot[nlen] = 0;
        memcpy(v->cookie[i][1], val, vlen); v->cookie[i][1][vlen] = 0;
        return;
    }
}

/* Reads the status line and the headers (the cookies into `viewer`, if any) once the blank line came; 0 when the
 * head is malformed. */
static int parse_head(Conn *c, size_t len, Viewer *viewer) {
    char *p = c->in, *end = c->in + len;
    if (len < 12 || memcmp(p, "HTTP/1.", 7)) return 0;
    c->status = atoi(p + 9);
    while ((p = memmem(p, (size_t)(end - p), "\r\n", 2)) && (p += 2) < end - 2) {
        char *eol = memmem(p, (size_t)(end - p), "\r\n", 2), *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon) continue;
        size_t nlen = (size_t)(colon - p);
        char *value = colon + 1;
        while (value < eol && *value == ' ') value++;
        if (nlen == 14 && !strncasecmp(p, "content-length", 14)) c->content_length = atoll(value);
        if (nlen == 17 && !strncasecmp(p, "transfer-encoding", 17))
            c->chunked = memmem(value, (size_t)(eol - value), "chunked", 7) != NULL;
        if (nlen == 10 && !strncasecmp(p, "set-cookie", 10) && viewer)
            take_cookie(viewer, value, (size_t)(eol - value));
    }
    c->head_len = len;
    c->chunk_at = len;
    return c->status > 0;
}

/* 1 when the whole body came, 0 when more is to come, -1 when a chunk's size line is not one. */
static int body_complete(Conn *c) {
    if (c->content_length >= 0 && !c->chunked) return c->in_len - c->head_len >= (size_t)c->content_length;
    while (c->chunked) {
        char *line = c->in + c->chunk_at, *crlf = memmem(line, c->in_len - c->chunk_at, "\r\n", 2);
        if (!crlf) return c->in_len - c->chunk_at > 64 ? -1 : 0;
        if (!isxdigit((unsigned char)*line)) return -1;     /* then strtoull stops at the line's end */
        unsigned long long size = strtoull(line, NULL, 16);
        if (size > MAX_ANSWER) return -1;
        size_t data = (size_t)(crlf - c->in) + 2;
        if (size == 0) return c->in_len >= data + 2;    /* the last chunk and the blank line after it */
        if (c->in_len < data + size + 2) return 0;
        c->chunk_at = data + size + 2;
    }
    return 0;                                           /* neither: the answer ends with the connection */
}

/* The body of a complete chunked answer, joined in place; its length. */
static size_t unchunk(Conn *c) {
    size_t at = c->head_len, out = c->head_len;
    for (;;) {
        char *crlf = memmem(c->in + at, c->in_len - at, "\r\n", 2);
        unsigned long long size = strtoull(c->in + at, NULL, 16);
        if (!crlf || size == 0) return out - c->head_len;
        at = (size_t)(crlf - c->in) + 2;
        memmove(c->in + out, c->in + at, size);
        out += size; at += size + 2;
    }
}

#endif

/* serve_viewers: many browsers against one HTTP server, in one thread on Linux epoll, for scripts/lib/serve_bench.py
 * (issue 39): the same viewers as serve_http.py's `Viewer`, at a small part of a Python coroutine's CPU, so that on
 * a 2-core machine the client is not most of what it measures. No dependencies; serve_viewers.py compiles it.
 *
 * Usage: serve_viewers HOST PORT HOST_HEADER PAGE_PATH [keep-alive]   (then commands on stdin, answers on stdout)
 *
 * A viewer: a GET of PAGE_PATH without a cookie (its own new session; it keeps every Set-Cookie), then GET /events
 * with its cookies, held open. Every request is on a new connection with `Connection: close` and the headers
 * serve_http.py sends — or, with `keep-alive`, as a browser sends them: a viewer's page GETs (its first and its
 * re-GETs) go over one connection kept open between them (`Connection: keep-alive`; a new one when the server
 * closed it), and a storm's GETs each over a connection opened and used once before the storm is timed (the
 * serve_viewers_kept.h part). Once a round armed the re-GETs, each `event: stale` on a viewer's stream re-GETs
 * PAGE_PATH as the page script does: one fetch at a time, once more when another event came meanwhile. An answer
 * is complete at its Content-Length or its last chunk (or when the connection closes, for one with neither).
 * Times are CLOCK_MONOTONIC in ns, the clock of Python's time.monotonic_ns().
 *
 * Commands on stdin, one a line, and what each answers on stdout:
 *   grow N           viewers join (8 at a time) until N have; answers `grown JOINED [why it stopped early]`.
 *   round K MS NAME  arms round K and answers `armed K`; from then each viewer's first stale event counts and every
 *                    stale event re-GETs the page. The round ends when every joined viewer's re-GET after its stale
 *                    event answered, after MS ms, or on `end K`, with one `v STALE_NS DONE_NS OK` per viewer whose
 *                    stale event came (DONE_NS 0: no answer yet; OK 1: a 200 holding NAME), `bad TEXT` for the first
 *                    bad answer, and `end K STALE DONE BAD` (the counts).
 *   storm N          N GETs of the page at once, each a new session: `s DONE_NS STATUS` for each (status 0: no
 *                    answer), then `stormed T0_NS`.
 *   quit             (or the end of stdin) ends the program.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "serve_viewers_http.h"

static struct sockaddr_storage address; static socklen_t address_len;
static const char *host_header, *page_path;
static int ep;
static Viewer *viewers; static int slots, slot_cap, joined, joining, grow_target, growing;
static char grow_why[300];
static int round_k, round_active, round_stale, round_done, round_bad, reget_on;
static long long round_deadline; static char round_name[512], bad_example[300];
static int storm_left, keep_alive; static long long storm_t0;   /* keep_alive: the 5th argument */
static Conn **storm_kept; static int storm_kept_n, storm_opening, storm_timed;   /* serve_viewers_kept.h's */
static char readbuf[1 << 16], scanbuf[STALE_LEN + (1 << 16)];

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void start_join(void), storm_fire(void);
static void answered(int kind, int viewer, int status, const char *body, size_t len, const char *why);

/* Appends printf-style text to a request; 0 when it no longer fits. */
static int add(char *buf, size_t cap, size_t *len, const char *format, ...) {
    va_list a;
    va_start(a, format);
    int n = vsnprintf(buf + *len, cap - *len, format, a);
    va_end(a);
    if (n < 0 || (size_t)n >= cap - *len) return 0;
    *len += (size_t)n;
    return 1;
}

/* The request serve_http.py's Viewer._request writes for a GET (with the viewer's cookies, if any). */
static int build_request(Conn *c, const char *path, int events) {
    size_t cap = 4096, len = 0;
    int fits;
    if (!(c->request = malloc(cap))) return 0;
    fits = add(c->request, cap, &len, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/html\r\nConnection: %s\r\n%s",
               path, host_header, keep_alive && !events ? "keep-alive" : "close",
               events ? "Accept: text/event-stream\r\n" : "");
    Viewer *v = c->viewer >= 0 ? &viewers[c->viewer] : NULL;
    for (int i = 0, first = 1; v && i < MAX_COOKIES && v->cookie[i][0][0]; i++, first = 0)
        fits = fits && add(c->request, cap, &len, "%s%s=%s", first ? "Cookie: " : "; ", v->cookie[i][0], v->cookie[i][1]);
    if (v && v->cookie[0][0][0]) fits = fits && add(c->request, cap, &len, "\r\n");
    fits = fits && add(c->request, cap, &len, "\r\n");
    c->request_len = len;
    return fits;
}

static void close_conn(Conn *c) {
    close(c->fd);                                       /* which also takes it out of the epoll set */
    free(c->request);
    free(c->in);
    free(c);
}

/* Ends a request that got no complete answer: its owner hears `why` (with the status, when a head came). */
static void fail(Conn *c, const char *why) {
    int kind = c->kind, viewer = c->viewer, status = c->head_len ? c->status : 0;
    close_conn(c);
    answered(kind, viewer, status, "", 0, why);
}

/* Opens a connection for one GET; a failure to start is answered at once. */
static void open_conn(int kind, int viewer, const char *path) {
    Conn *c = calloc(1, sizeof *c);
    if (!c) { answered(kind, viewer, 0, "", 0, "out of memory"); return; }
    c->kind = kind; c->viewer = viewer; c->content_length = -1;
    c->fd = socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0 || !build_request(c, path, kind == JOIN_EVENTS)) {
        const char *why = c->fd < 0 ? strerror(errno) : "the request is too long (cookies)";
        if (c->fd >= 0) close(c->fd);
        free(c->request); free(c);
        answered(kind, viewer, 0, "", 0, why);
        return;
    }
    struct epoll_event e = { .events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c };
    if ((connect(c->fd, (struct sockaddr *)&address, address_len) < 0 && errno != EINPROGRESS) ||
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &e) < 0) {
        const char *why = strerror(errno);
        close(c->fd); free(c->request); free(c);
        answered(kind, viewer, 0, "", 0, why);
    }
}

static void scan_events(Conn *c, const char *data, size_t n);

#include "serve_viewers_kept.h"

/* Reads once what came on a connection: the head, then the body until it is complete (or the stream's events).
 * 1 when there may be more to read now, 0 when not (nothing more came, or the connection is done and freed). */
static int receive(Conn *c) {
    ssize_t n = recv(c->fd, readbuf, sizeof readbuf, 0);
    if (c->kind == IDLE) {                              /* the server closed a kept connection (or said more) */
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return errno == EINTR;
        if (n <= 0) unpark(c);
        return n > 0;
    }
    if ((n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) && c->reused && !c->in_len) {
        int kind = c->kind, viewer = c->viewer;         /* closed by the server as the request went: a new one */
        close_conn(c);
        open_conn(kind, viewer, page_path);
        return 0;
    }
    if (n < 0) {
        if (errno == EINTR) return 1;
        if (errno != EAGAIN) c->kind == EVENTS ? close_conn(c) : fail(c, strerror(errno));
        return 0;
    }
    if (c->kind == EVENTS) {
        if (n == 0) { close_conn(c); return 0; }
        scan_events(c, readbuf, (size_t)n);
        return 1;
    }
    if (n == 0) {
        if (!c->head_len) fail(c, "the connection closed without an answer");
        else if (c->chunked || c->content_length >= 0) fail(c, "the connection closed before the whole answer");
        else { answered(c->kind, c->viewer, c->status, c->in + c->head_len, c->in_len - c->head_len, NULL); close_conn(c); }
        return 0;
    }
    if (c->in_len + (size_t)n > MAX_ANSWER) { fail(c, "an answer over 16 MiB"); return 0; }
    if (c->in_len + (size_t)n > c->in_cap) {
        size_t cap = c->in_cap ? c->in_cap : 65536;
        while (cap < c->in_len + (size_t)n) cap *= 2;
        char *grown = realloc(c->in, cap);
        if (!grown) { fail(c, "out of memory"); return 0; }
        c->in = grown; c->in_cap = cap;
    }
    memcpy(c->in + c->in_len, readbuf, (size_t)n);
    c->in_len += (size_t)n;
    if (!c->head_len) {
        char *blank = memmem(c->in, c->in_len, "\r\n\r\n", 4);
        if (!blank && c->in_len > MAX_HEAD) { fail(c, "a head over 64 KiB"); return 0; }
        if (!blank) return 1;
        if (!parse_head(c, (size_t)(blank - c->in) + 4, c->viewer >= 0 ? &viewers[c->viewer] : NULL)) { fail(c, "a malformed head"); return 0; }
        if (c->kind == JOIN_EVENTS) {
            if (c->status != 200) { fail(c, NULL); return 0; }
            c->kind = EVENTS;
            answered(JOIN_EVENTS, c->viewer, 200, "", 0, NULL);
            size_t rest = c->in_len - c->head_len;
            memmove(readbuf, c->in + c->head_len, rest);
            free(c->in); c->in = NULL; c->in_len = c->in_cap = 0;
            scan_events(c, readbuf, rest);
            return 1;
        }
    }
    int complete = body_complete(c);
    if (complete < 0) { fail(c, "a malformed chunk"); return 0; }
    if (!complete) return 1;
    size_t len = c->chunked ? unchunk(c) : (size_t)c->content_length;
    if (keep_alive && c->kind != JOIN_EVENTS && !c->chunked) return answered_and_parked(c, len);
    answered(c->kind, c->viewer, c->status, c->in + c->head_len, len, NULL);
    close_conn(c);
    return 0;
}

/* A connection is ready (epoll, edge-triggered, `events`): finish connecting, send the request, then read all
 * there is. */
static void on_ready(Conn *c, uint32_t events) {
    if (!c->connected) {
        int err = 0;
        socklen_t len = sizeof err;
        if ((events & (EPOLLERR | EPOLLHUP)) && getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        if (err || (events & (EPOLLERR | EPOLLHUP))) { fail(c, strerror(err ? err : ECONNRESET)); return; }
        if (!(events & EPOLLOUT)) return;
        c->connected = 1;
    }
    if (c->sent < c->request_len) {
        ssize_t n = send(c->fd, c->request + c->sent, c->request_len - c->sent, MSG_NOSIGNAL);
        if (n < 0) { if (errno != EAGAIN && errno != EINTR) fail(c, strerror(errno)); return; }
        c->sent += (size_t)n;
        if (c->sent < c->request_len) return;           /* the rest at the next EPOLLOUT */
        free(c->request);                               /* 4 KiB less for each open stream */
        c->request = NULL;
        if (!(events & EPOLLIN)) return;
    }
    while (receive(c)) {}
}

static void start_reget(int vi) {
    viewers[vi].fetching = 1;
    viewers[vi].again = 0;
    Conn *kept = viewers[vi].idle;
    viewers[vi].idle = NULL;
    if (!reuse(kept, REGET, vi)) open_conn(REGET, vi, page_path);
}

/* An `event: stale` on viewer vi's stream: counted once per round, and a re-GET as the page script's refresh. */
static void stale(int vi) {
    Viewer *v = &viewers[vi];
    if (round_active && v->seen != round_k) { v->seen = round_k; v->stale_ns = now_ns(); v->done = 0; round_stale++; }
    if (!reget_on) return;
    if (v->fetching) v->again = 1; else start_reget(vi);
}

static void scan_events(Conn *c, const char *data, size_t n) {
    size_t len = c->tail_len + n;
    memcpy(scanbuf, c->tail, c->tail_len);
    memcpy(scanbuf + c->tail_len, data, n);
    for (char *p = scanbuf; (p = memmem(p, (size_t)(scanbuf + len - p), STALE, STALE_LEN)); p += STALE_LEN)
        stale(c->viewer);
    c->tail_len = len < STALE_LEN - 1 ? len : STALE_LEN - 1;
    memcpy(c->tail, scanbuf + len - c->tail_len, c->tail_len);
}

static void end_round(void) {
    round_active = 0;
    for (int i = 0; i < slots; i++)
        if (viewers[i].joined && viewers[i].seen == round_k)
            printf("v %lld %lld %d\n", viewers[i].stale_ns, viewers[i].done ? viewers[i].done_ns : 0, viewers[i].ok);
    if (bad_example[0]) printf("bad %s\n", bad_example);
    printf("end %d %d %d %d\n", round_k, round_stale, round_done, round_bad);
    fflush(stdout);
}

static void grow_step(void) {
    while (!grow_why[0] && joining < JOINING_AT_ONCE && joined + joining < grow_target) start_join();
    if (growing && !joining && (grow_why[0] || joined >= grow_target)) {
        printf("grown %d %s\n", joined, grow_why);
        fflush(stdout);
        growing = 0;
    }
}

/* One request's end, complete (`why` NULL) or not. */
static void answered(int kind, int vi, int status, const char *body, size_t len, const char *why) {
    long long t = now_ns();
    if (kind == STORM && keep_alive && !storm_timed) {  /* a kept connection's first GET: not timed */
        if (why || status != 200) { printf("s %lld %d\n", t, 0); }
        if (--storm_opening == 0) storm_fire();
    } else if (kind == STORM) {
        printf("s %lld %d\n", t, why ? 0 : status);
        if (--storm_left == 0) {
            printf("stormed %lld\n", storm_t0); fflush(stdout);
            for (int i = 0; keep_alive && i < storm_kept_n; i++) if (storm_kept[i]) unpark(storm_kept[i]);
            free(storm_kept); storm_kept = NULL; storm_kept_n = 0; storm_timed = 0;
        }
    } else if (kind == REGET) {
        Viewer *v = &viewers[vi];
        if (round_active && v->seen == round_k && !v->done) {
            v->done = 1; v->done_ns = t;
            v->ok = !why && status == 200 && memmem(body, len, round_name, strlen(round_name));
            if (!v->ok && !bad_example[0])
                snprintf(bad_example, sizeof bad_example, "%d: %s", status, why ? why : status == 200 ?
                         "without the new name" : "an error answer");
            round_done++; round_bad += !v->ok;
        }
        if (v->again) start_reget(vi); else v->fetching = 0;
        if (round_active && round_done >= joined) end_round();
    } else if (why || status != 200) {                  /* a join that failed */
        if (!grow_why[0] && why)
            snprintf(grow_why, sizeof grow_why, "a new one failed: %s", why);
        else if (!grow_why[0])
            snprintf(grow_why, sizeof grow_why, "a new one's %s answered %d", kind == JOIN_PAGE ? page_path : "/events",
                     status);
        joining--;
        grow_step();
    } else if (kind == JOIN_PAGE) {
        open_conn(JOIN_EVENTS, vi, "/events");
    } else {
        viewers[vi].joined = 1; joined++; joining--;
        grow_step();
    }
}

static void start_join(void) {
    if (slots == slot_cap) {
        int cap = slot_cap ? slot_cap * 2 : 1024;
        Viewer *grown = realloc(viewers, (size_t)cap * sizeof *grown);
        if (!grown) { snprintf(grow_why, sizeof grow_why, "out of memory"); return; }
        viewers = grown; slot_cap = cap;
    }
    memset(&viewers[slots], 0, sizeof *viewers);
    viewers[slots].seen = -1;
    joining++;
    open_conn(JOIN_PAGE, slots++, page_path);
}

/* One line of stdin; 0 to quit. */
static int command(char *line) {
    int n = 0, k = 0, ms = 0, at = 0;
    if (sscanf(line, "grow %d", &n) == 1) {
        grow_target = n; growing = 1; grow_why[0] = 0;
        grow_step();
    } else if (sscanf(line, "round %d %d %n", &k, &ms, &at) == 2 && at > 0) {
        snprintf(round_name, sizeof round_name, "%s", line + at);
        round_k = k; round_active = reget_on = 1; round_stale = round_done = round_bad = 0; bad_example[0] = 0;
        round_deadline = now_ns() + ms * 1000000LL;
        printf("armed %d\n", k);
        fflush(stdout);
        if (!joined) end_round();
    } else if (sscanf(line, "end %d", &k) == 1) {
        if (round_active && k == round_k) end_round();
    } else if (sscanf(line, "storm %d", &n) == 1 && n > 0) {
        storm_left = n; storm_t0 = now_ns();
        if (keep_alive) storm_keeping(n);
        for (int i = 0; i < n; i++) open_conn(STORM, -1, page_path);
    } else if (!strcmp(line, "quit")) {
        return 0;
    } else {
        fprintf(stderr, "serve_viewers: an unknown command: %s\n", line);
    }
    return 1;
}

/* Reads what stdin has; 0 at its end or on `quit`. */
static int read_commands(void) {
    static char buf[4096];
    static size_t len;
    ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
    if (n <= 0) return n < 0 && errno == EINTR;
    len += (size_t)n;
    char *eol;
    while ((eol = memchr(buf, '\n', len))) {
        *eol = 0;
        if (!command(buf)) return 0;
        len -= (size_t)(eol + 1 - buf);
        memmove(buf, eol + 1, len);
    }
    if (len == sizeof buf - 1) len = 0;                 /* a line too long for a command: dropped */
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "keep-alive"))) {
        fprintf(stderr, "usage: serve_viewers HOST PORT HOST_HEADER PAGE_PATH [keep-alive]\n"); return 2;
    }
    keep_alive = argc == 6;
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *found;
    if (getaddrinfo(argv[1], argv[2], &hints, &found)) { fprintf(stderr, "serve_viewers: no address for %s\n", argv[1]); return 2; }
    memcpy(&address, found->ai_addr, found->ai_addrlen);
    address_len = found->ai_addrlen;
    freeaddrinfo(found);
    host_header = argv[3]; page_path = argv[4];
    struct rlimit files;
    if (!getrlimit(RLIMIT_NOFILE, &files)) { files.rlim_cur = files.rlim_max; setrlimit(RLIMIT_NOFILE, &files); }
    signal(SIGPIPE, SIG_IGN);
    ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL }, ready[256];
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, 0, &e) < 0) { perror("serve_viewers: epoll"); return 2; }
    for (;;) {
        long long wait = round_active ? (round_deadline - now_ns()) / 1000000 : -1;
        int n = epoll_wait(ep, ready, 256, round_active ? (wait > 0 ? (int)wait : 0) : -1);
        if (n < 0 && errno != EINTR) { perror("serve_viewers: epoll_wait"); return 2; }
        for (int i = 0; i < n; i++) {
            if (!ready[i].data.ptr) { if (!read_commands()) return 0; } else on_ready(ready[i].data.ptr, ready[i].events);
        }
        if (round_active && now_ns() >= round_deadline) end_round();
    }
}

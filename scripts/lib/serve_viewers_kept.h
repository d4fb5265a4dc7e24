/* serve_viewers_kept.h: serve_viewers.c's kept connections (`keep-alive`) — a page connection parked between its
 * owner's GETs, forgotten when the server closes it, used again for the next GET, and a storm's GETs sent at once
 * over connections opened before it. Included once, by serve_viewers.c, where its state and the connection
 * functions are declared (one file to compile). */
#ifndef SERVE_VIEWERS_KEPT_H
#define SERVE_VIEWERS_KEPT_H

/* With `keep-alive`: a page connection whose answer is complete waits for its owner's next GET (a storm's, in the
 * storm's list). Its state is that of a connection whose request was not sent yet. */
static void park(Conn *c) {
    char probe;
    ssize_t n = recv(c->fd, &probe, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) { close_conn(c); return; }  /* closed with it */
    c->kind = IDLE; c->reused = 0;
    c->in_len = 0; c->head_len = 0; c->chunk_at = 0; c->status = 0; c->chunked = 0; c->content_length = -1;
    free(c->request); c->request = NULL; c->request_len = c->sent = 0;
    if (c->viewer >= 0) viewers[c->viewer].idle = c;
    else if (storm_kept) storm_kept[storm_kept_n++] = c;
}

/* A complete page answer on a connection to keep: the connection parked, then the answer handed on (a copy: the
 * next GET may already use the connection's buffer). 0, as `receive` returns when it is done with a connection. */
static int answered_and_parked(Conn *c, size_t len) {
    int kind = c->kind, viewer = c->viewer, status = c->status;
    char *body = malloc(len + 1);
    if (body) memcpy(body, c->in + c->head_len, len);
    park(c);
    answered(kind, viewer, status, body ? body : "", body ? len : 0, body ? NULL : "out of memory");
    free(body);
    return 0;
}

/* A storm of n begins: each of its connections' first GET is not timed, and the connection is kept for the next. */
static void storm_keeping(int n) {
    storm_kept = calloc((size_t)n + 1, sizeof *storm_kept);
    storm_kept_n = 0; storm_opening = n; storm_timed = 0;
}

/* A kept connection the server closed: forgotten. */
static void unpark(Conn *c) {
    if (c->viewer >= 0 && viewers[c->viewer].idle == c) viewers[c->viewer].idle = NULL;
    if (c->viewer < 0) for (int i = 0; i < storm_kept_n; i++) if (storm_kept[i] == c) storm_kept[i] = NULL;
    close_conn(c);
}

static void on_ready(Conn *c, uint32_t events);

/* A GET over a kept connection (1), or 0 when there is none (or its request could not be made). */
static int reuse(Conn *c, int kind, int viewer) {
    if (!c) return 0;
    c->kind = kind; c->viewer = viewer; c->reused = 1;
    if (!build_request(c, page_path, 0)) { close_conn(c); return 0; }
    on_ready(c, EPOLLOUT);                              /* sends now; the answer comes as EPOLLIN */
    return 1;
}

/* With `keep-alive`: every storm connection has had its first GET; the timed GETs go out at once on them. */
static void storm_fire(void) {
    Conn **kept = storm_kept;
    int n = storm_kept_n;
    storm_kept = calloc((size_t)storm_left + 1, sizeof *storm_kept); storm_kept_n = 0;
    storm_timed = 1; storm_t0 = now_ns();
    for (int i = 0; i < n; i++) if (!reuse(kept[i], STORM, -1)) open_conn(STORM, -1, page_path);
    for (int i = n; i < storm_left; i++) open_conn(STORM, -1, page_path);  /* a first GET that failed */
    free(kept);
}

#endif

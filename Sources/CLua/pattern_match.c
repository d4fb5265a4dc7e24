#define _GNU_SOURCE
#include "CLua.h"
#include "pattern_class.h"
#include <ctype.h>
#include <string.h>

/* Lua 5.4's pattern matcher (the algorithm of lstrlib's match, written anew) with a real step budget: every item
 * tried, every character an expansion or %b reads, counts one step. A field's `pattern` rule runs here, so it
 * answers exactly (no upper bound computed beforehand refuses a valid value) and its work is still bounded.
 * Also the plain find (`string.find(s, text, init, true)`) of the guarded string library: linear (memmem). */

#define OKIT_MAXCAPTURES 32
#define OKIT_CAP_UNFINISHED (-1)
#define OKIT_CAP_POSITION (-2)
#define OKIT_MAXCCALLS 200

typedef struct {
    const unsigned char *src_init, *src_end, *p_end;
    int level, depth;
    struct { const unsigned char *init; ptrdiff_t len; } capture[OKIT_MAXCAPTURES];
    long long steps;
    int status;          /* 0, or OKIT_MATCH_MALFORMED, or OKIT_MATCH_BUDGET */
    const char *problem; /* the malformed pattern's Lua message */
} okit_ms;

static int okit_fail(okit_ms *ms, int status, const char *problem) {
    if (ms->status == 0) { ms->status = status; ms->problem = problem; }
    return 0;
}

/* Just past the single-character class at p; NULL (and the status) when the pattern is malformed there. */
static const unsigned char *okit_mclass_end(okit_ms *ms, const unsigned char *p) {
    switch (*p++) {
        case '%':
            if (p >= ms->p_end) { okit_fail(ms, OKIT_MATCH_MALFORMED, "malformed pattern (ends with '%')"); return NULL; }
            return p + 1;
        case '[':
            if (p < ms->p_end && *p == '^') p++;
            do {
                if (p >= ms->p_end) { okit_fail(ms, OKIT_MATCH_MALFORMED, "malformed pattern (missing ']')"); return NULL; }
                if (*(p++) == '%' && p < ms->p_end) p++;
            } while (p >= ms->p_end || *p != ']');
            return p + 1;
        default:
            return p;
    }
}

static int okit_msingle(okit_ms *ms, const unsigned char *s, const unsigned char *p, const unsigned char *ep) {
    if (s >= ms->src_end) return 0;
    switch (*p) {
        case '.': return 1;
        case '%': return okit_class_match(*s, p[1]);
        case '[': return okit_set_match(*s, p, ep - 1);
        default: return *p == *s;
    }
}

static int okit_step(okit_ms *ms) {
    if (--ms->steps >= 0) return 1;
    return okit_fail(ms, OKIT_MATCH_BUDGET, NULL);
}

static const unsigned char *okit_match(okit_ms *ms, const unsigned char *s, const unsigned char *p);

static const unsigned char *okit_max_expand(okit_ms *ms, const unsigned char *s, const unsigned char *p,
                                            const unsigned char *ep) {
    ptrdiff_t i = 0;
    while (okit_msingle(ms, s + i, p, ep)) {
        if (!okit_step(ms)) return NULL;
        i++;
    }
    while (i >= 0) {
        const unsigned char *res = okit_match(ms, s + i, ep + 1);
        if (res != NULL || ms->status != 0) return res;
        i--;
    }
    return NULL;
}

static const unsigned char *okit_min_expand(okit_ms *ms, const unsigned char *s, const unsigned char *p,
                                            const unsigned char *ep) {
    for (;;) {
        const unsigned char *res = okit_match(ms, s, ep + 1);
        if (res != NULL || ms->status != 0) return res;
        if (!okit_msingle(ms, s, p, ep) || !okit_step(ms)) return NULL;
        s++;
    }
}

static const unsigned char *okit_start_capture(okit_ms *ms, const unsigned char *s, const unsigned char *p, ptrdiff_t what) {
    if (ms->level >= OKIT_MAXCAPTURES) { okit_fail(ms, OKIT_MATCH_MALFORMED, "too many captures"); return NULL; }
    ms->capture[ms->level].init = s;
    ms->capture[ms->level].len = what;
    ms->level++;
    const unsigned char *res = okit_match(ms, s, p);
    if (res == NULL) ms->level--;
    return res;
}

static const unsigned char *okit_end_capture(okit_ms *ms, const unsigned char *s, const unsigned char *p) {
    int l = -1;
    for (int k = ms->level - 1; k >= 0; k--) if (ms->capture[k].len == OKIT_CAP_UNFINISHED) { l = k; break; }
    if (l < 0) { okit_fail(ms, OKIT_MATCH_MALFORMED, "invalid pattern capture"); return NULL; }
    ms->capture[l].len = s - ms->capture[l].init;
    const unsigned char *res = okit_match(ms, s, p);
    if (res == NULL) ms->capture[l].len = OKIT_CAP_UNFINISHED;
    return res;
}

static const unsigned char *okit_match_capture(okit_ms *ms, const unsigned char *s, int l) {
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == OKIT_CAP_UNFINISHED) {
        okit_fail(ms, OKIT_MATCH_MALFORMED, "invalid capture index");
        return NULL;
    }
    ptrdiff_t len = ms->capture[l].len;
    if (len < 0 || ms->src_end - s < len) return NULL;   /* a position capture matches nothing */
    ms->steps -= len / 8;
    if (!okit_step(ms)) return NULL;
    return memcmp(ms->capture[l].init, s, (size_t)len) == 0 ? s + len : NULL;
}

static const unsigned char *okit_match_balance(okit_ms *ms, const unsigned char *s, const unsigned char *p) {
    if (p + 1 >= ms->p_end) { okit_fail(ms, OKIT_MATCH_MALFORMED, "malformed pattern (missing arguments to '%b')"); return NULL; }
    if (s >= ms->src_end || *s != *p) return NULL;
    int b = *p, e = p[1], cont = 1;
    while (++s < ms->src_end) {
        if (!okit_step(ms)) return NULL;
        if (*s == e) { if (--cont == 0) return s + 1; }
        else if (*s == b) cont++;
    }
    return NULL;
}

/* The '%' items that are no single-character class: %b, %f and back-references. *handled is 0 for a class. */
static const unsigned char *okit_match_escape(okit_ms *ms, const unsigned char *s, const unsigned char **p, int *handled) {
    const unsigned char *q = *p;
    *handled = 1;
    if (q[1] == 'b') {
        s = okit_match_balance(ms, s, q + 2);
        *p = q + 4;
        return s;
    }
    if (q[1] == 'f') {
        q += 2;
        if (q >= ms->p_end || *q != '[') { okit_fail(ms, OKIT_MATCH_MALFORMED, "missing '[' after '%f' in pattern"); return NULL; }
        const unsigned char *ep = okit_mclass_end(ms, q);
        if (ep == NULL) return NULL;
        int previous = (s == ms->src_init) ? 0 : s[-1];
        int current = s < ms->src_end ? *s : 0;
        *p = ep;
        return (!okit_set_match(previous, q, ep - 1) && okit_set_match(current, q, ep - 1)) ? s : NULL;
    }
    if (isdigit(q[1])) {
        s = okit_match_capture(ms, s, q[1]);
        *p = q + 2;
        return s;
    }
    *handled = 0;
    return s;
}

static const unsigned char *okit_match(okit_ms *ms, const unsigned char *s, const unsigned char *p) {
    if (ms->depth-- == 0) { okit_fail(ms, OKIT_MATCH_MALFORMED, "pattern too complex"); return NULL; }
    for (;;) {
        if (!okit_step(ms)) { s = NULL; break; }
        if (p >= ms->p_end) break;
        if (*p == '(') {
            s = (p + 1 < ms->p_end && p[1] == ')') ? okit_start_capture(ms, s, p + 2, OKIT_CAP_POSITION)
                                                   : okit_start_capture(ms, s, p + 1, OKIT_CAP_UNFINISHED);
            break;
        }
        if (*p == ')') { s = okit_end_capture(ms, s, p + 1); break; }
        if (*p == '$' && p + 1 == ms->p_end) { if (s != ms->src_end) s = NULL; break; }
        if (*p == '%' && p + 1 < ms->p_end) {
            int handled;
            const unsigned char *next = okit_match_escape(ms, s, &p, &handled);
            if (handled) {
                if (next == NULL) { s = NULL; break; }
                s = next;
                continue;
            }
        }
        const unsigned char *ep = okit_mclass_end(ms, p);
        if (ep == NULL) { s = NULL; break; }
        int q = ep < ms->p_end ? *ep : 0;
        if (!okit_msingle(ms, s, p, ep)) {
            if (q == '*' || q == '?' || q == '-') { p = ep + 1; continue; }
            s = NULL;
            break;
        }
        if (q == '?') {
            const unsigned char *res = okit_match(ms, s + 1, ep + 1);
            if (res != NULL || ms->status != 0) { s = res; break; }
            p = ep + 1;
            continue;
        }
        if (q == '+') { s = okit_max_expand(ms, s + 1, p, ep); break; }
        if (q == '*') { s = okit_max_expand(ms, s, p, ep); break; }
        if (q == '-') { s = okit_min_expand(ms, s, p, ep); break; }
        s++;
        p = ep;
    }
    ms->depth++;
    return ms->status != 0 ? NULL : s;
}

int okit_pattern_find_bounded(const char *subject, size_t n, const char *pattern, size_t lp, long long *steps,
                              const char **problem) {
    okit_ms ms;
    const unsigned char *p = (const unsigned char *)pattern, *s1 = (const unsigned char *)subject;
    int anchor = lp > 0 && p[0] == '^';
    if (anchor) { p++; lp--; }
    ms.src_init = s1;
    ms.src_end = s1 + n;
    ms.p_end = p + lp;
    ms.steps = *steps;
    ms.status = 0;
    ms.problem = NULL;
    int found = 0;
    do {
        ms.level = 0;
        ms.depth = OKIT_MAXCCALLS;
        if (okit_match(&ms, s1, p) != NULL) { found = 1; break; }
        if (ms.status != 0) break;
    } while (s1++ < ms.src_end && !anchor);
    *steps = ms.steps < 0 ? 0 : ms.steps;
    if (problem != NULL) *problem = ms.problem;
    return ms.status != 0 ? ms.status : found;
}

int okit_plain_find(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    lua_Integer init = luaL_optinteger(L, 3, 1);
    size_t start;
    if (init > 0) start = (size_t)init;
    else if (init == 0 || init < -(lua_Integer)ls) start = 1;
    else start = ls + (size_t)init + 1;
    start -= 1;
    if (start > ls) { luaL_pushfail(L); return 1; }
    const char *found = lp == 0 ? s + start : (lp > ls - start ? NULL : memmem(s + start, ls - start, p, lp));
    if (found == NULL) { luaL_pushfail(L); return 1; }
    lua_pushinteger(L, (lua_Integer)(found - s) + 1);
    lua_pushinteger(L, (lua_Integer)(found - s) + (lua_Integer)lp);
    return 2;
}

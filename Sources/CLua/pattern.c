#include "CLua.h"
#include "pattern_class.h"
#include <ctype.h>

/* An upper bound of the work of Lua's pattern matcher (lstrlib's match) on a subject, computed before it runs:
 * the matcher has no hook and backtracks, so `("a"):rep(5000):match(("a*"):rep(30).."b")` would run for ages
 * where the budget cannot stop it. The guarded find/match/gmatch/gsub refuse a call whose bound is over the
 * limit (lua-api.md "Sandbox and limits").
 *
 * The bound: the matcher is a tree of match() calls. A single-character item with `*`, `+` or `-` has at most
 * r + 1 children, r the longest run of subject characters its class matches (it can never expand further); `?`
 * has 2; everything else 1. A node costs O(1) but a `*`/`+` node (its run count, at most its children) and a
 * `%b`/back-reference node (at most the subject length). So one start costs at most
 * branches * (2 * pattern length + n * (number of %b and back-references)), and an unanchored call tries at most
 * n + 1 starts (gmatch and gsub never retry a position). Everything is counted in doubles: no overflow. */

/* Index just past the single-character class starting at i, or -1 when the pattern is malformed there. */
static long okit_class_end(const unsigned char *p, long i, long lp) {
    unsigned char c = p[i++];
    if (c == '%') return i < lp ? i + 1 : -1;
    if (c == '[') {
        if (i < lp && p[i] == '^') i++;
        do {
            if (i >= lp) return -1;
            if (p[i++] == '%' && i < lp) i++;
        } while (i >= lp || p[i] != ']');
        return i + 1;
    }
    return i;
}

static int okit_single(int c, const unsigned char *p, const unsigned char *ep) {
    switch (*p) {
        case '.': return 1;
        case '%': return okit_class_match(c, p[1]);
        case '[': return okit_set_match(c, p, ep - 1);
        default: return *p == c;
    }
}

double okit_pattern_cost(const char *subject, size_t n, const char *pattern, size_t lp, int anchor_allowed, double limit) {
    const unsigned char *s = (const unsigned char *)subject, *p = (const unsigned char *)pattern;
    long i = 0, len = (long)lp;
    double branches = 1, scans = 0, heavy = 0, starts = (double)n + 1;
    if (anchor_allowed && len > 0 && p[0] == '^') { starts = 1; i = 1; }
    while (i < len) {
        unsigned char c = p[i];
        if (c == '(' || c == ')') { i++; continue; }
        if (c == '$' && i + 1 == len) break;
        if (c == '%' && i + 1 < len) {
            unsigned char d = p[i + 1];
            if (d == 'b') { heavy++; i += 4; continue; }
            if (isdigit(d)) { heavy++; i += 2; continue; }
            if (d == 'f') {
                i += 2;
                if (i >= len || p[i] != '[') break;   /* malformed: the matcher stops here with an error */
                long e = okit_class_end(p, i, len);
                if (e < 0) break;
                i = e;
                continue;
            }
        }
        long ep = okit_class_end(p, i, len);
        if (ep < 0) break;
        unsigned char q = ep < len ? p[ep] : 0;
        if (q == '*' || q == '+' || q == '-') {
            size_t run = 0, best = 0;
            if (scans > 4.0e7) {
                best = n;   /* enough scanning: assume the class matches everything */
            } else {
                for (size_t k = 0; k < n; k++) {
                    if (okit_single(s[k], p + i, p + ep)) { if (++run > best) best = run; } else run = 0;
                }
                scans += (double)n;
            }
            branches *= (double)best + 1;
            i = ep + 1;
        } else if (q == '?') {
            branches *= 2;
            i = ep + 1;
        } else {
            i = ep;
        }
        if (branches * starts > limit) return branches * starts;
    }
    return starts * branches * (2.0 * (double)lp + 2.0 + (double)n * heavy);
}

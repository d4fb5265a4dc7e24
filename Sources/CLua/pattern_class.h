#ifndef OKIT_PATTERN_CLASS_H
#define OKIT_PATTERN_CLASS_H
#include <ctype.h>

/* Lua 5.4's character classes and sets (lstrlib's match_class and matchbracketclass), shared by the pattern-cost
 * bound (pattern.c) and the budgeted matcher (pattern_match.c). */

static inline int okit_class_match(int c, int cl) {
    int res;
    switch (tolower(cl)) {
        case 'a': res = isalpha(c); break;
        case 'c': res = iscntrl(c); break;
        case 'd': res = isdigit(c); break;
        case 'g': res = isgraph(c); break;
        case 'l': res = islower(c); break;
        case 'p': res = ispunct(c); break;
        case 's': res = isspace(c); break;
        case 'u': res = isupper(c); break;
        case 'w': res = isalnum(c); break;
        case 'x': res = isxdigit(c); break;
        case 'z': res = (c == 0); break;   /* deprecated, still Lua 5.4's */
        default: return cl == c;
    }
    if (isupper(cl)) res = !res;
    return res;
}

/* p at '[', ec at the closing ']'. */
static inline int okit_set_match(int c, const unsigned char *p, const unsigned char *ec) {
    int sig = 1;
    if (p[1] == '^') { sig = 0; p++; }
    while (++p < ec) {
        if (*p == '%') {
            p++;
            if (p < ec && okit_class_match(c, *p)) return sig;
        } else if (p[1] == '-' && p + 2 < ec) {
            p += 2;
            if (p[-2] <= c && c <= *p) return sig;
        } else if (*p == c) {
            return sig;
        }
    }
    return !sig;
}

#endif

#include "CLineEdit.h"
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* Whether the character type of the current locale is UTF-8. */
static int ctype_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int okit_terminal_utf8(void) {
    /* The environment's locale first (LANG=de_DE.UTF-8 keeps its own character classes), only LC_CTYPE: numbers
       and messages stay C. A person's terminal sends UTF-8 whatever LANG says, so a locale that is not UTF-8
       (unset, C, POSIX, one that is not installed) gives way to C.UTF-8, else to en_US.UTF-8. */
    if (setlocale(LC_CTYPE, "") && ctype_is_utf8()) return 1;
    static const char *const fallbacks[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8" };
    for (size_t i = 0; i < sizeof fallbacks / sizeof fallbacks[0]; i++) {
        if (setlocale(LC_CTYPE, fallbacks[i]) && ctype_is_utf8()) return 1;
    }
    setlocale(LC_CTYPE, "C");
    return 0;
}

char *okit_readline(const char *prompt) {
    /* libedit reads the character type when it starts (on the first call): without a UTF-8 one it drops every
       byte of a non-ASCII character typed. The shell calls this from one thread only. */
    static int ready = 0;
    if (!ready) {
        okit_terminal_utf8();
        ready = 1;
    }
    return readline(prompt);
}

void okit_add_history(const char *line) { if (line && *line) add_history(line); }

#include "CLineEdit.h"
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

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

/* The shell's hooks (okit_readline_hooks). */
static long (*hook_due_in)(void);
static void (*hook_run_due)(void);
static int (*hook_stopping)(void);
static int output_to_stderr;

/* The signals the line editor answers itself. libedit's own handling (rl_catch_signals) is off: it re-arms its
   handlers only inside its own read of a key, which the wait below replaces. A handler only records the signal (or,
   for SIGTSTP, gives the terminal back and stops); the wait acts on it. */
static volatile sig_atomic_t resized, continued, in_line;
/* The terminal's modes before the line editor took it (given back while the process is stopped). */
static struct termios modes_before;
static volatile sig_atomic_t have_modes_before;

static void install(int sig, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;       /* elsewhere (a password asked, a command running) a read goes on */
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, NULL);
}

static void on_winch(int sig) { (void)sig; resized = 1; }

/* Ctrl-Z (libedit sends SIGTSTP for it) or a SIGTSTP from outside: the terminal's own modes back, stop; when
   continued (fg), the editing modes again and the line drawn anew. Only async-signal-safe calls. */
static void on_tstp(int sig) {
    int saved_errno = errno;
    struct termios editing;
    int restore = in_line && have_modes_before && tcgetattr(STDIN_FILENO, &editing) == 0;
    if (restore) tcsetattr(STDIN_FILENO, TCSADRAIN, &modes_before);
    install(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(0, sig);                       /* stops here until SIGCONT */
    install(sig, on_tstp);
    if (restore) tcsetattr(STDIN_FILENO, TCSADRAIN, &editing);
    if (in_line) continued = 1;
    errno = saved_errno;
}

/* One character from `fd` (a UTF-8 sequence decoded as libedit's own reader does); -2 when a signal interrupted
   the read, -1 at the end of input or on an error (a terminal that is gone answers EIO). */
static int read_character(int fd) {
    char bytes[MB_LEN_MAX];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(fd, bytes + n, 1);
        if (r < 0) return errno == EINTR && n == 0 ? -2 : -1;
        if (r == 0) return -1;
        n++;
        if ((unsigned char)bytes[0] < 0x80) return (unsigned char)bytes[0];
        mbstate_t state;
        memset(&state, 0, sizeof state);
        wchar_t wc;
        size_t used = mbrtowc(&wc, bytes, n, &state);
        if (used == (size_t)-2 && n < sizeof bytes) continue;           /* more bytes of this character */
        if (used == (size_t)-1 && n > 1) {
            /* A byte that cannot continue the character begun: the bytes before it are dropped, as libedit does,
               and it starts the next one. A lone lead byte is left when a key arrives before the line editor has
               the terminal and the terminal's own erase takes one byte of "ë": the quote typed after it was
               dropped with it (add "Zoë" arrived as add "Zoë, an unclosed quote). */
            bytes[0] = bytes[n - 1];
            n = 1;
            if ((unsigned char)bytes[0] < 0x80) return (unsigned char)bytes[0];
            continue;
        }
        if (used == (size_t)-1 || used == (size_t)-2) {                 /* not a character: dropped, as libedit does */
            n = 0;
            continue;
        }
        return (int)wc;
    }
}

/* libedit's reader of a key (rl_getc_function): waits for a key or for the next timer, whichever comes first;
   ends the line as at the end of input when a stop signal came. */
static int wait_for_key(FILE *stream) {
    int fd = fileno(stream);
    for (;;) {
        if (hook_stopping && hook_stopping()) return -1;
        if (resized) { resized = 0; rl_resize_terminal(); }
        if (continued) { continued = 0; rl_forced_update_display(); }
        long ms = hook_due_in ? hook_due_in() : -1;
        struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
        int ready = poll(&p, 1, ms < 0 ? -1 : ms > INT_MAX ? INT_MAX : (int)ms);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (ready == 0) {
            if (hook_run_due) hook_run_due();
            continue;
        }
        int c = read_character(fd);
        if (c == -2) continue;
        return c;
    }
}

void okit_readline_hooks(long (*due_in)(void), void (*run_due)(void), int (*stopping)(void)) {
    hook_due_in = due_in;
    hook_run_due = run_due;
    hook_stopping = stopping;
}

void okit_readline_output(int to_stderr) { output_to_stderr = to_stderr; }

char *okit_readline(const char *prompt) {
    /* libedit reads the character type when it starts (on the first call): without a UTF-8 one it drops every
       byte of a non-ASCII character typed. The shell calls this from one thread only. */
    static int ready = 0;
    if (!ready) {
        okit_terminal_utf8();
        if (output_to_stderr) rl_outstream = stderr;
        rl_catch_signals = 0;
        rl_getc_function = wait_for_key;
        install(SIGWINCH, on_winch);
        install(SIGTSTP, on_tstp);
        ready = 1;
    }
    have_modes_before = tcgetattr(STDIN_FILENO, &modes_before) == 0;
    continued = 0;
    in_line = 1;
    char *line = readline(prompt);
    in_line = 0;
    return line;
}

void okit_readline_print(const char *text) {
    FILE *out = rl_outstream ? rl_outstream : stdout;
    fflush(stdout);
    fputs("\n", out);
    fflush(out);
    fputs(text, stdout);
    fflush(stdout);
    rl_forced_update_display();
}

void okit_add_history(const char *line) { if (line && *line) add_history(line); }

int okit_input_waiting(int discard) {
    struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
    int waiting = poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
    if (waiting && discard) tcflush(STDIN_FILENO, TCIFLUSH);
    return waiting;
}

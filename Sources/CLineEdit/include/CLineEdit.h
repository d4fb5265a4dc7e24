#ifndef OKIT_CLINEEDIT_H
#define OKIT_CLINEEDIT_H
/* Line editing and history for the terminal shell: libedit from Debian's libedit-dev. */
#include <stdio.h>
#include <editline/readline.h>

/* Makes the character type (LC_CTYPE only) UTF-8: the environment's locale when it is a UTF-8 one, else C.UTF-8
   (or en_US.UTF-8). Returns 1 when the character type is UTF-8 afterwards, 0 when no UTF-8 locale exists.
   okit_readline calls it before its first line. */
int okit_terminal_utf8(void);

/* What the shell does while the line editor waits for a key. `due_in` gives the milliseconds until the next timer
   falls due (-1: none); `run_due` runs the timers that fell due (what it prints goes through okit_readline_print);
   `stopping` tells whether a stop signal came (SIGINT, SIGTERM, SIGHUP): the line then ends as at the end of input.
   Set them before the first okit_readline. */
void okit_readline_hooks(long (*due_in)(void), void (*run_due)(void), int (*stopping)(void));
/* Where the prompt and the line being typed are drawn: stdout, or stderr when stdout is not a terminal (the screens
   go to the file, the person still sees what they type). Call before the first okit_readline. */
void okit_readline_output(int to_stderr);
/* Reads a line with editing and history, UTF-8 whatever the environment's locale; NULL at the end of input, when
   the terminal is gone, or when a stop signal came. The caller frees the result. */
char *okit_readline(const char *prompt);
/* Prints `text` (lines, each ending in a line end) on stdout while a line is being typed: below the line, then the
   prompt and what was typed so far are drawn again under it. */
void okit_readline_print(const char *text);
/* Adds a line to the history. */
void okit_add_history(const char *line);
/* Whether input is already waiting on stdin (the rest of a paste); discards it when `discard` is 1. */
int okit_input_waiting(int discard);
#endif

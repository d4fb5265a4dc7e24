#ifndef OKIT_CLINEEDIT_H
#define OKIT_CLINEEDIT_H
/* Line editing and history for the terminal shell: libedit from Debian's libedit-dev. */
#include <stdio.h>
#include <editline/readline.h>

/* Makes the character type (LC_CTYPE only) UTF-8: the environment's locale when it is a UTF-8 one, else C.UTF-8
   (or en_US.UTF-8). Returns 1 when the character type is UTF-8 afterwards, 0 when no UTF-8 locale exists.
   okit_readline calls it before its first line. */
int okit_terminal_utf8(void);
/* Reads a line with editing and history, UTF-8 whatever the environment's locale; NULL at end of input. The
   caller frees the result. */
char *okit_readline(const char *prompt);
/* Adds a line to the history. */
void okit_add_history(const char *line);
#endif

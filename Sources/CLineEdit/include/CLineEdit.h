#ifndef OKIT_CLINEEDIT_H
#define OKIT_CLINEEDIT_H
/* Line editing and history for the terminal shell: libedit from Debian's libedit-dev. */
#include <stdio.h>
#include <editline/readline.h>

/* Reads a line with editing and history; NULL at end of input. The caller frees the result. */
char *okit_readline(const char *prompt);
/* Adds a line to the history. */
void okit_add_history(const char *line);
#endif

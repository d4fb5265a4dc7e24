#include "CLineEdit.h"
#include <stdlib.h>

char *okit_readline(const char *prompt) { return readline(prompt); }
void okit_add_history(const char *line) { if (line && *line) add_history(line); }

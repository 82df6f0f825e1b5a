/* term.c - see term.h. */
#include "base/term.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mg_term_progress(void)
{
    const char *t = getenv("TERM");
    return isatty(STDERR_FILENO) && t && *t && strcmp(t, "dumb") != 0;
}

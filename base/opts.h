/*
 * opts.h - command-line options for every mgsim and mgprobe command: GNU
 * getopt_long with permutation (options before or after the operands;
 * `--` ends the options), its own messages with "did you mean" for a
 * mistyped long option.  A command's table of options is its
 * `struct option` array; a hidden alias (an old spelling kept for scripts)
 * is one more row there, left out of the --help text.
 */
#ifndef MG_OPTS_H
#define MG_OPTS_H

#include <getopt.h>

/* Who is parsing, for messages: prog "mgsim", cmd "run" or "config check". */
typedef struct mg_opts {
    const char *prog, *cmd;
    const char *shorts;               /* getopt's short options, e.g. "o:h" */
    const struct option *longs;       /* {NULL} ends it */
    char spec[64];                    /* ":" + shorts, built by mg_opts_start */
} mg_opts;

/* Begin parsing a new argv (argv[0] is the command's own name): resets
 * getopt's state.  shorts must hold fewer than 62 characters; a leading
 * '+' (stop at the first operand) is dropped. */
void mg_opts_start(mg_opts *p, const char *prog, const char *cmd, const char *shorts,
                   const struct option *longs);

/* The next option's value (its short letter or its `val`), with optarg set
 * as getopt_long sets it; -1 after the last option, when optind indexes the
 * first operand (operands are moved after the options).  An unknown option,
 * a missing argument or an argument to an option that takes none is
 * reported on stderr as
 *     PROG: CMD: unknown option '--jsn' (did you mean '--json'?)
 *     Try 'PROG CMD --help'.
 * and returns '?'. */
int mg_opts_next(mg_opts *p, int argc, char **argv);

#endif

/*
 * subcmd.h - a program's table of subcommands and its top-level dispatch,
 * shared by mgsim (sim/cli/cmd_list.c) and mgprobe (probe/pcmd_list.c).
 */
#ifndef MG_SUBCMD_H
#define MG_SUBCMD_H

#include <stdio.h>

typedef struct mg_subcmd {
    const char *name;                     /* NULL ends a table */
    const char *summary;                  /* one line for `PROG --help` */
    /* argv[0] is the subcommand's own name; returns the exit status */
    int (*run)(int argc, char **argv);
} mg_subcmd;

typedef struct mg_prog {
    const char *name;                     /* "mgsim", in messages */
    const char *version;                  /* printed by --version */
    const mg_subcmd *cmds;                /* the table */
    void (*usage)(FILE *f);               /* the top-level help */
} mg_prog;

/* The row named name, or NULL. */
const mg_subcmd *mg_subcmd_find(const mg_subcmd *cmds, const char *name);

/* "  NAME       SUMMARY" for every row, for the top-level help. */
void mg_subcmd_list(const mg_subcmd *cmds, FILE *f);

/* main() of a program of subcommands: no argument prints the usage on
 * stderr (exit 2); --help, -h or help prints it on stdout (0); help CMD
 * runs `CMD --help` (an unknown CMD: 2, with a suggestion); --version
 * or -V prints "PROG VERSION" (0); an unknown command is reported with a
 * suggestion (2); otherwise the subcommand's own exit status. */
int mg_prog_main(const mg_prog *p, int argc, char **argv);

#endif

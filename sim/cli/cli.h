/*
 * cli.h - the mgsim subcommand registry and shared command-line helpers.
 *
 * Every subcommand is one mg_command row in cmd_list.c and one file
 * cmd_NAME.c.  A command's run() gets argv with argv[0] = its own name, and
 * returns the process exit status:
 *   0  success
 *   1  a negative answer that is not an error (configs differ, regression)
 *   2  bad input or usage (message already printed on stderr)
 */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "base/subcmd.h"

#include <stdio.h>

enum { MG_EXIT_OK = 0, MG_EXIT_NO = 1, MG_EXIT_BAD = 2 };

typedef mg_subcmd mg_command;             /* base/subcmd.h */

extern const mg_command mg_commands[];    /* NULL-name terminated */

/* Print "mgsim: CMD: message" and a hint to run --help; returns 2. */
int mg_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The subcommands. */
int mg_cmd_config(int argc, char **argv);
int mg_cmd_gen(int argc, char **argv);
int mg_cmd_run(int argc, char **argv);
int mg_cmd_trace(int argc, char **argv);
int mg_cmd_space(int argc, char **argv);
int mg_cmd_prune(int argc, char **argv);
int mg_cmd_sweep(int argc, char **argv);
int mg_cmd_whatif(int argc, char **argv);
int mg_cmd_plot(int argc, char **argv);
int mg_cmd_validate(int argc, char **argv);
int mg_cmd_vprobe(int argc, char **argv);
int mg_cmd_calibrate(int argc, char **argv);
int mg_cmd_import(int argc, char **argv);
int mg_cmd_compare(int argc, char **argv);
int mg_cmd_net(int argc, char **argv);

#endif

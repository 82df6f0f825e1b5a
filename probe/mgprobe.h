/*
 * mgprobe.h - the mgprobe subcommand registry and shared command-line
 * helpers (the counterpart of sim/cli/cli.h for mgsim).
 *
 * Every subcommand is one mgp_command row in pcmd_list.c and one file
 * cmd_NAME.c.  A command's run() gets argv with argv[0] = its own name, and
 * returns the process exit status:
 *   0  success
 *   1  a negative answer that is not an error
 *   2  bad input or usage (message already on stderr)
 *   3  no usable OpenCL device: no platform, the named P:D does not exist,
 *      or it cannot be opened (message already on stderr)
 */
#ifndef MGP_MGPROBE_H
#define MGP_MGPROBE_H

#include "base/subcmd.h"

enum { MGP_EXIT_OK = 0, MGP_EXIT_NO = 1, MGP_EXIT_BAD = 2, MGP_EXIT_NODEV = 3 };

typedef mg_subcmd mgp_command;            /* base/subcmd.h */

extern const mgp_command mgp_commands[];  /* NULL-name terminated */

/* Print "mgprobe: CMD: message" and a hint to run --help; returns 2. */
int mgp_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The subcommands. */
int mgp_cmd_devices(int argc, char **argv);
int mgp_cmd_verify(int argc, char **argv);
int mgp_cmd_run(int argc, char **argv);
int mgp_cmd_time(int argc, char **argv);
int mgp_cmd_check(int argc, char **argv);

#endif

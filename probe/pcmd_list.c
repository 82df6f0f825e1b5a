/*
 * pcmd_list.c - the table of mgprobe subcommands.  A new subcommand is one
 * row here plus its cmd_NAME.c file.
 */
#include "probe/mgprobe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const mgp_command mgp_commands[] = {
    {.name = "devices",
     .summary = "list OpenCL platforms and devices with their key properties",
     .run = mgp_cmd_devices},
    {.name = "verify",
     .summary = "run generated kernels: results vs the CPU reference, accesses vs the trace",
     .run = mgp_cmd_verify},
    {.name = "run",
     .summary = "measure the device's architecture (warp, ALUs, registers, caches, bandwidth)",
     .run = mgp_cmd_run},
    {.name = "time",
     .summary = "time a kernel suite: outputs checked against the CPU reference, then timed",
     .run = mgp_cmd_time},
    {.name = "check",
     .summary = "validate profiles, curves, timings and suites against their schemas",
     .run = mgp_cmd_check},
    {.name = NULL},
};

int mgp_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mgprobe: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'mgprobe %s --help'.\n", cmd);
    return MGP_EXIT_BAD;
}

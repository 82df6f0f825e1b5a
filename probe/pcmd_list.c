/*
 * pcmd_list.c - the table of mgprobe subcommands.  A new subcommand is one
 * row here plus its cmd_NAME.c file.
 */
#include "probe/mgprobe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const mgp_command mgp_commands[] = {
    {"devices", "list OpenCL platforms and devices with their key properties",
     mgp_cmd_devices},
    {"verify", "run generated kernels: results vs the CPU reference, accesses vs the trace",
     mgp_cmd_verify},
    {"run", "measure the device's architecture (warp, ALUs, registers, caches, bandwidth)",
     mgp_cmd_run},
    {"time", "time a kernel suite: outputs checked against the CPU reference, then timed",
     mgp_cmd_time},
    {"check", "validate profiles, curves, timings and suites against their schemas",
     mgp_cmd_check},
    {NULL, NULL, NULL},
};

const mgp_command *mgp_command_find(const char *name)
{
    for (const mgp_command *c = mgp_commands; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

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

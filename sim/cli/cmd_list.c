/*
 * cmd_list.c - the table of mgsim subcommands.  A new subcommand is one
 * row here plus its cmd_NAME.c file.
 */
#include "sim/cli/cli.h"

#include <stdarg.h>
#include <string.h>

const mg_command mg_commands[] = {
    {"config", "check, show and compare device configs", mg_cmd_config},
    {"gen", "generate a kernel, its launch plan and its access trace", mg_cmd_gen},
    {"run", "simulate a kernel on a device config (timing model)", mg_cmd_run},
    {"trace", "dump and summarize access traces", mg_cmd_trace},
    {"space", "count and list the members of a kernel search space", mg_cmd_space},
    {"prune", "apply hardware pruning rules to a search space (regression check)", mg_cmd_prune},
    {"sweep", "simulate a search space on N threads: results file, bests, regret", mg_cmd_sweep},
    {"whatif", "best kernel and pruning per device-config variant (--vary KEY=...)", mg_cmd_whatif},
    {"plot", "draw rooflines, probe curves, sweeps and what-ifs with gnuplot", mg_cmd_plot},
    {"validate", "score the model against measured kernel timings (mgprobe time)", mg_cmd_validate},
    {"vprobe", "run mgprobe's microbenchmarks through the model: a virtual profile", mg_cmd_vprobe},
    {"calibrate", "a device config from a probe profile (+ a base config), with sources", mg_cmd_calibrate},
    {NULL, NULL, NULL},
};

const mg_command *mg_command_find(const char *name)
{
    for (const mg_command *c = mg_commands; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

int mg_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mgsim: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'mgsim %s --help'.\n", cmd);
    return MG_EXIT_BAD;
}

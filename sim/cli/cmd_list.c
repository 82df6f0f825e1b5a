/*
 * cmd_list.c - the table of mgsim subcommands.  A new subcommand is one
 * row here plus its cmd_NAME.c file.
 */
#include "sim/cli/cli.h"

#include <stdarg.h>
#include <string.h>

const mg_command mg_commands[] = {
    {.name = "config",
     .summary = "check, show and compare device configs",
     .run = mg_cmd_config},
    {.name = "gen",
     .summary = "generate a kernel, its launch plan and its access trace",
     .run = mg_cmd_gen},
    {.name = "run",
     .summary = "simulate a kernel on a device config (timing model)",
     .run = mg_cmd_run},
    {.name = "trace",
     .summary = "dump and summarize access traces",
     .run = mg_cmd_trace},
    {.name = "space",
     .summary = "count and list the members of a kernel search space",
     .run = mg_cmd_space},
    {.name = "prune",
     .summary = "apply hardware pruning rules to a search space (regression check)",
     .run = mg_cmd_prune},
    {.name = "sweep",
     .summary = "simulate a search space on N threads: results file, bests, regret",
     .run = mg_cmd_sweep},
    {.name = "whatif",
     .summary = "best kernel and pruning per device-config variant (--vary KEY=...)",
     .run = mg_cmd_whatif},
    {.name = "plot",
     .summary = "draw rooflines, curves, sweeps, validations, networks (gnuplot)",
     .run = mg_cmd_plot},
    {.name = "validate",
     .summary = "score the model against measured kernel timings (mgprobe time)",
     .run = mg_cmd_validate},
    {.name = "vprobe",
     .summary = "run mgprobe's microbenchmarks through the model: a virtual profile",
     .run = mg_cmd_vprobe},
    {.name = "calibrate",
     .summary = "a device config from a probe profile (+ a base config), with sources",
     .run = mg_cmd_calibrate},
    {.name = "import",
     .summary = "other tools' data in: ArchProbe reports, AutoTVM logs",
     .run = mg_cmd_import},
    {.name = "compare",
     .summary = "measured probe curves against the model's, point by point",
     .run = mg_cmd_compare},
    {.name = "net",
     .summary = "a network checked (layers, MACs) or timed on a device config",
     .run = mg_cmd_net},
    {.name = NULL},
};

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

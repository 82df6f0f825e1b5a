/*
 * mgsim.c - the mgsim command: dispatch to a subcommand of the registry.
 */
#include "sim/cli/cli.h"
#include "sim/version.h"

#include <stdio.h>

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim COMMAND [ARGS...]\n"
            "       mgsim COMMAND --help   (or: mgsim help COMMAND)\n"
            "       mgsim --help | --version\n"
            "\n"
            "mgsim is a trace-driven, cycle-approximate simulator and model validator\n"
            "for mobile GPUs (Qualcomm Adreno, Arm Mali).\n"
            "\n"
            "Commands:\n");
    mg_subcmd_list(mg_commands, f);
    fprintf(f,
            "\n"
            "Exit status: 0 success, 1 a negative answer (e.g. configs differ),\n"
            "2 bad input or usage.\n");
}

int main(int argc, char **argv)
{
    static const mg_prog prog = {
        .name = "mgsim", .version = MG_VERSION, .cmds = mg_commands, .usage = usage};
    return mg_prog_main(&prog, argc, argv);
}

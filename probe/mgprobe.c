/*
 * mgprobe.c - the mgprobe command: dispatch to a subcommand of the registry.
 */
#include "probe/mgprobe.h"
#include "sim/version.h"

#include <stdio.h>

/* Print the top-level help, listing every registered subcommand, to f. */
static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe COMMAND [ARGS...]\n"
            "       mgprobe COMMAND --help   (or: mgprobe help COMMAND)\n"
            "       mgprobe --help | --version\n"
            "\n"
            "mgprobe runs OpenCL microbenchmarks on a real device to measure the\n"
            "parameters of mgsim's device configs.\n"
            "\n"
            "Commands:\n");
    mg_subcmd_list(mgp_commands, f);
    fprintf(f,
            "\n"
            "Exit status: 0 success, 1 a negative answer, 2 bad input or usage,\n"
            "3 no usable OpenCL device (no platform, or no device P:D).\n");
}

/* Entry point: global options, then the subcommand's own exit status. */
int main(int argc, char **argv)
{
    static const mg_prog prog = {
        .name = "mgprobe", .version = MG_VERSION, .cmds = mgp_commands, .usage = usage};
    return mg_prog_main(&prog, argc, argv);
}

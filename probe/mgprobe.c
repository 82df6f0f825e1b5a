/*
 * mgprobe.c - the mgprobe command: dispatch to a subcommand of the registry.
 */
#include "probe/mgprobe.h"
#include "base/strsim.h"
#include "sim/version.h"

#include <stdio.h>
#include <string.h>

/* Print the top-level help, listing every registered subcommand, to f. */
static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe COMMAND [ARGS...]\n"
            "       mgprobe COMMAND --help\n"
            "       mgprobe --help | --version\n"
            "\n"
            "mgprobe runs OpenCL microbenchmarks on a real device to measure the\n"
            "parameters of mgsim's device configs.\n"
            "\n"
            "Commands:\n");
    for (const mgp_command *c = mgp_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f,
            "\n"
            "Exit status: 0 success, 1 a negative answer, 2 bad input or usage,\n"
            "or OpenCL unusable (e.g. no platforms).\n");
}

/* Report an unknown command, with a did-you-mean when one is close;
 * returns 2. */
static int unknown_command(const char *cmd)
{
    const char *names[64];
    size_t n = 0;
    for (const mgp_command *k = mgp_commands; k->name && n < 64; k++) names[n++] = k->name;
    mg_hint h;
    fprintf(stderr, "mgprobe: unknown command '%s'%s\nTry 'mgprobe --help'.\n", cmd,
            mg_hint_near(&h, cmd, names, n, "'"));
    return MGP_EXIT_BAD;
}

/* Entry point: global options, then the subcommand's own exit status. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return MGP_EXIT_BAD;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return MGP_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("mgprobe %s\n", MG_VERSION);
        return MGP_EXIT_OK;
    }
    const mgp_command *c = mgp_command_find(cmd);
    if (!c) return unknown_command(cmd);
    return c->run(argc - 1, argv + 1);
}

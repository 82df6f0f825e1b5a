/*
 * mgsim.c - the mgsim command: dispatch to a subcommand of the registry.
 */
#include "sim/cli/cli.h"
#include "base/strsim.h"
#include "sim/version.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim COMMAND [ARGS...]\n"
            "       mgsim COMMAND --help\n"
            "       mgsim --help | --version\n"
            "\n"
            "mgsim is a trace-driven, cycle-approximate simulator and model validator\n"
            "for mobile GPUs (Qualcomm Adreno, Arm Mali).\n"
            "\n"
            "Commands:\n");
    for (const mg_command *c = mg_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f,
            "\n"
            "Exit status: 0 success, 1 a negative answer (e.g. configs differ),\n"
            "2 bad input or usage.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return MG_EXIT_BAD;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return MG_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("mgsim %s\n", MG_VERSION);
        return MG_EXIT_OK;
    }
    const mg_command *c = mg_command_find(cmd);
    if (!c) {
        const char *names[64];
        size_t n = 0;
        for (const mg_command *k = mg_commands; k->name && n < 64; k++) names[n++] = k->name;
        mg_hint h;
        fprintf(stderr, "mgsim: unknown command '%s'%s\nTry 'mgsim --help'.\n", cmd,
                mg_hint_near(&h, cmd, names, n, "'"));
        return MG_EXIT_BAD;
    }
    return c->run(argc - 1, argv + 1);
}

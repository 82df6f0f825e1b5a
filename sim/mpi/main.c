/*
 * main.c - the mgsim-mpi command: mgsim whose `sweep`, started by mpirun,
 * splits the sweep over the job's ranks (sweep_mpi.h).  Not started by an
 * MPI launcher, it is mgsim.
 */
#include "sim/cli/cli.h"
#include "sim/mpi/sweep_mpi.h"
#include "sim/version.h"

#include <stdio.h>
#include <string.h>

#define MAX_CMDS 64

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim-mpi COMMAND [ARGS...]   (mpirun -n N mgsim-mpi sweep ...)\n"
            "\n"
            "mgsim built with MPI: under mpirun, `sweep` splits its candidates over the\n"
            "ranks and rank 0 writes the results file; every other command is mgsim's.\n"
            "\n"
            "Commands:\n");
    mg_subcmd_list(mg_commands, f);
}

int main(int argc, char **argv)
{
    static mg_command cmds[MAX_CMDS];
    int n = 0;
    for (; mg_commands[n].name && n < MAX_CMDS - 1; n++) {
        cmds[n] = mg_commands[n];
        if (!strcmp(cmds[n].name, "sweep")) cmds[n].run = mg_mpi_cmd_sweep;
    }
    static const mg_prog prog = {
        .name = "mgsim-mpi", .version = MG_VERSION, .cmds = cmds, .usage = usage};
    if (mg_mpi_start(&argc, &argv)) return 2;
    return mg_mpi_end(mg_prog_main(&prog, argc, argv));
}

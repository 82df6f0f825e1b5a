/*
 * sweep_opts.h - what `mgsim sweep` and `mgsim whatif` share: their common
 * options, loading the config, space and rules they name, and stopping
 * cleanly on Ctrl-C (internal to the CLI).
 */
#ifndef MG_SWEEP_OPTS_H
#define MG_SWEEP_OPTS_H

#include <cjson/cJSON.h>

#include "sim/search/sweep.h"

/* Exit status of a sweep stopped by SIGINT/SIGTERM (128 + SIGINT, as a shell). */
#define MG_EXIT_INTERRUPTED 130

typedef struct mg_sweep_args {
    const char *cfg, *space, *rules;
    int pruned_only, threads, sample, progress;
    double cutoff;             /* --cutoff F (0: none) */
    double max_work;           /* --max-work N (0: no limit) */
} mg_sweep_args;

/* Defaults: threads = online CPUs, sample auto, progress when base/term.h
 * allows it (stderr a terminal, TERM not dumb), max_work
 * MG_GEN_MAX_WORK_DEFAULT. */
void mg_sweep_args_init(mg_sweep_args *a);

/* Handle one shared option: 'c' --config, 's' --space, 'r' --rules,
 * 'P' --pruned-only, 'j' -j/--jobs, 'S' --sample, 'q' -q/--quiet and 'N'
 * --no-progress (its hidden alias), 'X' --cutoff, 'W' --max-work; any
 * other c is an option mg_opts_next refused (already reported).  Returns 0,
 * or 2 after printing a usage error for cmd. */
int mg_sweep_args_opt(mg_sweep_args *a, const char *cmd, int c, const char *arg);

/* After the options: the combinations cmd cannot take (--pruned-only or
 * --cutoff without --rules, --cutoff with --pruned-only).  Returns 0, or 2
 * after printing a usage error. */
int mg_sweep_args_check(const mg_sweep_args *a, const char *cmd);

typedef struct mg_sweep_inputs {
    cJSON     *doc;            /* the config file as parsed */
    mg_device *dev;            /* loaded from doc */
    mg_space  *sp;
    mg_rules  *rules;          /* NULL without --rules */
    mg_sweep_ident id;
} mg_sweep_inputs;

/* Load and hash what a names.  Returns 0, or -1 with every problem in d;
 * free with mg_sweep_inputs_free either way. */
int  mg_sweep_inputs_load(mg_sweep_inputs *in, const mg_sweep_args *a, mg_diag *d);
void mg_sweep_inputs_free(mg_sweep_inputs *in);

/* A sweep of in's device with a's options (no results file). */
void mg_sweep_cfg_init(mg_sweep_cfg *cfg, const mg_sweep_inputs *in, const mg_sweep_args *a);

/* How `mgsim sweep` runs a sweep when not on mg_sweep_run: across the
 * ranks of an MPI job (sim/mpi/).  run: as mg_sweep_run, with *mute set
 * on a process that must print nothing but its errors (another reports). */
typedef struct mg_sweep_runner {
    int (*run)(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, int *mute, mg_diag *d);
} mg_sweep_runner;

/* `mgsim sweep` (argv[0] "sweep") on runner (NULL: in this process, as
 * mg_cmd_sweep).  Returns the exit status. */
int mg_sweep_command(int argc, char **argv, const mg_sweep_runner *runner);

/* The number of processes of the MPI job this process is part of, from
 * the launcher's environment (Open MPI's, or PMI's); 0 when none. */
int mg_sweep_under_mpi(void);

/* SIGINT and SIGTERM set the flag mg_sweep_cfg.stop points to (another
 * one, a second or more later, kills at once); release restores the
 * default handlers. */
void mg_cli_catch_stop(void);
void mg_cli_release_stop(void);

#endif

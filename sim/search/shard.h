/*
 * shard.h - distributed sweeps: a sweep's candidates split into N shards,
 * each simulated by its own process (`mgsim sweep --shard I/N`, a Slurm
 * job array, GNU parallel, or the ranks of `mpirun mgsim-mpi sweep`), and
 * their results put back together into exactly the file one process
 * writes (`mgsim sweep --merge`, or rank 0 of an MPI run).
 *
 * The split: member m of the space belongs to shard (m / MG_SHARD_BLOCK)
 * mod N.  Blocks of neighbours stay together (candidates that differ only
 * in trace-inert knobs are neighbours, and the memo copies their results:
 * search/memo.h); dealing the blocks round-robin spreads the space's
 * costly and cheap regions over every shard.  The split depends only on
 * the member number, so it is the same for every process and every run.
 *
 * A shard's results file is a sweep results file (sweep.h) whose header
 * ends with "shard":"I/N" and whose records are the shard's, in candidate
 * order; it resumes like any results file.  --cutoff does not shard (its
 * bar is the best kept candidate of the whole space).
 */
#ifndef MG_SHARD_H
#define MG_SHARD_H

#include <stdint.h>

#include "sim/search/sweep.h"
#include "base/diag.h"

#define MG_SHARD_BLOCK 16u
#define MG_SHARD_MAX   4096u

/* The shard (0 .. n-1) member `index` belongs to (0 when n <= 1). */
uint32_t mg_shard_of(uint64_t index, uint32_t n);

/* Does the sweep id record member `index`: always without shards, else
 * when it belongs to id->shard_i. */
int mg_shard_has(const mg_sweep_ident *id, uint64_t index);

/* Parse "I/N" (0 <= I < N, 2 <= N <= MG_SHARD_MAX).  Returns 0, or -1. */
int mg_shard_parse(const char *s, uint32_t *i, uint32_t *n);

/* Hooks of a distributed sweep (mg_sweep_cfg.dist; any may be NULL).
 * The sweep engine calls sink under its lock, fetch from its one worker
 * thread (a sweep with fetch runs on one thread), scanned from the thread
 * that called mg_sweep_run. */
typedef struct mg_sweep_dist {
    /* members another process has on file (sorted): neither simulated nor
     * recorded here */
    const uint64_t *skip;
    uint64_t        nskip;
    /* each result, in candidate order, instead of the results file:
     * 0, or -1 with the problem in d (the sweep stops with it) */
    int (*sink)(void *ctx, const mg_sweep_result *r, mg_diag *d);
    /* the result of member `index` instead of a simulation: 0 with *r
     * filled, 1 without one (stopped: the sweep is interrupted), or -1
     * with the problem in d (the sweep stops with it) */
    int (*fetch)(void *ctx, uint64_t index, mg_sweep_result *r, mg_diag *d);
    /* after the scan pass, before any result: the records resumed from
     * the results file.  0, or -1 with the problem in d */
    int (*scanned)(void *ctx, const mg_sweep_done *done, mg_diag *d);
    void *ctx;
} mg_sweep_dist;

/* The sweep cfg describes (without shards) taking every record from the
 * shard files files[0 .. nfiles-1] (any order; each of shards 0 .. N-1
 * exactly once, every header the sweep's with its "shard", every shard
 * complete) instead of simulating: cfg->results (a file, never "-") gets
 * exactly what one process's sweep writes, all at once or not at all
 * (a temporary renamed into place), and *sum its summary.  Returns 0, or
 * -1 with the problem in d (nothing written). */
int mg_sweep_merge(const mg_sweep_cfg *cfg, char *const *files, int nfiles, mg_sweep_sum *sum,
                   mg_diag *d);

#endif

/*
 * nt_kernel.h - one layer's kernel for `mgsim net --config` (internal to
 * sim/nettune): the best of its derived space (a sweep: rules, optional
 * analytical screen) or a given schedule, simulated in full for its
 * figures; and the on-disk cache of such results, keyed by content.
 */
#ifndef MG_NT_KERNEL_H
#define MG_NT_KERNEL_H

#include <signal.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "sim/search/rule.h"
#include "base/diag.h"

/* A layer's kernel and its figures (per launch). */
typedef struct mg_nt_kernel {
    int      ok;                  /* 1: simulated; 0: see why */
    char     schedule[1024];      /* canonical words */
    double   seconds, flops, gflops;
    double   bound_gflops;        /* roofline: attainable GFLOPS */
    int      binding;             /* -1: compute, else MG_LV_* */
    double   alu_util;            /* ALU busy SP-cycles / (SPs x cycles) */
    double   lsu_util;            /* memory warp instructions / (SPs x cycles) */
    uint64_t space, kept, simulated;  /* candidates: in the space, kept, simulated */
    char     relaxed[64];         /* rules dropped because they kept none, "a,b" */
    int      unpruned;            /* even so none kept: the whole space screened */
    char     why[256];            /* when !ok */
} mg_nt_kernel;

/* How kernels are found. */
typedef struct mg_nt_search {
    const mg_device *dev;
    char             dev_hash[24];     /* mg_sweep_hash_device */
    const mg_rules  *rules;            /* NULL: no pruning */
    char             rules_hash[24];   /* of the rules file's bytes, "" without */
    int              threads, sample;
    uint64_t         screen_k;         /* > 0: simulate the K analytically fastest */
    double           max_work;
    volatile sig_atomic_t *stop;
} mg_nt_search;

/* When the rules keep no candidate of a space, the rule that fired on the
 * most candidates is dropped, then the next, until some are kept; when
 * none are kept with every firing rule dropped, the whole space is
 * screened analytically and this many (or the search's screen_k) are
 * simulated: simulating every candidate of a large layer's space would
 * take hours. */
#define MG_NT_UNPRUNED_K 16

/* The exhaustive search (no screen): a seed sweep simulates the
 * MG_NT_SEED_K candidates the analytical model ranks fastest; then every
 * candidate is simulated, each stopped (not a result) once past
 * MG_NT_CAP_MARGIN x the seed's best time or x the fastest result so far
 * (sim/search/sweep.h, cap_seconds and cap_margin; every sweep of a
 * search is capped so).  A stopped candidate is slower than a result
 * already in hand, so the pick is the uncapped search's: exactly so with
 * --sample off; a sampled simulation compares its replayed cycles, which
 * its estimate exceeds but for its re-warming correction, and the margin
 * (inferred, the correction's size not measured: 25% over the bar) is
 * there to keep such a candidate from being stopped wrongly.  Which
 * candidates are stopped depends on the threads' timing; the pick, and
 * the count of candidates simulated (stopped ones included), do not.
 * MobileNet-V2 on adreno640, -j2 (bench/results/net.csv, 2026-12-07):
 * 985.6 s of CPU uncapped, 360.7 s capped, every layer's kernel and time
 * the same. */
#define MG_NT_SEED_K      8
#define MG_NT_CAP_MARGIN  1.25

/* The best kernel of the space document `text` (mgsim-space/1, from
 * nt_space.h) under the rules (simulating only the candidates they keep,
 * relaxed as above when they keep none), then simulated once more in
 * full.  Returns 0 with *k filled (k->ok 0 when no candidate simulates),
 * or -1 with the problem in d (a bad space, out of memory, interrupted). */
int mg_nt_search_space(const mg_nt_search *s, const char *text, mg_nt_kernel *k, mg_diag *d);

/* Simulate the schedule `words` ("op key=value ...") on s->dev into *k
 * (k->ok 0 with why when the generator or the model refuses it). */
void mg_nt_simulate(const mg_nt_search *s, const char *words, mg_nt_kernel *k);

/* The cache key of a search (what = the space text) or of a given
 * schedule (what = its words): FNV-1a over the model revision, the
 * device's resolved config, the rules, the screen, the sampling and
 * `what`, as 16 hex digits into key. */
void mg_nt_cache_key(const mg_nt_search *s, const char *kind, const char *what, char key[24]);

/* The cache folder: dir when given, else $MGSIM_CACHE, else
 * $XDG_CACHE_HOME/mgsim, else $HOME/.cache/mgsim ("" when none). */
void mg_nt_cache_dir(const char *dir, char *out, size_t n);

/* Look key up in the cache folder dir: 1 with *k filled, 0 when absent or
 * unreadable (an unreadable entry is searched again and rewritten). */
int mg_nt_cache_get(const char *dir, const char *key, mg_nt_kernel *k);

/* Store *k under key (creating dir, atomically).  Returns 0, or -1 with
 * the problem in d. */
int mg_nt_cache_put(const char *dir, const char *key, const mg_nt_kernel *k, mg_diag *d);

/* A kernel as JSON and back (the cache's and the report's form). */
cJSON *mg_nt_kernel_json(const mg_nt_kernel *k);
int    mg_nt_kernel_from_json(const cJSON *j, mg_nt_kernel *k);

#endif

/*
 * nettune.h - a network's time on a device config (`mgsim net --config`,
 * README.md "Networks"): every layer's best kernel, its figures and the
 * network's latency.
 *
 * For each layer in execution order: its search space derived from its
 * shape (nt_space.h), the best kernel of that space under the rules
 * (optionally screened analytically), found once per distinct space (two
 * layers with one space share a search) and cached on disk by content
 * (nt_kernel.h), so a second run, or another network with the same
 * layers, simulates nothing.  --layers-only takes each layer's schedule
 * from a file instead.  The network's latency is the sum over layers of
 * launches x (kernel time + the config's core.dispatch_gap).
 */
#ifndef MG_NETTUNE_H
#define MG_NETTUNE_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/net/net.h"
#include "sim/nettune/nt_kernel.h"

#define MG_NT_SCHEMA "mgsim-net-time/1"

/* Layer name -> schedule words (--layers-only).  Loaded from a JSON file
 * {"schema": "mgsim-net-schedules/1", "layers": {"NAME": "op key=value
 * ...", ...}}, every name a layer of the network. */
typedef struct mg_nt_given {
    int    n;
    char (*name)[MG_NET_NAME_MAX];
    char **words;
} mg_nt_given;

int  mg_nt_given_load(const char *path, const mg_net *net, mg_nt_given *g, mg_diag *d);
void mg_nt_given_free(mg_nt_given *g);

/* g's schedules for `batch` images stacked as an outer dimension, as
 * --batch derives spaces: each schedule's H (conv2d, pool, add, act,
 * concat, convpool: the images along H), else its M (matmul, softmax,
 * layernorm: rows) times batch, the rest unchanged (not re-tuned).
 * Returns 0 with *out filled, or -1 with the problem in d (a schedule
 * with neither key, a stacked size past the operator's range). */
int  mg_nt_given_stack(const mg_nt_given *g, int64_t batch, mg_nt_given *out, mg_diag *d);

/* One layer's row. */
typedef struct mg_nt_row {
    int      layer;               /* index into net->layers */
    int      kernel;              /* index into mg_nt_result.kernels; -1: not simulated */
    int64_t  reps;                /* launches of the kernel */
    double   seconds;             /* reps x (kernel + dispatch gap) */
    char     why[256];            /* kernel -1: the reason */
} mg_nt_row;

typedef struct mg_nt_result {
    const mg_net *net;
    char     config[64];          /* the device's name */
    int64_t  batch;
    int      given;               /* --layers-only */
    char     mode[64];            /* "exhaustive", "analytic:K", "given" */
    char     rules[64];           /* the rule set's name, "" none */
    double   gap_s;               /* core.dispatch_gap */
    int      nrows;
    mg_nt_row *rows;              /* in execution order */
    int      nkernels;            /* distinct kernels */
    mg_nt_kernel *kernels;
    int      *cached;             /* per kernel: 1 from the cache */
    double   kernel_s, gap_total_s, total_s, flops;
    int64_t  launches;
    int      not_simulated;
    uint64_t simulated;           /* candidates simulated by this run */
} mg_nt_result;

typedef struct mg_nt_cfg {
    mg_nt_search      search;
    const char       *cache;      /* the cache folder, "" for none */
    int64_t           batch;      /* >= 1 */
    const mg_nt_given *given;     /* --layers-only, else NULL */
    const char       *only;       /* --only: comma-separated layer names, or NULL */
    int               progress;   /* a line per search on stderr */
} mg_nt_cfg;

/* Time net on cfg into *r.  Returns 0, or -1 with the problem in d
 * (interrupted, a cache that cannot be written); free r either way. */
int  mg_nt_run(const mg_nt_cfg *cfg, const mg_net *net, mg_nt_result *r, mg_diag *d);
void mg_nt_result_free(mg_nt_result *r);

/* The report: text for people (nt_report.c), JSON (schema MG_NT_SCHEMA).
 * base (may be NULL): the same network at batch 1, for the per-image
 * throughput comparison of a batched run. */
void   mg_nt_print(const mg_nt_result *r, const mg_nt_result *base, FILE *f);
cJSON *mg_nt_json(const mg_nt_result *r, const mg_nt_result *base);

#endif

/*
 * net_time.h - `mgsim net --config CFG NETWORK`: the network timed on a
 * device config (sim/nettune/nettune.h), the part of `mgsim net` that
 * simulates (internal to the CLI; cmd_net.c parses the options).
 */
#ifndef MG_NET_TIME_H
#define MG_NET_TIME_H

#include <stdint.h>

#include "sim/net/net.h"

typedef struct mg_net_time_args {
    const char *cfg;              /* --config */
    const char *rules;            /* --rules FILE; NULL: the default set */
    int         no_rules;         /* --no-rules */
    const char *cache;            /* --cache DIR; NULL: the default folder */
    int         no_cache;         /* --no-cache */
    const char *given;            /* --layers-only FILE */
    const char *only;             /* --only NAME,... */
    uint64_t    screen_k;         /* --screen analytic:K / --tune (0: exhaustive) */
    int         threads, sample, verbose, json;
    int         progress;         /* a line per search on stderr (a terminal) */
    int64_t     batch;
    int         fuse;             /* --fuse: MG_NT_FUSE_* bits, 0 none */
    int         concurrent;       /* --concurrent K: batch is K, reported as K instances */
    const char *out;              /* -o ("-": stdout; NULL: not written) */
    const char *csv;              /* --csv FILE (one row per layer), or NULL */
} mg_net_time_args;

/* The default analytical screen of --tune: the K fastest per layer. */
#define MG_NET_TUNE_K 8

/* Time the loaded network n as a asks and write the report.  Returns the
 * exit status (errors printed). */
int mg_net_time(const mg_net *n, const mg_net_time_args *a);

#endif

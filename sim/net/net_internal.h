/*
 * net_internal.h - what the loader's parts share (internal to sim/net):
 * net_load.c reads the document and the layers, net_graph.c checks the
 * graph and counts the costs.
 */
#ifndef MG_NET_INTERNAL_H
#define MG_NET_INTERNAL_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "sim/net/net.h"

#define MG_NET_SCHEMA "mgsim-network/1"

typedef struct mg_net_ctx {
    const char *file;
    mg_net *net;
    mg_diag *d;
    const char *(*in_names)[MG_NET_MAX_IN];   /* per layer, its input names */
    double stated_macs, stated_params;        /* -1: not stated */
} mg_net_ctx;

/* Read a shape [N, H, W, C] at path; 0, or -1 with an error. */
int mg_net_shape_of(const mg_net_ctx *c, const char *path, const cJSON *j, int64_t s[4]);

/* Report every key of obj (at path) not among keys[0 .. n); 0 when none. */
int mg_net_known_keys(const mg_net_ctx *c, const char *path, const cJSON *obj,
                      const char *const *keys, size_t n);

/* The graph of the read layers: inputs, names, order, cycles, shapes,
 * outputs, costs and the stated totals (net_graph.c); 0 or -1. */
int mg_net_graph(mg_net_ctx *c, const cJSON *doc);

#endif

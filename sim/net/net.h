/*
 * net.h - networks as data: a network description (configs/networks/,
 * format in configs/networks/README.md) loaded, checked and costed.
 *
 * A network is a DAG of layers.  Each layer applies one operator (nop.h)
 * to named inputs (network inputs or other layers; a layer's output tensor
 * is named by the layer) and states its output shape [N, H, W, C].  The
 * loader checks, in one pass over the file, every key against its
 * operator's key list, every input name, the graph for cycles, each
 * operator's arity and input shapes, and each stated shape against the one
 * the operator derives; it then counts the network's multiply-accumulates
 * (MACs), other floating-point operations and parameters and checks the
 * counts the file states.  Errors read "FILE: $.layers[I] (NAME): problem".
 */
#ifndef MG_NET_H
#define MG_NET_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

#define MG_NET_NAME_MAX 64
#define MG_NET_TEXT_MAX 512
#define MG_NET_MAX_IN   8        /* inputs of one layer */
#define MG_NET_MAX_LAYERS 4096

struct mg_nop;

/* Activations an operator may apply to its result. */
typedef enum { MG_ACT_NONE, MG_ACT_RELU, MG_ACT_RELU6, MG_ACT_GELU } mg_net_act;
extern const char *const mg_net_act_names[];      /* NULL-terminated */

/* Pooling kinds. */
typedef enum { MG_POOL_MAX, MG_POOL_AVG } mg_net_pool;
extern const char *const mg_net_pool_names[];

/* One layer: its operator's keys (those it does not take keep the
 * defaults: kernel, stride, dilation 1x1, pad 0, flags 0, act none), its
 * inputs (indices into mg_net.tensors) and its costs. */
typedef struct mg_net_layer {
    char name[MG_NET_NAME_MAX];
    const struct mg_nop *op;
    int nin;
    int in[MG_NET_MAX_IN];        /* tensor indices */
    int64_t shape[4];             /* the output, [N, H, W, C] */
    int64_t kernel[2], stride[2], pad[2], dilation[2];
    int depthwise, bias, ceil, transpose_b;
    mg_net_act act;
    mg_net_pool kind;
    double macs;                  /* multiply-accumulates */
    double flops_other;           /* other flops: bias, activation, pooling, norms, ... */
    double params;                /* weights and biases */
    double bytes;                 /* activations read and written, weights read (fp32) */
} mg_net_layer;

/* A tensor: a network input (layer -1) or a layer's output. */
typedef struct mg_net_tensor {
    char name[MG_NET_NAME_MAX];
    int64_t shape[4];
    int layer;
} mg_net_tensor;

typedef struct mg_net {
    char file[4096];
    char name[MG_NET_NAME_MAX];
    char description[MG_NET_TEXT_MAX], source[MG_NET_TEXT_MAX];
    char pub_source[MG_NET_TEXT_MAX];
    double pub_macs, pub_params, pub_tolerance;  /* pub_params 0: not published */
    int nlayers, ntensors, ninputs, noutputs;
    mg_net_layer *layers;         /* in the file's order */
    mg_net_tensor *tensors;       /* the inputs, then one per layer in order */
    int *order;                   /* layer indices, a topological order */
    int *outputs;                 /* tensor indices */
    double macs, flops, params;   /* flops = 2 macs + the layers' flops_other */
} mg_net;

/* Load and check the network at path ("-": stdin).  Returns 0, or -1
 * after adding one error per problem to d (net freed then). */
int mg_net_load(const char *path, mg_net *net, mg_diag *d);

/* The same from a parsed document; `file` names it in messages. */
int mg_net_parse(const cJSON *doc, const char *file, mg_net *net, mg_diag *d);

void mg_net_free(mg_net *net);

/* The network as a report: its identity, totals against the published
 * figures and one row per layer (name, operator, shape, MACs, share). */
void mg_net_print(const mg_net *net, FILE *f);
cJSON *mg_net_json(const mg_net *net);

/* Whether the counted MACs and params are within the published
 * tolerance (a relative error); 1 yes, 0 no. */
int mg_net_matches_published(const mg_net *net);

#endif

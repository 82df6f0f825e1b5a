/*
 * nop.h - the network operators (internal to sim/net).
 *
 * A network operator (conv2d, pool, add, ...) is one file sim/net/nop_NAME.c
 * defining `const mg_nop mg_nop_NAME`, plus one line in nop_list.h.  It
 * says which keys a layer of it may carry, how many inputs it takes, what
 * output shape its inputs give, and what it costs.
 */
#ifndef MG_NOP_H
#define MG_NOP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/net/net.h"

/* Why a shape check failed: a sentence, without the layer's place. */
typedef struct mg_nop_why {
    char text[256];
} mg_nop_why;

typedef struct mg_nop {
    const char *name;             /* the "op" word */
    const char *summary;          /* one line for the format's docs */
    const char *keys;             /* the layer keys it takes, space separated */
    int min_in, max_in;           /* its arity */
    /* shape: the output shape of l (its keys set) given its inputs' shapes
     * in[0 .. l->nin); returns 0, or -1 with the reason in why (inputs
     * that do not fit together, a window larger than the input, ...). */
    int (*shape)(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4],
                 mg_nop_why *why);
    /* cost: fill l->macs, flops_other, params and bytes from its inputs'
     * shapes and its (checked) output shape. */
    void (*cost)(mg_net_layer *l, const int64_t (*in)[4]);
} mg_nop;

/* The registry (nop_list.c, from nop_list.h), NULL-terminated; lookup. */
extern const mg_nop *const mg_nops[];
const mg_nop *mg_nop_find(const char *name);

/* Helpers for operators (nop_util.c). */
int64_t mg_nop_elems(const int64_t s[4]);
/* A shape hook for operators whose output has input 0's shape (softmax,
 * layernorm over C): never fails. */
int mg_nop_shape_same(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4],
                      mg_nop_why *why);
/* Output length of a window: floor((n + 2 pad - dil (k - 1) - 1) / stride)
 * + 1, or rounded up when ceil; < 1 when the window does not fit. */
int64_t mg_nop_window_out(int64_t n, int64_t k, int64_t stride, int64_t pad, int64_t dil,
                          int ceil);
/* Flops of an activation per element (0 for none). */
double mg_nop_act_flops(mg_net_act a);
/* "[1, 56, 56, 24]" into buf; returns buf. */
const char *mg_nop_shape_str(const int64_t s[4], char *buf, size_t len);

#endif

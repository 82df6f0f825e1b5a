/*
 * nt_space.h - a network layer's search space, derived from its shape
 * (internal to sim/nettune): the knob families of the shipped spaces
 * (configs/spaces/) instantiated for the layer's operator and sizes.
 *
 * Which network operator becomes which generator operator is one table,
 * nt_space.c's `derivers`: adding a generator operator for a network
 * operator is one function there plus one line in that table.  A layer
 * whose operator has no entry, or whose keys the generator cannot express
 * (a non-square window, dilation), is "not simulated" with the reason.
 */
#ifndef MG_NT_SPACE_H
#define MG_NT_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/net/net.h"

#define MG_NT_SPACE_MAX 8192      /* a derived space document's text */

/* A layer's derived space: the mgsim-space/1 document as JSON text (its
 * bytes also key the cache), and how many launches the layer makes of that
 * kernel (a batched matmul over N x H products: N x H). */
typedef struct mg_nt_space {
    char     text[MG_NT_SPACE_MAX];
    int64_t  reps;
} mg_nt_space;

/* Derive layer l's space with the batch size `batch` (>= 1) as an outer
 * dimension: conv2d and pool stack the N x batch images along H; fc,
 * softmax and layernorm take N x batch x H x W rows.  Returns 0 with *sp
 * filled, or 1 when the layer is not simulated, with the reason in why. */
int mg_nt_space_derive(const mg_net *net, const mg_net_layer *l, int64_t batch,
                       mg_nt_space *sp, char *why, size_t wlen);

#endif

/*
 * trace_lineset.h - count distinct cache lines (or texel tiles) per object,
 * in bounded memory.
 *
 * Keys are (slot, line) pairs: slot 0..MG_LINESET_SLOTS-1 names an object
 * (a buffer or an image), line is a line or tile number below 2^56.  The
 * set is exact (an open-addressing hash set of 8-byte keys) until it holds
 * `exact_max` distinct keys; past that it folds what it holds into one
 * HyperLogLog sketch per slot (4096 one-byte registers, standard error
 * about 1.6%) and frees the table, so memory stays below
 * 16 x exact_max + MG_LINESET_SLOTS x 4 KiB bytes whatever the trace.
 */
#ifndef MG_TRACE_LINESET_H
#define MG_TRACE_LINESET_H

#include <stddef.h>
#include <stdint.h>

#define MG_LINESET_SLOTS      64
#define MG_LINESET_EXACT_MAX  ((size_t)1 << 22)   /* default: 4 Mi distinct lines */

typedef struct mg_trace_lineset {
    uint64_t *keys;              /* key + 1 per used entry, 0 = empty */
    size_t    cap, n;            /* table size (power of two), keys held */
    size_t    exact_max;         /* switch to estimates past this many keys */
    uint64_t  count[MG_LINESET_SLOTS];   /* exact distinct keys per slot */
    uint8_t  *hll;               /* MG_LINESET_SLOTS x 4096 registers, or NULL */
    int       oom;               /* an allocation failed: counts are lower bounds */
} mg_trace_lineset;

/* Start an empty set, exact up to exact_max keys (0: the default). */
void mg_trace_lineset_init(mg_trace_lineset *s, size_t exact_max);
void mg_trace_lineset_free(mg_trace_lineset *s);

/* Add line `line` (< 2^56) of object `slot`. */
void mg_trace_lineset_add(mg_trace_lineset *s, unsigned slot, uint64_t line);

/* Distinct lines of `slot` seen so far: exact, or an estimate once
 * mg_trace_lineset_exact() is 0. */
uint64_t mg_trace_lineset_count(const mg_trace_lineset *s, unsigned slot);

/* 1 while every count is exact. */
int mg_trace_lineset_exact(const mg_trace_lineset *s);

#endif

/*
 * schedule.h - one kernel schedule: operator, shape and knobs.
 *
 * A schedule is written as key=value words (`conv2d H=56 W=56 Cin=128
 * Cout=128 K=1 tile=4x4 wg=16,4 layout=image`) or as a JSON object with the
 * same keys plus "op".  Keys are table-driven: each operator has its own
 * shape keys (ops/OP.c) and accepts a subset of the common knobs below; each
 * key has a type, default, range and help line (`mgsim gen OP --help`).
 * Invalid combinations are rejected by the operator's check() with a reason.
 */
#ifndef MG_SCHEDULE_H
#define MG_SCHEDULE_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

struct mg_op;

/* PACKED: a buffer in the order the operator's items read it (only where
 * the operator's packed_w says so: layout_w of conv2d). */
typedef enum { MG_LAYOUT_IMAGE, MG_LAYOUT_BUFFER, MG_LAYOUT_PACKED } mg_layout;
typedef enum { MG_PREC_FP32, MG_PREC_FP16 } mg_prec;
typedef enum { MG_PAT_ROW, MG_PAT_COLUMN, MG_PAT_BLOCK2, MG_PAT_BLOCK4,
               MG_PAT_BLOCK8 } mg_pattern;
typedef enum { MG_BCAST_AUTO, MG_BCAST_EXPLICIT } mg_broadcast;
typedef enum { MG_MEM_IMAGE, MG_MEM_BUFFER, MG_MEM_LOCAL, MG_MEM_CONSTANT } mg_memkind;

/* Tensor roles for per-tensor layouts: layout_in, layout_w, layout_out. */
enum { MG_ROLE_IN, MG_ROLE_W, MG_ROLE_OUT, MG_ROLE_COUNT };

#define MG_SCHED_MAX_STRIDES 8
#define MG_SCHED_MAX_SUBS    3      /* sub-schedules of a fused operator */
#define MG_SCHED_SUB_LEN     240    /* bytes of one, with its NUL */

typedef struct mg_schedule {
    const struct mg_op *op;

    /* shapes; each operator's key table says which it uses and how */
    int64_t H, W, C, Cin, Cout, K, stride, pad, depthwise;
    int64_t M, N, KD;                 /* matmul M x KD times KD x N */

    /* microbenchmarks */
    int     mem;                      /* mg_memkind */
    int64_t range, stride_x, stride_y, iters, regs, items, footprint, readers;
    int64_t nstrides, strides[MG_SCHED_MAX_STRIDES];   /* rstride2d */
    int64_t reuse;                    /* mlp: loads per line */

    /* knobs */
    int     layout[MG_ROLE_COUNT];    /* mg_layout per tensor role */
    int64_t tile[2];                  /* output tile per item: rows x cols */
    int64_t wg[3];                    /* work-group size */
    int     pattern;                  /* mg_pattern */
    int64_t vec;                      /* load vector width 1/2/4/8 */
    int     storage, compute;         /* mg_prec */
    int     broadcast;                /* mg_broadcast */
    int64_t split;                    /* reduction split through local memory */
    int64_t unroll;
    int64_t warp;                     /* lanes per warp in the trace */
    int64_t seed;                     /* input data */
    double  scalar;                   /* eltwise: the added constant */
    int     mode;                     /* pool: max or avg (an operator's own enum) */
    int     act;                      /* add, act, conv2d (mg_act); convpool (its own enum) */
    int64_t pk, ps, norm;             /* convpool: pooling window, its stride, scale+shift */
    char    sub[MG_SCHED_MAX_SUBS][MG_SCHED_SUB_LEN];  /* fuse: sub-schedules a, b, c
                                                          ("" none), words joined by ':' */
    int64_t bias;                     /* conv2d: 1 adds a per-channel bias before act */
    int     vaxis;                    /* conv2d: the vectorized axis (its own enum) */
    int64_t pack_in;                  /* conv2d: 1 reads the input as TVM's packed data_vec */
    int64_t nparts, parts[MG_SCHED_MAX_STRIDES];   /* concat: the inputs' channels */

    unsigned char set[64];            /* keys given explicitly, by key index */
} mg_schedule;

/* Parse `op` and key=value words.  Returns 0, or -1 with every problem in d
 * (unknown keys get "did you mean"; values are checked against the key's
 * range; then the operator's check() runs). */
int mg_schedule_parse(const char *op, int nwords, char **words, mg_schedule *s,
                      mg_diag *d);

/* Parse one line "OP key=value ..." (words separated by blanks) with
 * `extra` (NULL, or one more word such as "warp=32") appended, as
 * mg_schedule_parse does.  Thread-safe.  Returns 0, or -1 with the problems
 * in d ("empty schedule" for a blank line). */
#define MG_SCHEDULE_MAX_WORDS 128
int mg_schedule_parse_line(const char *line, const char *extra, mg_schedule *s, mg_diag *d);

/* The same from a JSON object {"op": ..., key: value, ...}; `where` names
 * the document (file or file:index) in messages. */
int mg_schedule_from_json(const cJSON *j, const char *where, mg_schedule *s, mg_diag *d);

/* Canonical text: "op key=value ..." for every key of the op, in table
 * order, but a quiet key (mg_key.quiet) at its default.  Parsing it back
 * gives the same schedule.  Returns buf. */
char *mg_schedule_format(const mg_schedule *s, char *buf, size_t len);

/* The schedule as a JSON object (the same keys, quiet ones at their
 * defaults left out). */
cJSON *mg_schedule_to_json(const mg_schedule *s);

/* Was key `name` given explicitly (not defaulted)? */
int mg_schedule_is_set(const mg_schedule *s, const char *name);

/* Print the keys an op accepts (name, type, default, range, help). */
void mg_schedule_print_keys(const struct mg_op *op, FILE *f);

/* Element size in bytes of the storage precision. */
static inline int mg_sched_elem_bytes(const mg_schedule *s)
{
    return s->storage == MG_PREC_FP16 ? 2 : 4;
}

extern const char *const mg_layout_names[];
extern const char *const mg_prec_names[];
extern const char *const mg_pattern_names[];
extern const char *const mg_memkind_names[];

#endif

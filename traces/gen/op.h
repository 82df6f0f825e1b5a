/*
 * op.h - the operator interface of the generator (internal to traces/).
 *
 * One operator (conv2d, matmul, pchase, ...) is one file in traces/ops/
 * defining one mg_op, plus one line in the list (traces/gen/op_list.h).
 * From a schedule it
 *   - plans the launch: tensors, kernel arguments, NDRange, static features;
 *   - emits the OpenCL C kernel, every memory access through the MG_* access
 *     macros of the preamble (gen/clemit.c), so the same source, built
 *     with -DMG_TRACE_LOG, records its own accesses (the tracer);
 *   - emits the trace of one work group, warp instruction by warp
 *     instruction, in the same program order as the kernel;
 *   - computes the CPU reference of its outputs.
 */
#ifndef MG_OP_H
#define MG_OP_H

#include <stddef.h>
#include <stdint.h>

#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"
#include "traces/gen/strbuf.h"
#include "traces/trace.h"
#include "base/diag.h"

struct mg_warp;

typedef enum { MG_K_INT, MG_K_ENUM, MG_K_PAIR, MG_K_TRIPLE, MG_K_FLOAT, MG_K_LIST, MG_K_TEXT } mg_ktype;

/* One schedule key: name, type, where it lives in mg_schedule, range,
 * default (text as it would be written after '='), enum names, help. */
typedef struct mg_key {
    const char *name;
    mg_ktype    type;
    size_t      off;
    int64_t     min, max;       /* INT: the value's range; PAIR, TRIPLE, LIST: each value's;
                                   TEXT: max is the buffer's size in bytes */
    const char *def;
    const char *const *names;   /* ENUM: the values, NULL-terminated */
    const char *help;
    int         quiet;          /* 1: left out of the canonical text and JSON while at
                                   its default (keys added to an operator after its
                                   schedules were recorded: their text stays) */
} mg_key;

/* Rows of a key table, one macro per type naming only the fields that
 * type uses (the rest are zero); `member` is the mg_schedule member the
 * value goes to, `def` the default as text.  A table ends with MG_KEY_END. */
#define MG_KEY_INT(name_, member, lo, hi, def_, help_)                                    \
    {.name = name_, .type = MG_K_INT, .off = offsetof(mg_schedule, member), .min = lo,     \
     .max = hi, .def = def_, .help = help_}
#define MG_KEY_FLOAT(name_, member, def_, help_)                                          \
    {.name = name_, .type = MG_K_FLOAT, .off = offsetof(mg_schedule, member), .def = def_, \
     .help = help_}
#define MG_KEY_ENUM(name_, member, def_, names_, help_)                                   \
    {.name = name_, .type = MG_K_ENUM, .off = offsetof(mg_schedule, member), .def = def_,  \
     .names = names_, .help = help_}
/* PAIR (ROWSxCOLS), TRIPLE (X[,Y[,Z]]) and LIST (count, then the values)
 * of integers, each in [lo, hi]. */
#define MG_KEY_INTS(name_, type_, member, lo, hi, def_, help_)                            \
    {.name = name_, .type = type_, .off = offsetof(mg_schedule, member), .min = lo,        \
     .max = hi, .def = def_, .help = help_}
/* TEXT: a string of up to sizeof member - 1 bytes, blanks written as ':'
 * (so a value is one word of a schedule line): a fused operator's
 * sub-schedule, "pool:H=8:W=8". */
#define MG_KEY_TEXT(name_, member, def_, help_)                                           \
    {.name = name_, .type = MG_K_TEXT, .off = offsetof(mg_schedule, member),               \
     .max = sizeof(((mg_schedule *)0)->member), .def = def_, .help = help_}
/* An ENUM or INT key that is quiet at its default (mg_key.quiet). */
#define MG_KEY_ENUM_QUIET(name_, member, def_, names_, help_)                             \
    {.name = name_, .type = MG_K_ENUM, .off = offsetof(mg_schedule, member), .def = def_,  \
     .names = names_, .help = help_, .quiet = 1}
#define MG_KEY_INT_QUIET(name_, member, lo, hi, def_, help_)                              \
    {.name = name_, .type = MG_K_INT, .off = offsetof(mg_schedule, member), .min = lo,     \
     .max = hi, .def = def_, .help = help_, .quiet = 1}
#define MG_KEY_END {.name = NULL}

/* An operator.  Every `const mg_op mg_op_NAME` is written with designated
 * initializers (.name = ..., .plan = ...).  name, summary, keys and plan
 * are required; any other slot left out is NULL, which means "nothing to
 * do" there (no kernel text, no warps, outputs left zero, ...), and every
 * caller checks for it. */
typedef struct mg_op {
    /* name: the operator's word in a schedule ("matmul"); unique. */
    const char *name;
    /* summary: one line for `mgsim gen --list`. */
    const char *summary;
    /* keys: the operator's own keys, {NULL}-terminated (just {NULL}: none). */
    const mg_key *keys;
    /* knobs: the common knobs it accepts, space separated (NULL: none). */
    const char *knobs;
    /* defaults: adjust the common knobs' defaults for this operator; runs
     * after every key took its default, before the schedule's words. */
    void (*defaults)(mg_schedule *s);
    /* check: reject invalid combinations of a parsed schedule: add one
     * "where: reason" error per problem to d and return -1, else 0. */
    int  (*check)(const mg_schedule *s, const char *where, mg_diag *d);
    /* plan: fill k (zeroed but its warp) from a checked schedule:
     * tensors, arguments, NDRange, static features, the log capacity of
     * the tracer. */
    void (*plan)(const mg_schedule *s, mg_kernel *k);
    /* emit_cl: append the kernel's OpenCL C source (after the common
     * preamble), every memory access through the MG_* access macros. */
    void (*emit_cl)(const mg_schedule *s, const mg_kernel *k, mg_sb *out);
    /* trace_wg: emit work group `wg`'s warps into out
     * (mg_trace_wg_begin done), in the kernel's program order. */
    void (*trace_wg)(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out);
    /* init: fill the inputs whose init is MG_INIT_CHAIN. */
    void (*init)(const mg_schedule *s, const mg_kernel *k, mg_host *h);
    /* reference: compute the outputs from the inputs on the CPU, both in
     * logical order (see kernel.h). */
    void (*reference)(const mg_schedule *s, const mg_kernel *k, mg_host *h);
    /* trace_inert: knobs (space separated; NULL: none) that change only
     * the OpenCL text, never plan() nor trace_wg(): schedules that differ
     * only in them time the same in the model, and a sweep simulates one
     * of them (sim/search/memo.h; checked by tests/unit/test_sweep.c). */
    const char *trace_inert;
    /* warp_body: the body trace_wg runs once per warp through mg_emit_wg
     * (ctx: the schedule), for an operator that can be a sub-kernel of
     * `fuse` (traces/ops/fuse.c): a 1D launch whose items read only
     * get_global_id(0), with no local memory, barrier or group ids, and a
     * body that takes its lane-by-lane path when w->lanewise is set.
     * NULL: not fusable. */
    void (*warp_body)(struct mg_warp *w, const void *ctx);
    /* packed_w: 1 when layout_w=packed is a layout of this operator (the
     * weights in its items' reading order); 0: refused by the parser. */
    int packed_w;
} mg_op;

/* The registry (op_list.c, from the list in traces/gen/op_list.h):
 * every operator in that order, NULL-terminated; lookup by name (NULL
 * when there is none). */
extern const mg_op *const mg_ops[];
const mg_op *mg_op_find(const char *name);

/* The common knobs' key table (schedule.c). */
extern const mg_key mg_common_keys[];

#endif

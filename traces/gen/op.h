/*
 * op.h - the operator interface of the generator (internal to traces/).
 *
 * One operator (conv2d, matmul, pchase, ...) is one file in traces/ops/
 * defining one mg_op, plus one line in the registry (traces/gen/op_list.c).
 * From a schedule it
 *   - plans the launch: tensors, kernel arguments, NDRange, static features;
 *   - emits the OpenCL C kernel, every memory access through the MG_* access
 *     macros of the preamble (gen/preamble.c), so the same source, built
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

typedef enum { MG_K_INT, MG_K_ENUM, MG_K_PAIR, MG_K_TRIPLE, MG_K_FLOAT, MG_K_LIST } mg_ktype;

/* One schedule key: name, type, where it lives in mg_schedule, range,
 * default (text as it would be written after '='), enum names, help. */
typedef struct mg_key {
    const char *name;
    mg_ktype    type;
    size_t      off;
    int64_t     min, max;
    const char *def;
    const char *const *names;
    const char *help;
} mg_key;

typedef struct mg_op {
    const char *name;
    const char *summary;
    const mg_key *keys;          /* the op's own keys, {NULL}-terminated */
    const char *knobs;           /* common knobs accepted, space separated */
    /* Adjust common-knob defaults for this op (may be NULL). */
    void (*defaults)(mg_schedule *s);
    /* Reject invalid combinations: add "where: reason" errors, return -1. */
    int  (*check)(const mg_schedule *s, const char *where, mg_diag *d);
    /* Fill k: tensors, args, NDRange, features, log capacity. */
    void (*plan)(const mg_schedule *s, mg_kernel *k);
    /* Append the kernel's OpenCL C source (after the common preamble). */
    void (*emit_cl)(const mg_schedule *s, const mg_kernel *k, mg_sb *out);
    /* Emit work group `wg`'s warps into out (mg_trace_wg_begin done). */
    void (*trace_wg)(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out);
    /* Fill inputs whose init is MG_INIT_CHAIN (may be NULL). */
    void (*init)(const mg_schedule *s, const mg_kernel *k, mg_host *h);
    /* Compute outputs from inputs, both in logical order (see kernel.h). */
    void (*reference)(const mg_schedule *s, const mg_kernel *k, mg_host *h);
    /* Knobs (space separated; NULL: none) that change only the OpenCL text,
     * never plan() nor trace_wg(): schedules that differ only in them time
     * the same in the model, and a sweep simulates one of them
     * (sim/search/memo.h; checked by tests/unit/test_sweep.c). */
    const char *trace_inert;
} mg_op;

/* The registry: every operator, NULL-terminated; lookup by name. */
extern const mg_op *const mg_ops[];
const mg_op *mg_op_find(const char *name);

/* The common knobs' key table (schedule.c). */
extern const mg_key mg_common_keys[];

#endif

/*
 * gen.h - the kernel generator (public API of traces/gen).
 *
 * From one schedule: the OpenCL C source, the launch plan with static
 * features (kernel.h), the access trace work group by work group (as an
 * in-memory mg_trace_source, or a file), the inputs and the CPU reference.
 * Nothing here uses OpenCL: probe/ runs the source on a device.
 *
 * The source defines every memory access through logging macros: built
 * with "-DMG_TRACE_LOG -DMG_LOG_CAP=<k.log_cap>" it takes one extra last
 * argument, a __global uint buffer of
 *     global_items x (4 + 4 * log_cap) uints,
 * where item g (linear global id, x fastest) writes at offset
 * g * (4 + 4*log_cap): word 0 = number of accesses made (may exceed
 * log_cap: then the log is incomplete), then 4 words per access:
 *     [site << 8 | mg_rec_type, object id, a, b]
 * with a = byte address (buffers, local, constant) or texel x, b = texel y.
 * mg_tracer_compare() (tracer.h) checks that against the trace.
 */
#ifndef MG_GEN_H
#define MG_GEN_H

#include <cjson/cJSON.h>

#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"
#include "traces/trace.h"
#include "base/diag.h"

typedef struct mg_gen {
    mg_schedule     s;
    mg_kernel       k;
    mg_trace_header hdr;
    char           *source;      /* NUL-terminated OpenCL C */
    size_t          source_len;
} mg_gen;

/* Plan and emit.  s must come from mg_schedule_parse/from_json.  Returns 0,
 * or -1 with a message. */
int  mg_gen_prepare(mg_gen *g, const mg_schedule *s, mg_diag *d);

/* The launch plan and static features only (g->k), no source (g->source
 * stays NULL) and no trace header: what search-space pruning needs, fast
 * enough for millions of candidates.  Same contract as mg_gen_prepare. */
int  mg_gen_plan(mg_gen *g, const mg_schedule *s, mg_diag *d);
void mg_gen_free(mg_gen *g);

/* Work groups in the launch; the trace of the one with linear index idx
 * (x fastest). */
uint64_t mg_gen_num_wgs(const mg_gen *g);
int  mg_gen_trace_wg(const mg_gen *g, uint64_t idx, mg_trace_wg *out);

/* An in-memory trace stream over every work group, in order.  The state
 * lives in *st, which must outlive the source. */
typedef struct mg_gen_stream {
    const mg_gen *g;
    uint64_t next;
} mg_gen_stream;
mg_trace_source mg_gen_source(mg_gen_stream *st, const mg_gen *g);

/* The work a launch makes, estimated from its plan alone (no trace):
 * warps, warp instructions (trace records: every access an item makes,
 * the tracer's log_cap, plus one ALU record per main-loop iteration) and
 * trace bytes.  Doubles: a launch's work may pass 2^64.  The records are
 * within a factor of 2 of the trace's (tests/unit/test_gen.c). */
typedef struct mg_gen_work {
    double wgs, warps, instrs, bytes;
} mg_gen_work;
void mg_gen_work_estimate(const mg_gen *g, mg_gen_work *w);

/* The default of --max-work: 10^9 warp instructions, a few minutes of
 * simulation at 3 to 6 M warp instructions/s. */
#define MG_GEN_MAX_WORK_DEFAULT 1e9

/* 0 when the launch's estimated warp instructions are at most max_work
 * (max_work 0: no limit); else -1 with a one-line error that gives the
 * estimate and says how to raise the limit. */
int mg_gen_check_work(const mg_gen *g, double max_work, mg_diag *d);

/* --max-work's value: a whole number >= 0 ("2000000000", "2e9") into
 * *out.  Returns 0, or -1 when text is not one. */
int mg_gen_max_work_parse(const char *text, double *out);

/* A count for people: whole below 10^6, else 3 significant digits
 * ("1.23e+09"). */
const char *mg_gen_count_str(double v, char *buf, size_t len);

/* kernel.json: schedule, launch geometry, arguments, tensors with shapes and
 * formats, static features.  Caller owns the result. */
cJSON *mg_gen_kernel_json(const mg_gen *g);

/* Write DIR/kernel.cl, DIR/kernel.json and, unless no_trace, DIR/trace.mgt
 * (each atomically; DIR is created if missing); with no_trace, a
 * DIR/trace.mgt of an earlier run is removed, and so are the temporaries
 * of an earlier run killed outright (NAME.tmp.PID of a PID that is gone).  On failure, or on
 * SIGINT/SIGTERM/SIGHUP while writing, what this call wrote is removed,
 * and DIR too when this call created it.  src: the work groups to write
 * (g's own source, possibly wrapped, e.g. to draw progress), or NULL for
 * g's own source. */
int mg_gen_write_dir(const mg_gen *g, const char *dir, int no_trace, mg_trace_source *src,
                     mg_diag *d);

/* Host data: allocate every tensor, fill inputs from the schedule's seed
 * (outputs zero), run the reference into the outputs.  Inputs are rounded
 * to the storage precision first, as the device sees them. */
int  mg_host_init(const mg_gen *g, mg_host *h);
void mg_host_reference(const mg_gen *g, mg_host *h);
void mg_host_free(mg_host *h);

#endif

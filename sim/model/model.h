/*
 * model.h - the timing model: replay a trace on a device config (public API).
 *
 * Mechanisms (sim/MODEL.md explains each with the config keys it reads):
 * work groups are dispatched to shader cores (SPs) while they fit (warp
 * slots, resident items, registers, local memory); a work group too large
 * for the registers of one SP runs in occupancy groups, one after the
 * other (and is rejected when it has barriers); resident warps issue in
 * order, switching among warps hides latency; ALU records occupy the SP's
 * ALU pipe for their lane-operations at the configured rates; memory
 * records go through the per-SP texture L1 (2D tiles) or buffer L1, the
 * shared L2 and DRAM, each with latency and a bandwidth budget; a warp has
 * at most max_outstanding_per_warp loads in flight and an ALU record waits
 * for the warp's outstanding loads (in-order issue, use after load).
 *
 * Statistics are counted here (mg_sim_stats) and printed elsewhere
 * (report.c): text for people, JSON for tools.
 */
#ifndef MG_MODEL_H
#define MG_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "traces/trace.h"
#include "base/diag.h"

enum { MG_LV_TEX_L1, MG_LV_BUF_L1, MG_LV_LOCAL, MG_LV_CONST, MG_LV_L2, MG_LV_DRAM,
       MG_LV_COUNT };

typedef struct mg_level_stats {
    uint64_t accesses;       /* line lookups (or requests for uncached levels) */
    uint64_t hits, misses;
    double   bytes;          /* bytes moved through this level */
} mg_level_stats;

enum { MG_STALL_MEM, MG_STALL_ALU, MG_STALL_BARRIER, MG_STALL_IDLE, MG_STALL_COUNT };

typedef struct mg_sim_stats {
    double   cycles;                     /* kernel time in shader cycles */
    double   seconds;
    double   flops;                      /* from ALU records */
    double   alu_lane_ops[MG_ALU_CLASS_COUNT];
    uint64_t warp_instrs;                /* records replayed */
    uint64_t records[MG_REC_TYPE_COUNT];
    uint64_t lane_accesses;              /* active lanes of memory records */
    uint64_t work_groups, warps;
    uint32_t occupancy_groups;           /* most groups any work group needed */
    uint32_t warps_per_group;            /* resident warps of such a group */
    double   resident_warps_mean;        /* per SP, time-weighted while busy */
    uint32_t resident_warps_max;         /* per SP */
    double   alu_busy;                   /* SP-cycles the ALU pipes were busy */
    double   stall[MG_STALL_COUNT];      /* warp-cycles waiting, by cause */
    mg_level_stats lv[MG_LV_COUNT];
    int      fp16_dominant;              /* more fp16 than fp32 lane-ops */
    /* Sampled simulation (sample.c; sim/MODEL.md "Sampled simulation"): all
     * zero with MG_SAMPLE_OFF.  With sampling, the fields above describe the
     * whole launch (the skipped work groups extrapolated). */
    int      sample_mode;                /* as asked: MG_SAMPLE_AUTO or N waves */
    int      sample_used;                /* 1: part of the launch was extrapolated */
    int      sample_note;                /* MG_SAMPLE_NOTE_*: why it was not */
    uint64_t sample_wgs_simulated;       /* work groups replayed */
    uint32_t sample_wave;                /* work groups resident at once (a wave) */
    uint32_t sample_warmup_waves;        /* waves replayed before the measurement */
    double   sample_measured_waves;      /* waves in the measured steady state */
    uint32_t sample_windows;             /* measured windows spread over the launch */
    uint32_t sample_positions;           /* grid-position classes examined */
    uint32_t sample_classes;             /* kinds of work group among them */
    double   sample_error;               /* estimated relative error of cycles */
    /* opts.cycle_limit: 1 when the replay passed it and stopped there.  The
     * kernel then takes more than cycle_limit cycles (exactly so for a full
     * replay; for a sampled one the replayed cycles are compared, which the
     * estimate exceeds but for its re-warming correction); cycles holds the
     * limit and every other field is partial and meaningless. */
    int      cut;
    /* With cut: 1 when the trace alone showed it before any replay (its
     * lower bound passed the limit: sim/MODEL.md, "The trace's lower
     * bound"), 0 when the replay passed the limit. */
    int      cut_by_bound;
} mg_sim_stats;

/* Why a sampled simulation replayed everything (sample_note). */
enum { MG_SAMPLE_NOTE_NONE = 0, MG_SAMPLE_NOTE_FEW, MG_SAMPLE_NOTE_NONUNIFORM,
       MG_SAMPLE_NOTE_NOSEEK };
const char *mg_sample_note_text(int note);

/* Parse a --sample value: "off", "auto" or a number of waves N >= 1 (at
 * most 1000).  Returns 0 with *mode set, -1 when s is none of these. */
int mg_sample_parse(const char *s, int *mode);

typedef struct mg_roofline {
    double peak_flops;                   /* per second, the dominant precision */
    double bw[MG_LV_COUNT];              /* bytes/s ceilings (0: level unused) */
    double oi[MG_LV_COUNT];              /* flops per byte at each level */
    double bound_flops;                  /* attainable flops/s */
    int    binding;                      /* -1: compute, else the level */
    double bound_seconds;                /* flops / bound_flops */
    double achieved_flops;
    double over_bound;                   /* simulated time / bound time */
} mg_roofline;

/* Sampled simulation: MG_SAMPLE_OFF replays every work group;
 * MG_SAMPLE_AUTO lets the model pick warm-up plus a few waves per class of
 * work groups and extrapolate; N > 0 simulates N waves of dispatch per SP. */
enum { MG_SAMPLE_OFF = 0, MG_SAMPLE_AUTO = -1 };

typedef struct mg_sim_opts {
    int quiet;                           /* no progress on a terminal */
    int sample;                          /* MG_SAMPLE_OFF, MG_SAMPLE_AUTO or N waves */
    double cycle_limit;                  /* > 0: stop once the replay passes this many
                                            cycles (launch overhead included); the
                                            stats then say cut, nothing else */
    int no_bound;                        /* with cycle_limit: never cut on the trace's
                                            lower bound, always replay (tests) */
    int spill;                           /* registers per item above the device's
                                            registers.max_regs_per_item run at the last
                                            occupancy step (a compiler that spills, at no
                                            modelled cost) instead of being refused with
                                            CL_OUT_OF_RESOURCES: for the virtual probe,
                                            whose plan reaches past the maximum as mgprobe's
                                            does on devices whose compilers spill */
    int warm_l2;                         /* the L2 starts holding every line of the
                                            launch's images and buffers, as an
                                            identical launch just before left it
                                            (kernels timed over repeated launches;
                                            MODEL.md "Memory") */
} mg_sim_opts;

/* Replay every work group of src on dev.  Returns 0 with *st filled, or -1
 * with a message (a work group that cannot launch, a trace that does not
 * fit the device, a malformed trace). */
int mg_sim_run(const mg_device *dev, mg_trace_source *src, const mg_sim_opts *opts,
               mg_sim_stats *st, mg_diag *d);

/* The roofline of a finished simulation. */
void mg_roofline_compute(const mg_device *dev, const mg_sim_stats *st, mg_roofline *r);

/* Level names for printing: "tex_l1", "buffer_l1", "local", "constant", "l2", "dram". */
const char *mg_level_name(int lv);

/* Stall class names for printing: "memory", "alu", "barrier", "idle". */
const char *mg_stall_name(int s);

/* Reports (report.c). */
void   mg_sim_print_text(FILE *f, const mg_device *dev, const mg_trace_header *h,
                         const mg_sim_stats *st, const mg_roofline *r);
cJSON *mg_sim_to_json(const mg_device *dev, const mg_trace_header *h,
                      const mg_sim_stats *st, const mg_roofline *r);

#endif

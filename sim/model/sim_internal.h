/*
 * sim_internal.h - the timing model's state (internal to sim/model).
 */
#ifndef MG_SIM_INTERNAL_H
#define MG_SIM_INTERNAL_H

#include <stdint.h>

#include "sim/model/cache/cache.h"
#include "sim/model/fills.h"
#include "sim/model/model.h"

/* A resource that serves requests one after another at a fixed rate: the
 * next request starts when both it and the resource are ready. */
typedef struct mg_pipe {
    double free_at;        /* cycle the resource is next free */
    double per_cycle;      /* units (bytes, lane-ops) served per cycle */
} mg_pipe;

/* Reserve `units` on p no earlier than t; returns the start cycle and
 * advances p->free_at by the service time. */
static inline double mg_pipe_take(mg_pipe *p, double t, double units)
{
    double start = t > p->free_at ? t : p->free_at;
    p->free_at = start + units / p->per_cycle;
    return start;
}

/* Lane-operations per cycle of an ALU class on one SP. */
static inline double mg_alu_rate(const mg_device *dev, int cls)
{
    double alus = (double)dev->alus_per_sp;
    switch (cls) {
    case MG_ALU_FP16: return alus * dev->fp16_flops_per_alu_cycle / 2.0;
    case MG_ALU_INT: return alus * dev->int_ops_per_alu_cycle;
    case MG_ALU_SFU: return dev->sfu_ops_per_sp_cycle;
    default: return alus * dev->fp32_flops_per_alu_cycle / 2.0;
    }
}

/* ALU record r's work in lane-operations of its class: it holds its SP's
 * ALU pipe for units / mg_alu_rate(dev, r->cls) cycles.  *scalar is set
 * to 1 when it goes to the scalar pipe (vec4 issue's scalar units)
 * instead of the vector pipe.  sim.c's issue_alu and the trace's lower
 * bound (bound.c) both charge exactly this. */
static inline uint64_t mg_alu_units(const mg_device *dev, const mg_rec *r, int *scalar)
{
    /* a warp occupies the lanes of a whole hardware warp, active or not */
    uint64_t lanes = r->lanes > dev->warp_width ? (uint64_t)r->lanes : (uint64_t)dev->warp_width;
    /* vec4 issue: an instruction fills a 4-lane vector unit whatever its
     * width, so a scalar op costs as much as a vec4 (alus_per_sp counts the
     * scalar lanes: T860's 2 pipes x 4) */
    uint64_t vec = dev->issue == MG_ISSUE_VEC4 ? (uint64_t)((r->vec + 3) / 4 * 4) : r->vec;
    /* ... but each vec4 pipe also has a scalar unit that a VLIW word fills
     * beside its vector ops (tvm-mali-blog: "four 128-bit vector units and
     * one scalar unit" per pipe): scalar integer work (addresses, counters)
     * goes there, at one op per pipe per cycle, in parallel with the vector
     * pipe.  Only the vector pipe counts as ALU busy. */
    *scalar = dev->issue == MG_ISSUE_VEC4 && r->vec == 1 && r->cls == MG_ALU_INT;
    return (uint64_t)r->n * vec * lanes;
}

/* Memory record types as the memory path classifies them: local memory
 * (on chip, or system memory on the buffer path) and stores (buffer or
 * local; an image write is neither). */
static inline int mg_rec_is_local(int type)
{
    return type == MG_REC_LOCAL_LOAD || type == MG_REC_LOCAL_STORE;
}

static inline int mg_rec_is_store(int type)
{
    return type == MG_REC_BUF_STORE || type == MG_REC_LOCAL_STORE;
}

/* Cache line ids (mem.c): the top byte names an id space, the low 48 bits
 * are a line (or tile) in it.  Buffer obj's lines are in space obj + 1,
 * image obj's (texlayout.h) in space obj + 1 + MG_TRACE_MAX_OBJS, so a
 * buffer and an image of the same index never share a line; space 255
 * holds the local memory of the buffer path, bits 48 .. 55 naming the SP
 * it belongs to. */
#define MG_LINE_SPACE_SHIFT 56
#define MG_LINE_SP_SHIFT    48
#define MG_LINE_LOCAL_SPACE 255u

/* The id bits of buffer obj's space. */
static inline uint64_t mg_line_space_obj(unsigned obj)
{
    return (uint64_t)(obj + 1) << MG_LINE_SPACE_SHIFT;
}

/* The id bits of image obj's space. */
static inline uint64_t mg_line_space_img(unsigned obj)
{
    return (uint64_t)(obj + 1 + MG_TRACE_MAX_OBJS) << MG_LINE_SPACE_SHIFT;
}

/* The id bits of SP sp's local memory on the buffer path. */
static inline uint64_t mg_line_space_local(int sp)
{
    return (uint64_t)MG_LINE_LOCAL_SPACE << MG_LINE_SPACE_SHIFT | (uint64_t)sp << MG_LINE_SP_SHIFT;
}

/* The line within its space of line id `id`. */
static inline uint64_t mg_line_in_space(uint64_t id)
{
    return id & (((uint64_t)1 << MG_LINE_SP_SHIFT) - 1);
}

struct mg_wgi;
struct mg_warpi;

/* core.scheduler oldest (sim.c): warps waiting for a busy ALU pipe, oldest
 * (lowest seq) first.  Only w[0] has an event in the heap, at the cycle
 * the pipe frees; the others wait off the heap, so a busy pipe costs one
 * event per issue, not one per waiting warp. */
typedef struct mg_park {
    struct mg_warpi **w;
    uint32_t n, cap;
} mg_park;

typedef struct mg_warpi {
    struct mg_wgi *wg;
    uint32_t index;             /* warp index in its work group */
    double   ready;             /* cycle the next record may issue */
    uint32_t nloads;
    uint32_t lrec;              /* load records issued (an ALU record's keep counts them) */
    int      at_barrier, done;
    int      has_rec;           /* rec decoded, waiting to issue */
    int      parked;            /* in its SP's mg_park (oldest scheduler) */
    uint32_t gen;               /* events pushed with another gen are stale */
    double   park_t;            /* cycle it started waiting for the ALU */
    uint32_t part;              /* loads of rec issued so far (split buffer loads) */
    uint32_t pi;                /* its SP's partition (mg_spi.part) */
    mg_rec  *rec;               /* the next record (owned) */
    uint64_t seq;               /* tie-breaker: deterministic order */
    double   loads[64];         /* completion cycles of loads in flight */
    uint8_t  lmiss[64];         /* ... and whether each missed its first-level cache */
    uint32_t lseq[64];          /* ... and the load record each belongs to (lrec then) */
    mg_trace_cursor cur;        /* last: its large site table is cold */
} mg_warpi;

/* An entry of the event queue: a warp, with the (ready, seq) it was queued
 * at (a queued warp's ready does not change until it is popped). */
typedef struct mg_event {
    double   ready;
    uint64_t seq;
    mg_warpi *w;
    uint32_t gen;               /* w->gen when pushed */
} mg_event;

typedef struct mg_wgi {
    mg_trace_wg tw;             /* this work group's records (owned) */
    int      sp;
    uint32_t n_warps;
    mg_warpi *warps;            /* warps_cap entries, the first n_warps in use */
    uint32_t warps_cap;
    uint32_t group_warps;       /* warps resident at once */
    uint32_t group, n_groups;   /* current occupancy group */
    uint32_t active;            /* warps of the current group not done */
    uint32_t at_barrier;
    double   barrier_max;       /* latest arrival at the current barrier */
    uint32_t res_warps, res_items;
    uint64_t res_regs, res_local;
    struct mg_wgi *prev, *next; /* the list of dispatched work groups */
} mg_wgi;

/* One of an SP's core.partitions sub-cores: the pipes its warps issue to,
 * each at 1/partitions of the SP's rate (MODEL.md, Issue). */
#define MG_MAX_PARTITIONS 8
static inline uint32_t mg_sim_partitions(const mg_device *dev)
{
    return dev->partitions >= 1 && dev->partitions <= MG_MAX_PARTITIONS
               ? (uint32_t)dev->partitions : 1u;
}
typedef struct mg_part {
    mg_pipe  alu;               /* cycles (units are cycles: sim.c issue_alu) */
    mg_pipe  salu;              /* vec4 issue: the pipes' scalar units (sim.c) */
    mg_park  park_alu, park_salu;    /* warps waiting for them (oldest scheduler) */
    mg_pipe  tex, buf, lmem, cmem;   /* L1-level bandwidth, bytes per cycle */
} mg_part;

typedef struct mg_spi {
    uint32_t warps, items;      /* resident */
    uint64_t regs, local;
    uint32_t wgs;               /* resident work groups */
    int      exclusive;         /* a work group in occupancy groups owns it */
    mg_part  part[MG_MAX_PARTITIONS];
    uint32_t next_part;         /* the partition the next resident warp goes to */
    mg_pipe  lookup;            /* the buffer L1's tag stage, shared (mem.c) */
    mg_pipe  texu;              /* the texture unit's block stage, shared (mem.c) */
    mg_cache tex_l1, buf_l1;
    mg_fill *tex_fills, *buf_fills; /* their fills in flight (fills.h); NULL: not kept */
    double   busy_since, last_change;
    double   warp_time;         /* integral of resident warps over time */
    double   busy_time;
} mg_spi;

#define MG_MAX_L2_BANKS 64     /* l2.banks' range (schema.c) */

typedef struct mg_sampler mg_sampler;

typedef struct mg_sim {
    const mg_device *dev;
    const mg_trace_header *hdr;
    mg_trace_source *src;
    mg_sim_stats *st;
    mg_diag *d;
    mg_spi  *sps;
    mg_pipe  l2bw, drambw;
    mg_pipe  l2bank[MG_MAX_L2_BANKS];  /* mem.c: the L2's banks (l2.banks of them) */
    mg_cache l2;
    double   dram_latency;      /* cycles */
    uint32_t regs_per_item;     /* rounded to the register granule */
    int      has_barriers;
    uint32_t warps_per_wg, items_per_wg;
    /* the event queue: warps by (ready, seq) */
    mg_event *heap;
    size_t   nheap, capheap;
    int      top_out;           /* heap[0] is being stepped (sim.c, heap_push) */
    uint64_t seq;
    mg_wgi **pending;           /* work groups fetched, not yet dispatched */
    mg_wgi  *live;              /* dispatched work groups, for cleanup */
    mg_wgi  *spare;             /* finished work groups, for reuse (sim.c, wg_recycle) */
    int      src_done;
    double   now;
    int      failed;
    struct mg_sampler *smp;     /* sampled simulation (sample.h); NULL: off */
    struct mg_texlayout *tex;   /* mem.c: each image's layout (hdr->n_images) */
    int      l2_line_sh, buf_l1_line_sh;   /* mem.c: log2 of the lines, -1: not a power of 2 */
    int      last_miss;         /* mem.c: the last access missed a first-level cache */
    double   issue_after;       /* mem.c: the accessing warp issues again no sooner */
} mg_sim;

/* occupancy.c: how many warps of a work group fit an SP at once by
 * registers, warp slots and items (0 when not even one warp fits). */
uint32_t mg_occ_group_warps(const mg_sim *s);
/* The same for a device, warps of `lanes` and regs_per_item registers per
 * item (already rounded to the allocation granule); also read by the
 * analytic model (sim/analytic). */
uint32_t mg_occ_warps(const mg_device *dev, uint32_t lanes, uint64_t regs_per_item);
/* Registers one warp holds. */
uint64_t mg_occ_warp_regs(const mg_sim *s, uint32_t lanes);

/* mem.c: issue memory record r of a warp on SP sp, partition pi, at cycle t; returns the
 * cycle its data is available (loads) or accepted (stores).  ln[0 .. nl)
 * are the lanes mg_rec_distinct_lanes() lists for r (a distinct_only
 * cursor's ln, nln), or ln is NULL and mem.c lists them. */
double mg_mem_access(mg_sim *s, int sp, uint32_t pi, const mg_rec *r, const uint8_t *ln,
                     uint32_t nl, double t);
int    mg_mem_init(mg_sim *s);
void   mg_mem_warm_l2(mg_sim *s);
/* Pipes whose busy time the trace alone fixes, for a lower bound of a
 * launch's cycles (bound.c).  The first MG_BP_PER_SP are one per SP (their
 * busy time is summed over the SPs), MG_BP_L2 is the shared L2 port. */
enum { MG_BP_ALU, MG_BP_SALU, MG_BP_TEX, MG_BP_BUF, MG_BP_LMEM, MG_BP_CMEM,
       MG_BP_PER_SP, MG_BP_L2 = MG_BP_PER_SP, MG_BP_COUNT };

/* mem.c: the pipes (MG_BP_*) that mg_mem_access holds for at least every
 * byte its lanes move when it issues a memory record of `type` on dev:
 * pipes[0 .. n), n returned (0 to 2).  What a cache miss adds, which
 * depends on timing and order, is not among them. */
int    mg_mem_pipes(const mg_device *dev, int type, int pipes[2]);
/* Bytes per cycle of memory pipe p (MG_BP_TEX ..): one SP's for a per-SP
 * pipe; 0 for a pipe the device does not have. */
double mg_mem_pipe_rate(const mg_device *dev, int p);
void   mg_mem_free(mg_sim *s);

#endif

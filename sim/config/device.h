/*
 * device.h - a mobile GPU described for the timing model (public API).
 *
 * A device config is a JSON file (schema "mgsim-device/1", documented in
 * configs/README.md) loaded into an mg_device.  Every field below is one row
 * of the schema table in schema.c (key, type, unit, range, default, help);
 * the loader checks a file against the table and the cross-field rules in
 * rules.c in one pass and reports every problem it finds.
 *
 * All quantities are held in base units: bytes, Hz, bytes/s, seconds,
 * cycles.  Bandwidths are whole-device aggregates (what a microbenchmark
 * using every core measures), not per core.
 */
#ifndef MG_DEVICE_H
#define MG_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

#define MG_SCHEMA_NAME "mgsim-device/1"
#define MG_NAME_MAX    64
#define MG_REF_MAX     200
#define MG_MAX_STEPS   8
#define MG_MAX_FIELDS  96

typedef enum { MG_FAMILY_ADRENO, MG_FAMILY_MALI, MG_FAMILY_NVIDIA,
               MG_FAMILY_GENERIC } mg_family;
typedef enum { MG_ISSUE_SCALAR, MG_ISSUE_VEC4 } mg_issue;
typedef enum { MG_SCHED_OLDEST, MG_SCHED_ROUND_ROBIN } mg_scheduler;
typedef enum { MG_LOADS_ALL, MG_LOADS_TRACE } mg_load_deps;
typedef enum { MG_REG_SHARED_POOL, MG_REG_DEDICATED } mg_reg_model;
typedef enum { MG_BUF_VIA_L2, MG_BUF_VIA_L1 } mg_buffer_path;
typedef enum { MG_VLOAD_VECTOR, MG_VLOAD_ELEMENTS } mg_vload;
typedef enum { MG_LOCAL_ONCHIP, MG_LOCAL_SYSTEM } mg_local_kind;
typedef enum { MG_CONST_OWN, MG_CONST_BUFFER } mg_const_path;

/* Where a value came from (facts.md tags, plus fitted). */
typedef enum {
    MG_SRC_NONE = 0,     /* not set in the file: the schema default */
    MG_SRC_MEASURED,     /* M: microbenchmark measurement */
    MG_SRC_VENDOR,       /* V: vendor-published */
    MG_SRC_DRIVER,       /* D: open-driver constant (Mesa, msm, ...) */
    MG_SRC_AGGREGATOR,   /* A: spec aggregator */
    MG_SRC_INFERRED,     /* I: inferred from other figures */
    MG_SRC_FITTED,       /* fitted to reproduce a published curve */
    MG_SRC_DEFAULT       /* the schema default, written out (config show) */
} mg_source_kind;

typedef struct mg_source {
    mg_source_kind kind;
    char ref[MG_REF_MAX];     /* citation: "romou Table 2", "facts.md Adreno 640" */
    char curve[MG_REF_MAX];   /* for fitted values: the curve reproduced */
    char check[MG_REF_MAX];   /* a plausibility check's verdict (mgsim calibrate:
                                 "flagged by RULE: ..." or "refused by RULE: ...") */
} mg_source;

typedef struct mg_cache_cfg {
    int64_t size;             /* bytes */
    int64_t line;             /* bytes, a power of two */
    int64_t assoc;            /* ways; size / line for fully associative */
    int     replacement;      /* index in mg_replacement_names (sim/model/cache/policy_list.h) */
    int64_t latency_cycles;   /* L1: load-to-use latency of a hit; L2: cycles
                                 added on top of the requesting path's latency */
    double  bandwidth;        /* bytes/s, whole device */
} mg_cache_cfg;

typedef struct mg_occ_step {
    int64_t max_regs;         /* registers per work item up to this count ... */
    int64_t max_items;        /* ... allow this many resident items per core */
} mg_occ_step;

typedef struct mg_device {
    /* device identity */
    char    schema[MG_NAME_MAX];
    char    name[MG_NAME_MAX];
    char    vendor[MG_NAME_MAX];
    int     family;                 /* mg_family */
    char    arch[MG_NAME_MAX];
    char    soc[MG_NAME_MAX];
    char    notes[MG_REF_MAX];

    /* shader cores */
    int64_t sp_count;
    int64_t alus_per_sp;            /* fp32 lanes per core */
    double  clock_hz;
    double  fp32_flops_per_alu_cycle;
    double  fp16_flops_per_alu_cycle;
    double  int_ops_per_alu_cycle;
    double  sfu_ops_per_sp_cycle;   /* transcendental ops per core per cycle */
    int     issue;                  /* mg_issue */
    int     scheduler;              /* mg_scheduler: who gets a busy ALU next */
    int64_t warp_width;
    int64_t warp_width_max;
    int64_t max_warps_per_sp;
    int64_t max_items_per_sp;
    int64_t max_workgroup_size;
    int64_t max_wgs_per_sp;     /* resident work groups per SP, 0: no cap */
    int64_t max_outstanding_per_warp;
    int64_t partitions;         /* sub-cores of an SP (MODEL.md, Issue) */
    int64_t max_misses_per_warp;    /* L1 misses in flight per warp, 0: no cap */
    int64_t track_fills;            /* 1: L1 hits wait for fills in flight (fills.h) */
    int     load_deps;              /* mg_load_deps: which loads an ALU record waits for */
    int64_t alu_latency_cycles;

    /* registers */
    int     reg_model;              /* mg_reg_model */
    int64_t pool_regs_per_sp;       /* shared pool: 32-bit registers per core */
    int64_t max_regs_per_item;
    int64_t reg_granule;            /* allocation granularity, registers per item */
    int     nsteps;                 /* dedicated: occupancy steps */
    mg_occ_step steps[MG_MAX_STEPS];

    /* texture L1 (per core, read-only, 2D-blocked) */
    mg_cache_cfg tex_l1;
    int64_t tile_w_texels;          /* a line covers tile_w x tile_h texels ... */
    int64_t tile_h_texels;
    int64_t tile_texel_bytes;       /* ... of this many bytes each */
    /* the texture unit (mem.c, tex_unit_blocks; 0 group bytes: off, the
     * texture L1's byte pipe instead): a read's lanes go through it in
     * groups of unit_group_bytes of texel data, each group one cycle per
     * distinct unit_block_bytes x unit_block_rows block it touches */
    int64_t tex_unit_group_bytes;
    int64_t tex_unit_block_bytes;
    int64_t tex_unit_block_rows;
    double  tex_unit_blocks_per_cycle;  /* per SP */
    int64_t tex_unit_issue_cycles;      /* the reading warp's wait past the unit's blocks */

    /* image layout below the texture L1: images are stored in 2D blocks of
     * block_w x block_h texels of tile_texel_bytes, and an L2 miss on an
     * image line fetches its whole block from DRAM (0, 0: one L2 line) */
    int64_t img_block_w_texels;
    int64_t img_block_h_texels;

    /* buffer path */
    int     buffer_path;            /* mg_buffer_path */
    int64_t buffer_latency_cycles;  /* MG_BUF_VIA_L2: base latency of the path */
    int64_t buffer_max_load_bytes;  /* widest single buffer load issued (0: any) */
    int     buffer_vload;           /* mg_vload: a vector load as one, or per element */
    int64_t buf_l1_lookup_bytes;    /* L1 serves one such block per cycle (0: off) */
    double  buf_l1_partition_lookup_cycles; /* a partition's cycles per such block */
    mg_cache_cfg buf_l1;            /* valid when buffer_path == MG_BUF_VIA_L1 */

    /* local memory */
    int     local_kind;             /* mg_local_kind */
    int64_t local_size;             /* bytes per work group */
    double  local_bandwidth;        /* on-chip only */
    int64_t local_broadcast_bytes;  /* a read of at most these distinct bytes is
                                       broadcast (0: off); on-chip only */
    double  local_broadcast_bandwidth; /* rate of a broadcast read; on-chip only */
    int64_t local_latency_cycles;   /* on-chip only */

    /* constant memory */
    int64_t const_size;
    double  const_bandwidth;
    int64_t const_latency_cycles;
    int     const_path;             /* mg_const_path: own pipe, or the buffer path */

    /* shared L2 */
    mg_cache_cfg l2;
    /* its banks (mem.c, bank_stage; 0 banks: off): a buffer access on the
     * L1-less path is split into requests of l2_request_lanes lanes, each
     * moving the distinct l2_sector_bytes sectors its lanes touch through
     * the bank of each sector (l2_bank_bytes-interleaved), a pipe of
     * l2_bank_bandwidth */
    int64_t l2_banks;
    int64_t l2_bank_bytes;
    double  l2_bank_bandwidth;
    int64_t l2_request_lanes;
    int64_t l2_sector_bytes;

    /* DRAM */
    double  dram_bandwidth;
    double  dram_latency_s;         /* added beyond an L2 miss */
    double  launch_overhead_s;      /* fixed timed cost of a launch, no work */
    double  dispatch_gap_s;         /* untimed gap between launches (mgsim net) */

    /* provenance, indexed like the schema table */
    unsigned char set[MG_MAX_FIELDS];     /* 1 when the file gave the value */
    mg_source     src[MG_MAX_FIELDS];
} mg_device;

/* Load and check a device config: `arg` is a path, or a name found through
 * the config search path (sim/config/find.h: `adreno640`).  Returns 0 and
 * fills *dev, or -1 after adding every problem found to d (messages name
 * the file and the JSON path).  With `strict`, a value set without an entry
 * in "sources" is an error; otherwise it is a warning. */
int mg_device_load(const char *arg, int strict, mg_device *dev, mg_diag *d);

/* The parsed document of the config `arg` names (a path or a name, as for
 * mg_device_load), with the file it came from written into path (size
 * len); NULL after adding one error to d.  Caller owns the result. */
cJSON *mg_device_json_load(const char *arg, char *path, size_t len, mg_diag *d);

/* The same, from a parsed document; `name` is used in messages. */
int mg_device_from_json(const cJSON *root, const char *name, int strict,
                        mg_device *dev, mg_diag *d);

/* The fully resolved config (defaults filled, canonical units), plus its
 * "sources".  Caller owns the result (cJSON_Delete). */
cJSON *mg_device_to_json(const mg_device *dev);

/* Derived figures, for reports and the model. */
double mg_device_peak_flops(const mg_device *dev, int fp16);
int64_t mg_device_tex_sets(const mg_device *dev);
/* Lane bytes per second the texture path can deliver, whole device: the
 * texture unit's (unit_group_bytes x blocks per cycle) when it is on,
 * else tex_l1.bandwidth. */
double mg_device_tex_bandwidth(const mg_device *dev);

/* Names of enum values, for messages and printing. */
const char *mg_source_kind_name(mg_source_kind k);
const char *mg_repl_name(int replacement);     /* "lru", "fifo", ... */

#endif

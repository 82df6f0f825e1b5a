/*
 * schema.c - the device-config schema: one row per key.
 *
 * To add a key: add a field to mg_device (device.h), one row here, a line in
 * configs/README.md, and, if it relates to other keys, a rule in rules.c.
 * Rows with a `when` condition must come after the key they test.
 */
#include "sim/config/schema.h"
#include "sim/model/cache/policy_list.h"

#include "base/hash.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

const char *const mg_family_names[] = {"adreno", "mali", "nvidia", "generic", NULL};
const char *const mg_issue_names[] = {"scalar", "vec4", NULL};
const char *const mg_scheduler_names[] = {"oldest", "round_robin", NULL};
const char *const mg_load_deps_names[] = {"all", "trace", NULL};
const char *const mg_reg_model_names[] = {"shared_pool", "dedicated", NULL};
const char *const mg_buffer_path_names[] = {"l2", "l1", NULL};
const char *const mg_vload_names[] = {"vector", "elements", NULL};
const char *const mg_local_kind_names[] = {"onchip", "system", NULL};
const char *const mg_const_path_names[] = {"own", "buffer", NULL};
#define MG_REPL_NAME(p) #p,
const char *const mg_replacement_names[] = {MG_REPL_POLICIES(MG_REPL_NAME) NULL};
#undef MG_REPL_NAME
const char *const mg_source_kind_names[] = {"default", "measured", "vendor", "driver",
                                            "aggregator", "inferred", "fitted", "default",
                                            NULL};

const char *const mg_schema_sections[] = {"device", "core", "registers", "tex_l1",
                                          "buffer", "buffer_l1", "local", "constant",
                                          "l2", "dram", "image", NULL};

#define OFF(m) offsetof(mg_device, m)
#define KIB 1024.0
#define GIB (1024.0 * 1024.0 * 1024.0)
#define BIG_BYTES (1024.0 * GIB)          /* 1 TiB */

/* Rows of a set-associative cache at `pre` stored in mg_device member `m`;
 * `w` is the when-condition (NULL when always present). */
#define CACHE_ROWS(pre, m, w, what, lat)                                              \
    {pre ".size", MG_T_SIZE, OFF(m.size), 0, 16, BIG_BYTES, NULL, NULL, w,       \
     "bytes", "capacity of " what},                                              \
    {pre ".line", MG_T_SIZE, OFF(m.line), 0, 4, 4096, NULL, NULL, w, "bytes",    \
     "line (block) size of " what "; a power of two"},                           \
    {pre ".assoc", MG_T_INT, OFF(m.assoc), 0, 1, 65536, "4", NULL, w, "ways",    \
     "associativity of " what "; size/line for fully associative"},              \
    {pre ".replacement", MG_T_ENUM, OFF(m.replacement), 0, 0, 0, "lru",          \
     mg_replacement_names, w, "policy", "replacement policy of " what},          \
    {pre ".latency_cycles", MG_T_INT, OFF(m.latency_cycles), 0, 1, 100000, NULL, \
     NULL, w, "cycles", lat},                 \
    {pre ".bandwidth", MG_T_BW, OFF(m.bandwidth), 0, 1e6, 1e15, NULL, NULL, w,   \
     "bytes/s", "sustained bandwidth of " what ", whole device"}

const mg_field mg_schema[] = {
    /* identity */
    {"schema", MG_T_STR, OFF(schema), MG_NAME_MAX, 0, 0, MG_SCHEMA_NAME, NULL, NULL,
     "text", "schema name and version; must be \"" MG_SCHEMA_NAME "\""},
    {"device.name", MG_T_STR, OFF(name), MG_NAME_MAX, 0, 0, NULL, NULL, NULL, "text",
     "short identifier, e.g. adreno640"},
    {"device.vendor", MG_T_STR, OFF(vendor), MG_NAME_MAX, 0, 0, "unknown", NULL, NULL,
     "text", "GPU vendor"},
    {"device.family", MG_T_ENUM, OFF(family), 0, 0, 0, "generic", mg_family_names, NULL,
     "family", "architecture family; selects nothing by itself, every behaviour has its own key"},
    {"device.arch", MG_T_STR, OFF(arch), MG_NAME_MAX, 0, 0, "", NULL, NULL, "text",
     "architecture generation, e.g. \"Adreno 6xx\", \"Bifrost\""},
    {"device.soc", MG_T_STR, OFF(soc), MG_NAME_MAX, 0, 0, "", NULL, NULL, "text",
     "system on chip or board, e.g. \"Snapdragon 855\""},
    {"device.notes", MG_T_STR, OFF(notes), MG_REF_MAX, 0, 0, "", NULL, NULL, "text",
     "free text"},

    /* shader cores */
    {"core.sp_count", MG_T_INT, OFF(sp_count), 0, 1, 4096, NULL, NULL, NULL, "count",
     "shader cores (Adreno SPs, Mali cores, NVIDIA SMs)"},
    {"core.alus_per_sp", MG_T_INT, OFF(alus_per_sp), 0, 1, 16384, NULL, NULL, NULL,
     "lanes", "fp32 ALU lanes per core"},
    {"core.clock", MG_T_FREQ, OFF(clock_hz), 0, 1e6, 1e10, NULL, NULL, NULL, "Hz",
     "shader clock"},
    {"core.fp32_flops_per_alu_cycle", MG_T_NUM, OFF(fp32_flops_per_alu_cycle), 0, 0.0625,
     64, "2", NULL, NULL, "flops", "fp32 flops per lane per cycle (2 = one FMA)"},
    {"core.fp16_flops_per_alu_cycle", MG_T_NUM, OFF(fp16_flops_per_alu_cycle), 0, 0.0625,
     128, "=core.fp32_flops_per_alu_cycle", NULL, NULL, "flops",
     "fp16 flops per lane per cycle (4 = packed half2 FMA)"},
    {"core.int_ops_per_alu_cycle", MG_T_NUM, OFF(int_ops_per_alu_cycle), 0, 0.0625, 64,
     "1", NULL, NULL, "ops", "integer ops per lane per cycle"},
    {"core.sfu_ops_per_sp_cycle", MG_T_NUM, OFF(sfu_ops_per_sp_cycle), 0, 0.0625, 4096,
     "16", NULL, NULL, "ops", "transcendental (exp, log, rcp) ops per core per cycle"},
    {"core.issue", MG_T_ENUM, OFF(issue), 0, 0, 0, "scalar", mg_issue_names, NULL,
     "mode", "ALU issue: scalar (Adreno, Bifrost, NVIDIA) or vec4 (Midgard VLIW)"},
    {"core.scheduler", MG_T_ENUM, OFF(scheduler), 0, 0, 0, "round_robin",
     mg_scheduler_names, NULL, "policy",
     "which waiting warp gets the ALU: round_robin (each warp books the next free slot in "
     "turn, so warps advance in step) or oldest (the ALU goes to the oldest ready warp when "
     "it frees, as a greedy-then-oldest scheduler settles into: warps drift apart, so one "
     "warp's loads overlap the others' arithmetic, but the youngest wait)"},
    {"core.warp_width", MG_T_INT, OFF(warp_width), 0, 1, 1024, NULL, NULL, NULL, "items",
     "work items per warp (wave), the default width"},
    {"core.warp_width_max", MG_T_INT, OFF(warp_width_max), 0, 1, 1024,
     "=core.warp_width", NULL, NULL, "items",
     "widest warp the compiler may pick (Adreno: 2 x warp_width)"},
    {"core.max_warps_per_sp", MG_T_INT, OFF(max_warps_per_sp), 0, 1, 4096, NULL, NULL,
     NULL, "warps", "resident warp slots per core"},
    {"core.max_items_per_sp", MG_T_INT, OFF(max_items_per_sp), 0, 0, 1 << 20, "0", NULL,
     NULL, "items", "resident work items per core; 0 = max_warps_per_sp x warp_width"},
    {"core.max_workgroup_size", MG_T_INT, OFF(max_workgroup_size), 0, 1, 65536, NULL,
     NULL, NULL, "items", "largest work group (CL_DEVICE_MAX_WORK_GROUP_SIZE)"},
    {"core.max_workgroups_per_sp", MG_T_INT, OFF(max_wgs_per_sp), 0, 0, 65536, "0", NULL,
     NULL, "groups", "work groups resident on one core at once, whatever their size "
     "(0: no cap but warps, items, registers and local memory)"},
    {"core.max_outstanding_per_warp", MG_T_INT, OFF(max_outstanding_per_warp), 0, 1, 1024,
     "4", NULL, NULL, "requests", "memory requests one warp may have in flight (MLP)"},
    {"core.max_misses_per_warp", MG_T_INT, OFF(max_misses_per_warp), 0, 0, 1024, "0", NULL,
     NULL, "requests", "first-level cache misses one warp may have in flight; a load waits "
     "while that many are (0: no cap but max_outstanding_per_warp)"},
    {"core.track_fills", MG_T_INT, OFF(track_fills), 0, 0, 1, "0", NULL, NULL, "flag",
     "1: a first-level hit on a line whose fill is still in flight completes with the "
     "fill and counts as a miss in flight (core.max_misses_per_warp); 0: it hits at once"},
    {"core.load_deps", MG_T_ENUM, OFF(load_deps), 0, 0, 0, "all", mg_load_deps_names, NULL,
     "policy", "which loads an ALU record waits for: all = every load its warp has in flight; "
     "trace = only those the trace says it needs (traces/FORMAT.md 5.1, keep; a version 1 or 2 "
     "trace: all)"},
    {"core.partitions", MG_T_INT, OFF(partitions), 0, 1, 8, "1", NULL, NULL, "partitions",
     "sub-cores an SP's warps are spread over, each with its own scheduler, 1/partitions "
     "of the SP's ALU rate and of its first-level memory pipes (NVIDIA SM: 4)"},
    {"core.alu_latency_cycles", MG_T_INT, OFF(alu_latency_cycles), 0, 1, 1000, "4", NULL,
     NULL, "cycles", "result latency of a dependent ALU instruction"},
    {"core.launch_overhead", MG_T_TIME, OFF(launch_overhead_s), 0, 0, 1e-3, "0s", NULL, NULL,
     "seconds", "fixed time a launch adds to a kernel's timed duration (start to end "
     "timestamps) beyond its work, e.g. \"6.5us\""},
    {"core.dispatch_gap", MG_T_TIME, OFF(dispatch_gap_s), 0, 0, 1e-2, "0s", NULL, NULL,
     "seconds", "idle time between one launch's end and the next one's start in an in-order "
     "queue (driver and command processor), which `mgsim net` charges once per launch"},

    /* registers */
    {"registers.model", MG_T_ENUM, OFF(reg_model), 0, 0, 0, NULL, mg_reg_model_names,
     NULL, "model", "shared_pool (Adreno, NVIDIA) or dedicated (Mali)"},
    {"registers.pool_regs_per_sp", MG_T_INT, OFF(pool_regs_per_sp), 0, 1, 1 << 24, NULL,
     NULL, "registers.model=shared_pool", "registers",
     "32-bit registers per core shared by all resident items"},
    {"registers.occupancy_steps", MG_T_STEPS, OFF(steps), 0, 1, 1 << 20, NULL, NULL,
     "registers.model=dedicated", "steps",
     "[{max_regs, max_items}, ...]: items per core allowed up to each register count"},
    {"registers.max_regs_per_item", MG_T_INT, OFF(max_regs_per_item), 0, 1, 4096, NULL,
     NULL, NULL, "registers",
     "most 32-bit registers one work item may hold (above: CL_OUT_OF_RESOURCES)"},
    {"registers.granule", MG_T_INT, OFF(reg_granule), 0, 1, 256, "1", NULL, NULL,
     "registers", "per-item allocation is rounded up to a multiple of this"},

    /* texture L1 */
    CACHE_ROWS("tex_l1", tex_l1, NULL, "the per-core texture L1",
               "load-to-use latency of a texture read that hits the texture L1"),
    {"tex_l1.tile_w_texels", MG_T_INT, OFF(tile_w_texels), 0, 1, 4096, NULL, NULL, NULL,
     "texels", "width of the 2D block of texels one line holds"},
    {"tex_l1.tile_h_texels", MG_T_INT, OFF(tile_h_texels), 0, 1, 4096, NULL, NULL, NULL,
     "texels", "height of the 2D block of texels one line holds"},
    {"tex_l1.tile_texel_bytes", MG_T_INT, OFF(tile_texel_bytes), 0, 1, 64, "4", NULL, NULL,
     "bytes", "texel size the tile shape is given for (w x h x bytes = line)"},
    {"tex_l1.unit_group_bytes", MG_T_INT, OFF(tex_unit_group_bytes), 0, 0, 4096, "0", NULL,
     NULL, "bytes", "texel data of the lanes the texture unit takes together (lanes in order, "
     "this / texel bytes of them); 0: no texture unit stage, the texture L1's bandwidth "
     "charges the lanes' bytes"},
    {"tex_l1.unit_block_bytes", MG_T_INT, OFF(tex_unit_block_bytes), 0, 1, 4096, "32", NULL,
     NULL, "bytes", "width, in bytes of one texel row, of the block of texels the texture "
     "unit reads for a group in one step"},
    {"tex_l1.unit_block_rows", MG_T_INT, OFF(tex_unit_block_rows), 0, 1, 4096, "8", NULL,
     NULL, "rows", "height in texel rows of that block"},
    {"tex_l1.unit_blocks_per_cycle", MG_T_NUM, OFF(tex_unit_blocks_per_cycle), 0, 0.001, 1024,
     "1", NULL, NULL, "blocks/cycle", "blocks the texture unit of one core reads per cycle"},
    {"tex_l1.unit_issue_cycles", MG_T_INT, OFF(tex_unit_issue_cycles), 0, 0, 100000, "0",
     NULL, NULL, "cycles", "cycles after the unit has read a warp's blocks before that "
     "warp issues again (one warp's reads follow each other at blocks + this)"},

    /* image layout below the texture L1 (texlayout.c) */
    {"image.block_w_texels", MG_T_INT, OFF(img_block_w_texels), 0, 0, 4096, "0", NULL, NULL,
     "texels", "width of the 2D block images are stored and fetched from DRAM in, in "
     "texels of tex_l1.tile_texel_bytes; 0 = one L2 line (no block fetch)"},
    {"image.block_h_texels", MG_T_INT, OFF(img_block_h_texels), 0, 0, 4096, "0", NULL, NULL,
     "texels", "height of that block in texel rows; 0 with block_w_texels = 0"},

    /* buffer path */
    {"buffer.path", MG_T_ENUM, OFF(buffer_path), 0, 0, 0, NULL, mg_buffer_path_names,
     NULL, "path", "buffer loads go to l2 directly (Adreno) or through an l1 load/store cache (Mali)"},
    {"buffer.latency_cycles", MG_T_INT, OFF(buffer_latency_cycles), 0, 1, 100000, NULL,
     NULL, "buffer.path=l2", "cycles",
     "base latency of the L1-less buffer path; an L2 hit costs this plus l2.latency_cycles"},
    {"buffer.max_load_bytes", MG_T_INT, OFF(buffer_max_load_bytes), 0, 0, 64, "0", NULL, NULL,
     "bytes", "widest load the compiler issues for one buffer access (NVIDIA OpenCL: a "
     "vload4 of a float pointer is 4 loads of 4 bytes); a wider trace load is issued as "
     "several, each taking a load slot; 0 = as wide as the trace's"},
    {"buffer.vload", MG_T_ENUM, OFF(buffer_vload), 0, 0, 0, "vector", mg_vload_names, NULL,
     "mode", "how a vector load of a buffer (vloadn, vload_halfn) is issued: vector = one load "
     "up to max_load_bytes wide; elements = one load per element of the buffer's type (the "
     "trace's element size), as NVIDIA OpenCL compiles vload_half2 into two 16-bit loads"},
    CACHE_ROWS("buffer_l1", buf_l1, "buffer.path=l1", "the per-core load/store cache",
               "load-to-use latency of a buffer access that hits the load/store cache"),
    {"buffer_l1.lookup_bytes", MG_T_INT, OFF(buf_l1_lookup_bytes), 0, 0, 4096, "0", NULL,
     "buffer.path=l1", "bytes", "aligned block the load/store cache serves per cycle: a warp "
     "access touching n such blocks holds its pipe at least n cycles (NVIDIA: 128, one "
     "line of 4 sectors per cycle); 0 = bytes over bandwidth only"},
    {"buffer_l1.partition_lookup_cycles", MG_T_NUM, OFF(buf_l1_partition_lookup_cycles), 0,
     0.25, 64, "1", NULL, "buffer.path=l1", "cycles", "cycles a partition's load path "
     "spends on each lookup_bytes block of a warp access (the SP's tag stage still serves "
     "one block per cycle across its partitions): a lone warp's load whose lanes touch n "
     "lines holds its partition n times that; 1 = the tag stage's rate"},

    /* local memory */
    {"local.kind", MG_T_ENUM, OFF(local_kind), 0, 0, 0, NULL, mg_local_kind_names, NULL,
     "kind", "onchip (Adreno, NVIDIA) or system (Mali: RAM behind the load/store cache)"},
    {"local.size", MG_T_SIZE, OFF(local_size), 0, 0, BIG_BYTES, NULL, NULL, NULL, "bytes",
     "local memory per work group (CL_DEVICE_LOCAL_MEM_SIZE)"},
    {"local.bandwidth", MG_T_BW, OFF(local_bandwidth), 0, 1e6, 1e15, NULL, NULL,
     "local.kind=onchip", "bytes/s", "on-chip local memory bandwidth, whole device"},
    {"local.broadcast_bytes", MG_T_INT, OFF(local_broadcast_bytes), 0, 0, 1048576, "0", NULL,
     "local.kind=onchip", "bytes", "a warp's local-memory read whose lanes touch at most this "
     "many distinct bytes (distinct addresses x width) is read once and broadcast to the "
     "lanes, at local.broadcast_bandwidth; other accesses go at local.bandwidth; 0 = no "
     "broadcast path"},
    {"local.broadcast_bandwidth", MG_T_BW, OFF(local_broadcast_bandwidth), 0, 1e6, 1e15,
     "=local.bandwidth", NULL, "local.kind=onchip", "bytes/s",
     "lane bytes per second of a broadcast local read (local.broadcast_bytes), whole device"},
    {"local.latency_cycles", MG_T_INT, OFF(local_latency_cycles), 0, 1, 100000, NULL, NULL,
     "local.kind=onchip", "cycles", "on-chip local memory latency"},

    /* constant memory */
    {"constant.size", MG_T_SIZE, OFF(const_size), 0, 0, BIG_BYTES, "64KiB", NULL, NULL,
     "bytes", "constant buffer capacity (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)"},
    {"constant.bandwidth", MG_T_BW, OFF(const_bandwidth), 0, 1e6, 1e15, "=l2.bandwidth",
     NULL, NULL, "bytes/s", "constant memory bandwidth, whole device"},
    {"constant.latency_cycles", MG_T_INT, OFF(const_latency_cycles), 0, 1, 100000,
     "=l2.latency_cycles", NULL, NULL, "cycles", "constant memory latency"},
    {"constant.path", MG_T_ENUM, OFF(const_path), 0, 0, 0, "own", mg_const_path_names, NULL,
     "path", "own = constant loads take constant memory's pipe (constant.bandwidth, "
     "latency_cycles); buffer = they are buffer loads (Adreno 640: ArchProbe's __constant "
     "curve is its buffer curve)"},

    /* L2 */
    CACHE_ROWS("l2", l2, NULL, "the shared L2",
               "cycles an L2 hit adds to the latency of the path that missed into it"),
    {"l2.banks", MG_T_INT, OFF(l2_banks), 0, 0, 64, "0", NULL, NULL, "banks",
     "banks of the L2 that buffer accesses on the L1-less path (buffer.path=l2) go through: "
     "each request moves its sectors through the bank of each sector; 0 = no banks (the "
     "l2.bandwidth pipe only)"},
    {"l2.bank_bytes", MG_T_INT, OFF(l2_bank_bytes), 0, 1, 1048576, "128", NULL, NULL,
     "bytes", "interleave of the L2 banks: the aligned block of addresses one bank holds "
     "(bank = address / bank_bytes mod banks); a power of two"},
    {"l2.bank_bandwidth", MG_T_BW, OFF(l2_bank_bandwidth), 0, 1e6, 1e15, "=l2.bandwidth",
     NULL, NULL, "bytes/s", "sector bytes per second one L2 bank moves, whatever SP asks"},
    {"l2.request_lanes", MG_T_INT, OFF(l2_request_lanes), 0, 1, 128, "1", NULL, NULL,
     "lanes", "consecutive lanes of a warp's buffer access that form one L2 request (lanes "
     "of different requests that read the same sector each move it)"},
    {"l2.sector_bytes", MG_T_INT, OFF(l2_sector_bytes), 0, 1, 4096, "32", NULL, NULL, "bytes",
     "the unit an L2 request moves: a request moves every aligned sector its lanes touch, "
     "once; a power of two, at most l2.bank_bytes"},

    /* DRAM */
    {"dram.bandwidth", MG_T_BW, OFF(dram_bandwidth), 0, 1e6, 1e15, NULL, NULL, NULL,
     "bytes/s", "sustained DRAM bandwidth"},
    {"dram.latency", MG_T_TIME, OFF(dram_latency_s), 0, 1e-9, 1e-4, NULL, NULL, NULL,
     "seconds", "DRAM access latency beyond L2, e.g. \"120ns\""},
};

const size_t mg_schema_count = sizeof mg_schema / sizeof mg_schema[0];

/* The keys' index: an open-addressed table of row + 1 (0: empty) by
 * FNV-1a of the key, at most a quarter full, built once.  A config's
 * load looks up each of its keys, and `--vary` each key per variant: a
 * scan of the rows with strcmp was a third of a variant's time. */
#define SCHEMA_SLOTS 512
_Static_assert(sizeof mg_schema / sizeof mg_schema[0] * 4 <= SCHEMA_SLOTS,
               "SCHEMA_SLOTS: at least four slots a row");
static unsigned short schema_slot[SCHEMA_SLOTS];
static pthread_once_t schema_once = PTHREAD_ONCE_INIT;

static void schema_index(void)
{
    for (size_t i = 0; i < mg_schema_count; i++) {
        size_t h = (size_t)mg_fnv1a_str(mg_schema[i].key) & (SCHEMA_SLOTS - 1);
        while (schema_slot[h]) h = (h + 1) & (SCHEMA_SLOTS - 1);
        schema_slot[h] = (unsigned short)(i + 1);   /* a repeated key: the first row first */
    }
}

const mg_field *mg_schema_find(const char *key, size_t *index)
{
    pthread_once(&schema_once, schema_index);
    for (size_t h = (size_t)mg_fnv1a_str(key) & (SCHEMA_SLOTS - 1); schema_slot[h];
         h = (h + 1) & (SCHEMA_SLOTS - 1)) {
        size_t i = (size_t)schema_slot[h] - 1;
        if (!strcmp(mg_schema[i].key, key)) {
            if (index) *index = i;
            return &mg_schema[i];
        }
    }
    return NULL;
}

int mg_schema_applies(const mg_field *f, const mg_device *dev)
{
    if (!f->when) return 1;
    const char *eq = strchr(f->when, '=');
    char key[64];
    size_t n = (size_t)(eq - f->when);
    memcpy(key, f->when, n);
    key[n] = '\0';
    const mg_field *c = mg_schema_find(key, NULL);
    int v = *(const int *)((const char *)dev + c->off);
    return !strcmp(c->names[v], eq + 1);
}

const char *mg_repl_name(int replacement) { return mg_replacement_names[replacement]; }

const char *mg_source_kind_name(mg_source_kind k)
{
    return mg_source_kind_names[k];
}

/*
 * pplan.h - the probe's schedule choices: which generator schedules the
 * microbenchmark aspects run, and with what launch shapes.  Shared by
 * `mgprobe run` (probe/asp_*.c, on a real device) and `mgsim vprobe`
 * (sim/vprobe/, through the timing model), so both run the same kernels.
 * No OpenCL here: a device is the few limits the choices need (mg_pdev),
 * filled from clGetDeviceInfo by the probe and from a device config by the
 * virtual probe.
 *
 * Every format returned has exactly one "%lld": the loop count (iters=),
 * which the caller scales (mgprobe: until a launch lasts min_ms; vprobe:
 * two counts whose difference is timed).
 */
#ifndef MG_PPLAN_H
#define MG_PPLAN_H

#include <stddef.h>
#include <stdint.h>

/* What the schedule choices need to know of a device. */
typedef struct mg_pdev {
    unsigned cus;               /* compute units */
    double   clock_mhz;         /* reported maximum clock */
    uint64_t max_wg;            /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    uint64_t max_items[3];      /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    int      images;            /* image support */
    uint64_t img_w, img_h;      /* largest 2D image, texels */
    int      fp16;              /* cl_khr_fp16 */
    int      cpu;               /* a CPU device (prefetchers soften misses) */
    uint64_t local_mem, const_mem, max_alloc;   /* bytes */
    uint64_t cache_size;        /* the reported global memory cache, bytes */
    uint64_t cacheline;         /* its reported line, bytes */
    /* measured by earlier aspects (cache_image), 0 when not known: the
     * bandwidth plan shapes image reads to the texture L1 (mg_pplan_bw) */
    uint64_t tex_l1_bytes;      /* l1_size */
    uint64_t tex_line_w_bytes;  /* line_width_bytes */
    uint64_t tex_line_rows;     /* line_height_rows */
} mg_pdev;

enum { MG_PMEM_BUFFER, MG_PMEM_IMAGE, MG_PMEM_LOCAL, MG_PMEM_CONSTANT };

/* Bytes between chased elements in the cache size sweeps: buffers 64 (never
 * more than a line, so each level's knee sits at its capacity), images 16
 * (4 texels: under any tile's width). */
#define MG_PPLAN_STEP      64
#define MG_PPLAN_STEP_IMG  16

/* The largest power of two <= v (at least 1). */
int64_t mg_pplan_pow2_floor(double v);

/* v rounded to a multiple of m (at least m). */
int64_t mg_pplan_round_to(double v, int64_t m);

/* ---- pointer chase (cache_buffer, cache_image) ----------------------------- */

/* The random paged chase over footprint r bytes with `stride` bytes between
 * chased elements (pchase order=random, page=4096 from 16 KiB: neither a
 * prefetcher nor the TLB fakes a cache).  Images are 1-channel int32, rows
 * of W texels: W = r/4 below 4 KiB, 1024 up to 64 MiB, 4096 beyond.  Writes
 * the format into buf and returns it, or NULL when the image does not fit
 * the device. */
const char *mg_pplan_chase(const mg_pdev *d, int img, int64_t r, int64_t stride, char *buf,
                           size_t len);

/* An image chase with the shape and pages given: rows of w texels, pages of
 * `page` bytes (0: none) visited in a random order, the positions of a
 * page in a random order.  With w = 8 and pages of 8 rows, a page is an
 * 8 x 8 texel block that holds whole 2D texture tiles (up to 8 x 8), so
 * every tile's accesses come together and the tiles cycle like a buffer's
 * lines (`mg_pplan_chase_blocks`); with pages of one row, a row's tiles are
 * read together and their other rows much later (a line's width).  NULL
 * when the shape is not valid (range, stride, page and rows). */
const char *mg_pplan_chase_img(const mg_pdev *d, int64_t r, int64_t stride, int64_t w,
                               int64_t page, char *buf, size_t len);

/* The block-paged image chase above for footprint r: w = 8 texels (wider,
 * doubling, while the rows would pass the device's image height), pages
 * of 8 rows.  *quantum (may be NULL) gets the footprint granule it needs
 * (one page). */
const char *mg_pplan_chase_blocks(const mg_pdev *d, int64_t r, int64_t stride, char *buf,
                                  size_t len, int64_t *quantum);

/* A footprint v rounded so the chase is valid: to 64 bytes below 16 KiB
 * (images from 4 KiB: to 4 KiB), to 4 KiB pages above (images past 64 MiB:
 * 16 KiB, whole rows of 4096 texels). */
int64_t mg_pplan_chase_round(int img, double v);

/* The rounding step mg_pplan_chase_round applies at v. */
int64_t mg_pplan_chase_quantum(int img, double v);

/* The lattice walk that measures a texture line's height: an image of
 * P x dx texels by H rows (P points per lattice row, dx texels apart along
 * x; H = min(4096, the device's), stride_y = sy rows between lattice rows).
 * The probe uses P = 64, dx = 64; a smaller P keeps a lattice row's lines
 * inside a small texture L1, and an odd multiple of 4 texels for dx keeps
 * hashed sets from aliasing.  *cycle = the accesses of one walk.  Returns
 * buf. */
const char *mg_pplan_lattice(const mg_pdev *d, int64_t points, int64_t dx, int sy, char *buf,
                             size_t len, int64_t *cycle);

/* ---- bandwidth (bw_*, dram) --------------------------------------------------- */

/* The launch of a bandwidth point: 16-byte loads, column pattern.  items =
 * the largest power of two up to 2 x compute units x the largest group
 * (at most 2^20) in groups of up to 256; `balanced` rounds that up to a
 * whole number of groups per compute unit (1024 groups on 132 cores leave
 * 100 cores idle while 32 run a last group: per-core pipes then deliver
 * 7.76/8 of their rate; the probe passes 0).  Readers R = the largest power
 * of two that divides the items and leaves at least min_loads loads each
 * per pass (item g reads as reader g % R, so a small footprint still keeps
 * every item busy, ArchProbe's way; images: R also within the image
 * limits, and, where the texture L1 and its line are known (tex_l1_bytes,
 * tex_line_*), at most a quarter of its lines' worth of RGBA fp32 texels
 * (line_width / 16 per line, at least 1): a warp's readers read one
 * image row per load, so R texels take R / (texels per line row) lines,
 * reused for the line's height in rows by the next loads and by the other
 * warps reading the same columns; more readers than the L1 holds lines
 * for would thrash it and measure the L2, as Adreno 630's 4x2-texel lines
 * of 4 bytes, one RGBA fp32 texel wide, did with 64 readers against 32
 * lines).  Local memory: groups of up to 256 items (at least min_loads
 * loads each), local_groups_per_cu groups per compute unit, each over its
 * own copy.  The probe uses min_loads 64 (fewer would let a compiler keep
 * the loads in registers across passes) and 32 groups per compute unit.
 * `extra` is appended (e.g. "vec=4 unroll=8").  Writes the format,
 * *bytes_mult = bytes read per pass; returns 0, or -1 when no launch shape
 * fits. */
int mg_pplan_bw(const mg_pdev *d, int mem, int64_t fp, int64_t min_loads,
                int64_t local_groups_per_cu, int balanced, const char *extra, char *buf,
                size_t len, double *bytes_mult);

/* mg_pplan_bw with the launch grown 2^grow times (grow >= 0): items (local
 * memory: groups per compute unit) doubled `grow` times, the readers
 * chosen as above for the larger launch.  A launch whose rate is latency
 * bound (too few loads in flight: a long DRAM latency, or a last wave of
 * work groups that leaves cores half full) rises as it grows; the probe
 * grows it until the rate settles (ArchProbe's way: more work until the
 * throughput saturates).  Returns -1 also past 2^20 items. */
int mg_pplan_bw_grown(const mg_pdev *d, int mem, int64_t fp, int64_t min_loads,
                      int64_t local_groups_per_cu, int balanced, int grow, const char *extra,
                      char *buf, size_t len, double *bytes_mult);

/* The footprint sweep's range of memory `mem`: from *lo (4 KiB; local and
 * constant 1 KiB) to *hi (big; local: min(local memory, 32 KiB); constant:
 * min(the constant buffer, 64 KiB)). */
void mg_pplan_bw_range(const mg_pdev *d, int mem, double big, int64_t *lo, double *hi);

/* ---- loads in flight (lsu) --------------------------------------------------- */

/* Loads per step of the lsu aspect's lone-warp points, and its warps per
 * compute unit (mlp op, traces/ops/mlp.c). */
#define MG_PPLAN_LSU_NLOADS 5
#define MG_PPLAN_LSU_NWARPS 5
extern const int mg_pplan_lsu_loads[MG_PPLAN_LSU_NLOADS];    /* 1 2 4 8 16 */
extern const int mg_pplan_lsu_warps[MG_PPLAN_LSU_NWARPS];    /* 1 2 4 8 16 */

/* The lsu point: one work group of `warps` warps of `warp` items on every
 * compute unit, each step `loads` independent loads of one line (of the
 * reported cache line, at least 64 bytes) for a 32-item chain, from a
 * buffer of 32 such lines (2-4 KiB: first-level resident; a chain goes
 * round all of them every 32 steps).  NULL when
 * the group is over the device's largest. */
const char *mg_pplan_lsu(const mg_pdev *d, int loads, int warps, int warp, char *buf,
                         size_t len);

/* ---- load issue (vload) ------------------------------------------------------- */

/* Slots the vload op reads (every lane of a warp of up to that many items
 * on its own line). */
#define MG_PPLAN_VLOAD_LINES 128
/* Loads per item per pass of the vload op (traces/ops/vload.c). */
#define MG_PPLAN_VLOAD_LOADS 8

/* The vload point of storage fp16 (else fp32) at vector width vec (1, 2,
 * 4): the flops launch (mg_pplan_flops: enough warps on every core to
 * saturate its load pipe), MG_PPLAN_VLOAD_LINES slots of the reported
 * cache line apart (at least 64 bytes, a power of two up to 4096): a
 * footprint of 8-16 KiB, resident in a first-level cache.  With
 * `packed` the slots are one vector apart instead (a warp's lanes read
 * neighbouring vectors, as few lines as they fill): the control that
 * tells a load's cost per line from its cost per byte.  Returns buf. */
const char *mg_pplan_vload(const mg_pdev *d, int fp16, int vec, int packed, char *buf,
                           size_t len);

/* ---- compute ------------------------------------------------------------------- */

/* The flops launch: groups of min(256, max) items, 4 x compute units of
 * them; at least 4096 items, rounded up to a whole number of groups per
 * compute unit (every core gets the same work: 16 groups on 3 cores would
 * leave the peak at 6 / (16 / 3) of the device's). */
void mg_pplan_flops(const mg_pdev *d, int64_t *items, int64_t *wg);

/* Work groups of the warp-size timing sweep: max(64, 32 x compute units),
 * enough that every core is throughput bound. */
int64_t mg_pplan_warp_groups(const mg_pdev *d);

/* Register sweeps: the group sizes (one small group, the largest group up
 * to 1024, and the concurrency groups of up to 256 items) and the register
 * counts swept (full list; quick list). */
int64_t mg_pplan_regs_wg_small(const mg_pdev *d);
int64_t mg_pplan_regs_wg_full(const mg_pdev *d);
int64_t mg_pplan_regs_wg_conc(const mg_pdev *d);
extern const int mg_pplan_reg_counts[];      /* 23 counts, 8 .. 256 */
extern const int mg_pplan_reg_counts_n;
extern const double mg_pplan_conc_mult[];    /* groups / compute units: 0.5 .. 4 */
extern const int mg_pplan_conc_mult_n;

/* The generator's registers per item beyond regpressure's live values
 * (the global id, the loop counter, the output address). */
#define MG_PPLAN_REGS_OVERHEAD 3

#endif

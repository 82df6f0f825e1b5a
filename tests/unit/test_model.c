/* test_model.c - phenomena the timing model must reproduce (design.md
 * P1-P8), each from the generator's microbenchmark kernels replayed by the
 * model, and the same curves moving when the config's mechanism changes.
 * Tolerances are stated at each assertion. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "sim/model/texlayout.h"
#include "tests/unit/suites.h"

static mg_device *load_dev(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "configs/devices/%s.json", name);
    mg_device *dev = malloc(sizeof *dev);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_device_load(path, 0, dev, &d);
    mg_diag_free(&d);
    if (rc) { free(dev); return NULL; }
    return dev;
}

/* Simulate a schedule (words separated by spaces; warp defaults to the
 * device's) on dev; returns the stats, or cycles < 0 on failure. */
static mg_sim_stats sim(const mg_device *dev, const char *line)
{
    mg_sim_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = -1;
    char warp[32];
    snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    if (mg_schedule_parse_line(line, strstr(line, "warp=") ? NULL : warp, &s, &d) == 0 &&
        mg_gen_prepare(g, &s, &d) == 0) {
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        mg_sim_opts o = {.quiet = 1};
        if (mg_sim_run(dev, &src, &o, &st, &d)) st.cycles = -1;
    }
    if (st.cycles < 0) fprintf(stderr, "\n%s: %s\n", line, mg_diag_first(&d));
    mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
    return st;
}

/* Cycles of the register-pressure kernel: one work group of `items`, regs
 * registers, a constant amount of dependent work (iters x regs ~ 8192). */
static double regp(const mg_device *dev, int items, int regs)
{
    char line[256];
    snprintf(line, sizeof line, "regpressure regs=%d iters=%d items=%d wg=%d", regs,
             8192 / regs, items, items);
    return sim(dev, line).cycles;
}

/* The largest register count r in [lo, hi] whose time stays within 10% of
 * the time at lo (the end of the flat part), or lo-1 if none. */
static int knee(const mg_device *dev, int items, int lo, int hi)
{
    double base = regp(dev, items, lo);
    int last = lo;
    for (int r = lo + 1; r <= hi; r++) {
        if (regp(dev, items, r) > 1.10 * base) break;
        last = r;
    }
    return last;
}

/* P1 (romou Fig 5): <=384 items flat up to 181 +-2 registers, then a sharp
 * rise; 768 items double (1.8-2.2x) above 90 +-3; 1024 above ~67 (+-3). */
static void test_p1_register_pool(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    int k384 = knee(dev, 384, 170, 190);
    CU_ASSERT_TRUE(k384 >= 179 && k384 <= 183);
    double flat = regp(dev, 384, 100), at = regp(dev, 384, k384);
    CU_ASSERT_TRUE(at < 1.05 * flat);                    /* flat: within 5% */
    CU_ASSERT_TRUE(regp(dev, 384, k384 + 1) > 1.8 * at); /* sharp: at least 1.8x */
    CU_ASSERT_TRUE(regp(dev, 256, 150) < 1.05 * regp(dev, 256, 60));   /* fewer items: flat */
    int k768 = knee(dev, 768, 80, 100);
    CU_ASSERT_TRUE(k768 >= 87 && k768 <= 93);
    double ratio = regp(dev, 768, k768 + 1) / regp(dev, 768, k768);
    CU_ASSERT_TRUE(ratio >= 1.8 && ratio <= 2.2);
    int k1024 = knee(dev, 1024, 55, 75);
    CU_ASSERT_TRUE(k1024 >= 64 && k1024 <= 70);
    fprintf(stderr, "\n  P1 knees: 384 items %d, 768 items %d (x%.2f after), 1024 items %d\n",
            k384, k768, ratio, k1024);
    /* the mechanism, not the numbers: half the pool moves the 384 knee to ~half */
    dev->pool_regs_per_sp /= 2;
    int half = knee(dev, 384, 70, 100);
    CU_ASSERT_TRUE(half >= 87 && half <= 93);
    free(dev);
}

/* Per-load latency of an image pointer chase. */
static double chase(const mg_device *dev, int range, int stride)
{
    char line[256];
    snprintf(line, sizeof line, "pchase mem=image range=%d stride=%d iters=2048", range, stride);
    return sim(dev, line).cycles / 2048.0;
}

/* P2 (romou Fig 6): a step once the range passes the 1 KB texture L1 at a
 * stride of a line; no step past 32 B strides (the line); flat past it. */
static void test_p2_texture_l1(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    double in = chase(dev, 1024, 32), out = chase(dev, 1280, 32);
    CU_ASSERT_TRUE(out > in * 1.15);                        /* the step: >= 15% */
    CU_ASSERT_TRUE(chase(dev, 768, 32) < in * 1.02);         /* flat below */
    double far = chase(dev, 8192, 32);
    CU_ASSERT_TRUE(far < out * 1.05 && far > out * 0.95);    /* flat past it: +-5% */
    /* stride sweep past the capacity: latency rises with the stride until
     * every access misses (32 B = the line), then stays */
    double s4 = chase(dev, 4096, 4), s16 = chase(dev, 4096, 16), s32 = chase(dev, 4096, 32);
    double s64 = chase(dev, 8192, 64);
    CU_ASSERT_TRUE(s4 < s16 && s16 < s32);
    CU_ASSERT_TRUE(s64 < s32 * 1.02 && s64 > s32 * 0.98);
    fprintf(stderr, "  P2: 1 KB %.1f, 1.25 KB %.1f, 8 KB %.1f cycles/load; strides 4/16/32/64 "
            "%.1f %.1f %.1f %.1f\n", in, out, far, s4, s16, s32, s64);
    /* mechanism: a 4 KiB L1 moves the step to 4 KB; a 64 B line moves the
     * stride plateau to 64 B */
    dev->tex_l1.size = 4096;
    dev->tex_l1.assoc = 128;
    CU_ASSERT_TRUE(chase(dev, 4096, 32) < in * 1.02);
    CU_ASSERT_TRUE(chase(dev, 4352, 32) > in * 1.15);
    dev->tex_l1.line = 64;
    dev->tex_l1.assoc = 64;
    dev->tile_w_texels = 16;
    double l32 = chase(dev, 16384, 32), l64 = chase(dev, 16384, 64);
    CU_ASSERT_TRUE(l64 > l32 * 1.05);
    free(dev);
}

/* P3 (romou Fig 7): 1024 work groups of n items running a division chain:
 * flat for 1..warp items, rising after. */
static void test_p3_warp_size(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    double c[5];
    int n[5] = {1, 32, 64, 65, 128};
    for (int i = 0; i < 5; i++) {
        char line[128];
        snprintf(line, sizeof line, "warpsize items=%d groups=1024 iters=32", n[i]);
        c[i] = sim(dev, line).cycles;
    }
    CU_ASSERT_TRUE(c[1] < c[0] * 1.05 && c[2] < c[0] * 1.05);   /* flat to 64: +-5% */
    CU_ASSERT_TRUE(c[3] > c[2] * 1.3);                           /* rising after */
    CU_ASSERT_TRUE(c[4] >= c[3] * 0.99);
    fprintf(stderr, "  P3: items 1/32/64/65/128: %.0f %.0f %.0f %.0f %.0f cycles\n", c[0], c[1],
            c[2], c[3], c[4]);
    /* mechanism: a 32-wide warp moves the knee to 32 */
    dev->warp_width = dev->warp_width_max = 32;
    dev->max_warps_per_sp = 32;
    double a = sim(dev, "warpsize items=32 groups=1024 iters=32").cycles;
    double b = sim(dev, "warpsize items=33 groups=1024 iters=32").cycles;
    CU_ASSERT_TRUE(b > a * 1.3);
    free(dev);
}

/* P4 (romou 3.2, Fig 11): peak within 3% of 898 GFLOPS; conv1x1 with 4x4
 * coarsening and fp16 image storage: the texture-L1 roofline ceiling near
 * 380 GFLOPS (+-10%) at intensity 2 flop/B (romou's 4 flop per element of
 * 2 bytes).  The hierarchical bound is the lowest ceiling: it may be the
 * L2's when the simulated L1 misses, never above the L1's. */
static void test_p4_roofline(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    double peak = mg_device_peak_flops(dev, 0);
    CU_ASSERT_TRUE(peak > 898e9 * 0.97 && peak < 898e9 * 1.03);
    mg_sim_stats st = sim(dev, "conv2d H=28 W=28 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 "
                               "layout=image storage=fp16");
    CU_ASSERT_TRUE_FATAL(st.cycles > 0);
    mg_roofline r;
    mg_roofline_compute(dev, &st, &r);
    double l1 = r.oi[MG_LV_TEX_L1] * r.bw[MG_LV_TEX_L1];
    CU_ASSERT_TRUE(l1 > 380e9 * 0.9 && l1 < 380e9 * 1.1);
    CU_ASSERT_TRUE(r.oi[MG_LV_TEX_L1] > 1.99 && r.oi[MG_LV_TEX_L1] < 2.01);  /* 128 flops / 64 B */
    CU_ASSERT_TRUE(r.bound_flops <= l1 * 1.0000001);
    CU_ASSERT_TRUE(r.achieved_flops <= r.bound_flops * 1.001);   /* never above the bound */
    fprintf(stderr, "  P4: peak %.1f GFLOPS; conv1x1 texture-L1 ceiling %.1f GFLOPS, bound %.1f "
            "(%s), achieved %.1f\n", peak / 1e9, l1 / 1e9, r.bound_flops / 1e9,
            mg_level_name(r.binding), r.achieved_flops / 1e9);
    free(dev);
}

/* Streaming bandwidth (GB/s) of 4096 items sharing a 1 KB footprint. */
static double stream(const mg_device *dev, const char *mem)
{
    char line[256];
    snprintf(line, sizeof line, "bandwidth mem=%s footprint=1024 items=4096 readers=64 wg=64 "
             "iters=64", mem);
    mg_sim_stats st = sim(dev, line);
    return (double)st.lane_accesses * 16.0 / st.seconds / 1e9;
}

/* P5 (romou 5.3, facts.md): image vs buffer streaming bandwidth, ~2.0 on
 * adreno640 (194.5 vs 96 GB/s), ~1.3 on mali-g76-mp5 (30 vs 23.3), +-15%. */
static void test_p5_image_vs_buffer(void)
{
    static const struct { const char *dev; double ratio; } cases[] = {
        {"adreno640", 2.0}, {"mali-g76-mp5", 1.3},
    };
    for (int i = 0; i < 2; i++) {
        mg_device *dev = load_dev(cases[i].dev);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
        double img = stream(dev, "image"), buf = stream(dev, "buffer");
        double ratio = img / buf;
        CU_ASSERT_TRUE(ratio > cases[i].ratio * 0.85 && ratio < cases[i].ratio * 1.15);
        fprintf(stderr, "  P5 %s: image %.1f GB/s, buffer %.1f GB/s, ratio %.2f\n",
                cases[i].dev, img, buf, ratio);
        free(dev);
    }
}

/* Cycles of `threads` work items in one warp, each streaming 256 KiB of
 * its own (twice the L2) once through an image of RGBA32F texels in
 * `pattern` order (bandwidth op: column = item t walks column t, row and
 * blockN = item t walks its own rows, N-row bands column by column). */
static double walk(const mg_device *dev, const char *pattern, int threads)
{
    char line[256];
    snprintf(line, sizeof line, "bandwidth mem=image footprint=%d items=%d wg=%d iters=1 "
             "pattern=%s", 262144 * threads, threads, threads, pattern);
    return sim(dev, line).cycles;
}

/* Scaling efficiency of a pattern at `threads` items: per-item throughput
 * over one item's (tmmodel Fig 4's black line of perfect scalability is 1).
 * Every item does the same work, so it is one item's time over theirs. */
static double walk_eff(const mg_device *dev, const char *pattern, int threads)
{
    return walk(dev, pattern, 1) / walk(dev, pattern, threads);
}

/* P6 (tmmodel 3.2.1, Fig 4; adreno740, the paper's device): one work item
 * reading row, block2 and block4 major is faster than column major by
 * 1.08x, 1.35x, 1.79x (+-10% each): the image is stored in 4x4-texel
 * blocks fetched whole from DRAM, so a pattern's cost follows the blocks it
 * crosses; the 32 B texture-L1 line (2 texels along x) makes column a little
 * slower than row.  As the warp fills (1..64 items) block4 scales worse than
 * column: each item keeps 4 lines live, so past 8 items (4 x 8 = the L1's
 * 32 lines) it thrashes the L1, while column's items share lines. */
static void test_p6_access_patterns(void)
{
    mg_device *dev = load_dev("adreno740");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    double col = walk(dev, "column", 1), row = walk(dev, "row", 1);
    double b2 = walk(dev, "block2", 1), b4 = walk(dev, "block4", 1);
    CU_ASSERT_TRUE_FATAL(col > 0 && row > 0 && b2 > 0 && b4 > 0);
    double rr = col / row, r2 = col / b2, r4 = col / b4;
    CU_ASSERT_TRUE(rr > 1.08 * 0.9 && rr < 1.08 * 1.1);
    CU_ASSERT_TRUE(r2 > 1.35 * 0.9 && r2 < 1.35 * 1.1);
    CU_ASSERT_TRUE(r4 > 1.79 * 0.9 && r4 < 1.79 * 1.1);
    fprintf(stderr, "  P6: one item, faster than column: row %.3f, block2 %.3f, block4 %.3f\n",
            rr, r2, r4);
    /* scaling: block4 holds to 8 items, falls at 16; column holds; at 64
     * block4 is at least 5 points below column */
    double c16 = walk_eff(dev, "column", 16), c64 = walk_eff(dev, "column", 64);
    double e8 = walk_eff(dev, "block4", 8), e16 = walk_eff(dev, "block4", 16);
    double e64 = walk_eff(dev, "block4", 64);
    CU_ASSERT_TRUE(e8 > 0.96 && c16 > 0.96);
    CU_ASSERT_TRUE(e16 < e8 - 0.05);
    CU_ASSERT_TRUE(e64 < c64 - 0.05);
    fprintf(stderr, "  P6 scaling efficiency: column 16/64 items %.3f %.3f; block4 8/16/64 "
            "items %.3f %.3f %.3f\n", c16, c64, e8, e16, e64);
    /* mechanism: a 2 KiB L1 (64 lines) moves block4's knee to 16 items */
    mg_cache_cfg l1 = dev->tex_l1;
    dev->tex_l1.size = 2048;
    dev->tex_l1.assoc = 64;
    double f16 = walk_eff(dev, "block4", 16), f32 = walk_eff(dev, "block4", 32);
    CU_ASSERT_TRUE(f16 > 0.96);
    CU_ASSERT_TRUE(f32 < f16 - 0.05);
    dev->tex_l1 = l1;
    /* mechanism: 2-row blocks give block4 nothing over block2 */
    dev->img_block_h_texels = 2;
    double t2 = walk(dev, "block2", 1), t4 = walk(dev, "block4", 1);
    CU_ASSERT_TRUE(t4 > t2 * 0.97 && t4 < t2 * 1.03);
    /* mechanism: without blocks (row-major L2 lines of 4 texels) column
     * crosses a line at every read: row is far faster and block4 gains
     * nothing over it */
    dev->img_block_w_texels = dev->img_block_h_texels = 0;
    double n_col = walk(dev, "column", 1), n_row = walk(dev, "row", 1);
    double n_b4 = walk(dev, "block4", 1);
    CU_ASSERT_TRUE(n_col / n_row > 1.5);
    CU_ASSERT_TRUE(n_b4 > n_row * 0.97);
    fprintf(stderr, "  P6 mechanism: 2 KiB L1 block4 16/32 items %.3f %.3f; 2-row blocks "
            "block4/block2 %.3f; no blocks column/row %.2f\n", f16, f32, t4 / t2,
            n_col / n_row);
    free(dev);
}

/* The image layout of adreno740 for RGBA32F (16 B) texels: 2x1-texel L1
 * tiles, 4x1-texel L2 lines, 4x4-texel blocks of 4 L2 lines stacked in y;
 * without blocks a block is its one line. */
static void test_texlayout(void)
{
    mg_device *dev = load_dev("adreno740");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    mg_texlayout m;
    mg_texlayout_init(&m, dev, 16, 0);
    CU_ASSERT_EQUAL(m.tw, 2);
    CU_ASSERT_EQUAL(m.th, 1);
    CU_ASSERT_TRUE(mg_texlayout_blocked(&m));
    uint64_t a1, a2, b1, b2, c1, c2, blk[MG_TEXLAYOUT_MAX_LINES], other[MG_TEXLAYOUT_MAX_LINES];
    mg_texlayout_ids(&m, 5, 6, &a1, &a2);          /* tile (2, 6), line (1, 6) */
    mg_texlayout_ids(&m, 4, 6, &b1, &b2);          /* same tile */
    mg_texlayout_ids(&m, 6, 6, &c1, &c2);          /* next tile, same L2 line */
    CU_ASSERT_EQUAL(a1, b1);
    CU_ASSERT_NOT_EQUAL(a1, c1);
    CU_ASSERT_EQUAL(a2, c2);
    CU_ASSERT_EQUAL(mg_texlayout_block_lines(&m, a2, blk), 4);   /* rows 4..7 of x 4..7 */
    mg_texlayout_ids(&m, 7, 4, &b1, &b2);
    mg_texlayout_ids(&m, 4, 8, &c1, &c2);          /* the block below */
    int has_a = 0, has_b = 0, has_c = 0;
    for (int i = 0; i < 4; i++) {
        has_a |= blk[i] == a2;
        has_b |= blk[i] == b2;
        has_c |= blk[i] == c2;
    }
    CU_ASSERT_TRUE(has_a && has_b && !has_c);
    CU_ASSERT_EQUAL(mg_texlayout_block_lines(&m, b2, other), 4);  /* the same block */
    CU_ASSERT_EQUAL(memcmp(blk, other, sizeof(uint64_t) * 4), 0);
    mg_texlayout_init(&m, dev, 16, 1);                            /* another image */
    mg_texlayout_ids(&m, 5, 6, &b1, &b2);
    CU_ASSERT_NOT_EQUAL(a2, b2);
    dev->img_block_w_texels = dev->img_block_h_texels = 0;
    mg_texlayout_init(&m, dev, 16, 0);
    CU_ASSERT_FALSE(mg_texlayout_blocked(&m));
    CU_ASSERT_EQUAL(mg_texlayout_block_lines(&m, a2, blk), 1);
    CU_ASSERT_EQUAL(blk[0], a2);
    free(dev);
}

/* One work group of k warps all reading the same 16 KiB (readers=64). */
static mg_sim_stats shared_read(const mg_device *dev, int k)
{
    char line[256];
    snprintf(line, sizeof line, "bandwidth mem=image footprint=16384 readers=64 items=%d "
             "wg=%d iters=2 unroll=32", 64 * k, 64 * k);
    return sim(dev, line);
}

static double miss_rate(const mg_sim_stats *st)
{
    const mg_level_stats *l = &st->lv[MG_LV_TEX_L1];
    return l->accesses ? (double)l->misses / (double)l->accesses : 0;
}

/* P7 (tmmodel 3.2.2, Fig 5): one work group of 1..16 warps reading the same
 * data, registers high (unroll=32: 136 per item, 8 warps per occupancy group
 * on adreno640): the L1 miss rate falls while the warps fit one group, rises
 * when a second group starts (a wave), and the time steps with the number of
 * groups (x1.7-2.3 from one group to two, within 20% inside a group). */
static void test_p7_occupancy_waves(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    mg_sim_stats st[17];
    int G = 0;
    for (int k = 1; k <= 16; k++) {
        st[k] = shared_read(dev, k);
        CU_ASSERT_TRUE_FATAL(st[k].cycles > 0);
        if (st[k].occupancy_groups == 1) G = k;
    }
    CU_ASSERT_TRUE(G >= 2 && G < 16);
    for (int k = 2; k <= G; k++) CU_ASSERT_TRUE(miss_rate(&st[k]) < miss_rate(&st[k - 1]));
    CU_ASSERT_TRUE(miss_rate(&st[G + 1]) > miss_rate(&st[G]) * 1.2);        /* the wave */
    for (int k = 1; k <= 16; k++)
        CU_ASSERT_EQUAL(st[k].occupancy_groups, (uint32_t)((k + G - 1) / G));
    double step = st[G + 1].cycles / st[G].cycles;
    CU_ASSERT_TRUE(step > 1.7 && step < 2.3);
    CU_ASSERT_TRUE(st[G].cycles < st[2].cycles * 1.2 && st[G].cycles > st[2].cycles * 0.8);
    fprintf(stderr, "  P7: %d warps per group; miss rate 1/%d/%d/%d warps %.3f %.3f %.3f %.3f; "
            "cycles at %d and %d warps %.0f %.0f\n", G, 2, G, G + 1, miss_rate(&st[1]),
            miss_rate(&st[2]), miss_rate(&st[G]), miss_rate(&st[G + 1]), G, G + 1,
            st[G].cycles, st[G + 1].cycles);
    /* mechanism: twice the register pool holds all 16 warps in one group */
    dev->pool_regs_per_sp *= 2;
    mg_sim_stats big = shared_read(dev, 16);
    CU_ASSERT_EQUAL(big.occupancy_groups, 1);
    CU_ASSERT_TRUE(big.cycles < st[16].cycles * 0.7);    /* no second, serial group */
    fprintf(stderr, "  P7 with twice the pool: 16 warps in %u group, %.0f cycles (was %.0f)\n",
            big.occupancy_groups, big.cycles, st[16].cycles);
    free(dev);
}

/* Throughput (items per kilocycle) of 5 work groups of S items, 61 + 3 = 64
 * registers per item, a dependent chain (latency-bound). */
static double regp_rate(const mg_device *dev, int S)
{
    char line[256];
    snprintf(line, sizeof line, "regpressure regs=61 iters=16 items=%d wg=%d", 5 * S, S);
    double c = sim(dev, line).cycles;
    return c > 0 ? 5.0 * S / c * 1000.0 : -1;
}

/* The smallest work-group size (step 8) whose throughput reaches 95% of the
 * best over 8..384. */
static int p8_knee(const mg_device *dev)
{
    double best = 0, rate[49];
    for (int i = 1; i <= 48; i++) {
        rate[i] = regp_rate(dev, 8 * i);
        if (rate[i] > best) best = rate[i];
    }
    for (int i = 1; i <= 48; i++)
        if (rate[i] >= 0.95 * best) return 8 * i;
    return -1;
}

/* P8 (romou 3.2): Mali-G76, dedicated registers, 64 per item: throughput
 * peaks near work-group size 240 (+-10%), then stays (384 items fit at 64
 * registers, the largest work group); with half the ALU latency the peak
 * moves to ~120. */
static void test_p8_mali_workgroup(void)
{
    mg_device *dev = load_dev("mali-g76-mp5");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    int k = p8_knee(dev);
    CU_ASSERT_TRUE(k >= 216 && k <= 264);
    double r240 = regp_rate(dev, 240), r384 = regp_rate(dev, 384), r64 = regp_rate(dev, 64);
    CU_ASSERT_TRUE(r384 < r240 * 1.1);          /* no more gain past the peak */
    CU_ASSERT_TRUE(r64 < r240 * 0.4);           /* and far below it before */
    dev->alu_latency_cycles /= 2;
    int k2 = p8_knee(dev);
    fprintf(stderr, "  P8: throughput reaches 95%% of its best at work group %d (%d at half the "
            "ALU latency); items/kcycle at 64/240/384: %.2f %.2f %.2f\n", k, k2, r64, r240, r384);
    CU_ASSERT_TRUE(k2 >= 104 && k2 <= 136);
    free(dev);
}

/* core.scheduler (sim/MODEL.md, "Issue"): romou's conv1x1 [28,28,256,256]
 * with 7x8 tiles is 56 warps of identical work on 2 SPs of 16 slots.  With
 * single-warp groups, round_robin runs the 24-warp second wave in step (the
 * L2 idles while they all compute) and the 7-warp groups win; oldest lets
 * warps drift apart, loads overlap arithmetic, and the single-warp groups
 * win (the ranking P9 needs).  A kernel whose warps never wait for the ALU
 * together (one warp) is the same under both.  The register pool is set
 * to hold the 16 slots whatever the generator's register estimate of the
 * 7x8 tile (75 per item): this test is about the scheduler. */
static void test_scheduler(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    CU_ASSERT_EQUAL(dev->scheduler, MG_SCHED_OLDEST);
    dev->pool_regs_per_sp = dev->max_warps_per_sp * dev->warp_width * 128;
    const char *k = "conv2d H=28 W=28 Cin=256 Cout=256 K=1 layout_in=image layout_w=image "
                    "layout_out=buffer tile=7x8 storage=fp16 compute=fp16 wg=";
    char one[256], seven[256];
    snprintf(one, sizeof one, "%s8,2,4", k);
    snprintf(seven, sizeof seven, "%s8,2,28", k);
    double o1 = sim(dev, one).cycles, o7 = sim(dev, seven).cycles;
    double c1 = sim(dev, "pchase mem=buffer range=4096 stride=64 iters=256").cycles;
    dev->scheduler = MG_SCHED_ROUND_ROBIN;
    double r1 = sim(dev, one).cycles, r7 = sim(dev, seven).cycles;
    double c2 = sim(dev, "pchase mem=buffer range=4096 stride=64 iters=256").cycles;
    CU_ASSERT_TRUE(o1 > 0 && o7 > 0 && r1 > 0 && r7 > 0 && c1 > 0);
    CU_ASSERT_TRUE(o1 < o7);                 /* oldest: single-warp groups first */
    CU_ASSERT_TRUE(r1 > 1.05 * r7);          /* round_robin: 7-warp groups, by > 5% */
    CU_ASSERT_TRUE(o1 < r1 * 0.95);          /* the in-step second wave costs > 5% */
    CU_ASSERT_DOUBLE_EQUAL(c1, c2, 0);
    fprintf(stderr, "  scheduler: conv1x1 7x8 wg 8,2,4 / 8,2,28: oldest %.0f / %.0f, "
            "round_robin %.0f / %.0f cycles\n", o1, o7, r1, r7);
    free(dev);
}

/* Same inputs, same cycles, every time. */
static void test_deterministic(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    const char *line = "matmul M=64 N=64 K=64 tile=2x4 wg=8,8";
    mg_sim_stats a = sim(dev, line), b = sim(dev, line);
    CU_ASSERT_TRUE(a.cycles > 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    free(dev);
}

/* A work group with barriers that cannot be resident at once is refused
 * (CL_INVALID_WORK_GROUP_SIZE); without barriers it runs in groups. */
static void test_barrier_rejection(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->pool_regs_per_sp = 64 * 16 * 4;     /* 4 warps of 64 at 16 registers */
    mg_sim_stats st = sim(dev, "bandwidth mem=local footprint=16384 items=1024 wg=1024");
    CU_ASSERT_TRUE(st.cycles < 0);
    st = sim(dev, "bandwidth mem=buffer footprint=16384 items=1024 wg=1024");
    CU_ASSERT_TRUE(st.cycles > 0);
    CU_ASSERT_EQUAL(st.occupancy_groups, 4);
    free(dev);
}

/* local.broadcast_bytes: a warp's local read of at most that many distinct
 * bytes goes at local.broadcast_bandwidth, others at local.bandwidth
 * (adreno640: 64 B, 145.8 against 103.1 GB/s, ArchProbe's local curve).
 * 4 distinct float4 vectors per warp (64 B) are broadcast, 8 (128 B) are
 * not: the same lane bytes take 145.8 / 103.1 = 1.41x the cycles, within
 * 10% (the copy and the launch add a little); without the broadcast path
 * (broadcast_bytes 0) both go at local.bandwidth (within 2%). */
static void test_local_broadcast(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    const char *four = "bandwidth mem=local footprint=64 readers=4 items=4096 wg=1024 vec=4 "
                       "iters=128";
    const char *eight = "bandwidth mem=local footprint=128 readers=8 items=4096 wg=1024 vec=4 "
                        "iters=128";
    mg_sim_stats b4 = sim(dev, four), b8 = sim(dev, eight);
    dev->local_broadcast_bytes = 0;
    mg_sim_stats n4 = sim(dev, four), n8 = sim(dev, eight);
    CU_ASSERT_TRUE(b4.cycles > 0 && b8.cycles > 0 && n4.cycles > 0 && n8.cycles > 0);
    /* the same lane bytes but the copies' 64 B per group */
    CU_ASSERT_DOUBLE_EQUAL(b8.lv[MG_LV_LOCAL].bytes - b4.lv[MG_LV_LOCAL].bytes, 4 * 64, 0.5);
    double ratio = b8.cycles / b4.cycles, want = 145.8 / 103.1;
    CU_ASSERT_TRUE(ratio > 0.9 * want && ratio < 1.1 * want);
    CU_ASSERT_DOUBLE_EQUAL(n8.cycles / n4.cycles, 1.0, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(n4.cycles, b8.cycles, 0.02 * b8.cycles);
    fprintf(stderr, "  local broadcast: 64 B %.0f, 128 B %.0f cycles (%.3fx, rates %.3fx); "
            "without: %.0f, %.0f\n", b4.cycles, b8.cycles, ratio, want, n4.cycles, n8.cycles);
    free(dev);
}

/* l2.banks (adreno640: 4 banks of 128 B at 36.4 GB/s, 4-lane requests of
 * 32 B sectors): ArchProbe's reads of N float4 vectors, item l reading
 * vector l % N, 8 groups of 1024.  One vector (16 B): every request is
 * one sector in one bank; four (64 B): every request a whole 64 B line,
 * the same bank: twice the bank bytes, so 2x the cycles (within 10%);
 * 128 vectors (2 KiB) spread over the banks and go at the L2 pipe as
 * without banks (within 3%), where 16 B and 64 B went at the same rate.
 * constant.path buffer: a constant read is timed as the buffer read
 * (within 2%); with path own it takes the constant pipe, no banks. */
static double ap_cycles(const mg_device *dev, const char *mem, int vecs)
{
    char line[200];
    snprintf(line, sizeof line, "bandwidth mem=%s footprint=%d readers=%d items=8192 "
             "wg=1024 vec=4 iters=16", mem, 16 * vecs, vecs < 1024 ? vecs : 1024);
    return sim(dev, line).cycles;
}

static void test_l2_banks(void)
{
    mg_device *dev = load_dev("adreno640");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    CU_ASSERT_EQUAL(dev->l2_banks, 4);
    double b1 = ap_cycles(dev, "buffer", 1), b4 = ap_cycles(dev, "buffer", 4);
    double b128 = ap_cycles(dev, "buffer", 128), c4 = ap_cycles(dev, "constant", 4);
    dev->const_path = MG_CONST_OWN;
    double o4 = ap_cycles(dev, "constant", 4);
    dev->l2_banks = 0;
    double n1 = ap_cycles(dev, "buffer", 1), n4 = ap_cycles(dev, "buffer", 4);
    double n128 = ap_cycles(dev, "buffer", 128);
    CU_ASSERT_TRUE(b1 > 0 && b4 > 0 && b128 > 0 && c4 > 0 && o4 > 0 && n1 > 0 && n128 > 0);
    CU_ASSERT_TRUE(b4 / b1 > 1.8 && b4 / b1 < 2.2);
    CU_ASSERT_DOUBLE_EQUAL(b128, n128, 0.03 * n128);
    CU_ASSERT_DOUBLE_EQUAL(n4, n1, 0.03 * n1);
    CU_ASSERT_DOUBLE_EQUAL(c4, b4, 0.02 * b4);
    CU_ASSERT_TRUE(o4 < 0.7 * c4);
    fprintf(stderr, "  l2 banks: 16 B %.0f, 64 B %.0f, 2 KiB %.0f cycles; no banks %.0f, %.0f, "
            "%.0f; constant 64 B %.0f (own pipe %.0f)\n", b1, b4, b128, n1, n4, n128, c4, o4);
    free(dev);
}

/* buffer.vload = elements issues a vload_half2 as two 2-byte loads: twice
 * the load/store cache lookups of vector, the same bytes; an fp32 vload2
 * is two 4-byte loads either way at max_load_bytes 4. */
static void test_vload_elements(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    const char *half = "conv2d H=14 W=14 Cin=64 Cout=64 K=1 layout_in=buffer layout_w=buffer "
                       "layout_out=buffer tile=2x2 wg=32,2,1 vec=2 storage=fp16";
    const char *full = "conv2d H=14 W=14 Cin=64 Cout=64 K=1 layout_in=buffer layout_w=buffer "
                       "layout_out=buffer tile=2x2 wg=32,2,1 vec=2 storage=fp32";
    dev->buffer_vload = MG_VLOAD_VECTOR;
    mg_sim_stats hv = sim(dev, half), fv = sim(dev, full);
    dev->buffer_vload = MG_VLOAD_ELEMENTS;
    mg_sim_stats he = sim(dev, half), fe = sim(dev, full);
    CU_ASSERT_TRUE(hv.cycles > 0 && he.cycles > 0 && fv.cycles > 0 && fe.cycles > 0);
    CU_ASSERT_EQUAL(he.lv[MG_LV_BUF_L1].accesses, 2 * hv.lv[MG_LV_BUF_L1].accesses);
    CU_ASSERT_DOUBLE_EQUAL(he.lv[MG_LV_BUF_L1].bytes, hv.lv[MG_LV_BUF_L1].bytes, 0.5);
    CU_ASSERT_TRUE(he.cycles > hv.cycles);
    CU_ASSERT_EQUAL(fe.lv[MG_LV_BUF_L1].accesses, fv.lv[MG_LV_BUF_L1].accesses);
    CU_ASSERT_DOUBLE_EQUAL(fe.cycles, fv.cycles, 0.5);
    free(dev);
}

/* core.partitions: a lone warp per SM issues to one partition's quarter
 * of the SM's pipes, so its chase steps of 16 loads take longer than with
 * whole-SM pipes; 4 warps per SM (one per partition) step as fast as one;
 * with 16 warps per SM every partition is busy and the SM's rates are
 * those of an unsplit SM (within 5%).  The partitions alone: a partition's
 * own cycles per lookup block (buffer_l1.partition_lookup_cycles, tested
 * below) are set to the tag stage's 1. */
static double mlp_cycles(mg_device *dev, int parts, int warps)
{
    char line[160];
    snprintf(line, sizeof line, "mlp range=4096 loads=16 iters=256 items=%d wg=%d",
             (int)dev->sp_count * 32 * warps, 32 * warps);
    dev->partitions = parts;
    return sim(dev, line).cycles;
}

static void test_partitions(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    dev->buf_l1_partition_lookup_cycles = 1;
    double p1w1 = mlp_cycles(dev, 1, 1), p4w1 = mlp_cycles(dev, 4, 1);
    double p4w4 = mlp_cycles(dev, 4, 4);
    double p1w16 = mlp_cycles(dev, 1, 16), p4w16 = mlp_cycles(dev, 4, 16);
    CU_ASSERT_TRUE(p1w1 > 0 && p4w1 > 0 && p4w4 > 0 && p1w16 > 0 && p4w16 > 0);
    CU_ASSERT_TRUE(p4w1 > 1.3 * p1w1);
    CU_ASSERT_TRUE(p4w4 < 1.1 * p4w1 && p4w4 > 0.9 * p4w1);
    CU_ASSERT_TRUE(p4w16 < 1.05 * p1w16 && p4w16 > 0.95 * p1w16);
    free(dev);
}

/* buffer_l1.partition_lookup_cycles: a lone warp per SM whose loads put
 * every lane on its own line (vload, stride 128: 32 lines a load) takes
 * at least 1.5 x longer at 2 cycles per block than at 1, since its
 * partition spends them on each line; with 16 warps per SM the SP's tag
 * stage (one block per cycle) binds either way (within 5%); loads of one
 * line (stride 4) do not move (within 1%). */
static double scatter_cycles(mg_device *dev, double plc, int warps, int stride)
{
    char line[160];
    snprintf(line, sizeof line, "vload items=%d wg=%d iters=64 lines=256 stride=%d",
             (int)dev->sp_count * 32 * warps, 32 * warps, stride);
    dev->buf_l1_partition_lookup_cycles = plc;
    return sim(dev, line).cycles;
}

static void test_partition_lookup(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    double l1 = scatter_cycles(dev, 1, 1, 128), l2 = scatter_cycles(dev, 2, 1, 128);
    double b1 = scatter_cycles(dev, 1, 16, 128), b2 = scatter_cycles(dev, 2, 16, 128);
    double c1 = scatter_cycles(dev, 1, 1, 4), c2 = scatter_cycles(dev, 2, 1, 4);
    CU_ASSERT_TRUE(l1 > 0 && b1 > 0 && c1 > 0);
    CU_ASSERT_TRUE(l2 > 1.5 * l1);
    CU_ASSERT_DOUBLE_EQUAL(b2, b1, 0.05 * b1);
    CU_ASSERT_DOUBLE_EQUAL(c2, c1, 0.01 * c1);
    free(dev);
}

/* core.max_misses_per_warp: a lone warp's chase steps of 24 L2-resident
 * line loads take two round trips with a cap of 16 misses in flight (at
 * least 1.4 x the uncapped step), while 16 loads a step take one either
 * way (within 1%); L1 hits never count (a 32-line buffer, 24 loads: within
 * 3%, the first steps' cold misses). */
static double mlp_miss(mg_device *dev, int cap, int range, int loads)
{
    char line[160];
    snprintf(line, sizeof line, "mlp range=%d loads=%d iters=256 items=%d wg=32", range, loads,
             (int)dev->sp_count * 32);
    dev->max_misses_per_warp = cap;
    return sim(dev, line).cycles;
}

static void test_miss_cap(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    double l2 = 8 << 20;
    double a24 = mlp_miss(dev, 0, (int)l2, 24), c24 = mlp_miss(dev, 16, (int)l2, 24);
    double a16 = mlp_miss(dev, 0, (int)l2, 16), c16 = mlp_miss(dev, 16, (int)l2, 16);
    double h0 = mlp_miss(dev, 0, 4096, 24), h16 = mlp_miss(dev, 16, 4096, 24);
    CU_ASSERT_TRUE(a24 > 0 && c24 > 0 && a16 > 0 && c16 > 0 && h0 > 0 && h16 > 0);
    CU_ASSERT_TRUE(c24 > 1.4 * a24);
    CU_ASSERT_DOUBLE_EQUAL(c16, a16, 0.01 * a16);
    CU_ASSERT_DOUBLE_EQUAL(h16, h0, 0.03 * h0);
    free(dev);
}

/* core.track_fills: a lone warp's chase steps of 24 L2-resident loads,
 * 4 to a line (6 lines), with a cap of 16 misses in flight: without the
 * fills kept, the 18 loads that find their line allocated are hits and
 * the step is one round trip; with them, those loads wait for the fill
 * and count as misses in flight, so the step takes two (at least 1.4 x);
 * with one line per load nothing changes (within 1%). */
static double mlp_fills(mg_device *dev, int track, int reuse)
{
    char line[160];
    snprintf(line, sizeof line, "mlp range=%d loads=24 reuse=%d iters=256 items=%d wg=32",
             8 << 20, reuse, (int)dev->sp_count * 32);
    dev->max_misses_per_warp = 16;
    dev->track_fills = track;
    return sim(dev, line).cycles;
}

static void test_track_fills(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    double r0 = mlp_fills(dev, 0, 4), r1 = mlp_fills(dev, 1, 4);
    double u0 = mlp_fills(dev, 0, 1), u1 = mlp_fills(dev, 1, 1);
    CU_ASSERT_TRUE(r0 > 0 && r1 > 0 && u0 > 0 && u1 > 0);
    CU_ASSERT_TRUE(r1 > 1.4 * r0);
    CU_ASSERT_DOUBLE_EQUAL(u1, u0, 0.01 * u0);
    free(dev);
}

/* core.max_workgroups_per_sp: 64 one-warp work groups per SM fit the warp
 * slots, but with a cap of 32 only 32 are resident at once (the most
 * resident warps drops from 64 to 32) and the launch takes longer; a cap
 * above what the other limits allow changes nothing. */
static mg_sim_stats wg_cap_run(mg_device *dev, int cap)
{
    char line[160];
    snprintf(line, sizeof line, "mlp range=4096 loads=1 iters=256 items=%d wg=32",
             (int)dev->sp_count * 32 * 64);
    dev->max_wgs_per_sp = cap;
    return sim(dev, line);
}

static void test_wg_cap(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    mg_sim_stats none = wg_cap_run(dev, 0), c32 = wg_cap_run(dev, 32);
    mg_sim_stats c64 = wg_cap_run(dev, 64);
    CU_ASSERT_EQUAL(none.resident_warps_max, 64);
    CU_ASSERT_EQUAL(c32.resident_warps_max, 32);
    CU_ASSERT_TRUE(c32.cycles > 1.3 * none.cycles);
    CU_ASSERT_DOUBLE_EQUAL(c64.cycles, none.cycles, 1e-9 * none.cycles);
    free(dev);
}

/* tex_l1.unit_group_bytes: the texture unit takes a read's lanes 64 B of
 * texels at a time, one step per distinct 32 B x 8-row block a group
 * touches (the h100-texq suite): at full occupancy a warp whose lanes
 * share one RGBA32F texel costs half of one whose lanes read 32 texels of
 * a row, a column of texels 8 rows apart twice that, RGBA16F texels half
 * of RGBA32F; without the unit the lanes' bytes set the cost, whatever
 * they share. */
static double texq_cycles(mg_device *dev, int group, const char *pat, int readers,
                          const char *storage)
{
    char line[200];
    int tb = strcmp(storage, "fp16") ? 16 : 8;
    snprintf(line, sizeof line, "bandwidth mem=image footprint=%d items=%d iters=2 "
             "readers=%d wg=256,1,1 pattern=%s vec=4 storage=%s", tb * 32 * readers,
             (int)dev->sp_count * 2048, readers, pat, storage);
    dev->tex_unit_group_bytes = group;
    return sim(dev, line).cycles;
}

static void test_tex_unit(void)
{
    mg_device *dev = load_dev("nvidia-h100");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dev);
    dev->launch_overhead_s = 0;
    double one = texq_cycles(dev, 64, "column", 1, "fp32");
    double row = texq_cycles(dev, 64, "column", 32, "fp32");
    double col8 = texq_cycles(dev, 64, "block8", 4, "fp32");
    double half = texq_cycles(dev, 64, "column", 32, "fp16");
    double off1 = texq_cycles(dev, 0, "column", 1, "fp32");
    double off32 = texq_cycles(dev, 0, "column", 32, "fp32");
    CU_ASSERT_TRUE(one > 0 && row > 0 && col8 > 0 && half > 0 && off1 > 0 && off32 > 0);
    CU_ASSERT_DOUBLE_EQUAL(row / one, 2.0, 0.3);
    CU_ASSERT_DOUBLE_EQUAL(col8 / row, 2.0, 0.3);
    CU_ASSERT_DOUBLE_EQUAL(row / half, 2.0, 0.3);
    CU_ASSERT_DOUBLE_EQUAL(off32 / off1, 1.0, 0.1);
    free(dev);
}

int add_model_suite(void)
{
    CU_pSuite s = CU_add_suite("model", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "p1_register_pool", test_p1_register_pool) ||
        !CU_add_test(s, "p2_texture_l1", test_p2_texture_l1) ||
        !CU_add_test(s, "p3_warp_size", test_p3_warp_size) ||
        !CU_add_test(s, "p4_roofline", test_p4_roofline) ||
        !CU_add_test(s, "p5_image_vs_buffer", test_p5_image_vs_buffer) ||
        !CU_add_test(s, "p6_access_patterns", test_p6_access_patterns) ||
        !CU_add_test(s, "texlayout", test_texlayout) ||
        !CU_add_test(s, "p7_occupancy_waves", test_p7_occupancy_waves) ||
        !CU_add_test(s, "p8_mali_workgroup", test_p8_mali_workgroup) ||
        !CU_add_test(s, "scheduler", test_scheduler) ||
        !CU_add_test(s, "deterministic", test_deterministic) ||
        !CU_add_test(s, "barrier_rejection", test_barrier_rejection) ||
        !CU_add_test(s, "vload_elements", test_vload_elements) ||
        !CU_add_test(s, "local_broadcast", test_local_broadcast) ||
        !CU_add_test(s, "l2_banks", test_l2_banks) ||
        !CU_add_test(s, "partitions", test_partitions) ||
        !CU_add_test(s, "partition_lookup", test_partition_lookup) ||
        !CU_add_test(s, "miss_cap", test_miss_cap) ||
        !CU_add_test(s, "track_fills", test_track_fills) ||
        !CU_add_test(s, "wg_cap", test_wg_cap) ||
        !CU_add_test(s, "tex_unit", test_tex_unit))
        return -1;
    return 0;
}

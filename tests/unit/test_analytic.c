/* test_analytic.c - the analytical model (sim/analytic; sim/MODEL.md, "The
 * analytical model") on hand-built traces whose figures are computed by
 * hand on adreno640 (texture L1 of 32 lines, each a tile of 8 x 1 texels
 * of 4 bytes, two tiles per 64-byte L2 line; latencies 76 (L1), 18 (L2),
 * 27 ns x 585 MHz (DRAM); 2 SPs):
 * - TMModel's four patterns of section 3.2.1 give their reuse distances:
 *   column-major 0, row-major 1, 2-row blocks 2; and the cross-block
 *   stride histogram counts the lines and L2 lines a lane moves to;
 * - L_t = <beta, H> (eq. 1);
 * - warp level: 64 lanes reading rows (w s = 64 > C = 32) take one step of
 *   thrashing, L_w = L_t x D (eq. 2); 2 lanes take none;
 * - work-group level: L_g = ceil(WGs / (SPs x work groups per SP));
 * - traffic floors: the L1 misses in the warp's share of the L1 (its 32
 *   lines over the work groups resident per SP) at the L2 bandwidth, the
 *   image's bytes times the L2 refetch factor at the DRAM bandwidth. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "sim/analytic/analytic.h"
#include "tests/unit/suites.h"

typedef enum { PAT_ROW, PAT_COL, PAT_BLOCK2 } pattern;

typedef struct hand {
    mg_trace_header h;
    pattern pat;
    uint32_t lanes;
    int given;
} hand;

/* Lane l's k-th texel of 16 under pattern p: rows of its own (y = l). */
static void texel(pattern p, uint32_t l, int k, int64_t *x, int64_t *y)
{
    if (p == PAT_ROW) { *x = k; *y = l; }
    else if (p == PAT_COL) { *x = l; *y = k; }
    else { *x = k / 2; *y = 2 * (int64_t)l + k % 2; }
}

static int hand_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    (void)d;
    hand *H = self;
    if (H->given++) return 0;
    uint32_t id[3] = {0, 0, 0};
    mg_trace_wg_begin(wg, id);
    mg_trace_wg_warp_begin(wg, H->lanes);
    for (int k = 0; k < 16; k++) {
        mg_rec r;
        memset(&r, 0, sizeof r);
        r.type = MG_REC_TEX_READ;
        r.lanes = (uint16_t)H->lanes;
        r.width = 4;
        for (uint32_t l = 0; l < H->lanes; l++) {
            mg_rec_set_active(&r, l);
            texel(H->pat, l, k, &r.a[l], &r.b[l]);
        }
        mg_trace_wg_put(wg, &r);
    }
    mg_trace_wg_warp_end(wg);
    return 1;
}

/* Estimate pattern p over `lanes` lanes, in `wgs` work groups of one warp. */
static int estimate(pattern p, uint32_t lanes, uint32_t wgs, mg_am_est *e)
{
    static mg_device dev;
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_device_load("configs/devices/adreno640.json", 0, &dev, &d);
    hand H;
    memset(&H, 0, sizeof H);
    H.pat = p;
    H.lanes = lanes;
    H.h.version = 2;
    snprintf(H.h.kernel, sizeof H.h.kernel, "hand");
    H.h.global[0] = lanes * wgs;
    H.h.global[1] = H.h.global[2] = 1;
    H.h.local[0] = lanes;
    H.h.local[1] = H.h.local[2] = 1;
    H.h.warp_width = lanes;
    H.h.regs_per_item = 16;
    H.h.n_images = 1;
    snprintf(H.h.images[0].name, sizeof H.h.images[0].name, "X");
    H.h.images[0].width = H.h.images[0].height = 256;
    H.h.images[0].channels = 1;
    H.h.images[0].texel_bytes = 4;
    mg_trace_source src = {&H.h, hand_next, &H, NULL, NULL};
    if (!rc) rc = mg_am_estimate(&dev, &src, e, &d);
    if (rc) fprintf(stderr, "\n%s\n", mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

static const double DRAM = 27e-9 * 585e6;

static void test_row_major(void)
{
    mg_am_est e;
    CU_ASSERT_FATAL(estimate(PAT_ROW, 2, 1, &e) == 0);
    CU_ASSERT_EQUAL(e.ntensors, 1);
    const mg_am_tensor *t = &e.t[0];
    /* x = 0..15: tiles 0 and 1, one L2 line; 14 reuses at distance 1 */
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_ACCESS], 16, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_LINE], 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_BLOCK], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->reuse, 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->lanes, 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->lt, 16 * 76 + 2 * 18 + DRAM, 1e-6);
    CU_ASSERT_EQUAL(e.steps[MG_AM_TEX], 0);               /* 2 x 1 <= 32 lines */
    CU_ASSERT_DOUBLE_EQUAL(e.lw, t->lt, 1e-6);
}

static void test_column_major(void)
{
    mg_am_est e;
    CU_ASSERT_FATAL(estimate(PAT_COL, 2, 1, &e) == 0);
    const mg_am_tensor *t = &e.t[0];
    /* y = 0..15: a new tile and L2 line every access, none reused */
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_LINE], 16, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_BLOCK], 16, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->reuse, 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->lt, 16 * (76 + 18 + DRAM), 1e-6);
}

static void test_block2(void)
{
    mg_am_est e;
    CU_ASSERT_FATAL(estimate(PAT_BLOCK2, 2, 1, &e) == 0);
    const mg_am_tensor *t = &e.t[0];
    /* rows 2l and 2l + 1 in turn, x = 0..7: every access moves to the other
     * row's tile; 14 reuses at distance 2 */
    CU_ASSERT_DOUBLE_EQUAL(t->hist[MG_AM_H_LINE], 16, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t->reuse, 2, 1e-9);
}

static void test_thrashing(void)
{
    mg_am_est e;
    CU_ASSERT_FATAL(estimate(PAT_ROW, 64, 1, &e) == 0);
    /* w s = 64 x 1 lines on C = 32: ceil((64 - 32) / 32) = 1 step of D */
    double D = sqrt((76.0 + 18.0) / 76.0);
    CU_ASSERT_DOUBLE_EQUAL(e.pressure[MG_AM_TEX], 64, 1e-9);
    CU_ASSERT_EQUAL(e.steps[MG_AM_TEX], 1);
    CU_ASSERT_DOUBLE_EQUAL(e.lw, e.t[0].lt * D, 1e-6);
    CU_ASSERT_TRUE(e.lw <= e.t[0].lt_miss);
}

static void test_groups(void)
{
    mg_am_est e;
    /* 100 work groups of one warp of 64 at 16 registers: adreno640 holds
     * 16 warps per SP, so L_g = ceil(100 / (2 x 16)) = 4 */
    CU_ASSERT_FATAL(estimate(PAT_ROW, 64, 100, &e) == 0);
    CU_ASSERT_EQUAL(e.wgs, 100);
    CU_ASSERT_EQUAL(e.wgs_per_sp, e.occupancy);
    CU_ASSERT_EQUAL(e.lg, (100 + 2 * e.wgs_per_sp - 1) / (2 * e.wgs_per_sp));
    CU_ASSERT_DOUBLE_EQUAL(e.tm_cycles, e.lw * (double)e.lg, 1e-6);
    CU_ASSERT_TRUE(e.cycles >= e.tm_cycles && e.cycles >= e.floor_cycles);
}

static void test_traffic(void)
{
    mg_am_est e;
    /* 64 lanes, a row each (x = 0..15: tiles 0 and 1, one L2 line): every
     * record reads 64 distinct tiles, more than the 32 lines the warp
     * holds, so each of the 16 x 64 reads is an L1 miss, 32 bytes each; the
     * 64 L2 lines are each fetched once (amp 1) */
    CU_ASSERT_FATAL(estimate(PAT_ROW, 64, 1, &e) == 0);
    CU_ASSERT_DOUBLE_EQUAL(e.l2_bytes, 16 * 64 * 32, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(e.l2_cycles, 16 * 64 * 32 / 96e9 * 585e6, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(e.t[0].dram_amp, 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.dram_bytes, 256 * 256 * 4, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(e.dram_cycles, 256 * 256 * 4 / 30e9 * 585e6, 1e-6);
    CU_ASSERT_TRUE(e.cycles >= e.l2_cycles && e.cycles >= e.dram_cycles);
    /* 2 lanes: 2 tiles each, held between records: 4 misses */
    CU_ASSERT_FATAL(estimate(PAT_ROW, 2, 1, &e) == 0);
    CU_ASSERT_DOUBLE_EQUAL(e.l2_bytes, 4 * 32, 1e-6);
}

static void test_predictor_parse(void)
{
    int p = -1;
    CU_ASSERT_EQUAL(mg_am_predictor_parse("analytic", &p), 0);
    CU_ASSERT_EQUAL(p, MG_PRED_ANALYTIC);
    CU_ASSERT_EQUAL(mg_am_predictor_parse("sim", &p), 0);
    CU_ASSERT_EQUAL(p, MG_PRED_SIM);
    CU_ASSERT_EQUAL(mg_am_predictor_parse("tmmodel", &p), -1);
}

int add_analytic_suite(void)
{
    CU_pSuite s = CU_add_suite("analytic", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "row-major: H, s = 1, L_t", test_row_major) ||
        !CU_add_test(s, "column-major: every access a new line, s = 0", test_column_major) ||
        !CU_add_test(s, "2-row blocks: s = 2", test_block2) ||
        !CU_add_test(s, "thrashing: one step of D past C", test_thrashing) ||
        !CU_add_test(s, "occupancy groups: L_g", test_groups) ||
        !CU_add_test(s, "traffic floors: L1 misses, L2 refetch", test_traffic) ||
        !CU_add_test(s, "--predictor values", test_predictor_parse))
        return -1;
    return 0;
}

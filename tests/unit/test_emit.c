/* test_emit.c - mg_emit_aff() and the ops' affine fast paths
 * (traces/gen/emit.c, ops/conv2d_trace.c, matmul.c, eltwise.c): for
 * schedules that take every fast path and every lane-by-lane fallback
 * (warps spanning several local z, in planes and not, boundary lanes
 * outside the input, channel tiles of 2, masks cut by the tensor's edge,
 * warps of 16 to 128 lanes), each work group's trace is the one the ops'
 * lane-by-lane code gives (mg_emit_set_lanewise), byte for byte when
 * encoded and record by record in the record form; and most memory
 * records did go out as forms. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/emit.h"
#include "traces/gen/gen.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

static const char *const lines[] = {
    /* conv2d: images and buffers, 1x1 and padded 3x3 and 5x5 (boundary
     * lanes), strides, depthwise with TC % 4 = 0 and not, splits, tiles
     * that do not divide the output, warps over several local z */
    "conv2d H=14 W=14 Cin=16 Cout=16 K=1 tile=4x4 wg=4,4 layout=image storage=fp16",
    "conv2d H=9 W=9 Cin=8 Cout=8 K=3 pad=1 tile=2x4 wg=2,8 layout=buffer",
    "conv2d H=11 W=13 Cin=8 Cout=12 K=3 pad=1 stride=2 tile=3x4 wg=3,5 layout=image",
    "conv2d H=12 W=12 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=2x4 wg=4,4 layout=image",
    "conv2d H=12 W=12 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=1x2 wg=4,4 layout=buffer vec=2",
    "conv2d H=10 W=10 Cin=8 Cout=8 K=3 pad=1 tile=2x2 wg=4,4 layout_in=image layout_w=image "
    "layout_out=buffer",
    "conv2d H=10 W=10 Cin=8 Cout=6 K=3 pad=1 tile=2x2 wg=4,4 layout_in=image layout_w=buffer "
    "layout_out=buffer",
    "conv2d H=8 W=8 Cin=16 Cout=8 K=1 tile=1x4 wg=4,4,4 split=2 layout=image",
    "conv2d H=7 W=7 Cin=16 Cout=8 K=3 pad=1 tile=2x4 wg=4,2,4 split=4 layout=buffer",
    "conv2d H=9 W=9 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=2x4 wg=2,2,3 split=3 layout=image",
    "conv2d H=13 W=13 Cin=8 Cout=8 K=5 pad=2 tile=3x2 wg=5,3,2 layout=buffer vec=2",
    /* warps over several local z on the fast path: split 1 (rows affine in
     * z, padded rows above and below), R = 1 (split index = z, an image's
     * channel texel stepping with it), split indices of R > 1 rows */
    "conv2d H=10 W=10 Cin=8 Cout=8 K=3 pad=1 tile=2x4 wg=4,1,6 layout=image",
    "conv2d H=6 W=6 Cin=32 Cout=8 K=1 tile=2x4 wg=2,3,4 split=4 layout=image",
    "conv2d H=8 W=8 Cin=16 Cout=16 K=3 pad=1 tile=2x4 wg=2,2,8 split=2 layout=buffer",
    /* ... and warps that start within a plane (14 items to a plane), over
     * several split indices of R > 1 rows each (planes in blocks), and a
     * depthwise split's taps over several split indices (lane by lane) */
    "conv2d H=14 W=14 Cin=16 Cout=16 K=1 tile=2x4 wg=2,7,4 layout=image",
    "conv2d H=8 W=8 Cin=32 Cout=8 K=1 tile=2x4 wg=2,2,8 split=4 layout=image",
    "conv2d H=6 W=6 Cin=24 Cout=8 K=1 tile=2x4 wg=2,2,9 split=3 layout=image",
    "conv2d H=12 W=12 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=2x4 wg=2,2,6 split=3 layout=image",
    /* matmul: images (TN % 4 = 0 and not), buffers, split, unroll, edges */
    "matmul M=33 N=44 K=24 tile=2x4 wg=4,4 layout=image",
    "matmul M=20 N=24 K=16 tile=3x8 wg=4,2 unroll=2",
    "matmul M=1 N=64 K=64 tile=1x4 wg=8,1,4 split=4",
    "matmul M=16 N=16 K=32 tile=2x4 wg=2,2,2 split=2 layout=image",
    /* eltwise: buffer rows and columns, an image */
    "eltwise H=7 W=9 C=12 wg=32",
    "eltwise H=5 W=5 C=16 wg=16 pattern=column",
    "eltwise H=6 W=7 C=8 wg=16 layout=image",
    "add H=5 W=7 C=12 act=relu wg=16 layout=buffer",
    "act H=3 W=5 C=8 act=relu6 wg=8 layout=buffer vec=2",
    "concat H=5 W=3 C=8,4 wg=16 layout=buffer",
    "conv2d H=9 W=9 Cin=8 Cout=8 K=3 pad=1 tile=2x4 wg=2,8 bias=1 act=relu layout=buffer",
};
#define N_LINES (sizeof lines / sizeof lines[0])

static const int warps[] = {16, 32, 64, 128};

/* Do a and b hold the same record: every field the decoder sets, and, for
 * memory records, the addresses of the active lanes? */
static int same_rec(const mg_rec *a, const mg_rec *b)
{
    if (a->type != b->type || a->site != b->site || a->lanes != b->lanes ||
        a->mask[0] != b->mask[0] || a->mask[1] != b->mask[1] || a->cls != b->cls ||
        a->vec != b->vec || a->n != b->n || a->flops != b->flops || a->obj != b->obj ||
        a->width != b->width || (a->type == MG_REC_ALU && a->dep != b->dep))
        return 0;
    if (a->type == MG_REC_ALU || a->type == MG_REC_BARRIER) return 1;   /* no addresses */
    for (unsigned l = 0; l < a->lanes; l++)
        if (mg_rec_active(a, l) && (a->a[l] != b->a[l] || a->b[l] != b->b[l])) return 0;
    return 1;
}

/* Work group idx of g, fast and lane by lane, in form `recs` (1: record
 * form, read by a plain cursor and by the simulator's distinct_only one).
 * Returns 1 when they are the same.  Record form: adds the fast trace's
 * memory records to *mem and those put as forms to *direct. */
static int same_wg(const mg_gen *g, uint64_t idx, int recs, mg_trace_wg *x, mg_trace_wg *y,
                   mg_rec *ra, mg_rec *rb, uint64_t *mem, uint64_t *direct)
{
    x->want_recs = y->want_recs = recs;
    mg_emit_set_lanewise(0);
    uint64_t d0 = mg_emit_direct_count();
    int rc = mg_gen_trace_wg(g, idx, x);
    if (recs) *direct += mg_emit_direct_count() - d0;
    mg_emit_set_lanewise(1);
    rc |= mg_gen_trace_wg(g, idx, y);
    mg_emit_set_lanewise(0);
    if (rc || x->n_warps != y->n_warps || x->in_recs != recs || y->in_recs != recs) return 0;
    if (!recs) return x->len == y->len && memcmp(x->bytes, y->bytes, x->len) == 0;
    for (uint32_t w = 0; w < x->n_warps; w++) {
        mg_trace_cursor cx, cy;
        mg_trace_cursor_init(&cx, x, w);
        mg_trace_cursor_init(&cy, y, w);
        int gx, gy;
        while ((gx = mg_trace_cursor_next(&cx, ra, NULL)) == 1) {
            gy = mg_trace_cursor_next(&cy, rb, NULL);
            if (gy != 1 || !same_rec(ra, rb)) return 0;
            *mem += ra->type != MG_REC_ALU && ra->type != MG_REC_BARRIER;
        }
        if (gx != 0 || mg_trace_cursor_next(&cy, rb, NULL) != 0) return 0;
        /* the simulator's cursor (distinct_only): the lanes it lists hold
         * the lane-by-lane addresses, and every distinct address is among
         * them */
        mg_trace_cursor_init(&cx, x, w);
        mg_trace_cursor_init(&cy, y, w);
        cx.distinct_only = 1;
        while (mg_trace_cursor_next(&cx, ra, NULL) == 1) {
            if (mg_trace_cursor_next(&cy, rb, NULL) != 1) return 0;
            if (ra->type == MG_REC_ALU || ra->type == MG_REC_BARRIER ||
                ra->type == MG_REC_CONST_LOAD)
                continue;
            for (uint32_t k = 0; k < cx.nln; k++) {
                unsigned l = cx.ln[k];
                if (ra->a[l] != rb->a[l] || ra->b[l] != rb->b[l]) return 0;
            }
            for (unsigned l = 0; l < rb->lanes; l++) {
                if (!mg_rec_active(rb, l)) continue;
                uint32_t k = 0;
                while (k < cx.nln && (rb->a[cx.ln[k]] != rb->a[l] || rb->b[cx.ln[k]] != rb->b[l]))
                    k++;
                if (k == cx.nln) return 0;
            }
        }
    }
    return 1;
}

static void test_same_as_lanewise(void)
{
    mg_rec *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_FATAL(ra && rb && g);
    mg_trace_wg x, y;
    mg_trace_wg_init(&x);
    mg_trace_wg_init(&y);
    uint64_t groups = 0, mem = 0, direct = 0;
    for (size_t i = 0; i < N_LINES; i++)
        for (size_t k = 0; k < sizeof warps / sizeof warps[0]; k++) {
            CU_ASSERT_EQUAL_FATAL(ops_prepare(lines[i], warps[k], g), 0);
            uint64_t n = mg_gen_num_wgs(g);
            for (uint64_t idx = 0; idx < n; idx++) {
                groups++;
                for (int recs = 0; recs < 2; recs++) {
                    if (same_wg(g, idx, recs, &x, &y, ra, rb, &mem, &direct)) continue;
                    fprintf(stderr, "\n%s warp=%d: group %llu differs (%s)\n", lines[i],
                            warps[k], (unsigned long long)idx, recs ? "record form" : "bytes");
                    CU_FAIL("fast path differs from lane by lane");
                    idx = n;
                    break;
                }
            }
            mg_gen_free(g);
        }
    mg_trace_wg_free(&x);
    mg_trace_wg_free(&y);
    free(ra);
    free(rb);
    free(g);
    /* both kinds of path were compared: the lines' 1208 groups over the 4
     * warp widths, 74% of their memory records put as forms (40% before
     * warps over several z had forms), the rest by the fallbacks (boundary
     * lanes, a depthwise split's taps, warps not starting at local x 0) */
    CU_ASSERT_TRUE(groups > 1200);
    CU_ASSERT_TRUE(direct * 10 > mem * 7);
    CU_ASSERT_TRUE(direct < mem);
}

int add_emit_suite(void)
{
    CU_pSuite s = CU_add_suite("emit", NULL, NULL);
    return s && CU_add_test(s, "same_as_lanewise", test_same_as_lanewise) ? 0 : -1;
}

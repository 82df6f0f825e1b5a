/* test_trace_drec.c - the record form of a work group (traces/trace_drec.c)
 * and what the simulator builds on it: every generated record reads back
 * the same from the record form as from the encoded form, the record form
 * re-encodes to the same bytes, mg_rec_distinct_lanes() keeps the first
 * occurrence of every address, a cursor with distinct_only fills the
 * listed lanes right, and a simulation from a trace file gives exactly the
 * statistics of the in-memory one. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"
#include "traces/trace_internal.h"

/* Schedules whose traces cover the record kinds: affine texel and buffer
 * records with full and partial masks (conv2d boundary groups, warpsize's
 * partial warp), random lists (pchase, rstride2d), local memory with
 * barriers, constants, ALU work. */
static const char *const lines[] = {
    "conv2d H=14 W=14 Cin=16 Cout=16 K=1 tile=2x4 wg=4,4 layout=image storage=fp16",
    "conv2d H=9 W=9 Cin=16 Cout=8 K=3 pad=1 tile=2x4 wg=2,8 layout=buffer",
    "matmul M=32 N=32 K=32 tile=2x4",
    "eltwise",
    "pchase mem=image range=4096 stride=32 stride_y=2 W=32 iters=50",
    "pchase mem=buffer range=3072 stride=12 iters=60",
    "rstride2d strides=3,5 W=16 H=16 iters=40 seed=7",
    "bandwidth mem=local footprint=4096 items=128 wg=64 vec=2 iters=1",
    "bandwidth mem=image pattern=block4 footprint=16384 items=16 wg=16 iters=2",
    "warpsize items=100 groups=7",
    "softmax M=4 N=96",
};
#define N_LINES (sizeof lines / sizeof lines[0])

/* Do a and b hold the same record (the fields the decoder sets, and the
 * addresses of the active lanes)?  lanes: only these (NULL: every active
 * lane). */
static int same_rec(const mg_rec *a, const mg_rec *b, const uint8_t *lanes, unsigned nl)
{
    if (a->type != b->type || a->site != b->site || a->lanes != b->lanes ||
        a->mask[0] != b->mask[0] || a->mask[1] != b->mask[1] || a->cls != b->cls ||
        a->vec != b->vec || a->n != b->n || a->flops != b->flops || a->obj != b->obj ||
        a->width != b->width)
        return 0;
    if (a->type == MG_REC_ALU && a->dep != b->dep) return 0;
    if (!mg_rec_dims(a->type)) return 1;
    if (lanes) {
        for (unsigned k = 0; k < nl; k++)
            if (a->a[lanes[k]] != b->a[lanes[k]] || a->b[lanes[k]] != b->b[lanes[k]]) return 0;
        return 1;
    }
    for (unsigned l = 0; l < a->lanes; l++)
        if (mg_rec_active(a, l) && (a->a[l] != b->a[l] || a->b[l] != b->b[l])) return 0;
    return 1;
}

/* For every work group of every line: the record form reads back as the
 * encoded form, record by record; re-encoding it gives the same bytes; a
 * distinct_only cursor gives the listed lanes right. */
static void test_forms_agree(void)
{
    mg_rec *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb), *rc = malloc(sizeof *rc);
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_FATAL(ra && rb && rc && g);
    uint64_t recs = 0, lists = 0, partial = 0;
    for (size_t i = 0; i < N_LINES; i++) {
        CU_ASSERT_EQUAL_FATAL(ops_prepare(lines[i], i % 2 ? 16 : 64, g), 0);
        mg_trace_wg enc, dform, re;     /* bytes, record form, re-encoded */
        mg_trace_wg_init(&enc);
        mg_trace_wg_init(&dform);
        mg_trace_wg_init(&re);
        int bad = 0;
        for (uint64_t idx = 0; idx < mg_gen_num_wgs(g) && !bad; idx++) {
            mg_gen_trace_wg(g, idx, &enc);
            dform.want_recs = 1;
            mg_gen_trace_wg(g, idx, &dform);
            CU_ASSERT_FALSE(enc.in_recs);
            CU_ASSERT_TRUE(dform.in_recs);
            CU_ASSERT_EQUAL(dform.n_warps, enc.n_warps);
            for (uint32_t w = 0; w < enc.n_warps && w < dform.n_warps && !bad; w++) {
                CU_ASSERT_EQUAL(dform.warps[w].n_records, enc.warps[w].n_records);
                mg_trace_cursor ca, cb, cc;
                mg_trace_cursor_init(&ca, &enc, w);
                mg_trace_cursor_init(&cb, &dform, w);
                mg_trace_cursor_init(&cc, &dform, w);
                cc.distinct_only = 1;
                int ga, gb, gc;
                while ((ga = mg_trace_cursor_next(&ca, ra, NULL)) == 1) {
                    gb = mg_trace_cursor_next(&cb, rb, NULL);
                    gc = mg_trace_cursor_next(&cc, rc, NULL);
                    recs++;
                    uint8_t ln[MG_TRACE_MAX_LANES];
                    unsigned nl = mg_rec_distinct_lanes(rc, ln);
                    lists += mg_rec_dims(rb->type) && !rb->form_p;
                    partial += nl < mg_rec_popcount(rc);
                    /* the cursor's own list of them (cc.ln, cc.nln) is the same */
                    int same_ln = !mg_rec_dims(rc->type) ||
                                  (cc.nln == nl && memcmp(cc.ln, ln, nl) == 0);
                    if (gb != 1 || gc != 1 || !same_rec(ra, rb, NULL, 0) ||
                        !same_rec(ra, rc, ln, nl) || !same_ln) {
                        fprintf(stderr, "\n%s: group %llu warp %u record %u differs\n", lines[i],
                                (unsigned long long)idx, w, ca.index - 1);
                        bad = 1;
                        break;
                    }
                }
                CU_ASSERT_EQUAL(ga, 0);
                CU_ASSERT_EQUAL(mg_trace_cursor_next(&cb, rb, NULL), 0);
            }
            CU_ASSERT_EQUAL(mg_trace_wg_encode(&re, &dform), 0);
            CU_ASSERT_TRUE(re.len == enc.len && memcmp(re.bytes, enc.bytes, enc.len) == 0);
            CU_ASSERT_FALSE(bad);
        }
        mg_trace_wg_free(&enc);
        mg_trace_wg_free(&dform);
        mg_trace_wg_free(&re);
        mg_gen_free(g);
    }
    /* the lines exercise records whose lanes repeat others' addresses */
    CU_ASSERT_TRUE(recs > 1000);
    CU_ASSERT_TRUE(partial > 0);
    (void)lists;
    free(ra);
    free(rb);
    free(rc);
    free(g);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random record of a warp of `lanes` lanes: every type; masks full, in
 * rows, or random; addresses affine in rows of a random P (a or c often 0)
 * or random lists; sites from a few, two of them sharing a site slot. */
static void random_rec(mg_rec *r, uint32_t lanes)
{
    static const uint8_t vecs[] = {1, 2, 3, 4, 8, 16};
    static const uint16_t sites[] = {1, 2, 3, 65};
    memset(r, 0, offsetof(mg_rec, a));
    r->type = (uint8_t)(1 + rnd() % (MG_REC_TYPE_COUNT - 1));
    r->site = sites[rnd() % 4];
    r->lanes = (uint16_t)lanes;
    uint32_t p = rnd() % 2 ? lanes : 1 + (uint32_t)(rnd() % lanes);
    unsigned kind = (unsigned)(rnd() % 3);
    for (uint32_t l = 0; l < lanes; l++)
        if (kind == 0 || (kind == 1 && (l / p) % 3 != 1) || (kind == 2 && rnd() % 2))
            mg_rec_set_active(r, l);
    if (r->type == MG_REC_ALU) {
        r->cls = (uint8_t)(rnd() % MG_ALU_CLASS_COUNT);
        r->vec = vecs[rnd() % 6];
        r->n = 1 + (uint32_t)(rnd() % 40);
        r->flops = (uint8_t)(rnd() % 3);
        r->dep = (uint32_t)(rnd() % (r->n + 1));      /* 0: the encoder's default 1 */
        return;
    }
    if (r->type == MG_REC_BARRIER) {
        r->obj = (uint8_t)(1 + rnd() % 3);
        return;
    }
    int local = r->type == MG_REC_LOCAL_LOAD || r->type == MG_REC_LOCAL_STORE;
    r->obj = local ? 0 : (uint8_t)(rnd() % 4);
    r->width = 1 + (uint32_t)(rnd() % 16);
    int list = rnd() % 4 == 0, dims = mg_rec_dims(r->type);
    int64_t base[2], a[2], c[2];
    for (int d = 0; d < 2; d++) {
        base[d] = (int64_t)(rnd() % 100000);
        a[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 64) - 16;
        c[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 4096);
    }
    for (uint32_t l = 0; l < lanes; l++) {
        if (!mg_rec_active(r, l)) continue;
        r->a[l] = list ? (int64_t)(rnd() % 1000000) : base[0] + a[0] * (l % p) + c[0] * (l / p);
        r->b[l] = dims < 2 ? 0 : list ? (int64_t)(rnd() % 5000) : base[1] + a[1] * (l % p) + c[1] * (l / p);
    }
}

/* Random records put into both forms read back the same, and the record
 * form re-encodes to the encoder's bytes. */
static void test_random_records(void)
{
    static const uint32_t widths[] = {1, 16, 64, 100, 128};
    mg_rec *r = malloc(sizeof *r), *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    CU_ASSERT_FATAL(r && ra && rb);
    uint64_t lists = 0;
    int switched = 0;
    for (size_t wi = 0; wi < 10; wi++) {
        mg_trace_wg enc, rec, re;
        mg_trace_wg_init(&enc);
        mg_trace_wg_init(&rec);
        mg_trace_wg_init(&re);
        rec.want_recs = 1;
        if (wi >= 5) rec.recs_max = 50000;     /* outgrown inside a warp: encoded on */
        uint32_t id[3] = {0, 0, 0};
        CU_ASSERT_EQUAL(mg_trace_wg_begin(&enc, id), 0);
        CU_ASSERT_EQUAL(mg_trace_wg_begin(&rec, id), 0);
        for (int w = 0; w < 3; w++) {
            CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&enc, widths[wi % 5]), 0);
            CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&rec, widths[wi % 5]), 0);
            for (int k = 0; k < 400; k++) {
                random_rec(r, widths[wi % 5]);
                CU_ASSERT_EQUAL(mg_trace_wg_put(&enc, r), 0);
                CU_ASSERT_EQUAL(mg_trace_wg_put(&rec, r), 0);
            }
            CU_ASSERT_EQUAL(mg_trace_wg_warp_end(&enc), 0);
            CU_ASSERT_EQUAL(mg_trace_wg_warp_end(&rec), 0);
        }
        for (size_t k = 0; k < rec.nrecs; k++) lists += rec.recs[k].list;
        switched += wi >= 5 && !rec.in_recs;
        int same = 1;
        for (uint32_t w = 0; w < 3; w++) {
            mg_trace_cursor ca, cb, cc;
            mg_trace_cursor_init(&ca, &enc, w);
            mg_trace_cursor_init(&cb, &rec, w);
            mg_trace_cursor_init(&cc, &rec, w);
            cc.distinct_only = 1;
            int ga;
            while ((ga = mg_trace_cursor_next(&ca, ra, NULL)) == 1) {
                /* distinct_only: the listed lanes (every lane past 64 lanes) */
                uint8_t ln[MG_TRACE_MAX_LANES];
                int gc = mg_trace_cursor_next(&cc, r, NULL);
                unsigned nl = mg_rec_distinct_lanes(r, ln);
                if (gc != 1 || !same_rec(ra, r, widths[wi % 5] <= 64 ? ln : NULL, nl)) {
                    if (same) fprintf(stderr, "\n%u lanes: warp %u record %u (distinct) differs\n",
                                      widths[wi % 5], w, ca.index - 1);
                    same = 0;
                }
                if (mg_trace_cursor_next(&cb, rb, NULL) != 1 || !same_rec(ra, rb, NULL, 0)) {
                    if (same) fprintf(stderr, "\n%u lanes: warp %u record %u differs\n",
                                      widths[wi % 5], w, ca.index - 1);
                    same = 0;
                }
            }
            CU_ASSERT_EQUAL(ga, 0);
        }
        CU_ASSERT_TRUE(same);
        CU_ASSERT_EQUAL(mg_trace_wg_encode(&re, &rec), 0);
        CU_ASSERT_TRUE(re.len == enc.len && memcmp(re.bytes, enc.bytes, enc.len) == 0);
        mg_trace_wg_free(&enc);
        mg_trace_wg_free(&rec);
        mg_trace_wg_free(&re);
    }
    CU_ASSERT_TRUE(lists > 100);
    CU_ASSERT_EQUAL(switched, 5);
    free(r);
    free(ra);
    free(rb);
}

/* ---- mg_rec_distinct_lanes ---------------------------------------------------- */

/* Random affine records (a or c often 0, masks full, row-shaped or random):
 * the first occurrences of (a, b) over the listed lanes are those over
 * every active lane, in the same order, and the list is ascending. */
static void test_distinct_lanes(void)
{
    static mg_rec r;
    int reduced = 0;
    for (int it = 0; it < 20000; it++) {
        memset(&r, 0, sizeof r);
        static const uint32_t widths[] = {1, 7, 16, 32, 64, 100, 128};
        uint32_t lanes = widths[rnd() % 7];
        uint32_t p = 1 + (uint32_t)(rnd() % lanes);
        if (rnd() % 2) p = lanes;
        if (rnd() % 3 == 0) p = 16 <= lanes ? 16 : p;
        r.type = MG_REC_TEX_READ;
        r.lanes = (uint16_t)lanes;
        int64_t base[2], a[2], c[2];
        for (int d = 0; d < 2; d++) {
            base[d] = (int64_t)(rnd() % 100);
            a[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 5);
            c[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 300);
        }
        unsigned kind = (unsigned)(rnd() % 3);
        for (uint32_t l = 0; l < lanes; l++) {
            int on = kind == 0 || (kind == 1 && (l / p) % 2 == 0) || (kind == 2 && rnd() % 3);
            if (!on) continue;
            mg_rec_set_active(&r, l);
            r.a[l] = base[0] + a[0] * (l % p) + c[0] * (l / p);
            r.b[l] = base[1] + a[1] * (l % p) + c[1] * (l / p);
        }
        r.form_p = p;
        r.form = mg_trace_form_bits(2, a, c);
        uint8_t ln[MG_TRACE_MAX_LANES];
        unsigned nl = mg_rec_distinct_lanes(&r, ln);
        /* first occurrences over every active lane */
        int64_t fa[MG_TRACE_MAX_LANES], fb[MG_TRACE_MAX_LANES];
        unsigned nf = 0;
        for (uint32_t l = 0; l < lanes; l++) {
            if (!mg_rec_active(&r, l)) continue;
            unsigned k = 0;
            while (k < nf && (fa[k] != r.a[l] || fb[k] != r.b[l])) k++;
            if (k == nf) { fa[nf] = r.a[l]; fb[nf] = r.b[l]; nf++; }
        }
        unsigned ng = 0, ok = 1;
        for (unsigned i = 0; i < nl; i++) {
            unsigned l = ln[i];
            if (!mg_rec_active(&r, l) || (i && ln[i - 1] >= l)) ok = 0;
            unsigned k = 0;
            while (k < ng && (fa[k] != r.a[l] || fb[k] != r.b[l])) k++;
            if (k == ng) {
                if (ng >= nf || fa[ng] != r.a[l] || fb[ng] != r.b[l]) ok = 0;
                ng++;
            }
        }
        if (!ok || ng != nf) {
            CU_FAIL("mg_rec_distinct_lanes lost or reordered an address");
            fprintf(stderr, "\nlanes %u p %u form %u kind %u\n", lanes, p, r.form, kind);
            return;
        }
        reduced += nl < mg_rec_popcount(&r);
    }
    CU_ASSERT_TRUE(reduced > 1000);
}

/* ---- reading a file into the record form ----------------------------------- */

/* Every work group of file `path`, read in bytes form (want_recs 0) and
 * in record form (want_recs 1, recs_max: its budget, 0 the default), reads
 * back the same record by record, with and without distinct_only; *n
 * counts the groups, *kept those handed out in record form. */
static int reads_alike(const char *path, size_t recs_max, uint64_t *n, uint64_t *kept)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *r0 = mg_trace_reader_open(path, &d), *r1 = mg_trace_reader_open(path, &d);
    mg_rec *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb), *rc = malloc(sizeof *rc);
    mg_trace_wg a, b;
    mg_trace_wg_init(&a);
    mg_trace_wg_init(&b);
    int same = r0 && r1 && ra && rb && rc, g0 = 0, g1 = 0;
    while (same && (g0 = mg_trace_reader_next_wg(r0, &a, &d)) == 1) {
        b.want_recs = 1;
        b.recs_max = recs_max;
        g1 = mg_trace_reader_next_wg(r1, &b, &d);
        same = g1 == 1 && !a.in_recs && a.n_warps == b.n_warps;
        *kept += b.in_recs;
        *n += 1;
        for (uint32_t w = 0; same && w < a.n_warps; w++) {
            mg_trace_cursor ca, cb, cc;
            mg_trace_cursor_init(&ca, &a, w);
            mg_trace_cursor_init(&cb, &b, w);
            mg_trace_cursor_init(&cc, &b, w);
            cc.distinct_only = 1;
            int ga;
            while (same && (ga = mg_trace_cursor_next(&ca, ra, NULL)) == 1) {
                uint8_t ln[MG_TRACE_MAX_LANES];
                same = mg_trace_cursor_next(&cb, rb, NULL) == 1 && same_rec(ra, rb, NULL, 0) &&
                       mg_trace_cursor_next(&cc, rc, NULL) == 1;
                unsigned nl = same ? mg_rec_distinct_lanes(rc, ln) : 0;
                same = same && same_rec(ra, rc, ra->lanes <= 64 ? ln : NULL, nl);
            }
            same = same && ga == 0 && mg_trace_cursor_next(&cb, rb, NULL) == 0;
        }
    }
    same = same && g0 == 0 && mg_trace_reader_next_wg(r1, &b, &d) == 0;
    mg_diag_print(&d, stderr, path);
    mg_diag_free(&d);
    mg_trace_reader_close(r0);
    mg_trace_reader_close(r1);
    mg_trace_wg_free(&a);
    mg_trace_wg_free(&b);
    free(ra);
    free(rb);
    free(rc);
    return same;
}

/* A random memory or ALU record for a file of random_header(): masks
 * full, in rows or random; addresses affine in rows of a random P (steps
 * often 0) or random lists, all inside their object. */
static void random_file_rec(mg_rec *r, uint32_t lanes)
{
    static const uint8_t types[] = {MG_REC_ALU, MG_REC_TEX_READ, MG_REC_BUF_LOAD,
                                    MG_REC_BUF_STORE, MG_REC_LOCAL_LOAD, MG_REC_CONST_LOAD,
                                    MG_REC_IMG_WRITE};
    random_rec(r, lanes);
    if (r->type == MG_REC_ALU || r->type == MG_REC_BARRIER) return;
    r->type = types[1 + rnd() % 6];
    r->obj = r->type == MG_REC_CONST_LOAD ? 1 : 0;
    int list = rnd() % 3 == 0;
    uint32_t p = rnd() % 2 ? lanes : 1 + (uint32_t)(rnd() % lanes);
    int64_t base[2], a[2], c[2];
    for (int d = 0; d < 2; d++) {
        base[d] = 5000 + (int64_t)(rnd() % 1000);
        a[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 21) - 10;
        c[d] = rnd() % 2 ? 0 : (int64_t)(rnd() % 61) - 30;
    }
    for (uint32_t l = 0; l < lanes; l++) {
        r->a[l] = list ? (int64_t)(rnd() % 60000) : base[0] + a[0] * (l % p) + c[0] * (l / p);
        r->b[l] = mg_rec_dims(r->type) < 2 ? 0
                  : list ? (int64_t)(rnd() % 60000) : base[1] + a[1] * (l % p) + c[1] * (l / p);
    }
}

/* The header of random_file(): warps of `lanes` lanes, 2 per work group,
 * 3 work groups; an image, a global and a constant buffer, local memory. */
static const mg_trace_header *random_header(uint32_t lanes)
{
    static mg_trace_header h;
    memset(&h, 0, sizeof h);
    snprintf(h.kernel, sizeof h.kernel, "random");
    h.global[0] = 6 * lanes;
    h.local[0] = 2 * lanes;
    h.global[1] = h.global[2] = h.local[1] = h.local[2] = 1;
    h.warp_width = lanes;
    h.local_bytes = 65536;
    h.n_images = 1;
    snprintf(h.images[0].name, sizeof h.images[0].name, "img");
    h.images[0].width = h.images[0].height = 65536;
    h.images[0].channels = 4;
    h.images[0].texel_bytes = 16;
    h.n_buffers = 2;
    for (int i = 0; i < 2; i++) {
        snprintf(h.buffers[i].name, sizeof h.buffers[i].name, "buf%d", i);
        h.buffers[i].bytes = 1 << 20;
        h.buffers[i].space = (uint8_t)i;
    }
    return &h;
}

/* Write a file of random_header(lanes) to path with `per_warp` records a
 * warp: random_file_rec()'s, or (per_warp < 0) in work group 1 a buffer
 * load of no active lane (a LIST of no value, the group's only one) and
 * in the others no record at all. */
static int random_file(const char *path, uint32_t lanes, int per_warp)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_writer *w = mg_trace_writer_open(path, random_header(lanes), &d);
    mg_rec *r = malloc(sizeof *r);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int rc = w && r ? 0 : -1;
    for (uint32_t x = 0; x < 3 && rc == 0; x++) {
        uint32_t id[3] = {x, 0, 0};
        rc = mg_trace_wg_begin(&wg, id);
        for (int k = 0; k < 2 && rc == 0; k++) {
            rc = mg_trace_wg_warp_begin(&wg, lanes);
            for (int i = 0; i < per_warp && rc == 0; i++) {
                random_file_rec(r, lanes);
                rc = mg_trace_wg_put(&wg, r);
            }
            if (per_warp < 0 && x == 1 && rc == 0) {
                memset(r, 0, sizeof *r);
                r->type = MG_REC_BUF_LOAD;
                r->lanes = (uint16_t)lanes;
                r->width = 4;
                rc = mg_trace_wg_put(&wg, r);
            }
            if (rc == 0) rc = mg_trace_wg_warp_end(&wg);
        }
        if (rc == 0) rc = mg_trace_writer_put_wg(w, &wg, &d);
    }
    if (rc == 0) rc = mg_trace_writer_close(w, &d);
    else if (w) mg_trace_writer_abort(w);
    mg_diag_print(&d, stderr, path);
    mg_diag_free(&d);
    mg_trace_wg_free(&wg);
    free(r);
    return rc;
}

/* The reader's record form (decoded once, checked at the forms' extreme
 * lanes) gives the records of its bytes form, for every line's trace (at
 * 64 and 16 lanes), for random records (lists among them, warps up to
 * 128 lanes) and for a list of no value and groups of no record, and a
 * group past its budget stays in bytes form. */
static void test_reader_forms(void)
{
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_FATAL(g != NULL);
    char path[256];
    snprintf(path, sizeof path, "/tmp/test_trace_drec_rd.%ld.mgt", (long)getpid());
    uint64_t n = 0, kept = 0, n_small = 0, small = 0;
    for (size_t i = 0; i < N_LINES; i++) {
        CU_ASSERT_EQUAL_FATAL(ops_prepare(lines[i], i % 2 ? 16 : 64, g), 0);
        mg_diag d;
        mg_diag_init(&d);
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        CU_ASSERT_EQUAL_FATAL(mg_trace_write_all(path, &src, &d), 0);
        mg_diag_free(&d);
        int same = reads_alike(path, 0, &n, &kept) && reads_alike(path, 600, &n_small, &small);
        if (!same) fprintf(stderr, "\n%s: the record form reads differently\n", lines[i]);
        CU_ASSERT_TRUE(same);
        mg_gen_free(g);
    }
    static const uint32_t widths[] = {1, 16, 64, 100, 128};
    for (size_t i = 0; i < 5; i++) {              /* lists and wide warps */
        CU_ASSERT_EQUAL_FATAL(random_file(path, widths[i], 300), 0);
        CU_ASSERT_TRUE(reads_alike(path, 0, &n, &kept) && reads_alike(path, 600, &n_small, &small));
    }
    CU_ASSERT_EQUAL_FATAL(random_file(path, 16, -1), 0);   /* empty lists and groups */
    CU_ASSERT_TRUE(reads_alike(path, 0, &n, &kept));
    remove(path);
    free(g);
    CU_ASSERT_TRUE(n > 50);
    CU_ASSERT_EQUAL(kept, n);              /* every group within the default budget */
    CU_ASSERT_TRUE(small < n / 2);         /* a 600-byte budget keeps few */
}

/* A random affine form or list of `lanes` lanes over dims dimensions,
 * values near [0, hi]: masks full, random or empty; small steps, or now
 * and then huge ones that wrap. */
static void random_form(mg_trace_drec *q, uint32_t lanes, int dims, int64_t hi, int64_t *vals)
{
    q->p = rnd() % 3 ? lanes : 1 + (uint32_t)(rnd() % lanes);
    int full = rnd() % 3 == 0;
    for (uint32_t l = 0; l < lanes; l++)
        if (full || rnd() % 4) q->mask[l >> 6] |= (uint64_t)1 << (l & 63);
    if (rnd() % 8 == 0) q->mask[0] = q->mask[1] = 0;
    for (int d = 0; d < dims; d++) {
        q->base[d] = (int64_t)(rnd() % (uint64_t)(hi + 40)) - 20;
        q->a[d] = (int64_t)(rnd() % 9) - 4;
        q->c[d] = (int64_t)(rnd() % 65) - 32;
        if (rnd() % 16 == 0) q->a[d] = (int64_t)(rnd() | 1) >> (rnd() % 8);
        if (rnd() % 16 == 0) q->c[d] = INT64_MAX / (int64_t)(1 + rnd() % 3);
    }
    if (rnd() % 5) return;
    q->list = 1;
    unsigned n = mg_popcount64(q->mask[0]) + mg_popcount64(q->mask[1]);
    for (unsigned i = 0; i < n * (unsigned)dims; i++)
        vals[i] = (int64_t)(rnd() % (uint64_t)(hi + 40)) - 20;
}

/* mg_trace_check_drec() never vouches for a record mg_trace_check_rec()
 * refuses, and vouches for every one it accepts whose values cannot wrap
 * (steps below 2^8: its extreme lanes are exact). */
static void test_check_extremes(void)
{
    static mg_trace_header h;
    memset(&h, 0, sizeof h);
    h.warp_width = 128;
    h.local_bytes = 4096;
    h.n_images = 1;
    h.images[0].width = 100;
    h.images[0].height = 37;
    h.n_buffers = 2;
    h.buffers[0].bytes = 5000;
    h.buffers[1].bytes = 300;
    h.buffers[1].space = MG_SPACE_CONSTANT;
    static const uint8_t types[] = {MG_REC_TEX_READ, MG_REC_BUF_LOAD, MG_REC_CONST_LOAD,
                                    MG_REC_LOCAL_STORE, MG_REC_IMG_WRITE};
    static const int64_t his[] = {100, 5000, 300, 4096, 100};
    static const uint32_t widths[] = {1, 7, 16, 64, 100, 128};
    mg_rec *r = malloc(sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    int64_t vals[2 * MG_TRACE_MAX_LANES];
    unsigned wrong = 0, missed = 0, pass = 0, fail = 0;
    for (int it = 0; it < 200000; it++) {
        mg_trace_drec q;
        memset(&q, 0, sizeof q);
        unsigned t = (unsigned)(rnd() % 5);
        uint32_t lanes = widths[rnd() % 6];
        q.type = types[t];
        q.obj = (uint8_t)(t == 2 ? 1 : rnd() % 16 == 0);       /* now and then a wrong one */
        q.width = 1 + (uint32_t)(rnd() % 16);
        random_form(&q, lanes, mg_rec_dims(q.type), his[t], vals);
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, NULL, 0);
        mg_trace_drec_expand(&c, &q, vals, lanes, r);
        char why[256];
        int ok = mg_trace_check_rec(&h, r, why, sizeof why) == 0;
        int vouched = mg_trace_check_drec(&h, &q, lanes, vals);
        int small = 1;
        for (int d = 0; d < 2; d++) small &= q.a[d] > -256 && q.a[d] < 256 && q.c[d] > -256 && q.c[d] < 256;
        wrong += vouched && !ok;
        missed += ok && small && !vouched;
        pass += ok;
        fail += !ok;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(missed, 0);
    CU_ASSERT_TRUE(pass > 10000 && fail > 10000);      /* both verdicts well covered */
    free(r);
}

/* ---- the simulation: in memory and from a file -------------------------------- */

/* mg_sim_run on line's generated trace (record form) and on the same trace
 * written to a file and read back: the statistics are the same bytes. */
static void sim_both(const char *config, const char *line)
{
    mg_device *dev = malloc(sizeof *dev);
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_FATAL(dev && g);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_device_load(config, 0, dev, &d), 0);
    CU_ASSERT_EQUAL_FATAL(ops_prepare(line, (int)dev->warp_width, g), 0);
    char path[256];
    snprintf(path, sizeof path, "/tmp/test_trace_drec.%ld.mgt", (long)getpid());
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    CU_ASSERT_EQUAL_FATAL(mg_trace_write_all(path, &src, &d), 0);
    mg_sim_opts o = {.quiet = 1};
    mg_sim_stats mem, file;
    src = mg_gen_source(&gs, g);
    CU_ASSERT_EQUAL(mg_sim_run(dev, &src, &o, &mem, &d), 0);
    mg_trace_reader *rd = mg_trace_reader_open(path, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    mg_trace_source fsrc = mg_trace_reader_source(rd);
    CU_ASSERT_EQUAL(mg_sim_run(dev, &fsrc, &o, &file, &d), 0);
    mg_trace_reader_close(rd);
    remove(path);
    CU_ASSERT_TRUE(mem.warp_instrs > 0);
    if (memcmp(&mem, &file, sizeof mem)) {
        CU_FAIL("the simulation from a trace file differs from the in-memory one");
        fprintf(stderr, "\n%s on %s: cycles %.0f in memory, %.0f from the file\n", line, config,
                mem.cycles, file.cycles);
    }
    mg_diag_print(&d, stderr, "sim_both");
    mg_diag_free(&d);
    mg_gen_free(g);
    free(g);
    free(dev);
}

static void test_sim_file_equals_memory(void)
{
    static const char *const configs[] = {"configs/devices/adreno640.json",
                                          "configs/devices/mali-g76-mp5.json"};
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < N_LINES; i++) sim_both(configs[c], lines[i]);
}

int add_trace_drec_suite(void)
{
    CU_pSuite s = CU_add_suite("trace_drec", NULL, NULL);
    return s && CU_add_test(s, "forms_agree", test_forms_agree) &&
                   CU_add_test(s, "random_records", test_random_records) &&
                   CU_add_test(s, "distinct_lanes", test_distinct_lanes) &&
                   CU_add_test(s, "reader_forms", test_reader_forms) &&
                   CU_add_test(s, "check_extremes", test_check_extremes) &&
                   CU_add_test(s, "sim_file_equals_memory", test_sim_file_equals_memory)
               ? 0 : -1;
}

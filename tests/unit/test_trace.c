/* test_trace.c - the trace format (traces/trace_*.c): varints, the record
 * codec, files, statistics, and the committed sample and bad corpus. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/suites.h"
#include "tests/unit/trace_corpus.h"
#include "traces/trace_internal.h"
#include "traces/trace_stats.h"
#include "base/jsonfile.h"

/* ---- a deterministic PRNG --------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int64_t rnd_range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---- varints ---------------------------------------------------------------- */

static void test_varint(void)
{
    static const uint64_t vals[] = {0, 1, 127, 128, 300, 16383, 16384, (uint64_t)1 << 32,
                                    (uint64_t)1 << 63, UINT64_MAX};
    static const size_t lens[] = {1, 1, 1, 2, 2, 2, 3, 5, 10, 10};
    uint8_t b[16];
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        size_t n = mg_trace_put_uvar(b, vals[i]), pos = 0;
        uint64_t v = 0;
        CU_ASSERT_EQUAL(n, lens[i]);
        CU_ASSERT_EQUAL(mg_trace_get_uvar(b, n, &pos, &v), 0);
        CU_ASSERT_EQUAL(v, vals[i]);
        CU_ASSERT_EQUAL(pos, n);
        pos = 0;
        CU_ASSERT_EQUAL(mg_trace_get_uvar(b, n - 1, &pos, &v), -1);   /* truncated */
    }
    CU_ASSERT_EQUAL(mg_trace_put_uvar(b, 300), 2);
    CU_ASSERT_EQUAL(b[0], 0xac);
    CU_ASSERT_EQUAL(b[1], 0x02);
    uint64_t v;
    size_t pos = 0;
    memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);          /* 65 bits */
    CU_ASSERT_EQUAL(mg_trace_get_uvar(b, 10, &pos, &v), -2);
    pos = 0;
    memcpy(b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x81\x00", 11);      /* 11 bytes */
    CU_ASSERT_EQUAL(mg_trace_get_uvar(b, 11, &pos, &v), -2);
    pos = 0;
    memcpy(b, "\x80\x00", 2);                                          /* non-minimal 0 */
    CU_ASSERT_EQUAL(mg_trace_get_uvar(b, 2, &pos, &v), 0);
    CU_ASSERT_EQUAL(v, 0);

    static const int64_t s[] = {0, -1, 1, -2, 2, INT64_MIN, INT64_MAX, -123456789};
    static const uint64_t z[] = {0, 1, 2, 3, 4, UINT64_MAX, UINT64_MAX - 1, 246913577};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        CU_ASSERT_EQUAL(mg_trace_zigzag(s[i]), z[i]);
        CU_ASSERT_EQUAL(mg_trace_unzigzag(z[i]), s[i]);
    }
    for (int i = 0; i < 10000; i++) {
        int64_t x = (int64_t)rnd() >> (rnd() % 64);
        CU_ASSERT_EQUAL(mg_trace_unzigzag(mg_trace_zigzag(x)), x);
        uint64_t u = rnd() >> (rnd() % 64);
        pos = 0;
        size_t n = mg_trace_put_uvar(b, u);
        CU_ASSERT_TRUE(mg_trace_get_uvar(b, n, &pos, &v) == 0 && v == u);
    }
}

/* ---- codec round trip --------------------------------------------------------- */

/* Fill the addresses of r (lanes, mask set) in one of several shapes. */
static void random_addresses(mg_rec *r)
{
    int dims = mg_rec_dims(r->type), shape = (int)(rnd() % 4);
    uint32_t p = (uint32_t)rnd_range(1, r->lanes);
    for (int d = 0; d < dims; d++) {
        int64_t *v = d ? r->b : r->a;
        int64_t base = rnd_range(-100000, 100000) * (rnd() % 8 ? 1 : 1000000000);
        int64_t a = rnd_range(-64, 64), c = rnd_range(-4096, 4096);
        for (unsigned l = 0; l < r->lanes; l++) {
            switch (shape) {
            case 0: v[l] = base + a * (l % p) + c * (l / p); break;        /* affine */
            case 1: v[l] = (int64_t)rnd(); break;                          /* anything */
            case 2: v[l] = base + a * l + (l == r->lanes / 2 ? 7 : 0); break;  /* nearly */
            default: v[l] = base + (int64_t)(rnd() % 64); break;          /* clustered */
            }
        }
    }
}

/* A random record of a `lanes`-lane warp; sites repeat so SAME is used. */
static void random_rec(mg_rec *r, unsigned lanes)
{
    memset(r, 0, sizeof *r);
    r->type = (uint8_t)rnd_range(1, MG_REC_TYPE_COUNT - 1);
    r->site = (uint16_t)(rnd() % 8 ? rnd() % 12 : rnd() % 65536);
    r->lanes = (uint16_t)lanes;
    int m = (int)(rnd() % 5);
    for (unsigned l = 0; l < lanes; l++)
        if (m <= 1 || (m == 2 && rnd() % 2) || (m == 3 && l == lanes - 1)) mg_rec_set_active(r, l);
    if (r->type == MG_REC_ALU) {
        static const uint8_t vecs[] = {1, 2, 3, 4, 8, 16};
        r->cls = (uint8_t)(rnd() % MG_ALU_CLASS_COUNT);
        r->vec = vecs[rnd() % 6];
        r->n = (uint32_t)rnd_range(1, rnd() % 2 ? 8 : 4000000000);
        r->flops = (uint8_t)(rnd() % 3);
    } else if (r->type == MG_REC_BARRIER) {
        r->obj = (uint8_t)(rnd() % 4);
    } else {
        r->obj = (uint8_t)(rnd() % MG_TRACE_MAX_OBJS);
        r->width = (uint32_t)rnd_range(1, MG_TRACE_MAX_WIDTH);
        random_addresses(r);
    }
}

/* Compare every field and every active lane's values. */
static int rec_equal(const mg_rec *x, const mg_rec *y)
{
    if (x->type != y->type || x->site != y->site || x->lanes != y->lanes ||
        x->mask[0] != y->mask[0] || x->mask[1] != y->mask[1])
        return 0;
    if (x->type == MG_REC_ALU)
        return x->cls == y->cls && x->vec == y->vec && x->n == y->n && x->flops == y->flops;
    if (x->obj != y->obj) return 0;
    if (x->type == MG_REC_BARRIER) return 1;
    if (x->width != y->width) return 0;
    for (unsigned l = 0; l < x->lanes; l++) {
        if (!mg_rec_active(x, l)) continue;
        if (x->a[l] != y->a[l]) return 0;
        if (mg_rec_dims(x->type) == 2 && x->b[l] != y->b[l]) return 0;
    }
    return 1;
}

static void test_roundtrip(void)
{
    enum { WARPS = 6, RECS = 60 };
    mg_rec *recs = malloc(WARPS * RECS * sizeof *recs), *got = malloc(sizeof *got);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    for (int iter = 0; iter < 40; iter++) {
        uint32_t id[3] = {(uint32_t)iter, 1, 2};
        CU_ASSERT_EQUAL(mg_trace_wg_begin(&wg, id), 0);
        unsigned lanes[WARPS];
        for (int w = 0; w < WARPS; w++) {
            lanes[w] = (unsigned)(w == 0 ? 128 : w == 1 ? 1 : rnd_range(1, 128));
            CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&wg, lanes[w]), 0);
            for (int k = 0; k < RECS; k++) {
                random_rec(&recs[w * RECS + k], lanes[w]);
                CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, &recs[w * RECS + k]), 0);
            }
            CU_ASSERT_EQUAL(mg_trace_wg_warp_end(&wg), 0);
        }
        CU_ASSERT_EQUAL(wg.n_warps, WARPS);
        for (int w = 0; w < WARPS; w++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, (uint32_t)w);
            int k = 0, rc;
            while ((rc = mg_trace_cursor_next(&c, got, NULL)) == 1) {
                CU_ASSERT_TRUE_FATAL(k < RECS);
                if (!rec_equal(got, &recs[w * RECS + k]))
                    CU_FAIL("decoded record differs from the one put");
                k++;
            }
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_EQUAL(k, RECS);
        }
    }
    mg_trace_wg_free(&wg);
    free(recs);
    free(got);
}

/* Encoded bytes of r as the first (and, with `again`, second) record of
 * its site in a fresh warp. */
static size_t encoded_size(const mg_rec *r, const mg_rec *again)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    uint32_t id[3] = {0, 0, 0};
    mg_trace_wg_begin(&wg, id);
    mg_trace_wg_warp_begin(&wg, r->lanes);
    mg_trace_wg_put(&wg, r);
    size_t first = wg.len;
    if (again) mg_trace_wg_put(&wg, again);
    mg_trace_wg_warp_end(&wg);
    size_t n = again ? wg.len - first : first;
    mg_trace_wg_free(&wg);
    return n;
}

static void test_affine_size(void)
{
    mg_rec *r = calloc(2, sizeof *r);
    r->type = MG_REC_BUF_LOAD, r->site = 3, r->lanes = 64, r->obj = 1, r->width = 4;
    for (unsigned l = 0; l < 64; l++) mg_rec_set_active(r, l), r->a[l] = 4096 + 4 * l;
    /* FORMAT.md section 8, byte for byte */
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    uint32_t id[3] = {0, 0, 0};
    mg_trace_wg_begin(&wg, id);
    mg_trace_wg_warp_begin(&wg, 64);
    mg_trace_wg_put(&wg, r);
    r[1] = r[0];
    for (unsigned l = 0; l < 64; l++) r[1].a[l] += 256;
    mg_trace_wg_put(&wg, &r[1]);
    mg_trace_wg_warp_end(&wg);
    static const uint8_t want[] = {0x13, 0x03, 0x01, 0x04, 0x40, 0x80, 0x40, 0x08, 0x00,
                                   0x33, 0x03, 0x80, 0x04};
    CU_ASSERT_EQUAL(wg.len, sizeof want);
    CU_ASSERT_EQUAL(memcmp(wg.bytes, want, sizeof want), 0);
    mg_trace_wg_free(&wg);

    /* 2-D texel walk of a 16x4 work group, P = 16: AFFINE then SAME */
    mg_rec *t = &r[0];
    memset(t, 0, sizeof *t);
    t->type = MG_REC_TEX_READ, t->site = 9, t->lanes = 64, t->obj = 0, t->width = 16;
    for (unsigned l = 0; l < 64; l++) mg_rec_set_active(t, l), t->a[l] = 160 + l % 16, t->b[l] = 36 + l / 16;
    r[1] = *t;
    for (unsigned l = 0; l < 64; l++) r[1].b[l] += 4;
    size_t s1 = encoded_size(t, NULL), s2 = encoded_size(t, &r[1]);
    printf("\n    affine 64-lane texel record: %zu B (%.3f B/lane access), SAME: %zu B\n", s1,
           s1 / 64.0, s2);
    CU_ASSERT_TRUE(s1 <= 16);
    CU_ASSERT_TRUE(s2 <= 5);
    /* a partial mask of an affine walk stays affine (mask bytes + fields) */
    mg_rec_set_active(t, 0);
    t->mask[0] = 0x00ff00ff00ff00ffull;
    CU_ASSERT_TRUE(encoded_size(t, NULL) <= 16 + 8);
    /* a repeated partial mask costs nothing the second time (PREV) */
    r[1] = *t;
    CU_ASSERT_EQUAL(encoded_size(t, &r[1]), 4);       /* type, site, dbase x, dbase y */
    /* random addresses need LIST: about one varint per lane */
    for (unsigned l = 0; l < 64; l++) t->a[l] = (int64_t)(rnd() % 65536), t->b[l] = 0;
    t->mask[0] = ~0ull;
    CU_ASSERT_TRUE(encoded_size(t, NULL) > 64);
    free(r);
}

static void test_cursor_errors(void)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_sample_wg(&wg, 0, NULL);
    mg_rec *r = malloc(sizeof *r);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_cursor c;
    mg_trace_cursor_init(&c, &wg, 1);
    for (int i = 0; i < 3; i++) CU_ASSERT_EQUAL(mg_trace_cursor_next(&c, r, &d), 1);
    size_t at = c.pos;
    wg.bytes[at] = 0x0f;                               /* type 15 */
    CU_ASSERT_EQUAL(mg_trace_cursor_next(&c, r, &d), -1);
    char want[96];
    snprintf(want, sizeof want, "warp 1, record 3, byte offset %zu: unknown record type 15", at);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), want));
    mg_diag_free(&d);
    /* the writer's put rejects what the format cannot hold */
    uint32_t id[3] = {0, 0, 0};
    mg_trace_wg_begin(&wg, id);
    memset(r, 0, sizeof *r);
    r->type = MG_REC_ALU, r->lanes = 8, r->vec = 1, r->n = 1;
    CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, r), -1);              /* no warp open */
    CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&wg, 8), 0);
    CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&wg, 8), -1);       /* already open */
    r->mask[0] = 0x1ff;
    CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, r), -1);              /* lane 8 of 8 */
    r->mask[0] = 0xff, r->lanes = 9;
    CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, r), -1);              /* lanes differ */
    r->lanes = 8, r->type = 0;
    CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, r), -1);              /* unknown type */
    r->type = MG_REC_ALU;
    CU_ASSERT_EQUAL(mg_trace_wg_put(&wg, r), 0);
    CU_ASSERT_EQUAL(mg_trace_wg_warp_end(&wg), 0);
    CU_ASSERT_EQUAL(mg_trace_wg_warp_end(&wg), -1);
    CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&wg, 0), -1);
    CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(&wg, 129), -1);
    mg_trace_wg_free(&wg);
    free(r);
}

/* ---- files ---------------------------------------------------------------- */

/* Read a whole file (malloc'd) or NULL. */
static uint8_t *slurp(const char *path, size_t *len)
{
    mg_diag d;
    mg_diag_init(&d);
    char *b = mg_read_file(path, (size_t)1 << 26, len, &d);
    mg_diag_free(&d);
    return (uint8_t *)b;
}

/* Source over the sample's work groups, built on the fly. */
typedef struct sample_src { uint32_t next; } sample_src;
static int sample_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    (void)d;
    sample_src *s = self;
    if (s->next >= MG_SAMPLE_WGS) return 0;
    mg_sample_wg(wg, s->next++, NULL);
    return 1;
}

static void test_file_roundtrip(void)
{
    char dir[] = "/tmp/mgtrace.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[128], path2[128];
    snprintf(path, sizeof path, "%s/s.mgt", dir);
    snprintf(path2, sizeof path2, "%s/copy.mgt", dir);
    mg_trace_header h;
    mg_sample_header(&h);
    mg_diag d;
    mg_diag_init(&d);
    sample_src ss = {0};
    mg_trace_source src = {&h, sample_next, &ss, NULL, NULL};
    CU_ASSERT_EQUAL(mg_trace_write_all(path, &src, &d), 0);

    /* the writer's bytes equal the independent serializer's */
    size_t len, want_len;
    uint8_t *got = slurp(path, &len), *want = mg_sample_bytes(&want_len, NULL);
    CU_ASSERT_TRUE(got && len == want_len && memcmp(got, want, len) == 0);

    /* reader: header and every work group as put */
    mg_trace_reader *rd = mg_trace_reader_open(path, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    CU_ASSERT_EQUAL(memcmp(mg_trace_reader_header(rd), &h, sizeof h), 0);
    mg_trace_wg wg, ref;
    mg_trace_wg_init(&wg);
    mg_trace_wg_init(&ref);
    uint32_t g = 0;
    int rc;
    while ((rc = mg_trace_reader_next_wg(rd, &wg, &d)) == 1) {
        mg_sample_wg(&ref, g, NULL);
        CU_ASSERT_EQUAL(wg.id[0], g);
        CU_ASSERT_EQUAL(wg.n_warps, ref.n_warps);
        CU_ASSERT_TRUE(wg.len == ref.len && memcmp(wg.bytes, ref.bytes, wg.len) == 0);
        for (uint32_t k = 0; k < wg.n_warps && k < ref.n_warps; k++) {
            CU_ASSERT_EQUAL(wg.warps[k].lanes, ref.warps[k].lanes);
            CU_ASSERT_EQUAL(wg.warps[k].n_records, ref.warps[k].n_records);
        }
        g++;
    }
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(g, MG_SAMPLE_WGS);
    CU_ASSERT_EQUAL(mg_trace_reader_next_wg(rd, &wg, &d), 0);     /* stays at the end */
    mg_trace_reader_close(rd);

    /* copy through a reader source: same bytes */
    rd = mg_trace_reader_open(path, &d);
    mg_trace_source rs = mg_trace_reader_source(rd);
    CU_ASSERT_EQUAL(mg_trace_write_all(path2, &rs, &d), 0);
    mg_trace_reader_close(rd);
    uint8_t *copy = slurp(path2, &len);
    CU_ASSERT_TRUE(copy && len == want_len && memcmp(copy, want, len) == 0);

    /* abort leaves nothing; a bad header writes nothing */
    unlink(path2);
    mg_trace_writer *w = mg_trace_writer_open(path2, &h, &d);
    mg_sample_wg(&ref, 0, NULL);
    CU_ASSERT_EQUAL(mg_trace_writer_put_wg(w, &ref, &d), 0);
    mg_trace_writer_abort(w);
    CU_ASSERT_NOT_EQUAL(access(path2, F_OK), 0);
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    mg_trace_header bad = h;
    bad.warp_width = 0;
    CU_ASSERT_PTR_NULL(mg_trace_writer_open(path2, &bad, &d));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "warp width 0 out of range"));
    CU_ASSERT_NOT_EQUAL(access(path2, F_OK), 0);
    int entries = 0;                                   /* s.mgt only: no temp left */
    DIR *dp = opendir(dir);
    for (struct dirent *e; dp && (e = readdir(dp));) entries += e->d_name[0] != '.';
    if (dp) closedir(dp);
    CU_ASSERT_EQUAL(entries, 1);
    mg_diag_free(&d);
    mg_trace_wg_free(&wg);
    mg_trace_wg_free(&ref);
    free(got);
    free(want);
    free(copy);
    unlink(path);
    rmdir(dir);
}

/* ---- statistics -------------------------------------------------------------- */

static void test_stats(void)
{
    mg_trace_header h;
    mg_sample_header(&h);
    sample_src ss = {0};
    mg_trace_source src = {&h, sample_next, &ss, NULL, NULL};
    mg_trace_stats *s = malloc(sizeof *s);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_trace_stats_run(s, &src, 64, 4, 4, &d), 0);
    /* worked out by hand from trace_corpus.c's record list */
    CU_ASSERT_EQUAL(s->wgs, 2);
    CU_ASSERT_EQUAL(s->warps, 4);
    CU_ASSERT_EQUAL(s->records, 56);
    CU_ASSERT_EQUAL(s->recs[MG_REC_TEX_READ], 8);
    CU_ASSERT_EQUAL(s->lanes[MG_REC_TEX_READ], 126);        /* 64 + 15+15+16+16 */
    CU_ASSERT_EQUAL(s->bytes[MG_REC_TEX_READ], 2016);
    CU_ASSERT_EQUAL(s->recs[MG_REC_CONST_LOAD], 8);
    CU_ASSERT_EQUAL(s->bytes[MG_REC_CONST_LOAD], 2048);
    CU_ASSERT_EQUAL(s->recs[MG_REC_ALU], 16);
    CU_ASSERT_EQUAL(s->lanes[MG_REC_ALU], 224);            /* (16+16+16+8) x 4 */
    CU_ASSERT_EQUAL(s->alu_ops[MG_ALU_FP32], 2048);         /* 2 x 16 x 4 x 4, x 4 warps */
    CU_ASSERT_EQUAL(s->alu_ops[MG_ALU_FP16], 0);
    CU_ASSERT_EQUAL(s->alu_ops[MG_ALU_INT], 128);
    CU_ASSERT_EQUAL(s->alu_ops[MG_ALU_SFU], 32);
    CU_ASSERT_EQUAL(s->flops, 4096);
    CU_ASSERT_EQUAL(s->bytes[MG_REC_LOCAL_STORE], 256);
    CU_ASSERT_EQUAL(s->bytes[MG_REC_LOCAL_LOAD], 256);
    CU_ASSERT_EQUAL(s->recs[MG_REC_BARRIER], 4);
    CU_ASSERT_EQUAL(s->bytes[MG_REC_BUF_LOAD], 256);
    CU_ASSERT_EQUAL(s->lanes[MG_REC_BUF_STORE], 60);       /* 16 + 16 + 14 + 14 */
    CU_ASSERT_EQUAL(s->bytes[MG_REC_BUF_STORE], 240);
    CU_ASSERT_EQUAL(s->lanes[MG_REC_IMG_WRITE], 60);
    CU_ASSERT_EQUAL(s->bytes[MG_REC_IMG_WRITE], 480);
    CU_ASSERT_EQUAL(s->buf_lines[0], 1);                    /* weights 0..31 */
    CU_ASSERT_EQUAL(s->buf_lines[1], 2);                    /* bias 0..127 */
    CU_ASSERT_EQUAL(s->buf_lines[2], 4);                    /* out 0..119, 128..247 */
    CU_ASSERT_EQUAL(s->img_tiles[0], 8);                    /* 32x2 in 4x4 tiles */
    CU_ASSERT_EQUAL(s->img_tiles[1], 8);
    CU_ASSERT_TRUE(s->exact);
    CU_ASSERT_FALSE(s->saturated);
    mg_trace_stats_free(s);
    /* finer grain: 4-byte lines, 1x1 tiles count words and texels */
    ss.next = 0;
    CU_ASSERT_EQUAL(mg_trace_stats_run(s, &src, 4, 1, 1, &d), 0);
    CU_ASSERT_EQUAL(s->buf_lines[0], 8);                    /* two 16-byte loads */
    CU_ASSERT_EQUAL(s->buf_lines[1], 32);
    CU_ASSERT_EQUAL(s->buf_lines[2], 60);
    CU_ASSERT_EQUAL(s->img_tiles[0], 64);
    mg_trace_stats_free(s);
    mg_diag_free(&d);
    free(s);
}

static void test_lineset(void)
{
    mg_trace_lineset s;
    mg_trace_lineset_init(&s, 0);
    for (uint64_t i = 0; i < 50000; i++) {
        mg_trace_lineset_add(&s, 3, i % 20000);
        mg_trace_lineset_add(&s, 60, i * 7);
    }
    CU_ASSERT_EQUAL(mg_trace_lineset_count(&s, 3), 20000);
    CU_ASSERT_EQUAL(mg_trace_lineset_count(&s, 60), 50000);
    CU_ASSERT_EQUAL(mg_trace_lineset_count(&s, 0), 0);
    CU_ASSERT_TRUE(mg_trace_lineset_exact(&s));
    mg_trace_lineset_free(&s);
    /* past exact_max: estimates within a few percent */
    mg_trace_lineset_init(&s, 1000);
    for (uint64_t i = 0; i < 200000; i++) mg_trace_lineset_add(&s, 1, i);
    for (uint64_t i = 0; i < 500; i++) mg_trace_lineset_add(&s, 2, i);
    CU_ASSERT_FALSE(mg_trace_lineset_exact(&s));
    double e1 = (double)mg_trace_lineset_count(&s, 1), e2 = (double)mg_trace_lineset_count(&s, 2);
    CU_ASSERT_TRUE(e1 > 200000 * 0.95 && e1 < 200000 * 1.05);
    CU_ASSERT_TRUE(e2 > 500 * 0.95 && e2 < 500 * 1.05);
    mg_trace_lineset_free(&s);
}

/* ---- the committed sample and bad corpus ---------------------------------- */

/* Compare (or with MG_TRACE_REGEN set, rewrite) a committed file. */
static void committed(const char *path, const uint8_t *b, size_t n)
{
    if (getenv("MG_TRACE_REGEN")) {
        FILE *f = fopen(path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(fwrite(b, 1, n, f), n);
        fclose(f);
        return;
    }
    size_t len = 0;
    uint8_t *got = slurp(path, &len);
    int same = got && len == n && memcmp(got, b, n) == 0;
    if (!same) fprintf(stderr, "\n%s differs from what trace_corpus.c builds (MG_TRACE_REGEN=1?)\n", path);
    CU_ASSERT_TRUE(same);
    free(got);
}

static void test_corpus(void)
{
    size_t n;
    uint8_t *b = mg_sample_bytes(&n, NULL);
    committed("traces/samples/small.mgt", b, n);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *rd = mg_trace_reader_open_mem(b, n, "small", &d);    /* valid */
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int rc = -1;
    while (rd && (rc = mg_trace_reader_next_wg(rd, &wg, &d)) == 1) {}
    CU_ASSERT_EQUAL(rc, 0);
    mg_trace_reader_close(rd);
    free(b);

    mg_bad_trace bad[64];
    size_t nb = mg_bad_traces(bad, 64);
    CU_ASSERT_TRUE(nb >= 30);
    for (size_t i = 0; i < nb; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/bad/traces/%s", bad[i].name);
        committed(path, bad[i].bytes, bad[i].len);
        /* every bad file fails, from memory as from a file, with the same
         * message whether the groups are wanted in record form or not */
        char msg[2][1024];
        for (int want = 0; want < 2; want++) {
            mg_diag dw;
            mg_diag_init(&dw);
            rd = mg_trace_reader_open_mem(bad[i].bytes, bad[i].len, bad[i].name, &dw);
            rc = rd ? 1 : -1;
            wg.want_recs = want;
            while (rd && (rc = mg_trace_reader_next_wg(rd, &wg, &dw)) == 1) {}
            if (rc != -1) fprintf(stderr, "\n%s: read without an error\n", bad[i].name);
            CU_ASSERT_EQUAL(rc, -1);
            snprintf(msg[want], sizeof msg[want], "%s", mg_diag_first(&dw));
            mg_trace_reader_close(rd);
            mg_diag_free(&dw);
        }
        CU_ASSERT_STRING_EQUAL(msg[0], msg[1]);
        CU_ASSERT_TRUE(msg[0][0] != '\0');
        free(bad[i].bytes);
    }
    mg_trace_wg_free(&wg);
    mg_diag_free(&d);
}

/* A version 1 file (traces/samples/small-v1.mgt, the sample as version 1
 * wrote it) reads as the current sample with its buffers' element sizes
 * unknown: same header otherwise, the same work groups byte for byte. */
static void test_version1(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *r1 = mg_trace_reader_open("traces/samples/small-v1.mgt", &d);
    mg_trace_reader *r2 = mg_trace_reader_open("traces/samples/small.mgt", &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
    mg_trace_header h1 = *mg_trace_reader_header(r1), h2 = *mg_trace_reader_header(r2);
    CU_ASSERT_EQUAL(h1.version, 1);
    CU_ASSERT_EQUAL(h2.version, MG_TRACE_VERSION);
    CU_ASSERT_EQUAL(h2.buffers[1].elem, 2);
    for (uint32_t i = 0; i < h1.n_buffers; i++) {
        CU_ASSERT_EQUAL(h1.buffers[i].elem, 0);
        h1.buffers[i].elem = h2.buffers[i].elem;
    }
    h1.version = h2.version;
    CU_ASSERT_EQUAL(memcmp(&h1, &h2, sizeof h1), 0);
    mg_trace_wg a, b;
    mg_trace_wg_init(&a);
    mg_trace_wg_init(&b);
    int ra, rb, groups = 0;
    while ((ra = mg_trace_reader_next_wg(r1, &a, &d)) == 1 &&
           (rb = mg_trace_reader_next_wg(r2, &b, &d)) == 1) {
        CU_ASSERT_TRUE(a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0);
        groups++;
    }
    CU_ASSERT_EQUAL(ra, 0);
    CU_ASSERT_EQUAL(mg_trace_reader_next_wg(r2, &b, &d), 0);
    CU_ASSERT_TRUE(groups > 0);
    mg_trace_wg_free(&a);
    mg_trace_wg_free(&b);
    mg_trace_reader_close(r1);
    mg_trace_reader_close(r2);
    mg_diag_free(&d);
}

int add_trace_codec_suite(void)
{
    CU_pSuite s = CU_add_suite("trace_codec", NULL, NULL);
    return s && CU_add_test(s, "varint", test_varint) &&
                   CU_add_test(s, "roundtrip", test_roundtrip) &&
                   CU_add_test(s, "affine_size", test_affine_size) &&
                   CU_add_test(s, "cursor_errors", test_cursor_errors)
               ? 0 : -1;
}

int add_trace_file_suite(void)
{
    CU_pSuite s = CU_add_suite("trace_file", NULL, NULL);
    return s && CU_add_test(s, "roundtrip", test_file_roundtrip) ? 0 : -1;
}

int add_trace_stats_suite(void)
{
    CU_pSuite s = CU_add_suite("trace_stats", NULL, NULL);
    return s && CU_add_test(s, "sample", test_stats) && CU_add_test(s, "lineset", test_lineset)
               ? 0 : -1;
}

int add_trace_corpus_suite(void)
{
    CU_pSuite s = CU_add_suite("trace_corpus", NULL, NULL);
    return s && CU_add_test(s, "committed", test_corpus) &&
                   CU_add_test(s, "version1", test_version1)
               ? 0 : -1;
}

/* test_tracer.c - the trace-fidelity checker (traces/gen/tracer). A fake
 * operator produces a small synthetic trace; logs built here from the same
 * access rule, independently of the trace walk, must match it, and logs
 * that differ in address, order, count or overflow the capacity must be
 * caught and described. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/op.h"
#include "traces/gen/tracer.h"
#include "tests/unit/suites.h"

/* Launch: global 8x2, work groups 4x2 (2 groups of 8 items), warps of 4
 * lanes (2 per group).  Item (x, y) with linear id n = x + 8*y makes, in
 * order: a buffer load of buffer 0 at 4n (site 1), a texture read of
 * image 1 at (x, y) when x is even (site 2), a store to buffer 2 at 4n
 * (site 3); an ALU record and a barrier between them are not accesses. */
enum { GX = 8, GY = 2, LX = 4, LY = 2, WARP = 4, CAP = 3 };
#define STRIDE (4 + 4 * CAP)

/* The fake op's trace of group wg: lane l of warp w is local id w*4+l. */
static void fake_trace(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                       mg_trace_wg *out)
{
    (void)s;
    (void)k;
    mg_rec *r = calloc(1, sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(mg_trace_wg_begin(out, wg), 0);
    for (uint32_t w = 0; w < LX * LY / WARP; w++) {
        CU_ASSERT_EQUAL(mg_trace_wg_warp_begin(out, WARP), 0);
        static const uint8_t types[] = {MG_REC_BUF_LOAD, MG_REC_ALU, MG_REC_TEX_READ,
                                        MG_REC_BARRIER, MG_REC_BUF_STORE};
        for (size_t t = 0; t < sizeof types; t++) {
            memset(r, 0, sizeof *r);
            r->type = types[t];
            r->lanes = WARP;
            r->site = (uint16_t)(t / 2 + 1);
            if (r->type == MG_REC_ALU) {
                r->cls = MG_ALU_FP32;
                r->vec = 1;
                r->n = 1;
                r->flops = 1;
            }
            r->obj = r->type == MG_REC_TEX_READ ? 1 : r->type == MG_REC_BUF_STORE ? 2 : 0;
            r->width = 4;
            for (unsigned l = 0; l < WARP; l++) {
                unsigned lid = w * WARP + l;
                int64_t x = (int64_t)wg[0] * LX + lid % LX, y = (int64_t)wg[1] * LY + lid / LX;
                if (r->type == MG_REC_TEX_READ) {
                    if (x % 2) continue;
                    r->a[l] = x;
                    r->b[l] = y;
                } else {
                    r->a[l] = 4 * (x + GX * y);
                }
                mg_rec_set_active(r, l);
            }
            CU_ASSERT_EQUAL(mg_trace_wg_put(out, r), 0);
        }
        CU_ASSERT_EQUAL(mg_trace_wg_warp_end(out), 0);
    }
    free(r);
}

static const mg_op fake_op = {.name = "fake", .trace_wg = fake_trace};

/* A generator whose plan is the launch above (no source needed). */
static void fake_gen(mg_gen *g)
{
    memset(g, 0, sizeof *g);
    g->s.op = &fake_op;
    g->k.work_dim = 2;
    g->k.global[0] = GX;
    g->k.global[1] = GY;
    g->k.global[2] = 1;
    g->k.local[0] = LX;
    g->k.local[1] = LY;
    g->k.local[2] = 1;
    g->k.warp = WARP;
    g->k.log_cap = CAP;
}

/* Write access i of item n. */
static void put(uint32_t *log, int n, int i, uint32_t site, uint32_t type, uint32_t obj,
                int32_t a, int32_t b)
{
    uint32_t *e = log + n * STRIDE + 4 + 4 * i;
    e[0] = site << 8 | type;
    e[1] = obj;
    e[2] = (uint32_t)a;
    e[3] = (uint32_t)b;
}

/* The log a faithful kernel writes (calloc'd, GX*GY*STRIDE words). */
static uint32_t *good_log(void)
{
    uint32_t *log = calloc(GX * GY * STRIDE, sizeof *log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    for (int y = 0; y < GY; y++) {
        for (int x = 0; x < GX; x++) {
            int n = x + GX * y, i = 0;
            put(log, n, i++, 1, MG_REC_BUF_LOAD, 0, 4 * n, 0);
            if (x % 2 == 0) put(log, n, i++, 2, MG_REC_TEX_READ, 1, x, y);
            put(log, n, i++, 3, MG_REC_BUF_STORE, 2, 4 * n, 0);
            log[n * STRIDE] = (uint32_t)i;
        }
    }
    return log;
}

/* Compare log with the fake trace; returns the result, report in *rep. */
static int run(const uint32_t *log, size_t words, mg_tracer_report *rep)
{
    mg_gen g;
    fake_gen(&g);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_tracer_compare(&g, log, words, rep, &d);
    CU_ASSERT_EQUAL(rc < 0, mg_diag_failed(&d));
    mg_diag_free(&d);
    return rc;
}

static void test_geometry(void)
{
    mg_gen g;
    fake_gen(&g);
    CU_ASSERT_EQUAL(mg_tracer_items(&g.k), GX * GY);
    CU_ASSERT_EQUAL(mg_tracer_log_words(&g.k), GX * GY * STRIDE);
}

static void test_match(void)
{
    uint32_t *log = good_log();
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 0);
    CU_ASSERT_EQUAL(rep.items, GX * GY);
    CU_ASSERT_EQUAL(rep.accesses, GX * GY * 2 + GX * GY / 2);
    CU_ASSERT_EQUAL(rep.expected, rep.accesses);
    CU_ASSERT_EQUAL(rep.bad_items, 0);
    CU_ASSERT_EQUAL(rep.n_msgs, 0);
    free(log);
}

static void test_address(void)
{
    uint32_t *log = good_log();
    /* item (6,1), n = 14: its texture read at (6,1) logged as (6,0) */
    put(log, 14, 1, 2, MG_REC_TEX_READ, 1, 6, 0);
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 1);
    CU_ASSERT_EQUAL_FATAL(rep.n_msgs, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "work item (6,1,0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "access 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "(6, 1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "(6, 0)"));
    free(log);

    /* a buffer byte address off by one element, in the other group */
    log = good_log();
    put(log, 3, 1, 3, MG_REC_BUF_STORE, 2, 4 * 3 + 4, 0);
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "work item (3,0,0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "byte 12"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "byte 16"));
    free(log);
}

static void test_order(void)
{
    uint32_t *log = good_log();
    /* item (2,0): store logged before the texture read */
    put(log, 2, 1, 3, MG_REC_BUF_STORE, 2, 8, 0);
    put(log, 2, 2, 2, MG_REC_TEX_READ, 1, 2, 0);
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "work item (2,0,0): access 1"));
    free(log);

    /* a wrong site or object is a difference too */
    log = good_log();
    put(log, 5, 0, 7, MG_REC_BUF_LOAD, 0, 20, 0);
    put(log, 9, 0, 1, MG_REC_BUF_LOAD, 3, 36, 0);
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 2);
    CU_ASSERT_EQUAL(rep.n_msgs, 2);
    free(log);
}

static void test_count(void)
{
    uint32_t *log = good_log();
    log[1 * STRIDE] = 1;                   /* item (1,0) lost its store */
    log[9 * STRIDE] = 3;                   /* item (1,1) made one access more */
    put(log, 9, 2, 3, MG_REC_BUF_STORE, 2, 36, 0);
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 2);
    CU_ASSERT_EQUAL_FATAL(rep.n_msgs, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "work item (1,0,0): access 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "got none"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[1], "work item (1,1,0): access 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[1], "expected none"));
    free(log);

    /* every item empty: 16 bad items, 5 described */
    log = calloc(GX * GY * STRIDE, sizeof *log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, GX * GY);
    CU_ASSERT_EQUAL(rep.n_msgs, MG_TRACER_MAX_MISMATCHES);
    CU_ASSERT_EQUAL(rep.accesses, 0);
    free(log);
}

static void test_overflow(void)
{
    uint32_t *log = good_log();
    /* item (4,0) made 5 accesses: only 3 fit, the log is incomplete */
    put(log, 4, 2, 3, MG_REC_BUF_STORE, 2, 16, 0);
    log[4 * STRIDE] = 5;
    put(log, 4, 1, 2, MG_REC_TEX_READ, 1, 4, 0);
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE, &rep), 1);
    CU_ASSERT_EQUAL(rep.bad_items, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "work item (4,0,0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.msg[0], "log_cap too small"));
    free(log);
}

static void test_short_log(void)
{
    uint32_t *log = good_log();
    mg_tracer_report rep;
    CU_ASSERT_EQUAL(run(log, GX * GY * STRIDE - 1, &rep), -1);
    free(log);
}

int add_tracer_suite(void)
{
    CU_pSuite s = CU_add_suite("tracer", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "geometry", test_geometry) || !CU_add_test(s, "match", test_match) ||
        !CU_add_test(s, "address", test_address) || !CU_add_test(s, "order", test_order) ||
        !CU_add_test(s, "count", test_count) || !CU_add_test(s, "overflow", test_overflow) ||
        !CU_add_test(s, "short log", test_short_log))
        return -1;
    return 0;
}

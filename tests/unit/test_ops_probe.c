/* test_ops_probe.c - the generator operators behind mgprobe run:
 * pchase order=random (one cycle through every position, in a different
 * order than linear; with pages, a whole page before the next) and the
 * ticket op (3D launch, group-major output marked as a permutation,
 * local atomic traced as a load and a store, rejects) and the vload op
 * (every lane of a load on its own line, the vector's width and element
 * size in the trace).  No OpenCL here:
 * tests/pocl/matrix.txt runs both on PoCL. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

#define MAX_ADDR 8192

typedef struct addr_log {
    int     type;                      /* record type to log */
    int64_t n;
    int64_t a[MAX_ADDR], b[MAX_ADDR];  /* lane 0's addresses, in order */
    int64_t records, lanes;            /* records of that type, active lanes */
} addr_log;

/* Generate line and log lane 0's addresses of records of `type`. */
static int log_addresses(const char *line, int type, addr_log *c, mg_gen *g)
{
    mg_schedule s;
    char err[256];
    memset(c, 0, sizeof *c);
    c->type = type;
    if (ops_parse(line, &s, err, sizeof err)) {
        fprintf(stderr, "\n%s: %s\n", line, err);
        CU_FAIL("schedule rejected");
        return -1;
    }
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_gen_prepare(g, &s, &d);
    mg_diag_free(&d);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_rec *r = malloc(sizeof *r);
    for (uint64_t i = 0; i < mg_gen_num_wgs(g); i++) {
        mg_gen_trace_wg(g, i, &wg);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor cur;
            mg_trace_cursor_init(&cur, &wg, w);
            while (mg_trace_cursor_next(&cur, r, NULL) == 1) {
                if (r->type != type) continue;
                c->records++;
                c->lanes += mg_rec_popcount(r);
                if (i == 0 && w == 0 && mg_rec_active(r, 0) && c->n < MAX_ADDR) {
                    c->a[c->n] = r->a[0];
                    c->b[c->n] = r->b[0];
                    c->n++;
                }
            }
        }
    }
    free(r);
    mg_trace_wg_free(&wg);
    return 0;
}

/* Number of distinct values in a[0..n-1] (n small). */
static int64_t distinct(const int64_t *a, int64_t n)
{
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t j = 0;
        while (j < i && a[j] != a[i]) j++;
        k += j == i;
    }
    return k;
}

static void test_random_cycle(void)
{
    addr_log *c = malloc(sizeof *c), *lin = malloc(sizeof *lin);
    mg_gen g, gl;
    /* 256 positions, visited twice: one cycle, every position once per lap */
    if (log_addresses("pchase mem=buffer range=4096 stride=16 iters=512 order=random", 
                      MG_REC_BUF_LOAD, c, &g) == 0) {
        CU_ASSERT_EQUAL(c->n, 512);
        CU_ASSERT_EQUAL(distinct(c->a, 256), 256);
        int periodic = 1;
        for (int64_t i = 256; i < 512; i++) periodic &= c->a[i] == c->a[i - 256];
        CU_ASSERT_TRUE(periodic);
        CU_ASSERT_EQUAL(c->a[0], 0);                  /* item 0 starts at position 0 */
        /* not the linear order: steps vary */
        int varied = 0;
        for (int64_t i = 2; i < 256; i++)
            varied |= c->a[i] - c->a[i - 1] != c->a[1] - c->a[0];
        CU_ASSERT_TRUE(varied);
        /* the chain the init hook writes is the one the trace follows */
        mg_host h;
        CU_ASSERT_EQUAL_FATAL(mg_host_init(&g, &h), 0);
        int ok = 1;
        for (int64_t i = 0; i + 1 < c->n; i++) ok &= (int64_t)h.i[0][c->a[i] / 4] * 4 == c->a[i + 1];
        CU_ASSERT_TRUE(ok);
        mg_host_free(&h);
        mg_gen_free(&g);
    }
    /* another seed, another order; linear is the address order */
    if (log_addresses("pchase mem=buffer range=4096 stride=16 iters=256 order=random seed=2",
                      MG_REC_BUF_LOAD, lin, &gl) == 0) {
        CU_ASSERT_NOT_EQUAL(memcmp(lin->a, c->a, 256 * sizeof c->a[0]), 0);
        mg_gen_free(&gl);
    }
    free(c);
    free(lin);
}

/* page=P: all P / stride positions of a page before the next page. */
static void test_random_pages(void)
{
    addr_log *c = malloc(sizeof *c);
    mg_gen g;
    if (log_addresses("pchase mem=buffer range=16384 stride=64 page=4096 iters=260 order=random",
                      MG_REC_BUF_LOAD, c, &g) == 0) {
        CU_ASSERT_EQUAL(distinct(c->a, 256), 256);
        /* one lap crosses from page to page 4 times (3 when it starts at the
         * first position of a page's run) */
        int changes = 0;
        for (int64_t i = 1; i <= 256 && i < c->n; i++)
            changes += c->a[i] / 4096 != c->a[i - 1] / 4096;
        CU_ASSERT_TRUE(changes == 3 || changes == 4);
        mg_gen_free(&g);
    }
    free(c);
    ops_expect_reject("pchase range=4096 stride=64 page=4096", "needs order=random");
    ops_expect_reject("pchase range=4096 stride=64 page=96 order=random",
                      "must be a multiple of stride=64");
}

/* Images: the random order visits every texel of a 1D chase. */
static void test_random_image(void)
{
    addr_log *c = malloc(sizeof *c);
    mg_gen g;
    if (log_addresses("pchase mem=image range=4096 stride=16 W=16 iters=256 order=random",
                      MG_REC_TEX_READ, c, &g) == 0) {
        int64_t key[256];
        for (int i = 0; i < 256; i++) key[i] = c->a[i] + 65536 * c->b[i];
        CU_ASSERT_EQUAL(distinct(key, 256), 256);
        mg_gen_free(&g);
    }
    free(c);
}

static void test_ticket_plan(void)
{
    mg_schedule s;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(ops_parse("ticket wg=64,6,2 groups=3 delay=2", &s, err, sizeof err), 0);
    mg_gen g;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_gen_prepare(&g, &s, &d), 0);
    mg_diag_free(&d);
    CU_ASSERT_EQUAL(g.k.work_dim, 3);
    CU_ASSERT_EQUAL(g.k.global[0], 192);
    CU_ASSERT_EQUAL(g.k.global[1], 6);
    CU_ASSERT_EQUAL(g.k.global[2], 2);
    CU_ASSERT_EQUAL(g.k.t[0].perm_block, 768);
    CU_ASSERT_EQUAL(mg_tensor_elems(&g.k.t[0]), 3 * 768);
    CU_ASSERT_PTR_NOT_NULL(strstr(g.source, "atomic_inc(&mg_ticket)"));
    /* the reference is the serial order */
    mg_host h;
    CU_ASSERT_EQUAL_FATAL(mg_host_init(&g, &h), 0);
    mg_host_reference(&g, &h);
    CU_ASSERT_EQUAL(h.i[0][768 + 5], 5);
    mg_host_free(&h);
    cJSON *j = mg_gen_kernel_json(&g);
    char *txt = cJSON_PrintUnformatted(j);
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"permutation_block\":768"));
    free(txt);
    cJSON_Delete(j);
    mg_gen_free(&g);
}

/* Every item takes one ticket: a local load and a local store each; item
 * 0 of each group resets the counter; one store of the result. */
static void test_ticket_trace(void)
{
    addr_log *c = malloc(sizeof *c);
    mg_gen g;
    if (log_addresses("ticket wg=13,3,1 groups=2 delay=1 warp=16", MG_REC_LOCAL_LOAD, c, &g) == 0) {
        CU_ASSERT_EQUAL(c->lanes, 2 * 39);
        mg_gen_free(&g);
    }
    if (log_addresses("ticket wg=13,3,1 groups=2 delay=1 warp=16", MG_REC_LOCAL_STORE, c, &g) == 0) {
        CU_ASSERT_EQUAL(c->lanes, 2 * 39 + 2);
        mg_gen_free(&g);
    }
    if (log_addresses("ticket wg=13,3,1 groups=2 delay=1 warp=16", MG_REC_BUF_STORE, c, &g) == 0) {
        CU_ASSERT_EQUAL(c->lanes, 2 * 39);
        mg_gen_free(&g);
    }
    free(c);
    ops_check_trace("ticket wg=8,4,2 groups=2 delay=3", 0, 0, 1);
    ops_expect_reject("ticket wg=64,32,1", "past 1024");
}

/* vload: every load record's lanes on distinct lines of `stride` bytes,
 * `vec` elements wide, the buffer's element the storage type's; 8 loads
 * per pass; flops and the log capacity as planned. */
static void test_vload_lines(void)
{
    static const char *const lines[] = {
        "vload vec=4 storage=fp16 items=64 wg=64 lines=128 stride=128 iters=3 warp=32",
        "vload vec=2 storage=fp32 items=64 wg=32 lines=16 stride=64 iters=2 warp=16",
    };
    static const int width[] = {8, 8}, elem[] = {2, 4}, nl[] = {32, 16};
    for (int k = 0; k < 2; k++) {
        mg_schedule s;
        char err[256];
        CU_ASSERT_EQUAL_FATAL(ops_parse(lines[k], &s, err, sizeof err), 0);
        mg_gen g;
        mg_diag d;
        mg_diag_init(&d);
        int rc = mg_gen_prepare(&g, &s, &d);
        mg_diag_free(&d);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(g.hdr.buffers[0].elem, elem[k]);
        mg_trace_wg wg;
        mg_trace_wg_init(&wg);
        mg_rec *r = malloc(sizeof *r);
        int64_t loads = 0, bad = 0;
        CU_ASSERT_EQUAL_FATAL(mg_gen_trace_wg(&g, 0, &wg), 0);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor cur;
            mg_trace_cursor_init(&cur, &wg, w);
            while (mg_trace_cursor_next(&cur, r, NULL) == 1) {
                if (r->type != MG_REC_BUF_LOAD) continue;
                loads++;
                int64_t ln[64];
                for (unsigned l = 0; l < r->lanes; l++) ln[l] = r->a[l] / s.stride;
                bad += r->width != (uint32_t)width[k] || distinct(ln, r->lanes) != nl[k];
            }
        }
        CU_ASSERT_EQUAL(loads, (int64_t)wg.n_warps * s.iters * 8);
        CU_ASSERT_EQUAL(bad, 0);
        free(r);
        mg_trace_wg_free(&wg);
        mg_gen_free(&g);
        ops_check_trace(lines[k], (double)s.items * s.iters * 8 * s.vec, 1, 0);
    }
    ops_expect_reject("vload vec=8", "1, 2 or 4 wide");
    ops_expect_reject("vload lines=96", "not a power of two");
    ops_expect_reject("vload vec=4 stride=8", "at least one 16-byte vector");
    ops_expect_reject("vload items=100 wg=64", "not a multiple of wg=64");
}

int add_ops_probe_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_probe", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "pchase order=random: one cycle", test_random_cycle) ||
        !CU_add_test(s, "pchase order=random page=", test_random_pages) ||
        !CU_add_test(s, "pchase order=random on an image", test_random_image) ||
        !CU_add_test(s, "ticket plan", test_ticket_plan) ||
        !CU_add_test(s, "ticket trace", test_ticket_trace) ||
        !CU_add_test(s, "vload: a line per lane", test_vload_lines))
        return -1;
    return 0;
}

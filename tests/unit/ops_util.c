/* ops_util.c - helpers for the per-operator unit tests (ops_util.h). */
#include "tests/unit/ops_util.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/op.h"

int ops_parse(const char *line, mg_schedule *s, char *err, size_t errlen)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_schedule_parse_line(line, NULL, s, &d);
    snprintf(err, errlen, "%s", mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

int ops_prepare(const char *line, int warp, mg_gen *g)
{
    char wbuf[32];
    snprintf(wbuf, sizeof wbuf, "warp=%d", warp);
    mg_schedule s;
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_schedule_parse_line(line, wbuf, &s, &d) || mg_gen_prepare(g, &s, &d);
    if (rc) mg_diag_print(&d, stderr, line);
    mg_diag_free(&d);
    return rc ? -1 : 0;
}

void ops_expect_reject(const char *line, const char *want)
{
    mg_schedule s;
    char err[512];
    CU_ASSERT_EQUAL(ops_parse(line, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    if (!strstr(err, want)) fprintf(stderr, "\n%s: got '%s', want '%s'\n", line, err, want);
}

/* One memory access of a work item, for comparing orders. */
typedef struct acc {
    uint64_t item;            /* local linear id + group index x items per group */
    uint64_t seq;             /* index among the item's accesses */
    int64_t  type, site, obj, a, b;
} acc;

typedef struct acc_list {
    acc   *v;
    size_t n, cap;
} acc_list;

static void acc_push(acc_list *l, const acc *x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) abort();
    }
    l->v[l->n++] = *x;
}

/* Walk every record of g's trace; collect totals, and accesses when l. */
static void walk(const mg_gen *g, ops_totals *t, acc_list *l)
{
    memset(t, 0, sizeof *t);
    uint64_t per_wg = (uint64_t)(g->k.local[0] * g->k.local[1] * g->k.local[2]);
    uint64_t *count = calloc(per_wg, sizeof *count);
    static mg_rec r;
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    for (uint64_t i = 0; i < mg_gen_num_wgs(g); i++) {
        CU_ASSERT_EQUAL(mg_gen_trace_wg(g, i, &wg), 0);
        memset(count, 0, per_wg * sizeof *count);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, w);
            t->warps++;
            int rc;
            while ((rc = mg_trace_cursor_next(&c, &r, NULL)) == 1) {
                unsigned n = mg_rec_popcount(&r);
                if (r.type == MG_REC_ALU) {
                    t->flops += (double)n * r.n * r.vec * r.flops;
                    continue;
                }
                if (r.type == MG_REC_BARRIER) {
                    t->barriers++;
                    if (!(r.obj & 1)) t->bad_fence = 1;
                    continue;
                }
                t->accesses += n;
                for (unsigned ln = 0; ln < r.lanes; ln++) {
                    if (!mg_rec_active(&r, ln)) continue;
                    uint64_t lid = (uint64_t)w * g->k.warp + ln;
                    if (l) {
                        int two_d = r.type == MG_REC_TEX_READ || r.type == MG_REC_IMG_WRITE;
                        acc x = {i * per_wg + lid, count[lid], r.type, r.site, r.obj, r.a[ln],
                                 two_d ? r.b[ln] : 0};
                        acc_push(l, &x);
                    }
                    if (++count[lid] > t->max_item) t->max_item = count[lid];
                }
            }
            CU_ASSERT_EQUAL(rc, 0);
        }
    }
    mg_trace_wg_free(&wg);
    free(count);
}

void ops_totals_of(const char *line, mg_gen *g, ops_totals *t)
{
    mg_schedule s;
    char err[512];
    memset(g, 0, sizeof *g);
    memset(t, 0, sizeof *t);
    int rc = ops_parse(line, &s, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_gen_prepare(g, &s, &d), 0);
    mg_diag_free(&d);
    walk(g, t, NULL);
}

void ops_check_trace(const char *line, double want, int tight, int barriers)
{
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    ops_totals t;
    ops_totals_of(line, g, &t);
    int ok = t.flops == g->k.f.flops && (want < 0 || t.flops == want) &&
             t.max_item <= (uint64_t)g->k.log_cap &&
             (!tight || t.max_item == (uint64_t)g->k.log_cap) &&
             t.barriers == (uint64_t)barriers * t.warps && !t.bad_fence;
    CU_ASSERT_DOUBLE_EQUAL(t.flops, g->k.f.flops, 0.5);
    if (want >= 0) CU_ASSERT_DOUBLE_EQUAL(t.flops, want, 0.5);
    CU_ASSERT_TRUE(t.max_item <= (uint64_t)g->k.log_cap);
    if (tight) CU_ASSERT_EQUAL(t.max_item, (uint64_t)g->k.log_cap);
    CU_ASSERT_EQUAL(t.barriers, (uint64_t)barriers * t.warps);
    CU_ASSERT_FALSE(t.bad_fence);
    if (!ok)
        fprintf(stderr, "\n%s: trace flops %.0f, features %.0f, want %.0f; most accesses per "
                "item %llu, log_cap %lld; barriers %llu in %llu warps%s\n", line, t.flops,
                g->k.f.flops, want, (unsigned long long)t.max_item, (long long)g->k.log_cap,
                (unsigned long long)t.barriers, (unsigned long long)t.warps,
                t.bad_fence ? ", a barrier without the local fence" : "");
    mg_gen_free(g);
    free(g);
}

static int cmp_order(const void *p, const void *q)
{
    const acc *x = p, *y = q;
    if (x->item != y->item) return x->item < y->item ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* By item, then the access itself (the multiset per item). */
static int cmp_value(const void *p, const void *q)
{
    const acc *x = p, *y = q;
    const int64_t kx[6] = {(int64_t)x->item, x->type, x->site, x->obj, x->a, x->b};
    const int64_t ky[6] = {(int64_t)y->item, y->type, y->site, y->obj, y->a, y->b};
    for (int i = 0; i < 6; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static int same_accesses(const acc_list *a, const acc_list *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++)
        if (cmp_value(&a->v[i], &b->v[i])) return 0;
    return 1;
}

void ops_check_reorder(const char *a, const char *b, int differ)
{
    mg_gen *ga = calloc(1, sizeof *ga), *gb = calloc(1, sizeof *gb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ga && gb);
    ops_totals ta, tb;
    ops_totals_of(a, ga, &ta);
    ops_totals_of(b, gb, &tb);
    acc_list la = {NULL, 0, 0}, lb = {NULL, 0, 0};
    walk(ga, &ta, &la);
    walk(gb, &tb, &lb);
    qsort(la.v, la.n, sizeof *la.v, cmp_order);
    qsort(lb.v, lb.n, sizeof *lb.v, cmp_order);
    int same_order = same_accesses(&la, &lb);
    qsort(la.v, la.n, sizeof *la.v, cmp_value);
    qsort(lb.v, lb.n, sizeof *lb.v, cmp_value);
    int same_set = same_accesses(&la, &lb);
    CU_ASSERT_TRUE(same_set);
    CU_ASSERT_EQUAL(ta.flops, tb.flops);
    if (differ) CU_ASSERT_FALSE(same_order);
    if (!same_set || (differ && same_order))
        fprintf(stderr, "\n%s vs %s: %s\n", a, b,
                !same_set ? "different accesses" : "same order");
    free(la.v);
    free(lb.v);
    mg_gen_free(ga);
    mg_gen_free(gb);
    free(ga);
    free(gb);
}

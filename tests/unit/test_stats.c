/* test_stats.c - the statistics of `mgsim validate` (sim/analysis/stats.c)
 * against values worked out by hand (the arithmetic is in the comments),
 * ties included; and mg_validate_summarize's grouping, group mean and
 * register summary on a hand-built validation (sim/analysis/validate.c). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/analysis/stats.h"
#include "sim/analysis/validate.h"
#include "tests/unit/suites.h"

#define EPS 1e-12

/* p = 1 2 3 4, m = 2 2 4 4: a tie in m on each side. */
static void test_ties_in_measured(void)
{
    const double p[] = {1, 2, 3, 4}, m[] = {2, 2, 4, 4};
    /* (1/2 + 0 + 1/4 + 0) / 4 */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_mape(p, m, 4), 0.1875, EPS);
    /* 10 / 12 - 1 */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_aggregate(p, m, 4), -1.0 / 6, EPS);
    /* pairs: (0,1) and (2,3) tied in m, the other 4 concordant:
     * 4 / sqrt((6 - 0)(6 - 2)) */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_kendall_b(p, m, 4), 4 / sqrt(24), EPS);
    /* ranks of m 1.5 1.5 3.5 3.5: deviations (-1.5 -.5 .5 1.5)(-1 -1 1 1):
     * 4 / sqrt(5 x 4) */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_spearman(p, m, 4), 4 / sqrt(20), EPS);
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_pearson(p, m, 4), 4 / sqrt(20), EPS);
    /* pick index 0 (m 2) = the best (2) */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_top1_regret(p, m, 4), 0, EPS);
    /* top 2 of p {0,1}; of m {0,1} (the tie at 4 does not matter) */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_topk_recall(p, m, 4, 2), 1, EPS);
}

/* p = 3 1 2, m = 10 20 30: the model picks the wrong kernel. */
static void test_discordant(void)
{
    const double p[] = {3, 1, 2}, m[] = {10, 20, 30};
    /* (7/10 + 19/20 + 28/30) / 3 */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_mape(p, m, 3), (0.7 + 0.95 + 28.0 / 30) / 3, EPS);
    /* (0,1) D, (0,2) D, (1,2) C: (1 - 2) / 3 */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_kendall_b(p, m, 3), -1.0 / 3, EPS);
    /* ranks 3 1 2 vs 1 2 3: (1 -1 0).(-1 0 1) = -1 over sqrt(2 x 2) */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_spearman(p, m, 3), -0.5, EPS);
    /* pick index 1, measured 20, best 10 */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_top1_regret(p, m, 3), 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_topk_recall(p, m, 3, 1), 0, EPS);
    /* {1,2} vs {0,1} */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_topk_recall(p, m, 3, 2), 0.5, EPS);
    /* k > n: k = n, every item in both sets */
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_topk_recall(p, m, 3, 5), 1, EPS);
}

static void test_ties_in_both(void)
{
    /* (0,1) tied in x, (0,2) tied in y, (0,3) C, (1,2) D, (1,3) tied in y,
     * (2,3) tied in x: C - D = 0 */
    const double x[] = {1, 1, 2, 2}, y[] = {1, 2, 1, 2};
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_kendall_b(x, y, 4), 0, EPS);
    /* a pair tied in both counts in n1 and n2: 2 / sqrt((3-1)(3-1)) = 1 */
    const double a[] = {1, 1, 2}, b[] = {5, 5, 6};
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_kendall_b(a, b, 3), 1, EPS);
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_spearman(a, b, 3), 1, EPS);
    /* ties at the smallest prediction: the lowest index is the pick */
    const double p[] = {1, 1, 2}, m[] = {5, 3, 4};
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_top1_regret(p, m, 3), 5.0 / 3 - 1, EPS);
    double r[4];
    const double v[] = {10, 20, 20, 5};
    CU_ASSERT_EQUAL_FATAL(mg_stats_ranks(v, 4, r), 0);
    CU_ASSERT_DOUBLE_EQUAL(r[0], 2, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r[1], 3.5, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r[2], 3.5, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r[3], 1, EPS);
}

static void test_log_and_median(void)
{
    const double e = exp(1.0);
    const double x[] = {1, e, e * e}, y[] = {1, e * e, e * e * e * e}, z[] = {e * e, e, 1};
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_pearson_log(x, y, 3), 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_pearson_log(x, z, 3), -1, 1e-12);
    /* on the values themselves the relation is not linear: r < 1 */
    CU_ASSERT(mg_stats_pearson(x, y, 3) < 0.99);
    const double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2};
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_median(a, 3), 2, EPS);
    CU_ASSERT_DOUBLE_EQUAL(mg_stats_median(b, 4), 2.5, EPS);
}

static void test_undefined(void)
{
    const double one[] = {1}, flat[] = {2, 2, 2}, up[] = {1, 2, 3}, zero[] = {1, 0, 3},
                 neg[] = {1, -2, 3};
    CU_ASSERT(isnan(mg_stats_kendall_b(one, one, 1)));
    CU_ASSERT(isnan(mg_stats_pearson(flat, up, 3)));
    CU_ASSERT(isnan(mg_stats_kendall_b(flat, flat, 3)));   /* every pair tied */
    CU_ASSERT(isnan(mg_stats_mape(up, zero, 3)));
    CU_ASSERT(isnan(mg_stats_pearson_log(neg, up, 3)));
    CU_ASSERT(isnan(mg_stats_median(up, 0)));
    CU_ASSERT(isnan(mg_stats_top1_regret(up, up, 0)));
    CU_ASSERT(isnan(mg_stats_aggregate(up, up, 0)));
}

/* Two groups of compared kernels, one kernel not timed, register counts:
 * the summaries, the mean over groups and the register statistics. */
static void test_summarize(void)
{
    mg_validation v;
    memset(&v, 0, sizeof v);
    mg_vkernel k[6];
    mg_vsummary g[2];
    memset(k, 0, sizeof k);
    memset(g, 0, sizeof g);
    /*            group measured predicted  est comp */
    const double t[6][5] = {{0, 10, 11, 30, 40},   /* A: the model's order is right */
                            {0, 20, 19, 30, 32},
                            {0, 30, 33, 30, 30},
                            {1, 10, 30, 20, 15},   /* B: reversed */
                            {1, 20, 20, 20, -1},
                            {1, 99, 99, 10, 10}};  /* not timed */
    for (int i = 0; i < 6; i++) {
        k[i].index = (size_t)i;
        k[i].group = (size_t)t[i][0];
        k[i].measured_ns = t[i][1];
        k[i].predicted_ns = t[i][2];
        k[i].regs_estimate = (int)t[i][3];
        k[i].regs_compiler = (int)t[i][4];
        k[i].half_ns[0] = k[i].half_ns[1] = NAN;
        k[i].status = i == 5 ? MG_VK_SKIPPED : MG_VK_OK;
    }
    k[0].below_bound = 1;
    v.k = k;
    v.n = 6;
    v.groups = g;
    v.ngroups = 2;
    mg_validate_summarize(&v);
    CU_ASSERT_EQUAL(v.n_ok, 5);
    CU_ASSERT_EQUAL(v.n_skipped, 1);
    CU_ASSERT_EQUAL(v.all.n, 5);
    CU_ASSERT_EQUAL(v.all.below_bound, 1);
    CU_ASSERT_EQUAL(g[0].n, 3);
    CU_ASSERT_EQUAL(g[1].n, 2);
    /* A: (1/10 + 1/20 + 3/30) / 3; tau 1; pick = best = kernel 0 */
    CU_ASSERT_DOUBLE_EQUAL(g[0].mape, 0.25 / 3, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g[0].kendall, 1, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g[0].regret, 0, EPS);
    CU_ASSERT_EQUAL(g[0].pick, 0);
    /* B: (20/10 + 0) / 2; tau -1; pick kernel 4 (20) over the best 10 */
    CU_ASSERT_DOUBLE_EQUAL(g[1].mape, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g[1].kendall, -1, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g[1].regret, 1.0, EPS);
    CU_ASSERT_EQUAL(g[1].best, 3);
    CU_ASSERT_EQUAL(g[1].pick, 4);
    CU_ASSERT_EQUAL(g[1].k, 2);
    /* the mean of the two groups */
    CU_ASSERT_EQUAL(v.mean.groups, 2);
    CU_ASSERT_DOUBLE_EQUAL(v.mean.kendall, 0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.mean.regret, 0.5, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.mean.mape, (0.25 / 3 + 1) / 2, EPS);
    /* no repetitions: no measurement ceiling */
    CU_ASSERT(isnan(g[0].kendall_noise));
    /* registers, kernels 0 1 2 3 5 (4 has no compiler count; 5 was not timed
     * but was built): errors -10 -2 0 +5 0 */
    CU_ASSERT_EQUAL(v.regstat.n, 5);
    CU_ASSERT_DOUBLE_EQUAL(v.regstat.median_error, 0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.regstat.median_abs_error, 2, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.regstat.mape, (10.0 / 40 + 2.0 / 32 + 0 + 5.0 / 15 + 0) / 5, EPS);
    CU_ASSERT_EQUAL(v.regstat.within25, 4);     /* 10/40 = 25 % is within, 5/15 not */
    CU_ASSERT_EQUAL(v.regstat.under, 2);
    free(v.miss);
    free(v.res);
}

/* --by storage: rows for all and each value, GFLOPS from flops / time. */
static void test_by(void)
{
    mg_validation v;
    memset(&v, 0, sizeof v);
    mg_vkernel k[4];
    mg_vsummary g[1];
    memset(k, 0, sizeof k);
    memset(g, 0, sizeof g);
    /*                       measured predicted flops  fp16? */
    const double t[4][4] = {{10, 20, 100, 0},  /* 10 GF measured, 5 predicted */
                            {20, 20, 400, 0},  /* 20, 20 */
                            {10, 5, 10, 1},    /* 1, 2 */
                            {40, 40, 80, 1}};  /* 2, 2 */
    for (int i = 0; i < 4; i++) {
        k[i].index = (size_t)i;
        k[i].measured_ns = t[i][0];
        k[i].predicted_ns = t[i][1];
        k[i].flops = t[i][2];
        k[i].half_ns[0] = k[i].half_ns[1] = NAN;
        snprintf(k[i].schedule, sizeof k[i].schedule, "conv2d H=8 storage=%s",
                 t[i][3] ? "fp16" : "fp32");
    }
    v.k = k;
    v.n = 4;
    v.groups = g;
    v.ngroups = 1;
    v.by = 8;                                  /* 1 + the index of "storage" */
    CU_ASSERT_STRING_EQUAL(mg_vknob_names[v.by - 1], "storage");
    mg_validate_summarize(&v);
    CU_ASSERT_EQUAL_FATAL(v.nby, 3);
    CU_ASSERT_STRING_EQUAL(v.byrows[0].value, "all");
    CU_ASSERT_STRING_EQUAL(v.byrows[1].value, "fp16");
    CU_ASSERT_STRING_EQUAL(v.byrows[2].value, "fp32");
    CU_ASSERT_EQUAL(v.byrows[0].n, 4);
    CU_ASSERT_EQUAL(v.byrows[1].n, 2);
    /* fp32: errors +100 %, 0 */
    CU_ASSERT_DOUBLE_EQUAL(v.byrows[2].mape, 0.5, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.byrows[2].aggregate, 40.0 / 30 - 1, EPS);
    /* all: measured GF 10 20 1 2, predicted 5 20 2 2: ranks 3 4 1 2 vs 3 4 1.5 1.5 */
    CU_ASSERT_DOUBLE_EQUAL(v.byrows[0].spearman_gflops, 4.5 / sqrt(22.5), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(v.byrows[2].spearman_gflops, 1, EPS);   /* 10 < 20 and 5 < 20 */
    CU_ASSERT_DOUBLE_EQUAL(v.byrows[2].pearson_log_gflops, 1, EPS);
    free(v.miss);
    free(v.res);
    free(v.byrows);
}

/* One group of 8 kernels: the worst quarter (2) by |log(predicted /
 * measured)| against the best 2, described by their simulated stalls,
 * binding level, occupancy and registers; residuals by knob value in
 * natural order; a group of 1 gets no miss profile. */
static void test_misses(void)
{
    mg_validation v;
    memset(&v, 0, sizeof v);
    mg_vkernel k[9];
    mg_vsummary g[2];
    memset(k, 0, sizeof k);
    memset(g, 0, sizeof g);
    /* predicted / measured: 0.25 and 3 are the worst (|log| 1.39, 1.10),
     * 1.0 and 0.95 the best */
    const double ratio[9] = {0.25, 0.5, 1.0, 2.0, 3.0, 0.95, 1.5, 0.7, 1.0};
    const char *tile[9] = {"4x8", "16x1", "1x4", "2x4", "4x8", "1x4", "2x4", "16x1", "1x4"};
    for (int i = 0; i < 9; i++) {
        k[i].index = (size_t)i;
        k[i].group = i == 8;
        k[i].status = MG_VK_OK;
        k[i].measured_ns = 100;
        k[i].predicted_ns = 100 * ratio[i];
        k[i].half_ns[0] = k[i].half_ns[1] = NAN;
        k[i].binding = i == 0 || i == 4 ? "buffer_l1" : "compute";
        k[i].stall[MG_STALL_MEM] = i == 0 || i == 4 ? 0.9 : 0.2;
        k[i].stall[MG_STALL_ALU] = 1 - k[i].stall[MG_STALL_MEM];
        k[i].occupancy = i == 0 ? 3 : i == 4 ? 5 : 40;
        k[i].occ_groups = 1;
        k[i].regs_simulated = i == 0 ? 100 : 32;
        snprintf(k[i].schedule, sizeof k[i].schedule, "matmul M=1 tile=%s vec=4", tile[i]);
    }
    v.k = k;
    v.n = 9;
    v.groups = g;
    v.ngroups = 2;
    mg_validate_summarize(&v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v.miss);
    const mg_vprofile *w = &v.miss[0].worst, *b = &v.miss[0].best;
    CU_ASSERT_EQUAL(w->n, 2);
    CU_ASSERT_EQUAL(w->kernel[0], 0);
    CU_ASSERT_EQUAL(w->kernel[1], 4);
    CU_ASSERT_EQUAL(w->under, 1);
    CU_ASSERT_DOUBLE_EQUAL(w->error, (-0.75 + 2.0) / 2, EPS);
    CU_ASSERT_EQUAL(w->stall_main, MG_STALL_MEM);
    CU_ASSERT_DOUBLE_EQUAL(w->stall[MG_STALL_MEM], 0.9, EPS);
    CU_ASSERT_STRING_EQUAL(w->binding, "buffer_l1");
    CU_ASSERT_EQUAL(w->binding_n, 2);
    CU_ASSERT_DOUBLE_EQUAL(w->occupancy, 4, EPS);
    CU_ASSERT_DOUBLE_EQUAL(w->regs, 66, EPS);
    CU_ASSERT_EQUAL(b->n, 2);
    CU_ASSERT_EQUAL(b->kernel[0], 2);                 /* exact first */
    CU_ASSERT_EQUAL(b->kernel[1], 5);
    CU_ASSERT_EQUAL(b->stall_main, MG_STALL_ALU);
    CU_ASSERT_STRING_EQUAL(b->binding, "compute");
    CU_ASSERT_DOUBLE_EQUAL(b->occupancy, 40, EPS);
    CU_ASSERT_EQUAL(v.miss[1].worst.n, 0);            /* a group of one kernel */
    /* residuals: tile 1x4 2x4 4x8 16x1 (natural order) then vec 4, then
     * occupancy 2-4 4-8 32-64 */
    CU_ASSERT_EQUAL_FATAL(v.nres, 8);
    const char *want[8] = {"1x4", "2x4", "4x8", "16x1", "4", "2-4", "4-8", "32-64"};
    for (int x = 0; x < 8; x++) CU_ASSERT_STRING_EQUAL(v.res[x].value, want[x]);
    CU_ASSERT_STRING_EQUAL(mg_vknob_names[v.res[0].knob], "tile");
    CU_ASSERT_STRING_EQUAL(mg_vknob_names[v.res[4].knob], "vec");
    CU_ASSERT_EQUAL(v.res[0].n, 3);                   /* 1.0, 0.95, 1.0 */
    CU_ASSERT_DOUBLE_EQUAL(v.res[0].median_error, 0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.res[0].mape, 0.05 / 3, EPS);
    CU_ASSERT_DOUBLE_EQUAL(v.res[2].median_error, (-0.75 + 2.0) / 2, EPS);  /* 4x8 */
    CU_ASSERT_EQUAL(v.res[4].n, 9);
    free(v.miss);
    free(v.res);
}

int add_stats_suite(void)
{
    CU_pSuite s = CU_add_suite("stats", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "ties in the measurements", test_ties_in_measured) ||
        !CU_add_test(s, "a discordant prediction", test_discordant) ||
        !CU_add_test(s, "ties in both", test_ties_in_both) ||
        !CU_add_test(s, "log Pearson and median", test_log_and_median) ||
        !CU_add_test(s, "undefined statistics", test_undefined) ||
        !CU_add_test(s, "validation summaries", test_summarize) ||
        !CU_add_test(s, "where validation misses", test_misses) ||
        !CU_add_test(s, "validation by a knob", test_by))
        return -1;
    return 0;
}

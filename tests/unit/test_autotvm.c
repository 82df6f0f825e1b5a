/* test_autotvm.c - AutoTVM records onto generator schedules
 * (sim/calib/autotvm_map.c) and the import's documents (autotvm.c). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/suites.h"
#include "sim/calib/autotvm.h"

/* Map a record given as the JSON texts of its task, workload and entity. */
static int map(const char *task, const char *workload, const char *entity, mg_atvm_map *m,
               mg_diag *d)
{
    cJSON *w = cJSON_Parse(workload), *e = cJSON_Parse(entity);
    int rc = mg_autotvm_map(task, w, e, m, d);
    cJSON_Delete(w);
    cJSON_Delete(e);
    return rc;
}

#define SP_ENTITY(co, oh, ow, ann)                                                         \
    "[[\"tile_co\", \"sp\", " co "], [\"tile_oh\", \"sp\", " oh "], [\"tile_ow\", \"sp\", " \
    ow "], [\"reorder_0\", \"re\", [0, 1, 2, 3, 4, 5, 6, 9, 7, 8]], [\"ann_reduce\", "     \
    "\"an\", [\"unroll\", \"unroll\"]], [\"ann_spatial\", \"an\", " ann "]]"

/* The tophub log's second line: the work item VW x VC = 7 x 2 of one row,
 * work groups of TC x TW x TH = 2 x 1 x 7 items, vc (2 wide) vectorized:
 * TVM's loop order, vec_axis=cout, vectors of 2 output channels; the
 * input packed as TVM's data_vec, pack_in=1. */
static void test_spatial_pack_matched(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali",
                        "[[\"TENSOR\", [1, 992, 7, 7], \"float32\"], [\"TENSOR\", [128, 992, 1, "
                        "1], \"float32\"], [1, 1], [0, 0, 0, 0], [1, 1], \"float32\"]",
                        SP_ENTITY("[32, 2, 2]", "[1, 7, 1]", "[1, 1, 7]",
                                  "[\"unroll\", \"unroll\", \"vec\"]"), &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_MATCHED);
    CU_ASSERT_STRING_EQUAL(m.family, "spatial_pack");
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, "conv2d H=7 W=7 Cin=992 Cout=128 K=1 stride=1 "
                                              "pad=0 depthwise=0 vec_axis=cout pack_in=1 "
                                              "layout_in=buffer"));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " layout_w=packed layout_out=buffer tile=7x2 "
                                              "wg=2,1,7 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " vec=2 storage=fp32 compute=fp32 "));
    CU_ASSERT_EQUAL(m.reason[0], '\0');
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    mg_diag_free(&d);
}

/* VH = 2 rows per item: approximate, work group z doubled; fp16; the
 * vectorized axis is vw (4 wide) and VC allows 4. */
static void test_spatial_pack_approx(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali",
                        "[[\"TENSOR\", [1, 64, 56, 56], \"float16\"], [\"TENSOR\", [64, 64, 3, "
                        "3], \"float16\"], [1, 1], [1, 1, 1, 1], [1, 1], \"float16\"]",
                        SP_ENTITY("[8, 2, 4]", "[14, 2, 2]", "[7, 2, 4]",
                                  "[\"none\", \"vec\", \"unroll\"]"), &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_APPROX);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, "K=3 stride=1 pad=1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " tile=4x4 wg=2,2,4 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " vec=4 storage=fp16 compute=fp16 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.reason, "VH=2"));
    mg_diag_free(&d);
}

/* The vector along the output channels: VC = 16 vectorized gives vec=8
 * (the generator's widest); 3 input channels do not limit it (one input
 * channel a step); no "vec" axis: scalar. */
static void test_spatial_pack_vec(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    const char *w = "[[\"TENSOR\", [1, 3, 16, 16], \"float32\"], [\"TENSOR\", [32, 3, 3, 3], "
                    "\"float32\"], [1, 1], [1, 1, 1, 1], [1, 1], \"float32\"]";
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali", w,
                        SP_ENTITY("[1, 2, 16]", "[16, 1, 1]", "[4, 2, 2]",
                                  "[\"unroll\", \"unroll\", \"vec\"]"), &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_MATCHED);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " vec_axis=cout "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " tile=2x16 wg=2,2,1 pattern=row vec=8 "));
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali", w,
                        SP_ENTITY("[1, 4, 8]", "[16, 1, 1]", "[4, 2, 2]",
                                  "[\"none\", \"none\", \"none\"]"), &m, &d), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " tile=2x8 wg=4,2,1 pattern=row vec=1 "));
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    mg_diag_free(&d);
}

/* Not reproduced, with the reason; never an error. */
static void test_not_reproduced(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali",
                        "[[\"TENSOR\", [1, 192, 17, 17], \"float32\"], [\"TENSOR\", [192, 192, "
                        "7, 1], \"float32\"], [1, 1], [3, 0, 3, 0], [1, 1], \"float32\"]",
                        SP_ENTITY("[8, 4, 6]", "[17, 1, 1]", "[1, 17, 1]",
                                  "[\"none\", \"none\", \"vec\"]"), &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_NONE);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.reason, "7x1 kernel"));
    CU_ASSERT_EQUAL(map("conv2d_nchw_winograd.mali", "[]", "[]", &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_NONE);
    CU_ASSERT_STRING_EQUAL(m.family, "winograd");
    CU_ASSERT_EQUAL(map("softmax.cuda", "[]", "[]", &m, &d), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.reason, "task softmax: no generator family"));
    /* a channel tile that does not divide Cout: the generator's check says why */
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali",
                        "[[\"TENSOR\", [1, 8, 8, 8], \"float32\"], [\"TENSOR\", [12, 8, 1, 1], "
                        "\"float32\"], [1, 1], [0, 0, 0, 0], [1, 1], \"float32\"]",
                        SP_ENTITY("[1, 2, 8]", "[8, 1, 1]", "[8, 1, 1]",
                                  "[\"none\", \"none\", \"none\"]"), &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_NONE);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.reason, "the generator rejects"));
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    mg_diag_free(&d);
}

/* Depthwise: tile_c/tile_y/tile_x; the vector is limited by VC. */
static void test_depthwise(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("depthwise_conv2d_nchw.mali",
                        "[[\"TENSOR\", [1, 960, 7, 7], \"float32\"], [\"TENSOR\", [960, 1, 3, "
                        "3], \"float32\"], [1, 1], [1, 1, 1, 1], [1, 1], \"float32\"]",
                        "[[\"tile_c\", \"sp\", [80, 6, 2]], [\"tile_y\", \"sp\", [1, 7, 1]], "
                        "[\"tile_x\", \"sp\", [1, 1, 7]], [\"ann_spatial\", \"an\", [\"none\", "
                        "\"vec\", \"unroll\"]]]", &m, &d), 0);
    CU_ASSERT_EQUAL(m.fidelity, MG_ATVM_MATCHED);
    CU_ASSERT_STRING_EQUAL(m.family, "depthwise");
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, "Cin=960 Cout=960 K=3 stride=1 pad=1 "
                                              "depthwise=1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " tile=7x2 wg=6,1,7 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.schedule, " vec=1 "));   /* the vec axis (VH) is 1 */
    mg_diag_free(&d);
}

/* Malformed parts of a known task are errors naming the part. */
static void test_malformed(void)
{
    mg_atvm_map m;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("conv2d_nchw_spatial_pack.mali",
                        "[[\"TENSOR\", [1, 8, 8, 8], \"float32\"], [\"TENSOR\", [8, 8, 1, 1], "
                        "\"float32\"], [1, 1], [0, 0, 0, 0], [1, 1], \"float32\"]",
                        SP_ENTITY("[1, 8]", "[8, 1, 1]", "[8, 1, 1]",
                                  "[\"none\", \"none\", \"none\"]"), &m, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "tile_co: expected a split of 3"));
    mg_diag_free(&d);
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(map("depthwise_conv2d_nchw.mali",
                        "[[\"TENSOR\", [1, 8, 8], \"float32\"], [\"TENSOR\", [8, 1, 3, 3], "
                        "\"float32\"], [1, 1], [1, 1], [1, 1], \"float32\"]", "[]", &m, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "the data is not [\"TENSOR\""));
    mg_diag_free(&d);
}

/* A whole log: counts, timings of the reproduced records, costs in ns. */
static void test_import(void)
{
    char path[] = "/tmp/mgsim-atvm-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a comment\n\n"
               "{\"input\": [\"opencl -model=rk3399 -device=mali\", "
               "\"conv2d_nchw_spatial_pack.mali\", [[\"TENSOR\", [1, 16, 8, 8], \"float32\"], "
               "[\"TENSOR\", [16, 16, 1, 1], \"float32\"], [1, 1], [0, 0, 0, 0], [1, 1], "
               "\"float32\"], {}], \"config\": {\"index\": 7, \"entity\": " SP_ENTITY(
                   "[2, 2, 4]", "[8, 1, 1]", "[2, 1, 4]", "[\"none\", \"none\", \"vec\"]")
               "}, \"result\": [[0.002, 0.001, 0.003], 0, 1.0, 1538219132.5]}\n"
               "{\"input\": [\"opencl -model=rk3399 -device=mali\", \"dense.mali\", [], {}], "
               "\"config\": {\"entity\": []}, \"result\": [[0.001], 0, 1.0, 1.0]}\n");
    fclose(f);
    cJSON *t[MG_ATVM_T_COUNT], *rep;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_autotvm_import(path, t, &rep, &d), 0);
    cJSON *all = t[MG_ATVM_T_ALL], *matched = t[MG_ATVM_T_MATCHED];
    CU_ASSERT_PTR_NULL(t[MG_ATVM_T_APPROX]);          /* no approximate record */
    unlink(path);
    const cJSON *ks = cJSON_GetObjectItem(all, "kernels");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(ks), 1);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(matched, "kernels")), 1);
    const cJSON *ns = cJSON_GetObjectItem(cJSON_GetArrayItem(ks, 0), "ns");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(ns, "median")->valuedouble, 2e6, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(ns, "min")->valuedouble, 1e6, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(ns, "spread")->valuedouble, 1.0, 1e-9);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(all, "date")->valuestring,
                           "2018-09-29T11:05:32Z");
    const cJSON *recs = cJSON_GetObjectItem(rep, "records");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(recs), 2);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(recs, 1), "line")->valueint, 4);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(recs, 1),
                                               "fidelity")->valuestring, "not reproduced");
    cJSON_Delete(all);
    cJSON_Delete(matched);
    cJSON_Delete(rep);
    mg_diag_free(&d);
}

int add_autotvm_suite(void)
{
    CU_pSuite s = CU_add_suite("autotvm", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "spatial pack, matched", test_spatial_pack_matched) ||
        !CU_add_test(s, "spatial pack, approximate", test_spatial_pack_approx) ||
        !CU_add_test(s, "spatial pack, vector width", test_spatial_pack_vec) ||
        !CU_add_test(s, "not reproduced, with reasons", test_not_reproduced) ||
        !CU_add_test(s, "depthwise", test_depthwise) ||
        !CU_add_test(s, "malformed records", test_malformed) ||
        !CU_add_test(s, "a whole log", test_import))
        return -1;
    return 0;
}

/* test_net.c - network descriptions (sim/net): the shipped networks against
 * the published figures, shapes of each operator, and the loader's errors. */
#include <CUnit/CUnit.h>

#include "tests/unit/suites.h"
#include "base/jsonfile.h"
#include "sim/net/net.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The published figures, kept here apart from the files (a file cannot pass
 * by changing its own "published"): MACs (multiply-adds) and params, the
 * relative tolerance each is checked to, and the layer count. */
static const struct {
    const char *name;
    double macs, params, tol;
    int layers;
} published[] = {
    /* ParallelFusion (EMDL'21) Table 1 */
    {"deeplab_v3", 734e6, 0, 0.03, 69},
    {"inception_v3", 5.73e9, 23e6, 0.04, 120},
    {"resnet_v2_50", 3.87e9, 25.56e6, 0.02, 72},
    {"squeezenet_v1", 833e6, 1.25e6, 0.03, 38},
    {"mobilenet_v1", 575e6, 4.2e6, 0.02, 29},
    {"mobilenet_v2", 300e6, 3.4e6, 0.03, 64},
    /* He et al. 2016 Table 1 (1.8G); torchvision's 11.7M params */
    {"resnet_18", 1.8e9, 11.7e6, 0.03, 31},
    /* BERT-base dimensions, 128 tokens: S(12 H^2) + 2 S^2 H, 12 H^2 + 13 H */
    {"bert_base_layer", 128.0 * 12 * 768 * 768 + 2.0 * 128 * 128 * 768,
     12.0 * 768 * 768 + 13 * 768, 0, 17},
};

static void test_published(void)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "configs/networks/%s.json", published[i].name);
        mg_diag d;
        mg_diag_init(&d);
        mg_net n;
        int rc = mg_net_load(path, &n, &d);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        double tol = published[i].tol + 1e-12;
        CU_ASSERT(fabs(n.macs / published[i].macs - 1) <= tol);
        if (published[i].params) CU_ASSERT(fabs(n.params / published[i].params - 1) <= tol);
        CU_ASSERT_EQUAL(n.nlayers, published[i].layers);
        CU_ASSERT_STRING_EQUAL(n.name, published[i].name);
        CU_ASSERT(n.pub_macs == published[i].macs || published[i].tol == 0);
        CU_ASSERT(mg_net_matches_published(&n));
        CU_ASSERT(n.flops > 2 * n.macs);
        mg_net_free(&n);
        mg_diag_free(&d);
    }
}

/* Parse text as a network; the diag keeps the errors. */
static int parse(const char *text, mg_net *n, mg_diag *d)
{
    mg_diag_init(d);
    cJSON *doc = mg_json_parse("t.json", text, strlen(text), d);
    if (!doc) return -2;
    int rc = mg_net_parse(doc, "t.json", n, d);
    cJSON_Delete(doc);
    return rc;
}

#define HEAD "{\"name\": \"t\", \"source\": \"s\", \"published\": {\"macs\": 1, " \
             "\"tolerance\": 1, \"source\": \"s\"}, "

/* Every operator's shape rule and cost, on one small network whose layers
 * are listed out of order (the loader orders them). */
static void test_shapes(void)
{
    static const char *text = HEAD
        "\"inputs\": [{\"name\": \"x\", \"shape\": [1, 17, 17, 8]}], \"outputs\": [\"sm\"],"
        "\"layers\": ["
        "{\"name\": \"sm\", \"op\": \"softmax\", \"inputs\": [\"mm\"], \"shape\": [1, 1, 4, 4]},"
        "{\"name\": \"p\", \"op\": \"pool\", \"inputs\": [\"x\"], \"shape\": [1, 9, 9, 8],"
        " \"kind\": \"max\", \"kernel\": 2, \"stride\": 2, \"ceil\": true},"
        "{\"name\": \"dw\", \"op\": \"conv2d\", \"inputs\": [\"x\"], \"shape\": [1, 17, 17, 8],"
        " \"kernel\": 3, \"pad\": 2, \"dilation\": 2, \"depthwise\": true},"
        "{\"name\": \"c\", \"op\": \"conv2d\", \"inputs\": [\"x\"], \"shape\": [1, 17, 11, 4],"
        " \"kernel\": [1, 7], \"bias\": true, \"act\": \"relu\"},"
        "{\"name\": \"cat\", \"op\": \"concat\", \"inputs\": [\"x\", \"dw\"], \"shape\": [1, 17, 17, 16]},"
        "{\"name\": \"g\", \"op\": \"gpool\", \"inputs\": [\"cat\"], \"shape\": [1, 1, 1, 16]},"
        "{\"name\": \"r\", \"op\": \"reshape\", \"inputs\": [\"g\"], \"shape\": [1, 1, 4, 4]},"
        "{\"name\": \"mm\", \"op\": \"matmul\", \"inputs\": [\"r\", \"r\"], \"shape\": [1, 1, 4, 4],"
        " \"transpose_b\": true},"
        "{\"name\": \"up\", \"op\": \"resize\", \"inputs\": [\"p\"], \"shape\": [1, 17, 17, 8]},"
        "{\"name\": \"s\", \"op\": \"add\", \"inputs\": [\"up\", \"x\", \"dw\"], \"shape\": [1, 17, 17, 8]}"
        "]}";
    mg_net n;
    mg_diag d;
    int rc = parse(text, &n, &d);
    if (rc) fprintf(stderr, "\n%s\n", mg_diag_first(&d));
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    /* softmax (file index 0) needs mm, r, g, cat, dw: it runs after them */
    int pos_sm = -1, pos_mm = -1;
    for (int m = 0; m < n.nlayers; m++) {
        if (n.order[m] == 0) pos_sm = m;
        if (n.order[m] == 7) pos_mm = m;
    }
    CU_ASSERT(pos_mm >= 0 && pos_sm > pos_mm);
    /* c: 17 x 11 x 4 outputs of 1x7 x 8 inputs; bias 4 + weights 4*7*8 */
    CU_ASSERT_EQUAL(n.layers[3].macs, 17.0 * 11 * 4 * 7 * 8);
    CU_ASSERT_EQUAL(n.layers[3].params, 4.0 * 7 * 8 + 4);
    CU_ASSERT_EQUAL(n.layers[3].flops_other, 17.0 * 11 * 4 * 2);
    /* depthwise: one input channel per output */
    CU_ASSERT_EQUAL(n.layers[2].macs, 17.0 * 17 * 8 * 9);
    CU_ASSERT_EQUAL(n.layers[7].macs, 4.0 * 4 * 4);
    CU_ASSERT_EQUAL(n.layers[9].flops_other, 17.0 * 17 * 8 * 2);   /* 3 inputs: 2 adds */
    mg_net_free(&n);
    mg_diag_free(&d);
}

/* One bad layer, one message naming the file, the layer and the problem. */
static void expect_error(const char *layers, const char *want)
{
    char text[2048];
    snprintf(text, sizeof text, HEAD "\"inputs\": [{\"name\": \"x\", \"shape\": [1, 8, 8, 4]}], "
             "\"outputs\": [\"a\"], \"layers\": [%s]}", layers);
    mg_net n;
    mg_diag d;
    CU_ASSERT_EQUAL(parse(text, &n, &d), -1);
    CU_ASSERT_EQUAL(d.n, 1);
    if (!strstr(mg_diag_first(&d), want))
        fprintf(stderr, "\nwanted: %s\ngot:    %s\n", want, mg_diag_first(&d));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), want));
    mg_diag_free(&d);
}

static void test_errors(void)
{
    expect_error("{\"name\": \"a\", \"op\": \"add\", \"inputs\": [\"x\", \"a\"], "
                 "\"shape\": [1, 8, 8, 4]}", "t.json: $.layers[0] (a): on a cycle: a -> a");
    expect_error("{\"name\": \"a\", \"op\": \"conv2d\", \"inputs\": [\"y\"], "
                 "\"shape\": [1, 8, 8, 4]}", "$.layers[0] (a): dangling input \"y\"");
    expect_error("{\"name\": \"a\", \"op\": \"conv2d\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 8, 8, 4], \"kernel\": 3}",
                 "$.layers[0] (a): shape mismatch: states [1, 8, 8, 4], but conv2d of "
                 "[1, 8, 8, 4] (\"x\") gives [1, 6, 6, 4]");
    expect_error("{\"name\": \"a\", \"op\": \"conv2d\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 8, 8, 4], \"kernel\": 9}", "window does not fit");
    expect_error("{\"name\": \"a\", \"op\": \"concat\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 8, 8, 4]}", "$.layers[0] (a).inputs: concat takes 2 or more");
    expect_error("{\"name\": \"a\", \"op\": \"pool\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 4, 4, 4], \"kind\": \"mean\"}",
                 "$.layers[0] (a).kind: expected one of max, avg, got mean");
    expect_error("{\"name\": \"a\", \"op\": \"matmul\", \"inputs\": [\"x\", \"x\"], "
                 "\"shape\": [1, 8, 8, 4]}", "do not multiply");
    expect_error("{\"name\": \"a\", \"op\": \"reshape\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 8, 8, 3]}", "256 elements cannot be viewed as 192");
    expect_error("{\"name\": \"x\", \"op\": \"gpool\", \"inputs\": [\"x\"], "
                 "\"shape\": [1, 1, 1, 4]}", "the name \"x\" is already taken");
}

int add_net_suite(void)
{
    CU_pSuite s = CU_add_suite("net", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "published", test_published) || !CU_add_test(s, "shapes", test_shapes) ||
        !CU_add_test(s, "errors", test_errors))
        return -1;
    return 0;
}

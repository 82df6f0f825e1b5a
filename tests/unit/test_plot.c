/* test_plot.c - the plot module (sim/plot): gnuplot string quoting, image
 * types, axis decades, the kinds table, and what the converters write for
 * small inputs (a what-if's panels and lines, a sweep's ranks and bests, a
 * roofline's ceilings), read back from the data folder. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/plot/plot.h"
#include "tests/unit/suites.h"
#include "base/jsonfile.h"

static void test_quote(void)
{
    char b[64];
    CU_ASSERT_STRING_EQUAL(mg_plot_quote("abc", b, sizeof b), "'abc'");
    CU_ASSERT_STRING_EQUAL(mg_plot_quote("it's", b, sizeof b), "'it''s'");
    CU_ASSERT_STRING_EQUAL(mg_plot_quote("a\nb\tc", b, sizeof b), "'a b c'");
    CU_ASSERT_STRING_EQUAL(mg_plot_quote("", b, sizeof b), "''");
    /* truncated, still closed */
    CU_ASSERT_STRING_EQUAL(mg_plot_quote("abcdefgh", b, 6), "'abc'");
    /* never a lone quote of an escaped pair at the cut */
    mg_plot_quote("''''''", b, 8);
    CU_ASSERT_EQUAL(b[0], '\'');
    CU_ASSERT_EQUAL(b[strlen(b) - 1], '\'');
    CU_ASSERT_EQUAL(strlen(b) % 2, 0);
}

static void test_term_and_decades(void)
{
    CU_ASSERT_STRING_EQUAL(mg_plot_term("a.png"), "png");
    CU_ASSERT_STRING_EQUAL(mg_plot_term("dir.x/A.SVG"), "svg");
    CU_ASSERT_PTR_NULL(mg_plot_term("a.gif"));
    CU_ASSERT_PTR_NULL(mg_plot_term("png"));
    CU_ASSERT_PTR_NULL(mg_plot_term("dir.png/file"));
    CU_ASSERT_DOUBLE_EQUAL(mg_plot_decade_floor(0.05), 0.01, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(mg_plot_decade_floor(100), 100, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(mg_plot_decade_ceil(100), 100, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(mg_plot_decade_ceil(101), 1000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(mg_plot_decade_ceil(898.56 * 1.5), 10000, 1e-9);
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++) {
        CU_ASSERT_PTR_EQUAL(mg_plot_kind_find(k->name), k);
        CU_ASSERT_PTR_NOT_NULL(k->prepare);
    }
    CU_ASSERT_PTR_NULL(mg_plot_kind_find("pie"));
}

/* Write text to a fresh file under dir; returns its path (static). */
static const char *put(const char *dir, const char *name, const char *text)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* The whole of DIR/name as a malloc'd string. */
static char *slurp(const char *dir, const char *name)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    mg_diag d;
    mg_diag_init(&d);
    size_t len;
    char *s = mg_read_file(p, 1 << 20, &len, &d);
    mg_diag_free(&d);
    return s;
}

/* Run kind on the input file; 0 with the job's folder kept in job. */
static int prepare(const char *kind, const char *input, mg_plot_job *job, const char *cfg,
                   char *first, size_t len)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_plot_job_init(job, NULL, &d);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    job->config = cfg;
    char *in[1] = {(char *)input};
    rc = mg_plot_kind_find(kind)->prepare(job, 1, in, &d);
    if (!rc) rc = mg_plot_job_finish(job, &d);
    snprintf(first, len, "%s", mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

/* Two keys, 2 x 3 values: panel 1 has a line per value of key b (3), each
 * over a's 2 values; panel 2 a line per value of a.  A variant with no best
 * is NaN; "changed" marks follow. */
static void test_whatif(void)
{
    char dir[] = "/tmp/mgsim-test-plot.XXXXXX", first[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char doc[4096];
    int o = snprintf(doc, sizeof doc,
                     "{\"schema\": \"mgsim-whatif/1\", \"config\": \"c\", \"space\": \"s\","
                     " \"rules\": null, \"pruned_only\": false,"
                     " \"vary\": [{\"key\": \"a\", \"values\": [\"x1\", \"x2\"]},"
                     "            {\"key\": \"b\", \"values\": [\"1\", \"2\", \"3\"]}],"
                     " \"base\": {\"best\": {\"seconds\": 1e-6}}, \"variants\": [");
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++) {
            int none = a == 1 && b == 2;
            char best[64];
            snprintf(best, sizeof best, none ? "null" : "{\"seconds\": %d.0e-6}", 10 * a + b + 1);
            o += snprintf(doc + o, sizeof doc - (size_t)o,
                          "%s{\"values\": [{\"key\": \"a\", \"value\": \"x%d\"},"
                          " {\"key\": \"b\", \"value\": \"%d\"}], \"changed\": %s,"
                          " \"best\": %s}", a + b ? ", " : "", a + 1, b + 1,
                          b == 1 ? "true" : "false", best);
        }
    snprintf(doc + o, sizeof doc - (size_t)o, "]}");
    mg_plot_job job;
    const char *in = put(dir, "w.json", doc);
    CU_ASSERT_EQUAL(prepare("whatif", in, &job, NULL, first, sizeof first), 0);
    char *w1 = slurp(job.dir, "w1.dat"), *w2 = slurp(job.dir, "w2.dat");
    char *meta = slurp(job.dir, "meta.gp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w2);
    /* panel 1 (x = a), line b=2: a=x1 -> 2 us, changed; a=x2 -> 12 us */
    CU_ASSERT_STRING_EQUAL(w1, "1 1 0 NaN\n2 11 0 NaN\n\n\n1 2 1 NaN\n2 12 1 NaN\n\n\n"
                               "1 3 0 NaN\n2 NaN 0 NaN\n");
    CU_ASSERT_STRING_EQUAL(w2, "1 1 0 NaN\n2 2 1 NaN\n3 3 0 NaN\n\n\n"
                               "1 11 0 NaN\n2 12 1 NaN\n3 NaN 0 NaN\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "line_1_3 = 'b=3'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "line_2_2 = 'a=x2'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "nlines_1 = 3\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "val_2_3 = '3'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "base = 1\n"));
    free(w1);
    free(w2);
    free(meta);
    mg_plot_job_free(&job);
    /* a variant naming a value not varied is refused at its path */
    char *bad = strstr(doc, "\"value\": \"3\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    bad[10] = '4';
    in = put(dir, "w.json", doc);
    CU_ASSERT_EQUAL(prepare("whatif", in, &job, NULL, first, sizeof first), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "$.variants[2].values[1].value: \"4\" is not among"));
    mg_plot_job_free(&job);
    unlink(in);
    rmdir(dir);
}

/* A sweep: ranks by time (ties by index), pruned and kept blocks, bests,
 * regret; a rejected record is counted, a torn last line skipped. */
static void test_sweep(void)
{
    char dir[] = "/tmp/mgsim-test-plot.XXXXXX", first[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    const char *in = put(dir, "s.jsonl",
        "{\"schema\":\"mgsim-sweep/1\",\"config\":\"c\",\"space\":\"s\",\"rules\":\"r\","
        "\"pruned_only\":false,\"size\":9}\n"
        "{\"index\":0,\"kept\":false,\"status\":\"ok\",\"seconds\":3e-6}\n"
        "{\"index\":1,\"kept\":true,\"status\":\"ok\",\"seconds\":4e-6}\n"
        "{\"index\":2,\"kept\":false,\"status\":\"rejected\",\"reason\":\"x\"}\n"
        "{\"index\":3,\"kept\":true,\"status\":\"ok\",\"seconds\":3e-6}\n"
        "{\"index\":4,\"kept\":false,\"status\":\"ok\",\"seconds\":2e-6}\n"
        "{\"index\":5,\"kept\":true,\"sta");
    CU_ASSERT_TRUE(mg_plot_is_sweep(in));
    mg_plot_job job;
    CU_ASSERT_EQUAL(prepare("sweep", in, &job, NULL, first, sizeof first), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "incomplete last record"));
    char *s = slurp(job.dir, "s.dat"), *b = slurp(job.dir, "best.dat");
    char *meta = slurp(job.dir, "meta.gp");
    CU_ASSERT_STRING_EQUAL(s, "4 2 1\n0 3 2\n\n\n3 3 3\n1 4 4\n");
    CU_ASSERT_STRING_EQUAL(b, "4 2 1\n\n\n3 3 3\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "nfailed = 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(meta, "regret = 0.5\n"));
    free(s);
    free(b);
    free(meta);
    mg_plot_job_free(&job);
    /* the roofline of a sweep needs the config's bandwidths */
    CU_ASSERT_EQUAL(prepare("roofline", in, &job, NULL, first, sizeof first), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "--config"));
    mg_plot_job_free(&job);
    unlink(in);
    rmdir(dir);
}

/* A run report: each level's ceiling meets the peak at peak / bandwidth. */
static void test_roofline(void)
{
    char dir[] = "/tmp/mgsim-test-plot.XXXXXX", first[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    const char *in = put(dir, "k.json",
        "{\"kernel\": \"k\", \"device\": \"d\", \"gflops\": 50, \"roofline\": {"
        " \"peak_gflops\": 1000, \"ceilings\": {"
        "  \"dram\": {\"bandwidth_gbs\": 10, \"intensity\": 4},"
        "  \"tex_l1\": {\"bandwidth_gbs\": 100, \"intensity\": 1}}}}");
    mg_plot_job job;
    CU_ASSERT_EQUAL(prepare("roofline", in, &job, NULL, first, sizeof first), 0);
    char *c = slurp(job.dir, "ceil.dat"), *p = slurp(job.dir, "points.dat");
    /* tex_l1 first (the model's order), x from 0.1 */
    CU_ASSERT_STRING_EQUAL(c, "0.1 10\n10 1000\n\n\n0.1 1\n100 1000\n");
    CU_ASSERT_STRING_EQUAL(p, "1 50 1\n4 50 6\n");
    free(c);
    free(p);
    mg_plot_job_free(&job);
    in = put(dir, "k.json", "{\"kernel\": \"k\", \"device\": \"d\", \"gflops\": 50,"
                            " \"roofline\": {\"peak_gflops\": -1, \"ceilings\": {}}}");
    CU_ASSERT_EQUAL(prepare("roofline", in, &job, NULL, first, sizeof first), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "$.roofline.peak_gflops: expected a positive number"));
    mg_plot_job_free(&job);
    unlink(in);
    rmdir(dir);
}

/* Jobs sharing an mg_plot_docs: a file is read once, its document lent
 * (mg_plot_unload keeps it); a file that does not load gives each job the
 * same message; the kinds' results are those of jobs without it. */
static void test_docs(void)
{
    char dir[] = "/tmp/mgsim-test-plot.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char good[600], bad[600];
    snprintf(good, sizeof good, "%s", put(dir, "g.json", "{\"a\": [1, 2]}"));
    snprintf(bad, sizeof bad, "%s", put(dir, "b.json", "{\"a\": "));
    mg_plot_docs docs = {0};
    mg_plot_job job;
    mg_diag d, e;
    mg_diag_init(&d);
    mg_diag_init(&e);
    CU_ASSERT_EQUAL_FATAL(mg_plot_job_init(&job, NULL, &d), 0);
    job.docs = &docs;
    cJSON *j1 = mg_plot_load(&job, good, &d), *j2 = mg_plot_load(&job, good, &d);
    CU_ASSERT_PTR_NOT_NULL(j1);
    CU_ASSERT_PTR_EQUAL(j1, j2);
    mg_plot_unload(&job, j1);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(j2, "a")), 2);   /* kept */
    CU_ASSERT_PTR_NULL(mg_plot_load(&job, bad, &d));
    CU_ASSERT_PTR_NULL(mg_plot_load(&job, bad, &d));
    CU_ASSERT_PTR_NULL(mg_json_load(bad, &e));
    CU_ASSERT_EQUAL(docs.n, 2);
    CU_ASSERT_EQUAL(d.n, 2);
    CU_ASSERT_EQUAL_FATAL(d.stored, 2);
    CU_ASSERT_STRING_EQUAL(d.msg[0], e.msg[0]);
    CU_ASSERT_STRING_EQUAL(d.msg[1], e.msg[0]);
    mg_plot_job_free(&job);
    mg_plot_docs_free(&docs);
    CU_ASSERT_EQUAL(docs.n, 0);
    mg_diag_free(&d);
    mg_diag_free(&e);
    /* a whatif report prepared with and without docs: the same data */
    const char *in = put(dir, "w.json",
                         "{\"schema\": \"mgsim-whatif/1\", \"config\": \"c\", \"space\": \"s\","
                         " \"rules\": null, \"pruned_only\": false,"
                         " \"vary\": [{\"key\": \"a\", \"values\": [\"x1\", \"x2\"]}],"
                         " \"base\": {\"best\": {\"seconds\": 1e-6}}, \"variants\": ["
                         "{\"values\": [{\"key\": \"a\", \"value\": \"x1\"}], \"changed\": false,"
                         " \"best\": {\"seconds\": 2e-6}},"
                         "{\"values\": [{\"key\": \"a\", \"value\": \"x2\"}], \"changed\": true,"
                         " \"best\": {\"seconds\": 3e-6}}]}");
    char *w[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        mg_diag_init(&d);
        CU_ASSERT_EQUAL_FATAL(mg_plot_job_init(&job, NULL, &d), 0);
        job.docs = k ? &docs : NULL;
        char *inputs[1] = {(char *)in};
        CU_ASSERT_EQUAL(mg_plot_kind_find("whatif")->prepare(&job, 1, inputs, &d), 0);
        CU_ASSERT_EQUAL(mg_plot_job_finish(&job, &d), 0);
        w[k] = slurp(job.dir, "w1.dat");
        mg_plot_job_free(&job);
        mg_diag_free(&d);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(w[0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w[1]);
    CU_ASSERT_STRING_EQUAL(w[0], w[1]);
    CU_ASSERT_EQUAL(docs.n, 1);
    mg_plot_docs_free(&docs);
    free(w[0]);
    free(w[1]);
    unlink(in);
    unlink(good);
    unlink(bad);
    rmdir(dir);
}

int add_plot_suite(void)
{
    CU_pSuite s = CU_add_suite("plot", NULL, NULL);
    return s && CU_add_test(s, "quote", test_quote) &&
                   CU_add_test(s, "term_decades_kinds", test_term_and_decades) &&
                   CU_add_test(s, "whatif", test_whatif) && CU_add_test(s, "sweep", test_sweep) &&
                   CU_add_test(s, "roofline", test_roofline) && CU_add_test(s, "docs", test_docs)
               ? 0
               : -1;
}

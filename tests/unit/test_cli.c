/* test_cli.c - command-line options (base/opts) and CSV tables (base/csv). */
#include <CUnit/CUnit.h>

#include "tests/unit/suites.h"
#include "base/csv.h"
#include "base/opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option longs[] = {
    {"json", no_argument, NULL, 'J'},
    {"config", required_argument, NULL, 'c'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
};

/* Parse argv (n words, NULL-terminated copy made); the options seen as a
 * string of their values into seen, the first operand's index returned
 * (-2 after a refused option). */
static int parse(int n, const char *const *words, char *seen, char **ops)
{
    char *argv[16];
    for (int i = 0; i < n; i++) argv[i] = (char *)words[i];
    argv[n] = NULL;
    mg_opts p;
    mg_opts_start(&p, "mgsim", "test", "+c:qh", longs);
    int c, k = 0;
    FILE *keep = stderr;
    stderr = fopen("/dev/null", "w");
    while ((c = mg_opts_next(&p, n, argv)) != -1 && c != '?') seen[k++] = (char)c;
    fclose(stderr);
    stderr = keep;
    seen[k] = 0;
    if (c == '?') return -2;
    for (int i = optind; i < n; i++) ops[i - optind] = argv[i];
    return optind;
}

/* Options after operands are options (permutation); `--` ends them; a
 * leading '+' in the short options does not stop at the first operand. */
static void test_permute(void)
{
    char seen[16], *ops[16];
    const char *a[] = {"stats", "FILE", "--json", "-c", "x", "B", "-q"};
    CU_ASSERT_EQUAL(parse(7, a, seen, ops), 5);
    CU_ASSERT_STRING_EQUAL(seen, "Jcq");
    CU_ASSERT_STRING_EQUAL(ops[0], "FILE");
    CU_ASSERT_STRING_EQUAL(ops[1], "B");
    const char *b[] = {"check", "--", "--json", "F"};
    CU_ASSERT_EQUAL(parse(4, b, seen, ops), 2);
    CU_ASSERT_STRING_EQUAL(seen, "");
    CU_ASSERT_STRING_EQUAL(ops[0], "--json");
}

/* Unknown options, missing arguments and arguments to flags are refused. */
static void test_refuse(void)
{
    char seen[16], *ops[16];
    const char *a[] = {"run", "--jsn"};
    CU_ASSERT_EQUAL(parse(2, a, seen, ops), -2);
    const char *b[] = {"run", "--config"};
    CU_ASSERT_EQUAL(parse(2, b, seen, ops), -2);
    const char *c[] = {"run", "--json=1"};
    CU_ASSERT_EQUAL(parse(2, c, seen, ops), -2);
    const char *d[] = {"run", "-Z"};
    CU_ASSERT_EQUAL(parse(2, d, seen, ops), -2);
}

/* The table written to a memory file, as a string (caller frees). */
static char *csv_text(const mg_csv *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    CU_ASSERT_EQUAL(mg_csv_write(t, f), 0);
    fclose(f);
    return buf;
}

/* Columns are the union of the rows' in first-seen order; quoting. */
static void test_csv_table(void)
{
    mg_csv *t = mg_csv_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(mg_csv_row(t), 0);
    CU_ASSERT_EQUAL(mg_csv_set(t, "", "a", "1"), 0);
    CU_ASSERT_EQUAL(mg_csv_set(t, "", "b", "x,y"), 0);
    CU_ASSERT_EQUAL(mg_csv_row(t), 0);
    CU_ASSERT_EQUAL(mg_csv_set(t, "", "c", "say \"hi\""), 0);
    CU_ASSERT_EQUAL(mg_csv_set(t, "p.", "a", "2"), 0);
    char *s = csv_text(t);
    CU_ASSERT_STRING_EQUAL(s, "a,b,c,p.a\n1,\"x,y\",,\n,,\"say \"\"hi\"\"\",2\n");
    free(s);
    mg_csv_free(t);
}

/* A JSON record: objects flattened, arrays of scalars joined, the
 * schedule's knobs as columns, null empty. */
static void test_csv_json(void)
{
    cJSON *j = cJSON_Parse("{\"index\":3,\"schedule\":\"conv2d H=8 wg=2,2,4\",\"kept\":false,"
                           "\"fired\":[\"warp\",\"buffer\"],\"oi\":{\"l2\":1.5},\"x\":null,"
                           "\"seconds\":2.5e-06}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    mg_csv *t = mg_csv_new();
    CU_ASSERT_EQUAL(mg_csv_row(t), 0);
    CU_ASSERT_EQUAL(mg_csv_set_json(t, "", j), 0);
    char *s = csv_text(t);
    CU_ASSERT_STRING_EQUAL(s, "index,schedule,op,H,wg,kept,fired,oi.l2,x,seconds\n"
                              "3,\"conv2d H=8 wg=2,2,4\",conv2d,8,\"2,2,4\",false,warp buffer,1.5,,"
                              "2.5e-06\n");
    free(s);
    mg_csv_free(t);
    cJSON_Delete(j);
}

int add_cli_suite(void)
{
    CU_pSuite s = CU_add_suite("cli", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "permute", test_permute) || !CU_add_test(s, "refuse", test_refuse) ||
        !CU_add_test(s, "csv_table", test_csv_table) || !CU_add_test(s, "csv_json", test_csv_json))
        return -1;
    return 0;
}

/* test_strsim.c - edit distance and suggestions (sim/util/strsim). */
#include <CUnit/CUnit.h>

#include "suites.h"
#include "util/strsim.h"

static void test_distance(void)
{
    CU_ASSERT_EQUAL(mg_edit_distance("", ""), 0);
    CU_ASSERT_EQUAL(mg_edit_distance("abc", ""), 3);
    CU_ASSERT_EQUAL(mg_edit_distance("kitten", "sitting"), 3);
    CU_ASSERT_EQUAL(mg_edit_distance("size", "sizee"), 1);
    CU_ASSERT_EQUAL(mg_edit_distance("line", "lien"), 1);        /* transposition */
    CU_ASSERT_EQUAL(mg_edit_distance("assoc", "assoc"), 0);
}

static void test_suggest(void)
{
    static const char *const keys[] = {"size", "line", "assoc", "replacement",
                                       "latency_cycles", "bandwidth"};
    CU_ASSERT_STRING_EQUAL(mg_suggest("sizee", keys, 6), "size");
    CU_ASSERT_STRING_EQUAL(mg_suggest("lien", keys, 6), "line");
    CU_ASSERT_STRING_EQUAL(mg_suggest("latency", keys, 6), "latency_cycles");
    CU_ASSERT_STRING_EQUAL(mg_suggest("bandwith", keys, 6), "bandwidth");
    CU_ASSERT_STRING_EQUAL(mg_suggest("replacment", keys, 6), "replacement");
    CU_ASSERT_PTR_NULL(mg_suggest("colour", keys, 6));
    CU_ASSERT_PTR_NULL(mg_suggest("x", keys, 6));
}

int add_strsim_suite(void)
{
    CU_pSuite s = CU_add_suite("strsim", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "distance", test_distance) || !CU_add_test(s, "suggest", test_suggest))
        return -1;
    return 0;
}

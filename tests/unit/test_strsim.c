/* test_strsim.c - edit distance and suggestions (base/strsim). */
#include <CUnit/CUnit.h>

#include "tests/unit/suites.h"
#include "base/hash.h"
#include "base/strsim.h"

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

static void test_hint(void)
{
    static const char *const keys[] = {"size", "line", "assoc"};
    mg_hint h;
    CU_ASSERT_STRING_EQUAL(mg_hint_near(&h, "sizee", keys, 3, "'"), " (did you mean 'size'?)");
    CU_ASSERT_STRING_EQUAL(mg_hint_near(&h, "lien", keys, 3, "\""), " (did you mean \"line\"?)");
    CU_ASSERT_STRING_EQUAL(mg_hint_near(&h, "colour", keys, 3, "'"), "");
    CU_ASSERT_STRING_EQUAL(mg_hint_of(&h, "assoc", ""), " (did you mean assoc?)");
    CU_ASSERT_STRING_EQUAL(mg_hint_of(&h, NULL, "'"), "");
    char buf[32];
    CU_ASSERT_STRING_EQUAL(mg_join_names(buf, sizeof buf, keys, 3, ", "), "size, line, assoc");
    CU_ASSERT_STRING_EQUAL(mg_join_names(buf, 8, keys, 3, ", "), "size, l");
    CU_ASSERT_STRING_EQUAL(mg_join_names(buf, sizeof buf, keys, 0, ", "), "");
}

/* FNV-1a's published 64-bit test vectors. */
static void test_hash(void)
{
    CU_ASSERT_EQUAL(mg_fnv1a_str(""), 0xcbf29ce484222325ull);
    CU_ASSERT_EQUAL(mg_fnv1a_str("a"), 0xaf63dc4c8601ec8cull);
    CU_ASSERT_EQUAL(mg_fnv1a_str("foobar"), 0x85944171f73967e8ull);
    CU_ASSERT_EQUAL(mg_fnv1a_more(mg_fnv1a("foo", 3), "bar", 3), mg_fnv1a_str("foobar"));
}

int add_strsim_suite(void)
{
    CU_pSuite s = CU_add_suite("strsim", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "distance", test_distance) || !CU_add_test(s, "suggest", test_suggest) ||
        !CU_add_test(s, "hint", test_hint) || !CU_add_test(s, "hash", test_hash))
        return -1;
    return 0;
}

/* test_strsim.c - edit distance and suggestions (base/strsim). */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <string.h>

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

/* The full-table distance and the first-found-nearest suggestion, written
 * plainly: the reference for the bounded ones. */
static size_t ref_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), t[24][24];
    for (size_t i = 0; i <= la; i++)
        for (size_t j = 0; j <= lb; j++) {
            size_t v = i > j ? i : j;
            if (i && j) {
                v = t[i - 1][j] + 1;
                if (t[i][j - 1] + 1 < v) v = t[i][j - 1] + 1;
                if (t[i - 1][j - 1] + (a[i - 1] != b[j - 1]) < v)
                    v = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                    t[i - 2][j - 2] + 1 < v)
                    v = t[i - 2][j - 2] + 1;
            } else {
                v = i + j;
            }
            t[i][j] = v;
        }
    return t[la][lb];
}

static const char *ref_suggest(const char *w, const char *const *c, size_t n)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1, lw = strlen(w);
    size_t limit = lw / 3 > 1 ? lw / 3 : 1;
    if (limit < 2 && lw >= 4) limit = 2;
    for (size_t i = 0; i < n; i++) {
        size_t d = ref_distance(w, c[i]), lc = strlen(c[i]);
        int prefix = lw >= 3 && lc >= 3 && !strncmp(w, c[i], lw < lc ? lw : lc);
        if ((d <= limit || prefix) && d < bestd) {
            best = c[i];
            bestd = d;
        }
    }
    return best;
}

/* A pseudo-random word of 0..20 letters from an alphabet of `abc` letters
 * (3: near words are common). */
static void random_word_of(uint64_t *x, char *w, unsigned abc)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    size_t n = (size_t)(*x >> 59) % 21;
    for (size_t i = 0; i < n; i++) {
        *x = *x * 6364136223846793005ull + 1442695040888963407ull;
        w[i] = (char)('a' + (abc == 3 ? (*x >> 61) % 3 : (*x >> 40) % abc));
    }
    w[n] = '\0';
}

static void random_word(uint64_t *x, char *w) { random_word_of(x, w, 3); }

/* The bounded distance and the pruned suggestion agree with the plain
 * ones on random words: exact when within the bound, bound + 1 beyond. */
static void test_bounded(void)
{
    uint64_t x = 12345;
    char w[8][24];
    const char *cands[7];
    int bad = 0;
    for (int r = 0; r < 3000; r++) {
        for (int k = 0; k < 8; k++) random_word(&x, w[k]);
        size_t d = ref_distance(w[0], w[1]), max = (size_t)(r % 6);
        if (mg_edit_distance(w[0], w[1]) != d) bad++;
        if (mg_edit_distance_max(w[0], w[1], max) != (d <= max ? d : max + 1)) bad++;
        for (int k = 0; k < 7; k++) cands[k] = w[k + 1];
        if (mg_suggest(w[0], cands, 7) != ref_suggest(w[0], cands, 7)) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* The letter-count bound (which lets mg_edit_distance_max skip its table)
 * never turns a distance within max into max + 1: random words over 3 and
 * 8 letters, anagrams (count difference 0) and disjoint words (the bound
 * exact) against the plain table, every max from 0 to 12. */
static void test_count_bound(void)
{
    uint64_t x = 777;
    char a[24], b[24];
    int bad = 0;
    for (int r = 0; r < 4000; r++) {
        random_word_of(&x, a, r % 2 ? 8 : 3);
        random_word_of(&x, b, r % 2 ? 8 : 3);
        size_t d = ref_distance(a, b);
        for (size_t max = 0; max <= 12; max++)
            if (mg_edit_distance_max(a, b, max) != (d <= max ? d : max + 1)) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(mg_edit_distance_max("listen", "silent", 4), 4);   /* anagrams */
    CU_ASSERT_EQUAL(mg_edit_distance_max("abc", "xyz", 3), 3);         /* disjoint */
    CU_ASSERT_EQUAL(mg_edit_distance_max("abc", "xyz", 2), 3);         /* cut: max + 1 */
    CU_ASSERT_EQUAL(mg_edit_distance_max("abcd", "dcba", 3), 3);
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
        !CU_add_test(s, "hint", test_hint) ||
        !CU_add_test(s, "bounded", test_bounded) ||
        !CU_add_test(s, "count bound", test_count_bound) || !CU_add_test(s, "hash", test_hash))
        return -1;
    return 0;
}

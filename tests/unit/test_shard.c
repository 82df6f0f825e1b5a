/*
 * test_shard.c - the split of a sweep into shards (sim/search/shard.h):
 * "I/N" parsing, every member in exactly one shard by blocks of 16 dealt
 * round-robin, and the shard's field at the end of the results header.
 * The merges and the MPI runs are checked end to end by tests/dist/run.sh.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "sim/search/shard.h"
#include "tests/unit/suites.h"

static void test_parse(void)
{
    uint32_t i = 9, n = 9;
    CU_ASSERT_EQUAL(mg_shard_parse("0/2", &i, &n), 0);
    CU_ASSERT(i == 0 && n == 2);
    CU_ASSERT_EQUAL(mg_shard_parse("15/16", &i, &n), 0);
    CU_ASSERT(i == 15 && n == 16);
    static const char *const bad[] = {"", "1", "2/2", "3/2", "0/1", "0/0", "-1/2", "1/-2",
                                      "a/2", "1/2x", "1//2", " 1/2", "0/4097", "1/ 2"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        CU_ASSERT_EQUAL(mg_shard_parse(bad[k], &i, &n), -1);
}

static void test_split(void)
{
    CU_ASSERT_EQUAL(mg_shard_of(5, 0), 0);
    CU_ASSERT_EQUAL(mg_shard_of(5, 1), 0);
    CU_ASSERT_EQUAL(mg_shard_of(15, 3), 0);
    CU_ASSERT_EQUAL(mg_shard_of(16, 3), 1);
    CU_ASSERT_EQUAL(mg_shard_of(47, 3), 2);
    CU_ASSERT_EQUAL(mg_shard_of(48, 3), 0);
    for (uint32_t n = 2; n <= 5; n++) {
        uint64_t count[5] = {0};
        for (uint64_t m = 0; m < 1000; m++) {
            int owners = 0;
            for (uint32_t i = 0; i < n; i++) {
                mg_sweep_ident id = {.shard_i = i, .shard_n = n};
                owners += mg_shard_has(&id, m);
            }
            CU_ASSERT_EQUAL(owners, 1);
            count[mg_shard_of(m, n)]++;
        }
        for (uint32_t i = 0; i < n; i++)              /* balanced to a block */
            CU_ASSERT(count[i] + MG_SHARD_BLOCK >= 1000 / n && count[i] <= 1000 / n + MG_SHARD_BLOCK);
    }
    mg_sweep_ident whole = {0};
    CU_ASSERT(mg_shard_has(&whole, 12345));
}

static void test_header(void)
{
    mg_sweep_ident id;
    memset(&id, 0, sizeof id);
    snprintf(id.config, sizeof id.config, "c");
    snprintf(id.space, sizeof id.space, "s");
    id.size = 36;
    char *whole = mg_sweep_header_line(&id);
    id.shard_i = 1;
    id.shard_n = 3;
    char *part = mg_sweep_header_line(&id);
    CU_ASSERT_PTR_NULL(strstr(whole, "shard"));
    size_t n = strlen(whole);
    CU_ASSERT(n > 2 && !strncmp(part, whole, n - 2));             /* the same, plus the shard */
    CU_ASSERT_STRING_EQUAL(part + n - 2, ",\"shard\":\"1/3\"}\n");
    free(whole);
    free(part);
}

int add_shard_suite(void)
{
    CU_pSuite s = CU_add_suite("shard", NULL, NULL);
    if (!s) return -1;
    return !CU_add_test(s, "I/N parsing", test_parse) ||
           !CU_add_test(s, "every member in one shard, balanced", test_split) ||
           !CU_add_test(s, "the header's shard field", test_header);
}

/* test_search.c - search spaces (sim/search/mg_space_*) and pruning rules
 * (mg_rule_*): enumeration order and counts on small spaces, each rule
 * firing and not firing, rule- and space-file errors. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/search/rule.h"
#include "sim/search/space.h"
#include "tests/unit/suites.h"
#include "base/jsonfile.h"

static int load_space(const char *text, mg_space *sp, mg_diag *d)
{
    cJSON *j = mg_json_parse("t.json", text, strlen(text), d);
    int rc = j ? mg_space_from_json(j, "t.json", sp, d) : -1;
    cJSON_Delete(j);
    return rc;
}

#define SPACE_HEAD "{\"schema\": \"mgsim-space/1\", \"name\": \"t\", \"op\": \"matmul\", " \
                   "\"shape\": {\"M\": 4, \"N\": 16, \"K\": 16}, " \
                   "\"fixed\": {\"layout\": \"buffer\", \"vec\": 4, \"tile.1\": 4, \"wg.2\": 1}, "

typedef struct seen { uint64_t n; char first[1024], seventh[1024]; } seen;
static int visit(void *p, const mg_space_cand *c)
{
    seen *s = p;
    if (c->index == 0) mg_schedule_format(&c->s, s->first, sizeof s->first);
    if (c->index == 6) mg_schedule_format(&c->s, s->seventh, sizeof s->seventh);
    s->n++;
    return 0;
}

static void test_enum(void)
{
    /* wg.0 in {1,2} (2) x split of 4 into (wg.1, tile.0): the pairs whose
     * product divides 4: (1,1) (1,2) (1,4) (2,1) (2,2) (4,1) (6).  Raw 12;
     * wg.0 x wg.1 <= 4 excludes (2, (4,1)): 1.  Size 11.  Order: the last
     * knob fastest, so member 6 is wg.0=2 with (1,1). */
    const char *text = SPACE_HEAD
        "\"knobs\": [{\"name\": \"x\", \"key\": \"wg.0\", \"values\": [1, 2]},"
        "  {\"name\": \"m\", \"split\": {\"keys\": [\"wg.1\", \"tile.0\"], \"of\": 4}}],"
        "\"constraints\": [{\"product\": [\"wg.0\", \"wg.1\"], \"max\": 4}]}";
    mg_space sp;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(load_space(text, &sp, &d), 0);
    CU_ASSERT_EQUAL(mg_space_raw(&sp), 12);
    mg_space_stats st;
    seen s = {0, "", ""};
    mg_space_enumerate(&sp, visit, &s, &st);
    CU_ASSERT_EQUAL(st.raw, 12);
    CU_ASSERT_EQUAL(st.excluded, 1);
    CU_ASSERT_EQUAL(st.invalid, 0);
    CU_ASSERT_EQUAL(st.size, 11);
    CU_ASSERT_EQUAL(s.n, 11);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.first, "tile=1x4 wg=1,1,1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s.seventh, "tile=1x4 wg=2,1,1"));
    mg_space_free(&sp);
    mg_diag_free(&d);
}

static void test_invalid(void)
{
    /* The same x unroll in 1,2,4,8 (range times 2): raw 48, excluded 4;
     * unroll 8 needs K % (8 x 4) == 0, K = 16: the 11 members with unroll
     * 8 are invalid, one reason.  Size 33. */
    const char *text = SPACE_HEAD
        "\"knobs\": [{\"name\": \"x\", \"key\": \"wg.0\", \"values\": [1, 2]},"
        "  {\"name\": \"m\", \"split\": {\"keys\": [\"wg.1\", \"tile.0\"], \"of\": 4}},"
        "  {\"name\": \"u\", \"key\": \"unroll\", \"range\": {\"from\": 1, \"to\": 8, \"times\": 2}}],"
        "\"constraints\": [{\"product\": [\"wg.0\", \"wg.1\"], \"max\": 4}]}";
    mg_space sp;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(load_space(text, &sp, &d), 0);
    mg_space_stats st;
    mg_space_enumerate(&sp, NULL, NULL, &st);
    CU_ASSERT_EQUAL(st.raw, 48);
    CU_ASSERT_EQUAL(st.excluded, 4);
    CU_ASSERT_EQUAL(st.invalid, 11);
    CU_ASSERT_EQUAL(st.size, 33);
    CU_ASSERT_EQUAL(st.nreasons, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(st.reason[0], "must be a multiple of split x unroll"));
    mg_space_free(&sp);
    mg_diag_free(&d);
}

/* Every member's words, in order, and each one's raw combination. */
typedef struct listed { uint64_t n, raw[64]; char words[64][1024]; } listed;
static int list_one(void *p, const mg_space_cand *c)
{
    listed *l = p;
    if (l->n < 64) {
        l->raw[l->n] = c->raw;
        snprintf(l->words[l->n], sizeof l->words[0], "%s", c->words);
    }
    l->n++;
    return c->index + 1 == l->n ? 0 : 1;      /* index: its place in order */
}

static int odd_only(void *p, uint64_t index)
{
    (void)p;
    return (int)(index & 1);
}

static void test_visit_members(void)
{
    /* test_invalid's space: revisiting the listed members gives the same
     * members (index, raw, words) as the enumeration; want() picks some;
     * a raw combination that is not a member is refused. */
    const char *text = SPACE_HEAD
        "\"knobs\": [{\"name\": \"x\", \"key\": \"wg.0\", \"values\": [1, 2]},"
        "  {\"name\": \"m\", \"split\": {\"keys\": [\"wg.1\", \"tile.0\"], \"of\": 4}},"
        "  {\"name\": \"u\", \"key\": \"unroll\", \"range\": {\"from\": 1, \"to\": 8, \"times\": 2}}],"
        "\"constraints\": [{\"product\": [\"wg.0\", \"wg.1\"], \"max\": 4}]}";
    mg_space sp;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(load_space(text, &sp, &d), 0);
    mg_space_stats st;
    static listed a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    CU_ASSERT_EQUAL(mg_space_enumerate(&sp, list_one, &a, &st), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 33);
    CU_ASSERT_EQUAL(mg_space_visit_members(&sp, a.raw, a.n, NULL, list_one, &b), 0);
    CU_ASSERT_EQUAL_FATAL(b.n, 33);
    for (uint64_t i = 0; i < 33; i++) {
        CU_ASSERT_EQUAL(a.raw[i], b.raw[i]);
        CU_ASSERT_STRING_EQUAL(a.words[i], b.words[i]);
    }
    /* index 1 is the first odd one: list_one sees index 1 as its first, stops */
    CU_ASSERT_EQUAL(mg_space_visit_members(&sp, a.raw, a.n, odd_only, list_one, &c), 1);
    CU_ASSERT_EQUAL(c.n, 1);
    CU_ASSERT_STRING_EQUAL(c.words[0], a.words[1]);
    uint64_t bad = 3;                         /* wg.0 1, (1,1), unroll 8: invalid */
    CU_ASSERT_EQUAL(mg_space_visit_members(&sp, &bad, 1, NULL, list_one, &c), -1);
    mg_space_free(&sp);
    mg_diag_free(&d);
}

static void test_space_errors(void)
{
    const char *text = SPACE_HEAD
        "\"knobs\": [{\"name\": \"x\", \"key\": \"unrol\", \"values\": [1]}]}";
    mg_space sp;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(load_space(text, &sp, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "$.knobs[0].key"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "did you mean \"unroll\""));
    mg_space_free(&sp);
    mg_diag_free(&d);
}

/* The rules that fire for one schedule on one device (all rules on). */
static unsigned fire(const char *dev_path, const char *sched)
{
    static mg_device dev;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_device_load(dev_path, 0, &dev, &d), 0);
    mg_schedule s;
    CU_ASSERT_EQUAL_FATAL(mg_schedule_parse_line(sched, NULL, &s, &d), 0);
    mg_gen g;
    CU_ASSERT_EQUAL_FATAL(mg_gen_plan(&g, &s, &d), 0);
    mg_rules r;
    const char *all = "{\"schema\": \"mgsim-rules/1\", \"name\": \"all\", \"rules\": {"
        "\"l1\": {\"enabled\": true}, \"registers\": {\"enabled\": true},"
        "\"buffer\": {\"enabled\": true}, \"local_memory\": {\"enabled\": true, \"alpha\": 3},"
        "\"warp\": {\"enabled\": true}, \"access_width\": {\"enabled\": true}}}";
    cJSON *j = mg_json_parse("r", all, strlen(all), &d);
    CU_ASSERT_EQUAL_FATAL(mg_rules_from_json(j, "r", &r, &d), 0);
    cJSON_Delete(j);
    mg_diag_free(&d);
    return mg_rules_eval(&r, &dev, &s, &g.k);
}

#define A640 "configs/devices/adreno640.json"
#define G76  "configs/devices/mali-g76-mp5.json"
#define BIT(r) (1u << (r))

static void test_rules(void)
{
    /* l1 (adreno640: 1 KiB texture L1): the group's distinct bytes per
     * iteration are (wg.y wg.z TW + wg.x TC) x 4 channels x 2 B:
     * wg=16,4: (4x4 + 16x4) x 8 = 640 <= 1024; wg=64,4: (16 + 256) x 8 = 2176 */
    const char *c = "conv2d H=28 W=28 Cin=256 Cout=256 K=1 tile=4x4 storage=fp16 compute=fp16";
    char s[256];
    snprintf(s, sizeof s, "%s wg=16,4", c);
    CU_ASSERT_EQUAL(fire(A640, s), 0);
    snprintf(s, sizeof s, "%s wg=64,4", c);
    CU_ASSERT_EQUAL(fire(A640, s), BIT(MG_RULE_L1));
    /* warp: 8 items < 64 on adreno640, not < 8 on mali */
    snprintf(s, sizeof s, "%s wg=8,1", c);
    CU_ASSERT_EQUAL(fire(A640, s), BIT(MG_RULE_WARP));
    CU_ASSERT_EQUAL(fire(G76, s) & BIT(MG_RULE_WARP), 0);
    /* buffer: a buffer input where the L1 is texture-only (adreno), not on mali */
    snprintf(s, sizeof s, "%s wg=16,4 layout=buffer", c);
    CU_ASSERT_EQUAL(fire(A640, s), BIT(MG_RULE_BUFFER));
    /* access_width: 2-wide loads */
    snprintf(s, sizeof s, "%s wg=16,4 layout=buffer vec=2", c);
    CU_ASSERT_EQUAL(fire(A640, s), BIT(MG_RULE_BUFFER) | BIT(MG_RULE_WIDTH));
    /* registers: tile 8x8 unroll 2, fp32: 64 + 8 x 16 + 6 = 198 per item
     * (under the 256 cap); x 64 = 12672 <= 70272, x 384 = 76032 > 70272 */
    CU_ASSERT_EQUAL(fire(A640, "matmul M=64 N=64 K=64 tile=8x8 unroll=2 wg=8,8,1") &
                    BIT(MG_RULE_REGS), 0);
    CU_ASSERT_EQUAL(fire(A640, "matmul M=192 N=128 K=64 tile=8x8 unroll=2 wg=16,24,1") &
                    BIT(MG_RULE_REGS), BIT(MG_RULE_REGS));
    /* local_memory (mali: 24 ALUs per core, alpha 3 -> 72): split=4 with
     * 32 items no, 128 items yes */
    CU_ASSERT_EQUAL(fire(G76, "matmul M=16 N=64 K=64 tile=1x4 wg=8,1,4 split=4") &
                    BIT(MG_RULE_LOCAL), 0);
    CU_ASSERT_EQUAL(fire(G76, "matmul M=16 N=128 K=64 tile=1x4 wg=32,1,4 split=4") &
                    BIT(MG_RULE_LOCAL), BIT(MG_RULE_LOCAL));
}

static void test_rule_errors(void)
{
    const char *bad = "{\"schema\": \"mgsim-rules/1\", \"name\": \"b\", \"rules\": {"
        "\"wrap\": {\"enabled\": true}, \"local_memory\": {\"enabled\": true, \"alpha\": 0}}}";
    mg_diag d;
    mg_diag_init(&d);
    mg_rules r;
    cJSON *j = mg_json_parse("r.json", bad, strlen(bad), &d);
    CU_ASSERT_EQUAL(mg_rules_from_json(j, "r.json", &r, &d), -1);
    cJSON_Delete(j);
    CU_ASSERT_EQUAL(d.n, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[0], "r.json: $.rules: unknown rule \"wrap\" "
                                            "(did you mean \"warp\"?)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[1], "r.json: $.rules.local_memory.alpha: expected"));
    mg_diag_free(&d);
}

int add_search_suite(void)
{
    CU_pSuite s = CU_add_suite("search", NULL, NULL);
    if (!s || !CU_add_test(s, "enumeration order and count", test_enum) ||
        !CU_add_test(s, "invalid candidates by reason", test_invalid) ||
        !CU_add_test(s, "members visited again by raw combination", test_visit_members) ||
        !CU_add_test(s, "space file errors", test_space_errors) ||
        !CU_add_test(s, "each rule fires and not", test_rules) ||
        !CU_add_test(s, "rule file errors", test_rule_errors))
        return -1;
    return 0;
}

/* test_units.c - unit parsing and canonical printing (base/units). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/unit/suites.h"
#include "base/units.h"

static double parse_ok(mg_unit_kind k, const char *s)
{
    double v = -1;
    char err[200] = "";
    int rc = mg_unit_parse(k, s, &v, err, sizeof err);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc) fprintf(stderr, "\nunexpected error for '%s': %s\n", s, err);
    return v;
}

static void parse_bad(mg_unit_kind k, const char *s, const char *want)
{
    double v = 0;
    char err[200] = "";
    CU_ASSERT_EQUAL(mg_unit_parse(k, s, &v, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    if (!strstr(err, want)) fprintf(stderr, "\n'%s': got '%s', want '%s'\n", s, err, want);
}

static void test_sizes(void)
{
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, "1KiB"), 1024.0);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, "32B"), 32.0);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, "128KiB"), 131072.0);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, "50MiB"), 50.0 * 1048576);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, "2kB"), 2000.0);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_SIZE, " 1.5 KiB "), 1536.0);
}

static void test_rates(void)
{
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_FREQ, "585MHz"), 585e6);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_FREQ, "1.98GHz"), 1.98e9);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_BANDWIDTH, "194.5GB/s"), 194.5e9);
    CU_ASSERT_EQUAL(parse_ok(MG_UNIT_BANDWIDTH, "1GiB/s"), 1073741824.0);
    CU_ASSERT_DOUBLE_EQUAL(parse_ok(MG_UNIT_TIME, "27ns"), 27e-9, 1e-21);
    CU_ASSERT_DOUBLE_EQUAL(parse_ok(MG_UNIT_TIME, "1.5us"), 1.5e-6, 1e-18);
}

static void test_rejects(void)
{
    parse_bad(MG_UNIT_SIZE, "1KB", "ambiguous");
    parse_bad(MG_UNIT_SIZE, "1024", "no unit");
    parse_bad(MG_UNIT_SIZE, "", "empty");
    parse_bad(MG_UNIT_SIZE, "KiB", "finite number");
    parse_bad(MG_UNIT_SIZE, "1Kib", "unknown size unit");
    parse_bad(MG_UNIT_SIZE, "8Gb", "bits");
    parse_bad(MG_UNIT_SIZE, "inf KiB", "finite number");
    parse_bad(MG_UNIT_SIZE, "nanB", "finite number");
    parse_bad(MG_UNIT_SIZE, "0x10B", "plain decimal");
    parse_bad(MG_UNIT_SIZE, "1e400B", "finite number");
    parse_bad(MG_UNIT_SIZE, "1e300TiB", "overflows");
    parse_bad(MG_UNIT_TIME, "4E-301ns", "underflows");   /* fuzz_units: 4e-310 s, subnormal */
    parse_bad(MG_UNIT_FREQ, "585", "no unit");
    parse_bad(MG_UNIT_FREQ, "585mhz", "unknown frequency unit");
    parse_bad(MG_UNIT_BANDWIDTH, "30GBps", "GB/s");
    parse_bad(MG_UNIT_TIME, "40cycles", "_cycles");
}

/* Every canonical form parses back to the value it was printed from. */
static void test_roundtrip(void)
{
    static const struct { mg_unit_kind k; double v; const char *want; } cases[] = {
        {MG_UNIT_SIZE, 1024, "1KiB"},           {MG_UNIT_SIZE, 32, "32B"},
        {MG_UNIT_SIZE, 131072, "128KiB"},       {MG_UNIT_SIZE, 52428800, "50MiB"},
        {MG_UNIT_SIZE, 1000, "1kB"},            {MG_UNIT_SIZE, 1536, "1.5KiB"},
        {MG_UNIT_SIZE, 0, "0B"},                {MG_UNIT_SIZE, 12345, "12.345kB"},
        {MG_UNIT_FREQ, 585e6, "585MHz"},        {MG_UNIT_FREQ, 1.98e9, "1.98GHz"},
        {MG_UNIT_BANDWIDTH, 194.5e9, "194.5GB/s"}, {MG_UNIT_BANDWIDTH, 3.35e12, "3.35TB/s"},
        {MG_UNIT_TIME, 27e-9, "27ns"},          {MG_UNIT_TIME, 0, "0s"},
        {MG_UNIT_SIZE, 1234567, NULL},          {MG_UNIT_TIME, 1.0 / 3.0, NULL},
        {MG_UNIT_BANDWIDTH, 96.123456789e9, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64], err[128];
        mg_unit_format(cases[i].k, cases[i].v, buf, sizeof buf);
        if (cases[i].want) {
            CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
        }
        double back = -1;
        CU_ASSERT_EQUAL(mg_unit_parse(cases[i].k, buf, &back, err, sizeof err), 0);
        CU_ASSERT_DOUBLE_EQUAL(back, cases[i].v, cases[i].v * 1e-15);
    }
}

int add_units_suite(void)
{
    CU_pSuite s = CU_add_suite("units", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "sizes", test_sizes) || !CU_add_test(s, "rates", test_rates) ||
        !CU_add_test(s, "rejects", test_rejects) ||
        !CU_add_test(s, "roundtrip", test_roundtrip))
        return -1;
    return 0;
}

/* test_io.c - strict JSON input, deterministic JSON output, atomic files,
 * diagnostics (base/jsonfile, jsonout, afile, diag). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/suites.h"
#include "base/afile.h"
#include "base/diag.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

/* Parse text; expect failure with `want` in the message. */
static void parse_fails(const char *text, size_t len, const char *want)
{
    mg_diag d;
    mg_diag_init(&d);
    char *buf = malloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = '\0';
    cJSON *j = mg_json_parse("t.json", buf, len, &d);
    CU_ASSERT_PTR_NULL(j);
    CU_ASSERT_TRUE(mg_diag_failed(&d));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), want));
    if (!strstr(mg_diag_first(&d), want))
        fprintf(stderr, "\ngot '%s', want '%s'\n", mg_diag_first(&d), want);
    cJSON_Delete(j);
    free(buf);
    mg_diag_free(&d);
}

/* A string literal and its length (which may include NUL bytes). */
#define LIT(s) s, sizeof(s) - 1

static void test_parse_errors(void)
{
    parse_fails(LIT(""), "empty file");
    parse_fails(LIT("  \n\t "), "empty file");
    parse_fails(LIT("{\"a\": 1"), "unexpected end of input");
    parse_fails(LIT("{\n  \"a\": 1,\n  \"b\" 2\n}"), "t.json:3:7: JSON syntax error");
    parse_fails(LIT("{\"a\": 1}\0\1\2"), "NUL byte at byte offset 8");
    parse_fails(LIT("{\"a\": {\"b\": 1, \"b\": 2}}"), "$.a.b: duplicate key");
    parse_fails(LIT("{\"a\": [{\"x\": 1, \"x\": 1}]}"), "$.a[0].x: duplicate key");
    parse_fails(LIT("{} {}"), "JSON syntax error at byte offset 3");
    /* The error scans: strings (with escapes) skipped, depth, line:col. */
    parse_fails(LIT("{\n  \"a\": \"x\\\"}\n"),
                "t.json:3:1: JSON syntax error: unexpected end of input at byte offset 15");
    parse_fails(LIT("{\n  \"a\": \"x\\\\\"}\n}"),
                "t.json:3:1: JSON syntax error at byte offset 16 near '}'");
    parse_fails(LIT("{\"a\": \"[{\"}}"), "t.json:1:12: JSON syntax error at byte offset 11");
    char deep[2100];
    size_t k = (size_t)snprintf(deep, sizeof deep, "{\"a\":");
    for (int i = 0; i < 1001; i++) deep[k++] = '[';
    for (int i = 0; i < 1001; i++) deep[k++] = ']';
    deep[k++] = '}';
    parse_fails(deep, k, "t.json:1:1005: JSON nested deeper than 1000 levels at byte offset 1004");
}

/* A flat object of n keys "k0".."k{n-1}", then `extra` ("" or a member
 * with its leading comma), in a malloc'd buffer; *len its length. */
static char *many_keys(int n, const char *extra, size_t *len)
{
    size_t cap = (size_t)n * 24 + strlen(extra) + 8, at = 0;
    char *buf = malloc(cap);
    buf[at++] = '{';
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s\"k%d\": %d", i ? ", " : "", i, i);
    at += (size_t)snprintf(buf + at, cap - at, "%s}", extra);
    *len = at;
    return buf;
}

/* 200,000 keys: the duplicate check is linear (hashed), so this parses in
 * well under a second; a quadratic check would take minutes.  A repeat at
 * the end is still found and named. */
static void test_many_keys(void)
{
    size_t len;
    char *buf = many_keys(200000, "", &len);
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_parse("t.json", buf, len, &d);
    CU_ASSERT_PTR_NOT_NULL(j);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(j), 200000);
    cJSON_Delete(j);
    free(buf);
    mg_diag_free(&d);
    buf = many_keys(200000, ", \"k199999\": 0", &len);
    parse_fails(buf, len, "$.k199999: duplicate key");
    free(buf);
}

/* Strings: valid UTF-8 without control characters, raw or escaped. */
static void test_parse_strings(void)
{
    parse_fails(LIT("{\"a\": \"x\xff\"}"), "$.a: expected UTF-8 text, got the byte 0xff at character 2");
    parse_fails(LIT("{\"a\": \"\xc0\xaf\"}"), "the byte 0xc0");          /* overlong */
    parse_fails(LIT("{\"a\": \"\xed\xa0\x80\"}"), "the byte 0xed");      /* a surrogate */
    parse_fails(LIT("{\"a\": \"\xf4\x90\x80\x80\"}"), "the byte 0xf4"); /* past U+10FFFF */
    parse_fails(LIT("{\"a\": \"\xe2\x82\"}"), "the byte 0xe2");           /* cut short */
    parse_fails(LIT("{\"a\": [\"ok\", \"\\u001b[31m\"]}"),
                "$.a[1]: expected text without control characters, got U+001B at character 1");
    parse_fails(LIT("{\"a\": \"x\ty\"}"), "got U+0009 at character 2");
    parse_fails(LIT("{\"a\": \"x\\ny\"}"), "got U+000A at character 2");
    parse_fails(LIT("{\"a\": \"\xc2\x9b\"}"), "got U+009B at character 1");
    parse_fails(LIT("{\"a\": \"\x7f\"}"), "got U+007F at character 1");
    parse_fails(LIT("{\"n\": \"adre\\u0000no640\"}"),
                "$.n: expected text without NUL characters, got \\u0000 at character 5");
    parse_fails(LIT("{\"a\": {\"ok\": 1, \"b\\u0007\": 2}}"),
                "$.a: key #2: expected text without control characters, got U+0007");
    parse_fails(LIT("{\"a\": [1, \"1e400\", {\"b\": -2e308}]}"),
                "$.a[2].b: -2e308 is out of range for a double");
    parse_fails(LIT("[0.5, 1e309]"), "$[1]: 1e309 is out of range for a double");
    const char *good = "{\"\xc3\xa9\": [\"\\\"\\\\\\/\", \"\\u00e9\\ud83d\\ude00\xe2\x9c\x93\xf0\x9f\x98\x80\"], "
                       "\"n\": -1.5e308, \"t\": true, \"z\": \"\", \"m\": [1e-400, 0, -0.0]}";
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_parse("t.json", good, strlen(good), &d);
    CU_ASSERT_PTR_NOT_NULL(j);
    if (!j) fprintf(stderr, "\n%s\n", mg_diag_first(&d));
    cJSON_Delete(j);
    mg_diag_free(&d);
}

static void test_load_missing(void)
{
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_PTR_NULL(mg_json_load("tests/no/such/file.json", &d));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "cannot open"));
    mg_diag_free(&d);
    mg_diag_init(&d);
    CU_ASSERT_PTR_NULL(mg_json_load("tests", &d));
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "is a directory"));
    mg_diag_free(&d);
}

/* mg_read_file: regular files of sizes around its first buffer and at
 * the limit (sized from fstat), an empty one, and a /proc file (size 0
 * reported, content there) by the growing loop. */
static void test_read_file(void)
{
    char path[] = "/tmp/mgsim-readfile.XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    static const size_t sizes[] = {0, 1, 100, 4095, 4096, 4097, 10000, 70000};
    char *want = malloc(70001);
    for (size_t i = 0; i < 70000; i++) want[i] = (char)('a' + i * 7 % 26);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t sz = sizes[k], len = 123;
        FILE *f = fopen(path, "wb");
        CU_ASSERT_EQUAL(fwrite(want, 1, sz, f), sz);
        fclose(f);
        mg_diag d;
        mg_diag_init(&d);
        char *got = mg_read_file(path, 1 << 20, &len, &d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got);
        CU_ASSERT_EQUAL(len, sz);
        CU_ASSERT_EQUAL(got[sz], '\0');
        CU_ASSERT_TRUE(memcmp(got, want, sz) == 0);
        free(got);
        /* the limit: a file of max bytes loads, one of max + 1 does not */
        got = mg_read_file(path, sz, &len, &d);
        CU_ASSERT_TRUE(got != NULL && len == sz);
        free(got);
        CU_ASSERT_FALSE(mg_diag_failed(&d));
        if (sz) {
            got = mg_read_file(path, sz - 1 > 4096 ? sz - 1 : 4096, &len, &d);
            CU_ASSERT_EQUAL(got == NULL, sz > 4096);
            free(got);
        }
        mg_diag_free(&d);
    }
    free(want);
    unlink(path);
    size_t len = 0;
    mg_diag d;
    mg_diag_init(&d);
    char *got = mg_read_file("/proc/self/status", 1 << 20, &len, &d);
    CU_ASSERT_TRUE(got != NULL && len > 0 && strstr(got, "Name:") != NULL);
    free(got);
    mg_diag_free(&d);
}

static char *write_to_string(const cJSON *j)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mg_json_write(f, j);
    fclose(f);
    return buf;
}

static void test_jsonout(void)
{
    char num[40];
    CU_ASSERT_STRING_EQUAL(mg_json_number(2, num, sizeof num), "2");
    CU_ASSERT_STRING_EQUAL(mg_json_number(-0.0, num, sizeof num), "0");
    CU_ASSERT_STRING_EQUAL(mg_json_number(0.1, num, sizeof num), "0.1");
    CU_ASSERT_STRING_EQUAL(mg_json_number(1.0 / 0.0, num, sizeof num), "null");
    CU_ASSERT_EQUAL(strtod(mg_json_number(1.0 / 3.0, num, sizeof num), NULL), 1.0 / 3.0);
    cJSON *j = cJSON_Parse("{\"a\": [1, 2.5], \"b\": {\"c\": \"x\\\"y\"}, \"e\": []}");
    char *s = write_to_string(j);
    CU_ASSERT_STRING_EQUAL(s, "{\n  \"a\": [1, 2.5],\n  \"b\": {\n    \"c\": \"x\\\"y\"\n  },\n"
                              "  \"e\": []\n}\n");
    cJSON *back = cJSON_Parse(s);
    CU_ASSERT_TRUE(cJSON_Compare(j, back, 1));
    free(s);
    cJSON_Delete(back);
    cJSON_Delete(j);
    /* text that is not UTF-8 (a name from the command line) stays JSON */
    j = cJSON_CreateString("a\xff\xc3\xa9\xe2\x82 \xf0\x9f\x98\x80\x1b");
    s = write_to_string(j);
    CU_ASSERT_STRING_EQUAL(s, "\"a\\ufffd\xc3\xa9\\ufffd\\ufffd \xf0\x9f\x98\x80\\u001b\"\n");
    free(s);
    cJSON_Delete(j);
}

static void test_afile(void)
{
    char dir[] = "/tmp/mgsim-afile-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/out.json", dir);
    mg_afile a;
    FILE *f = mg_afile_open(&a, path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("partial", f);
    CU_ASSERT_NOT_EQUAL(access(a.tmp, F_OK), -1);
    mg_afile_abort(&a);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);     /* nothing at the final name */
    CU_ASSERT_EQUAL(access(a.tmp, F_OK), -1);    /* and no temporary left */
    f = mg_afile_open(&a, path);
    fputs("whole", f);
    CU_ASSERT_EQUAL(mg_afile_commit(&a), 0);
    CU_ASSERT_EQUAL(access(path, F_OK), 0);
    unlink(path);
    rmdir(dir);
}

/* A symbolic link is followed (its target replaced, the link kept); a
 * device node is written directly, never renamed over (checked through
 * mg_afile_target only, so a failure cannot replace /dev/null). */
static void test_afile_special(void)
{
    char dir[] = "/tmp/mgsim-afile-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char tgt[128], lnk[128], out[4096];
    snprintf(tgt, sizeof tgt, "%s/target.json", dir);
    snprintf(lnk, sizeof lnk, "%s/link.json", dir);
    CU_ASSERT_EQUAL_FATAL(symlink(tgt, lnk), 0);
    CU_ASSERT_EQUAL(mg_afile_target(lnk, out, sizeof out), 1);   /* dangling: through it */
    FILE *t = fopen(tgt, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fclose(t);
    CU_ASSERT_EQUAL(mg_afile_target(lnk, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "/target.json"));
    mg_afile a;
    FILE *f = mg_afile_open(&a, lnk);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("whole", f);
    CU_ASSERT_EQUAL(mg_afile_commit(&a), 0);
    struct stat st;
    CU_ASSERT(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT(stat(tgt, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 5);
    CU_ASSERT_EQUAL(mg_afile_target("/dev/null", out, sizeof out), 1);
    CU_ASSERT_EQUAL(mg_afile_target(dir, out, sizeof out), 1);    /* a folder: not renamed over */
    unlink(lnk);
    unlink(tgt);
    rmdir(dir);
}

static void test_json_save(void)
{
    char dir[] = "/tmp/mgsim-save-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/x.json", dir);
    cJSON *j = cJSON_Parse("{\"a\": 1}");
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_json_save(path, j, &d), 0);
    CU_ASSERT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(mg_json_save("/nonexistent-dir/x.json", j, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "/nonexistent-dir/x.json: cannot write"));
    mg_diag_free(&d);
    cJSON_Delete(j);
    unlink(path);
    rmdir(dir);
}

static void test_diag(void)
{
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    CU_ASSERT_STRING_EQUAL(mg_diag_first(&d), "");
    mg_diag_warn(&d, "w %d", 1);
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    CU_ASSERT_STRING_EQUAL(mg_diag_first(&d), "warning: w 1");
    for (int i = 0; i < 100; i++) mg_diag_error(&d, "e %d", i);
    CU_ASSERT_TRUE(mg_diag_failed(&d));
    CU_ASSERT_EQUAL(d.n, 100);
    CU_ASSERT_EQUAL(d.stored, MG_DIAG_MAX);
    CU_ASSERT_STRING_EQUAL(mg_diag_first(&d), "e 0");   /* errors before warnings */
    mg_diag to;                                       /* append: kinds and counts kept */
    mg_diag_init(&to);
    mg_diag_warn(&to, "first");
    mg_diag_append(&to, &d);
    CU_ASSERT_EQUAL(to.n, 100);
    CU_ASSERT_EQUAL(to.nwarn, 2);
    CU_ASSERT_EQUAL(to.stored, MG_DIAG_MAX);
    CU_ASSERT_STRING_EQUAL(to.msg[1], "warning: w 1");  /* not "warning: warning: " */
    CU_ASSERT_STRING_EQUAL(mg_diag_first(&to), "e 0");
    mg_diag_append(&to, NULL);
    mg_diag_append(NULL, &d);
    CU_ASSERT_EQUAL(to.n, 100);
    mg_diag_free(&to);
    mg_diag_free(&d);
}

/* The registry of temporaries: an open afile's temporary is listed, a
 * committed one is not; mg_afile_remove_tracked removes files, then the
 * directories that are empty by then. */
static void test_afile_registry(void)
{
    char dir[] = "/tmp/mg_afile_regXXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char out[256], kept[256];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(kept, sizeof kept, "%s/kept.txt", dir);
    mg_afile a, b;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mg_afile_open(&b, kept));
    fputs("kept\n", b.f);
    CU_ASSERT_EQUAL(mg_afile_commit(&b), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mg_afile_open(&a, out));
    CU_ASSERT(a.slot >= 0);
    int ds = mg_afile_track(dir, 1);
    CU_ASSERT(ds >= 0);
    CU_ASSERT_EQUAL(access(a.tmp, F_OK), 0);
    mg_afile_remove_tracked();
    CU_ASSERT_NOT_EQUAL(access(a.tmp, F_OK), 0);       /* the temporary went */
    CU_ASSERT_EQUAL(access(kept, F_OK), 0);            /* a committed file stays */
    CU_ASSERT_EQUAL(access(dir, F_OK), 0);             /* so its directory stays */
    mg_afile_abort(&a);
    CU_ASSERT_EQUAL(a.slot, -1);
    unlink(kept);
    mg_afile_remove_tracked();
    CU_ASSERT_NOT_EQUAL(access(dir, F_OK), 0);         /* empty now: removed */
    mg_afile_untrack(ds);
}

/* d NULL: the same documents, no message; the literal and number scans
 * (runs of plain bytes, escapes, paths built only for a message). */
static void test_parse_quiet(void)
{
    static const char *const bad[] = {"", "{\"a\": 1", "{\"a\": 1, \"a\": 2}",
                                      "{\"a\": \"\x01\"}", "[1e309]", "{} {}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_PTR_NULL(mg_json_parse("t.json", bad[i], strlen(bad[i]), NULL));
    const char *good = "{\"k\\\"ey\": [\"a \\\" b\", -1.5e3, {\"x\": \"\"}]}";
    cJSON *j = mg_json_parse("t.json", good, strlen(good), NULL);
    CU_ASSERT_PTR_NOT_NULL(j);
    cJSON_Delete(j);
    mg_diag_error(NULL, "dropped %d", 1);
    mg_diag_warn(NULL, "dropped");
    parse_fails(LIT("{\"a\": \"x\\\"yz\\u001b\"}"),
                "$.a: expected text without control characters, got U+001B at character 5");
    parse_fails(LIT("{\"s\": \"1e999\", \"b\": [\"q\\\\\", 7, 1e999]}"),
                "$.b[2]: 1e999 is out of range for a double");
    parse_fails(LIT("{\"a\": {\"b\": [{}, {\"c\": 1, \"c\": 2}]}}"),
                "t.json: $.a.b[1].c: duplicate key");
}

int add_jsonfile_suite(void)
{
    CU_pSuite s = CU_add_suite("jsonfile", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "parse_errors", test_parse_errors) ||
        !CU_add_test(s, "many_keys", test_many_keys) ||
        !CU_add_test(s, "load_missing", test_load_missing) ||
        !CU_add_test(s, "read_file", test_read_file) ||
        !CU_add_test(s, "parse_strings", test_parse_strings) ||
        !CU_add_test(s, "parse_quiet", test_parse_quiet))
        return -1;
    return 0;
}

int add_jsonout_suite(void)
{
    CU_pSuite s = CU_add_suite("jsonout", NULL, NULL);
    return s && CU_add_test(s, "write", test_jsonout) && CU_add_test(s, "save", test_json_save)
               ? 0 : -1;
}

int add_afile_suite(void)
{
    CU_pSuite s = CU_add_suite("afile", NULL, NULL);
    return s && CU_add_test(s, "commit_abort", test_afile) &&
                   CU_add_test(s, "special", test_afile_special) &&
                   CU_add_test(s, "registry", test_afile_registry) ? 0 : -1;
}

int add_diag_suite(void)
{
    CU_pSuite s = CU_add_suite("diag", NULL, NULL);
    return s && CU_add_test(s, "collect", test_diag) ? 0 : -1;
}

/* test_sweep.c - sweeps (sim/search/mg_sweep*) and device variants
 * (sim/config/variant.c): output independent of the thread count, resume
 * after an interrupt (torn last line included) equal to an uninterrupted
 * sweep, foreign and damaged results files refused, records that read back
 * exactly, what-if variants that really change the config, and a what-if
 * whose base equals a plain sweep, and --cutoff.  On the tiny space of the golden tests
 * (36 candidates of a small conv1x1, well under a second). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/config/variant.h"
#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "sim/model/model.h"
#include "sim/search/memo.h"
#include "sim/search/sweep.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#define CFG   "configs/devices/adreno640.json"
#define SPACE "tests/golden/data/space-sweep-tiny.json"
#define RULES "configs/rules/romou.json"

typedef struct fixture {
    mg_device dev;
    mg_space  sp;
    mg_rules  rules;
    mg_sweep_ident id;
    char dir[64];
} fixture;

static fixture fx;

static int setup(void)
{
    mg_diag d;
    mg_diag_init(&d);
    int bad = mg_device_load(CFG, 0, &fx.dev, &d) | mg_space_load(SPACE, &fx.sp, &d) |
              mg_rules_load(RULES, &fx.rules, &d);
    bad |= mg_sweep_ident_fill(&fx.id, &fx.dev, SPACE, &fx.sp, RULES, &fx.rules, &d);
    mg_diag_free(&d);
    snprintf(fx.dir, sizeof fx.dir, "/tmp/mgsim-sweep-test.%d", (int)getpid());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", fx.dir);
    return bad || system(cmd) ? -1 : 0;
}

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", fx.dir);
    mg_space_free(&fx.sp);
    return system(cmd) ? -1 : 0;
}

static char *path(const char *name)
{
    static char p[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", fx.dir, name);
    return p[k];
}

/* A sweep config of the tiny space and its fixture, everything else 0. */
static mg_sweep_cfg fixture_cfg(int pruned_only)
{
    mg_sweep_cfg c;
    memset(&c, 0, sizeof c);
    c.dev = &fx.dev;
    c.space = &fx.sp;
    c.rules = &fx.rules;
    c.id = fx.id;
    c.pruned_only = pruned_only;
    return c;
}

/* Run a sweep of the tiny space (cutoff 0: none); returns mg_sweep_run's
 * status. */
static int sweep_with(const char *results, int threads, int sample, int pruned_only,
                      int restart, double cutoff, mg_sweep_sum *sum, mg_diag *d)
{
    mg_sweep_cfg c = fixture_cfg(pruned_only);
    c.threads = threads;
    c.sample = sample;
    c.results = results;
    c.restart = restart;
    c.cutoff = cutoff;
    return mg_sweep_run(&c, sum, d);
}

static int sweep(const char *results, int threads, int sample, int pruned_only, int restart,
                 mg_sweep_sum *sum, mg_diag *d)
{
    return sweep_with(results, threads, sample, pruned_only, restart, 0, sum, d);
}

static char *slurp(const char *p, size_t *len)
{
    mg_diag d;
    mg_diag_init(&d);
    char *s = mg_read_file(p, 1u << 26, len, &d);
    mg_diag_free(&d);
    return s;
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

static void write_bytes(const char *p, const char *s, size_t n)
{
    FILE *f = fopen(p, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(s, 1, n, f), n);
    fclose(f);
}

/* The summary as the JSON text `mgsim sweep --json` prints. */
static char *sum_text(const mg_sweep_sum *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cJSON *j = mg_sweep_sum_json(s);
    mg_json_write(f, j);
    cJSON_Delete(j);
    fclose(f);
    return buf;
}

static mg_sweep_sum ref;               /* the uninterrupted -j1 sweep */
static char *ref_text;

static void test_threads_identical(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(sweep(path("j1.jsonl"), 1, MG_SAMPLE_AUTO, 0, 1, &ref, &d), 0);
    CU_ASSERT_EQUAL_FATAL(sweep(path("j3.jsonl"), 3, MG_SAMPLE_AUTO, 0, 1, s, &d), 0);
    CU_ASSERT_TRUE(same_file(path("j1.jsonl"), path("j3.jsonl")));
    ref_text = sum_text(&ref);
    char *t = sum_text(s);
    CU_ASSERT_STRING_EQUAL(ref_text, t);
    /* the tiny space: 36 members, 14 kept by romou on adreno640, all simulated */
    CU_ASSERT_EQUAL(ref.id.size, 36);
    CU_ASSERT_EQUAL(ref.kept, 14);
    CU_ASSERT_EQUAL(ref.done, 36);
    CU_ASSERT_EQUAL(ref.ran, 36);
    CU_ASSERT_TRUE(ref.best.valid && ref.best_kept.valid);
    CU_ASSERT_TRUE(ref.best.seconds <= ref.best_kept.seconds);
    CU_ASSERT_TRUE(mg_sweep_regret(&ref) >= 0);
    /* records are in candidate order: header + 36 lines */
    size_t len;
    char *x = slurp(path("j1.jsonl"), &len);
    int lines = 0;
    for (size_t i = 0; x && i < len; i++) lines += x[i] == '\n';
    CU_ASSERT_EQUAL(lines, 37);
    free(x);
    free(t);
    free(s);
    mg_diag_free(&d);
}

/* Keep the header and `whole` records of the reference file, then `tail`
 * bytes of the next record (a torn line). */
static void truncated_copy(const char *to, int whole, size_t tail)
{
    size_t len;
    char *x = slurp(path("j1.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    size_t at = 0;
    for (int n = 0; n < whole + 1; n++) at = (size_t)(strchr(x + at, '\n') - x) + 1;
    write_bytes(to, x, at + tail);
    free(x);
}

static void resume_case(int whole, size_t tail, int threads)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    truncated_copy(path("cut.jsonl"), whole, tail);
    CU_ASSERT_EQUAL_FATAL(sweep(path("cut.jsonl"), threads, MG_SAMPLE_AUTO, 0, 0, s, &d), 0);
    CU_ASSERT_EQUAL(s->resumed, (uint64_t)whole);
    CU_ASSERT_EQUAL(s->ran, 36 - (uint64_t)whole);
    CU_ASSERT_TRUE(same_file(path("j1.jsonl"), path("cut.jsonl")));
    char *t = sum_text(s);
    CU_ASSERT_STRING_EQUAL(ref_text, t);
    free(t);
    free(s);
    mg_diag_free(&d);
}

static void test_resume(void)
{
    resume_case(10, 57, 2);        /* torn in the middle of a record */
    resume_case(20, 0, 1);         /* cut at a line boundary */
    resume_case(0, 3, 2);          /* only the header survived, and a scrap */
    resume_case(36, 0, 2);         /* complete: nothing to do */
    /* a last record complete but for its newline is still torn: redone */
    size_t len;
    char *x = slurp(path("j1.jsonl"), &len);
    write_bytes(path("cut.jsonl"), x, len - 1);
    free(x);
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    CU_ASSERT_EQUAL(sweep(path("cut.jsonl"), 2, MG_SAMPLE_AUTO, 0, 0, s, &d), 0);
    CU_ASSERT_EQUAL(s->resumed, 35);
    CU_ASSERT_EQUAL(s->ran, 1);
    CU_ASSERT_TRUE(same_file(path("j1.jsonl"), path("cut.jsonl")));
    free(s);
    mg_diag_free(&d);
}

static void test_foreign_refused(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    /* another sampling: refused, the file untouched */
    truncated_copy(path("other.jsonl"), 5, 0);
    truncated_copy(path("other0.jsonl"), 5, 0);
    CU_ASSERT_EQUAL(sweep(path("other.jsonl"), 2, MG_SAMPLE_OFF, 0, 0, s, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "sample"));
    CU_ASSERT_TRUE(same_file(path("other.jsonl"), path("other0.jsonl")));
    /* pruned-only is another sweep too */
    mg_diag_free(&d);
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(sweep(path("other.jsonl"), 2, MG_SAMPLE_AUTO, 1, 0, s, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "pruned_only"));
    /* not a results file at all */
    mg_diag_free(&d);
    mg_diag_init(&d);
    write_bytes(path("notes.txt"), "my notes\nmore\n", 14);
    CU_ASSERT_EQUAL(sweep(path("notes.txt"), 1, MG_SAMPLE_AUTO, 0, 0, s, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "not a sweep results file"));
    /* a damaged record before the last line */
    mg_diag_free(&d);
    mg_diag_init(&d);
    truncated_copy(path("bad.jsonl"), 6, 0);
    FILE *f = fopen(path("bad.jsonl"), "a");
    fputs("{\"index\": 7, garbage\n", f);
    fputs("{\"index\": 8}\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(sweep(path("bad.jsonl"), 1, MG_SAMPLE_AUTO, 0, 0, s, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), ":8: not a sweep record"));
    /* --restart overwrites: then it is a fresh sweep */
    mg_diag_free(&d);
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(sweep(path("bad.jsonl"), 2, MG_SAMPLE_AUTO, 0, 1, s, &d), 0);
    CU_ASSERT_TRUE(same_file(path("j1.jsonl"), path("bad.jsonl")));
    free(s);
    mg_diag_free(&d);
}

static void test_pruned_only(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(sweep(path("p.jsonl"), 2, MG_SAMPLE_AUTO, 1, 1, s, &d), 0);
    CU_ASSERT_EQUAL(s->done, ref.kept);                   /* only the kept ones */
    CU_ASSERT_EQUAL(s->best.index, ref.best_kept.index);  /* their best is the best kept */
    CU_ASSERT_DOUBLE_EQUAL(s->best.seconds, ref.best_kept.seconds, 0);
    CU_ASSERT_TRUE(isnan(mg_sweep_regret(s)));            /* no best overall to compare */
    CU_ASSERT_EQUAL(mg_sweep_top_kept(s), -1);
    free(s);
    mg_diag_free(&d);
}

/* line with the number after "key": replaced by v, into out. */
static void set_number(const char *line, const char *key, const char *v, char *out, size_t n)
{
    const char *k = strstr(line, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    const char *num = k + strlen(key), *end = num + strspn(num, "-+.0123456789eE");
    snprintf(out, n, "%.*s%s%s", (int)(num - line), line, v, end);
}

/* Counts out of their type's range (found by fuzz_sweep: converting them
 * was undefined) are left 0 like other bad figures; an index past 2^64
 * is refused. */
static void test_record_huge_counts(void)
{
    mg_sweep_result r, back;
    memset(&r, 0, sizeof r);
    mg_sweep_simulate(&fx.dev, "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=8,8,1 "
                      "layout=image storage=fp16 compute=fp16", MG_SAMPLE_AUTO, 0, 0, NULL, 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.ok, 1);
    CU_ASSERT_TRUE_FATAL(r.has_sampling && r.wgs_total > 0 && r.resident_warps_max > 0);
    char *line = mg_sweep_result_line(&r), a[4096], b[4096], err[200];
    set_number(line, "\"work_groups_total\":", "-1", a, sizeof a);
    set_number(a, "\"resident_warps_max\":", "1e300", b, sizeof b);
    CU_ASSERT_EQUAL_FATAL(mg_sweep_result_parse(b, &back, err, sizeof err), 0);
    CU_ASSERT_EQUAL(back.wgs_total, 0);
    CU_ASSERT_EQUAL(back.resident_warps_max, 0);
    CU_ASSERT_EQUAL(back.wgs_simulated, r.wgs_simulated);
    mg_sweep_result_free(&back);
    set_number(line, "\"index\":", "1e300", a, sizeof a);
    CU_ASSERT_EQUAL(mg_sweep_result_parse(a, &back, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.index: expected an integer"));
    free(line);
    mg_sweep_result_free(&r);
}

static void test_record_roundtrip(void)
{
    mg_sweep_result r;
    memset(&r, 0, sizeof r);
    r.index = 3;
    r.has_rules = 1;
    r.fired = 1u << MG_RULE_WARP;
    mg_sweep_simulate(&fx.dev, "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=8,8,1 "
                      "layout=image storage=fp16 compute=fp16", MG_SAMPLE_AUTO, 0, 0, NULL, 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.ok, 1);
    CU_ASSERT_TRUE(r.seconds > 0 && r.gflops > 0 && r.bound_gflops >= r.gflops * 0.999);
    char *line = mg_sweep_result_line(&r), err[200];
    mg_sweep_result back;
    CU_ASSERT_EQUAL_FATAL(mg_sweep_result_parse(line, &back, err, sizeof err), 0);
    CU_ASSERT_EQUAL(back.fired, r.fired);
    CU_ASSERT_EQUAL(back.seconds, r.seconds);            /* exact, not approximately */
    CU_ASSERT_EQUAL(back.binding, r.binding);
    char *again = mg_sweep_result_line(&back);
    CU_ASSERT_STRING_EQUAL(line, again);
    free(line);
    free(again);
    mg_sweep_result_free(&back);
    mg_sweep_result_free(&r);
    /* a candidate the generator rejects is a record with its reason */
    memset(&r, 0, sizeof r);
    mg_sweep_simulate(&fx.dev, "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=3000,1,1",
                      MG_SAMPLE_AUTO, 0, 0, NULL, 0, &r);
    CU_ASSERT_EQUAL(r.ok, 0);
    CU_ASSERT_TRUE(r.reason && *r.reason);
    line = mg_sweep_result_line(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "\"status\":\"rejected\""));
    free(line);
    mg_sweep_result_free(&r);
    /* one of more work than --max-work too, with the estimate */
    memset(&r, 0, sizeof r);
    mg_sweep_simulate(&fx.dev, "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=8,8,1",
                      MG_SAMPLE_AUTO, 0, 100, NULL, 0, &r);
    CU_ASSERT_EQUAL(r.ok, 0);
    CU_ASSERT_PTR_NOT_NULL(r.reason && strstr(r.reason, "more than --max-work 100"));
    mg_sweep_result_free(&r);
}

/* ---- the memo (memo.h) --------------------------------------------------- */

/* A schedule of each op that declares trace-inert knobs; a new such op
 * must add one (the test fails until it does). */
static const struct { const char *op, *rest; } inert_cases[] = {
    {"conv2d", "H=10 W=10 Cin=32 Cout=32 K=3 pad=1 tile=2x4 wg=4,4,2 layout=image"},
    {"softmax", "M=64 N=256 split=4 wg=4,1,4"},
    {"layernorm", "M=64 N=256 split=4 wg=4,1,4 layout=buffer"},
};

/* Plan and simulate `sched` in full; 0 on success. */
static int plan_sim(const char *sched, mg_gen *g, mg_sim_stats *st)
{
    if (ops_prepare(sched, 64, g)) return -1;
    mg_diag d;
    mg_diag_init(&d);
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_sim_opts o = {.quiet = 1, .sample = MG_SAMPLE_OFF};
    int rc = mg_sim_run(&fx.dev, &src, &o, st, &d);
    if (rc) fprintf(stderr, "\n  %s: %s", sched, mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

/* Every op's trace-inert knobs leave the plan and the simulation as they
 * were: the same features, launch, registers and statistics, bit for bit. */
static void test_trace_inert(void)
{
    int ops = 0;
    for (const mg_op *const *op = mg_ops; *op; op++) {
        if (!(*op)->trace_inert) continue;
        ops++;
        const char *rest = NULL;
        for (size_t i = 0; i < sizeof inert_cases / sizeof inert_cases[0]; i++)
            if (!strcmp(inert_cases[i].op, (*op)->name)) rest = inert_cases[i].rest;
        CU_ASSERT_PTR_NOT_NULL(rest);
        if (!rest) {
            fprintf(stderr, "\n  %s declares trace-inert knobs: add it to inert_cases",
                    (*op)->name);
            continue;
        }
        char a[256], b[256];
        CU_ASSERT_STRING_EQUAL((*op)->trace_inert, "unroll");   /* the values below */
        snprintf(a, sizeof a, "%s %s unroll=1", (*op)->name, rest);
        snprintf(b, sizeof b, "%s %s unroll=4", (*op)->name, rest);
        mg_gen *ga = calloc(1, sizeof *ga), *gb = calloc(1, sizeof *gb);
        mg_sim_stats sa, sb;
        memset(&sa, 0, sizeof sa);
        memset(&sb, 0, sizeof sb);
        CU_ASSERT_FATAL(ga && gb);
        CU_ASSERT_EQUAL(plan_sim(a, ga, &sa), 0);
        CU_ASSERT_EQUAL(plan_sim(b, gb, &sb), 0);
        CU_ASSERT(strcmp(ga->source, gb->source) != 0);         /* the text differs */
        CU_ASSERT(!memcmp(&ga->k.f, &gb->k.f, sizeof ga->k.f));
        CU_ASSERT(!memcmp(ga->k.global, gb->k.global, sizeof ga->k.global));
        CU_ASSERT(!memcmp(ga->k.local, gb->k.local, sizeof ga->k.local));
        CU_ASSERT_EQUAL(ga->hdr.regs_per_item, gb->hdr.regs_per_item);
        CU_ASSERT(!memcmp(&sa, &sb, sizeof sa));
        CU_ASSERT(sa.cycles > 0);
        mg_gen_free(ga);
        mg_gen_free(gb);
        free(ga);
        free(gb);
    }
    CU_ASSERT(ops >= 3);
}

/* A candidate whose model key was simulated copies the result exactly; the
 * key drops the inert knobs only. */
static void test_memo(void)
{
    const char *base = "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=8,8,1 layout=image "
                       "storage=fp16 compute=fp16";
    char a[256], b[256];
    snprintf(a, sizeof a, "%s unroll=1", base);
    snprintf(b, sizeof b, "%s unroll=4", base);
    mg_memo *m = mg_memo_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mg_sweep_result ra, rb, rn;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    memset(&rn, 0, sizeof rn);
    mg_sweep_simulate(&fx.dev, a, MG_SAMPLE_AUTO, 0, 0, m, 0, &ra);
    CU_ASSERT_EQUAL(mg_memo_hits(m), 0);
    mg_sweep_simulate(&fx.dev, b, MG_SAMPLE_AUTO, 0, 0, m, 0, &rb);
    CU_ASSERT_EQUAL(mg_memo_hits(m), 1);
    mg_sweep_simulate(&fx.dev, b, MG_SAMPLE_AUTO, 0, 0, NULL, 0, &rn);     /* no memo */
    CU_ASSERT_EQUAL_FATAL(ra.ok && rb.ok && rn.ok, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rb.schedule, "unroll=4"));       /* its own words */
    char *lb = mg_sweep_result_line(&rb), *ln = mg_sweep_result_line(&rn);
    CU_ASSERT_STRING_EQUAL(lb, ln);                                /* copied exactly */
    free(lb);
    free(ln);
    /* another work group is another key */
    mg_sweep_result rc;
    memset(&rc, 0, sizeof rc);
    mg_sweep_simulate(&fx.dev, "conv2d H=8 W=8 Cin=32 Cout=32 K=1 tile=1x4 wg=4,8,1 "
                      "layout=image storage=fp16 compute=fp16 unroll=4", MG_SAMPLE_AUTO, 0, 0, m, 0, &rc);
    CU_ASSERT_EQUAL(mg_memo_hits(m), 1);
    /* keys: the inert word goes, nothing else */
    mg_schedule s;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_schedule_parse_line(b, NULL, &s, &d), 0);
    char key[512];
    CU_ASSERT_EQUAL(mg_memo_key(&s, "conv2d H=8 unroll=4 wg=8,8,1 unroll_x=2", key, sizeof key),
                    0);
    CU_ASSERT_STRING_EQUAL(key, "conv2d H=8 wg=8,8,1 unroll_x=2");
    CU_ASSERT_EQUAL(mg_memo_key(&s, "conv2d H=8 unroll=4 wg=8,8,1", key, 8), -1);
    mg_diag_free(&d);
    mg_sweep_result_free(&ra);
    mg_sweep_result_free(&rb);
    mg_sweep_result_free(&rn);
    mg_sweep_result_free(&rc);
    mg_memo_free(m);
}

/* ---- variants ------------------------------------------------------------- */

static int variant(const char *arg1, const char *arg2, mg_device *out, char (*res)[48],
                   mg_diag *d)
{
    mg_vary v[2];
    int choice[2] = {0, 0}, n = 0;
    if (mg_vary_parse(arg1, &v[n++], d)) return -1;
    if (arg2 && mg_vary_parse(arg2, &v[n++], d)) return -1;
    cJSON *doc = mg_json_load(CFG, d);
    char *before = cJSON_PrintUnformatted(doc);
    int rc = mg_device_variant(doc, CFG, &fx.dev, n, v, choice, out, res, d);
    char *after = cJSON_PrintUnformatted(doc);
    CU_ASSERT_STRING_EQUAL(before, after);    /* the variant changed a copy */
    cJSON_free(before);
    cJSON_free(after);
    cJSON_Delete(doc);
    return rc;
}

static void test_variants(void)
{
    mg_device *v = malloc(sizeof *v);
    char res[2][48];
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(variant("registers.pool_regs_per_sp=x0.5", "tex_l1.size=512B", v,
                                  res, &d), 0);
    CU_ASSERT_EQUAL(v->pool_regs_per_sp, fx.dev.pool_regs_per_sp / 2);
    CU_ASSERT_EQUAL(v->tex_l1.size, 512);
    /* adreno640's texture L1 is fully associative: it stays so */
    CU_ASSERT_EQUAL(fx.dev.tex_l1.assoc * fx.dev.tex_l1.line, fx.dev.tex_l1.size);
    CU_ASSERT_EQUAL(v->tex_l1.assoc * v->tex_l1.line, 512);
    CU_ASSERT_STRING_EQUAL(res[0], "35136");
    CU_ASSERT_STRING_EQUAL(res[1], "512B");
    CU_ASSERT_EQUAL(v->l2.size, fx.dev.l2.size);                  /* nothing else moved */
    CU_ASSERT_EQUAL(v->clock_hz, fx.dev.clock_hz);
    CU_ASSERT_EQUAL_FATAL(variant("tex_l1.size=x4", "core.clock=x2", v, res, &d), 0);
    CU_ASSERT_EQUAL(v->tex_l1.size, 4 * fx.dev.tex_l1.size);
    CU_ASSERT_DOUBLE_EQUAL(v->clock_hz, 2 * fx.dev.clock_hz, 1e-6);
    /* x1 is the base config: same hash */
    char h0[24], h1[24];
    CU_ASSERT_EQUAL_FATAL(variant("registers.pool_regs_per_sp=x1", NULL, v, res, &d), 0);
    mg_sweep_hash_device(&fx.dev, h0);
    mg_sweep_hash_device(v, h1);
    CU_ASSERT_STRING_EQUAL(h0, h1);
    CU_ASSERT_EQUAL_FATAL(variant("registers.pool_regs_per_sp=x2", NULL, v, res, &d), 0);
    mg_sweep_hash_device(v, h1);
    CU_ASSERT_STRING_NOT_EQUAL(h0, h1);
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    /* errors name the key and value */
    const char *bad[][2] = {
        {"tex_l1.size=1KB", "ambiguous"},
        {"registers.pool_regs=x2", "did you mean \"registers.pool_regs_per_sp\""},
        {"tex_l1.replacement=x2", "cannot be multiplied"},
        {"core.sp_count=1.5", "integer"},
        {"tex_l1.size=x0", "multiplier"},
        {"tex_l1.size=", "empty value"},
        {"registers.pool_regs_per_sp=1", "not a valid config"},
        {"buffer_l1.size=x2", "does not apply"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_diag e;
        mg_diag_init(&e);
        CU_ASSERT_EQUAL(variant(bad[i][0], NULL, v, res, &e), -1);
        int found = 0;
        for (size_t q = 0; q < e.stored; q++) found |= strstr(e.msg[q], bad[i][1]) != NULL;
        if (!found) fprintf(stderr, "\n%s: got '%s'\n", bad[i][0], mg_diag_first(&e));
        CU_ASSERT_TRUE(found);
        mg_diag_free(&e);
    }
    mg_diag_free(&d);
    free(v);
}

/* `mgsim whatif` with an x1 variant: the base and that variant are the
 * plain sweep's best; a smaller texture L1 changes the pruning. */
/* Line k (0: the header) of file p, in a static buffer ("" past the end). */
static const char *line_of(const char *p, int k)
{
    static char buf[4096];
    size_t len;
    char *x = slurp(p, &len);
    const char *at = x ? x : "";
    for (int n = 0; n < k && at; n++) {
        at = strchr(at, '\n');
        if (at) at++;
    }
    size_t n = at ? strcspn(at, "\n") : 0;
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, at ? at : "", n);
    buf[n] = 0;
    free(x);
    return buf;
}

/* --cutoff: the replay stops at the limit (and only past it); a sweep with
 * the tightest bar (1.0) cuts some pruned candidates, each truly slower
 * than its bar, leaves every other record as the plain sweep wrote it, and
 * keeps best, best kept and regret; -j1 = -j3; resume = uninterrupted; the
 * header names the cutoff, so a plain resume of its file is refused. */
static void test_cutoff(void)
{
    /* the model: a limit under the kernel's time cuts, one over it does not */
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule sc;
    const char *w[] = {"H=8", "W=8", "Cin=32", "Cout=32", "K=1", "tile=1x4", "wg=2,2,4",
                       "layout=buffer", "storage=fp16", "compute=fp16", "warp=64"};
    CU_ASSERT_EQUAL_FATAL(mg_schedule_parse("conv2d", 11, (char **)w, &sc, &d), 0);
    mg_gen *g = calloc(1, sizeof *g);
    mg_sim_stats full, lo, hi;
    double limits[2];
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL_FATAL(mg_gen_prepare(g, &sc, &d), 0);
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        mg_sim_opts o = {.quiet = 1, .cycle_limit = k ? limits[k - 1] : 0};
        CU_ASSERT_EQUAL(mg_sim_run(&fx.dev, &src, &o, k == 0 ? &full : k == 1 ? &lo : &hi, &d), 0);
        mg_gen_free(g);
        if (k == 0) {
            limits[0] = 0.5 * full.cycles;
            limits[1] = full.cycles * (1 + 1e-9);
        }
    }
    free(g);
    CU_ASSERT_EQUAL(full.cut, 0);
    CU_ASSERT_EQUAL(lo.cut, 1);
    CU_ASSERT_EQUAL(lo.cycles, limits[0]);
    CU_ASSERT_EQUAL(hi.cut, 0);
    CU_ASSERT_EQUAL(hi.cycles, full.cycles);
    CU_ASSERT_EQUAL(hi.lv[MG_LV_L2].bytes, full.lv[MG_LV_L2].bytes);

    mg_sweep_sum *s = calloc(1, sizeof *s), *t = calloc(1, sizeof *t);
    CU_ASSERT_EQUAL_FATAL(sweep_with(path("c1.jsonl"), 1, MG_SAMPLE_AUTO, 0, 1, 1.0, s, &d), 0);
    CU_ASSERT_EQUAL_FATAL(sweep_with(path("c3.jsonl"), 3, MG_SAMPLE_AUTO, 0, 1, 1.0, t, &d), 0);
    CU_ASSERT_TRUE(same_file(path("c1.jsonl"), path("c3.jsonl")));
    CU_ASSERT_TRUE(s->cut > 0 && s->cut <= ref.done - ref.kept);
    CU_ASSERT_EQUAL(s->done, 36);
    CU_ASSERT_EQUAL(s->best.index, ref.best.index);
    CU_ASSERT_EQUAL(s->best_kept.index, ref.best_kept.index);
    CU_ASSERT_EQUAL(mg_sweep_regret(s), mg_sweep_regret(&ref));
    CU_ASSERT_PTR_NOT_NULL(strstr(line_of(path("c1.jsonl"), 0), "\"cutoff\":1,"));
    int cut = 0, same = 0;
    for (int k = 1; k <= 36; k++) {
        char a[4096];
        snprintf(a, sizeof a, "%s", line_of(path("j1.jsonl"), k));
        const char *b = line_of(path("c1.jsonl"), k);
        if (!strstr(b, "\"status\":\"cut\"")) {
            same += !strcmp(a, b);
            continue;
        }
        char err[200];
        mg_sweep_result ra, rb;
        CU_ASSERT_EQUAL_FATAL(mg_sweep_result_parse(a, &ra, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(mg_sweep_result_parse(b, &rb, err, sizeof err), 0);
        CU_ASSERT_TRUE(rb.cut && !rb.ok && ra.ok && ra.fired);      /* only pruned ones */
        CU_ASSERT_TRUE(ra.seconds > rb.cut_seconds);                /* truly over the bar */
        CU_ASSERT_DOUBLE_EQUAL(rb.cut_seconds, ref.best_kept.seconds, 1e-15);
        char *again = mg_sweep_result_line(&rb);
        CU_ASSERT_EQUAL(strncmp(again, b, strlen(b)), 0);           /* reads back exactly */
        free(again);
        mg_sweep_result_free(&ra);
        mg_sweep_result_free(&rb);
        cut++;
    }
    CU_ASSERT_EQUAL(cut, (int)s->cut);
    CU_ASSERT_EQUAL(same + cut, 36);
    /* resume from a cut-short file equals the uninterrupted sweep */
    size_t len;
    char *x = slurp(path("c1.jsonl"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    size_t at = 0;
    for (int n = 0; n < 13; n++) at = (size_t)(strchr(x + at, '\n') - x) + 1;
    write_bytes(path("c2.jsonl"), x, at + 20);
    free(x);
    memset(t, 0, sizeof *t);
    CU_ASSERT_EQUAL_FATAL(sweep_with(path("c2.jsonl"), 2, MG_SAMPLE_AUTO, 0, 0, 1.0, t, &d), 0);
    CU_ASSERT_EQUAL(t->resumed, 12);
    CU_ASSERT_TRUE(same_file(path("c1.jsonl"), path("c2.jsonl")));
    char *ts = sum_text(s), *tt = sum_text(t);
    CU_ASSERT_STRING_EQUAL(ts, tt);
    free(ts);
    free(tt);
    /* the same file resumed without --cutoff is another sweep's */
    CU_ASSERT_EQUAL(sweep(path("c2.jsonl"), 1, MG_SAMPLE_AUTO, 0, 0, t, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "cutoff"));
    free(s);
    free(t);
    mg_diag_free(&d);
}

static void test_whatif_base(void)
{
    const char *out = path("whatif.json");
    char *argv[] = {"whatif", "--config", CFG, "--space", SPACE, "--rules", RULES,
                    "--vary", "tex_l1.size=x1,512B", "-j", "2", "--no-progress", "--json",
                    "-o", (char *)out, NULL};
    CU_ASSERT_EQUAL_FATAL(mg_cmd_whatif(15, argv), MG_EXIT_OK);
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_load(out, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const cJSON *base = cJSON_GetObjectItem(j, "base");
    const cJSON *vs = cJSON_GetObjectItem(j, "variants");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(vs), 2);
    const cJSON *v1 = cJSON_GetArrayItem(vs, 0), *v2 = cJSON_GetArrayItem(vs, 1);
    double bi = cJSON_GetObjectItem(cJSON_GetObjectItem(base, "best"), "index")->valuedouble;
    double bk = cJSON_GetObjectItem(cJSON_GetObjectItem(base, "best_kept"), "index")->valuedouble;
    CU_ASSERT_EQUAL((uint64_t)bi, ref.best.index);
    CU_ASSERT_EQUAL((uint64_t)bk, ref.best_kept.index);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(base, "kept")->valuedouble, (double)ref.kept);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(v1, "same_as_base")));
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItem(v1, "changed")));
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItem(v2, "same_as_base")));
    /* half the texture L1: the l1 rule prunes more */
    CU_ASSERT_TRUE(cJSON_GetObjectItem(v2, "kept")->valuedouble < (double)ref.kept);
    cJSON_Delete(j);
    mg_diag_free(&d);
}

/* A capped sweep (mgsim net's exhaustive search): no results file; with
 * the cap at the best's own time (margin 1.0, and cap_seconds there too)
 * it stops some candidates yet finds the uncapped sweep's best, on 1 and
 * 3 threads: of all candidates, and pruned-only of the kept ones (the
 * best kept; a whole sweep's best kept, slower than its best, may be
 * stopped); a cap with a results file is refused. */
static void test_cap(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_sum *s = calloc(1, sizeof *s);
    for (int k = 0; k < 6; k++) {
        int pruned = k >= 3;
        const mg_sweep_best *want = pruned ? &ref.best_kept : &ref.best;
        mg_sweep_cfg c = fixture_cfg(pruned);
        c.threads = k % 2 ? 3 : 1;
        c.sample = MG_SAMPLE_AUTO;
        c.cap_margin = 1.0;
        c.cap_seconds = k % 3 == 2 ? want->seconds * (1 + 1e-9) : 0;
        CU_ASSERT_EQUAL_FATAL(mg_sweep_run(&c, s, &d), 0);
        CU_ASSERT_EQUAL(s->done, pruned ? ref.kept : 36);
        CU_ASSERT_TRUE(s->cut > 0 && s->cut < s->done);
        const mg_sweep_best *got = pruned ? &s->best_kept : &s->best;
        CU_ASSERT_TRUE(got->valid);
        CU_ASSERT_EQUAL(got->index, want->index);
        CU_ASSERT_EQUAL(got->seconds, want->seconds);
        if (k == 5) {
            c.results = path("cap.jsonl");
            CU_ASSERT_EQUAL(mg_sweep_run(&c, s, &d), -1);
            CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "capped sweep"));
        }
    }
    free(s);
    mg_diag_free(&d);
}

int add_sweep_suite(void)
{
    CU_pSuite s = CU_add_suite("sweep", setup, teardown);
    if (!s) return -1;
    return !CU_add_test(s, "-j1 and -j3 byte-identical", test_threads_identical) ||
           !CU_add_test(s, "resume equals an uninterrupted sweep", test_resume) ||
           !CU_add_test(s, "foreign or damaged results refused", test_foreign_refused) ||
           !CU_add_test(s, "pruned-only", test_pruned_only) ||
           !CU_add_test(s, "record round trip and rejection", test_record_roundtrip) ||
           !CU_add_test(s, "record counts out of range", test_record_huge_counts) ||
           !CU_add_test(s, "trace-inert knobs change no simulation", test_trace_inert) ||
           !CU_add_test(s, "memo copies identical simulations", test_memo) ||
           !CU_add_test(s, "device variants", test_variants) ||
           !CU_add_test(s, "whatif base equals the sweep", test_whatif_base) ||
           !CU_add_test(s, "cutoff: exact bests, cut records, -j, resume", test_cutoff) ||
           !CU_add_test(s, "cap: the best found, others stopped", test_cap);
}

/*
 * pcmd_time.c - `mgprobe time --suite SUITE.json [-o timings.json]`: time
 * every schedule of a kernel suite (sim/analysis/suite.h) on a device.
 *
 * Per schedule: generate it, build it (with -cl-nv-verbose where the
 * driver offers cl_nv_compiler_options, to record the compiler's register
 * count), run it once with poisoned outputs and compare them with the CPU
 * reference (vcheck.c: a wrong kernel's time is worthless, it is recorded
 * as "wrong" and not timed), then `warmup` untimed and `reps` timed
 * launches (OpenCL event profiling): median, min, max, spread.  A kernel
 * the device cannot run is "skip", an OpenCL error "error", each with its
 * reason; the run goes on.  The timings (mgsim-timings/1) are written once
 * at the end, or on SIGINT with what was timed so far.
 */
#include "probe/mgprobe.h"
#include "probe/stopsig.h"
#include "probe/ptime.h"
#include "probe/rundev.h"
#include "probe/vcheck.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/suite.h"
#include "base/afile.h"
#include "base/hash.h"
#include "base/jsonout.h"
#include "sim/version.h"
#include "base/opts.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;

static void time_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe time --suite SUITE.json [--device P:D] [-o TIMINGS.json]\n"
            "                    [--warmup N] [--reps N] [--retime N] [--max-shift F]\n"
            "                    [--list]\n"
            "\n"
            "Time every schedule of a kernel suite (a JSON list of schedules, or\n"
            "{\"schema\": \"mgsim-suite/1\", \"name\", \"schedules\": [...]}; configs/suites/).\n"
            "Each kernel is first run once and its outputs checked against the CPU\n"
            "reference (as `mgprobe verify` does); a wrong kernel is reported and not\n"
            "timed.  Then N warm-up and N timed launches (OpenCL event profiling).\n"
            "One line per kernel: status, median time, spread, schedule; the JSON\n"
            "(mgsim-timings/1, configs/PROFILE.md) adds min, max, the shift, every\n"
            "sample, the generator's register estimate and, on NVIDIA\n"
            "(-cl-nv-verbose), the compiler's register count, stack frame and spill\n"
            "bytes, with the device, driver and date.\n"
            "\n"
            "  -s, --suite FILE      the suite (required)\n"
            "  -d, --device P:D      the device (`mgprobe devices`; default 0:0)\n"
            "  -o, --output FILE     write the timings JSON to FILE (replaced only when\n"
            "                        complete); -o - writes it to stdout and the lines\n"
            "                        to stderr\n"
            "      --warmup N        untimed launches before timing (default 2)\n"
            "      --reps N          timed launches (default 10, max 32)\n"
            "      --retime N        after the suite, time a kernel whose samples\n"
            "                        shifted (median of the second half against the\n"
            "                        first) by more than --max-shift again, up to N\n"
            "                        times until steady, keeping the steadiest\n"
            "                        attempt (default 2; 0: never)\n"
            "      --max-shift F     the largest steady shift (default 0.10)\n"
            "      --list            parse and generate every schedule, print them\n"
            "                        (canonical) and exit: no device needed\n"
            "  -h, --help            print this help\n"
            "\n"
            "Exit status: 0 every kernel was timed or skipped; 1 one was wrong or\n"
            "failed; 2 bad usage or a bad suite (every problem as FILE: $[i]: why);\n"
            "3 no usable device.\n");
}

enum { OPT_WARMUP = 256, OPT_REPS, OPT_RETIME, OPT_MAX_SHIFT, OPT_LIST };

static const struct option time_opts[] = {
    {"suite", required_argument, NULL, 's'},
    {"device", required_argument, NULL, 'd'},
    {"output", required_argument, NULL, 'o'},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"reps", required_argument, NULL, OPT_REPS},
    {"retime", required_argument, NULL, OPT_RETIME},
    {"max-shift", required_argument, NULL, OPT_MAX_SHIFT},
    {"list", no_argument, NULL, OPT_LIST},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

#define REG_MEMO 4096

/* What NVIDIA's -cl-nv-verbose says of a kernel; -1 where it is silent. */
typedef struct cc_report {
    int  regs;                   /* registers per item */
    long stack, spill_st, spill_ld;   /* bytes per item */
} cc_report;

typedef struct tctx {
    mgp_rundev *rd;
    const char *opts;            /* extra build options */
    int         warmup, reps;
    int         retime;          /* further attempts for a shifted kernel */
    double      shift_max;       /* the largest shift taken as stable */
    /* the compiler's report by source (FNV-1a): a driver that finds a
     * source in its program cache compiles nothing and reports nothing,
     * so a report seen once serves every later identical source */
    uint64_t    memo_hash[REG_MEMO];
    cc_report   memo[REG_MEMO];
    int         memo_n;
} tctx;

/* The compiler's report of a build log; -1 where it says nothing. */
static cc_report cc_of_log(const char *log)
{
    cc_report r = {mgp_regs_from_log(log), mgp_bytes_from_log(log, "stack frame"),
                   mgp_bytes_from_log(log, "spill stores"), mgp_bytes_from_log(log, "spill loads")};
    return r;
}

/* The compiler's report for source hash h: r when it has a register
 * count (and then remembered), else the remembered one, else r. */
static cc_report memo_cc(tctx *c, uint64_t h, cc_report r)
{
    for (int i = 0; i < c->memo_n; i++)
        if (c->memo_hash[i] == h) {
            if (r.regs >= 0) c->memo[i] = r;
            return c->memo[i];
        }
    if (r.regs >= 0 && c->memo_n < REG_MEMO) {
        c->memo_hash[c->memo_n] = h;
        c->memo[c->memo_n++] = r;
    }
    return r;
}

/* Add the compiler's report to o: regs_compiler (null when unknown) and,
 * where the log gives them, stack_compiler, spill_stores, spill_loads. */
static void add_cc(cJSON *o, const cc_report *r)
{
    if (r->regs >= 0) cJSON_AddNumberToObject(o, "regs_compiler", r->regs);
    else cJSON_AddNullToObject(o, "regs_compiler");
    if (r->stack >= 0) cJSON_AddNumberToObject(o, "stack_compiler", (double)r->stack);
    if (r->spill_st >= 0) cJSON_AddNumberToObject(o, "spill_stores", (double)r->spill_st);
    if (r->spill_ld >= 0) cJSON_AddNumberToObject(o, "spill_loads", (double)r->spill_ld);
}

/* The warm-up and timed runs of the launched kernel e: the timed ones'
 * times into ns[*n].  Returns "ok", or "error" with the reason in why
 * (a failed run, or interrupted before every timed run). */
static const char *time_runs(tctx *c, mgp_kexec *e, double *ns, int *n, char *why, size_t wlen)
{
    for (int i = 0; i < c->warmup + c->reps; i++) {
        double t = 0;
        if (stop_flag) break;
        if (mgp_kexec_run_timed(e, &t, 60, &stop_flag) != MGP_KX_OK) {
            snprintf(why, wlen, "%s", e->msg);
            return "error";
        }
        if (i >= c->warmup) ns[(*n)++] = t;
    }
    if (*n < c->reps) {
        snprintf(why, wlen, "interrupted");
        return "error";
    }
    return "ok";
}

/* Build the prepared kernel g on c's device (its register counts into
 * o), launch it, check its outputs h against the CPU reference's ref and
 * time it (into ns[*n]).  Returns the status, ok|wrong|skip|error, with
 * the reason in why when not ok. */
static const char *run_kernel(tctx *c, const mg_schedule *s, mg_gen *g, mg_host *ref,
                              mg_host *h, cJSON *o, double *ns, int *n, char *why, size_t wlen)
{
    mgp_kexec e;
    const char *status;
    int rc = mgp_kexec_prepare_opts(&e, &c->rd->x, g, h, 0, c->opts);
    cc_report cc = memo_cc(c, mg_fnv1a(g->source, g->source_len), cc_of_log(e.build_log));
    cJSON_AddNumberToObject(o, "regs_estimate", (double)g->k.f.regs_per_item);
    add_cc(o, &cc);
    if (rc == MGP_KX_OK) rc = mgp_kexec_launch(&e, NULL);
    if (rc == MGP_KX_OK) rc = mgp_kexec_read(&e, h, NULL, NULL);
    if (rc != MGP_KX_OK) {
        status = rc == MGP_KX_SKIP ? "skip" : "error";
        snprintf(why, wlen, "%s", e.msg);
    } else if (mgp_vcheck_outputs(g, ref, h, mgp_vcheck_tolerance(s), why, wlen)) {
        status = "wrong";
    } else {
        status = time_runs(c, &e, ns, n, why, wlen);
    }
    mgp_kexec_release(&e);
    return status;
}

/* The "ns" summary (median, min, max, spread) and "samples" of n times. */
static void add_times(cJSON *o, const double *ns, int n)
{
    double lo = ns[0], hi = ns[0];
    for (int i = 1; i < n; i++) {
        lo = ns[i] < lo ? ns[i] : lo;
        hi = ns[i] > hi ? ns[i] : hi;
    }
    cJSON *t = cJSON_AddObjectToObject(o, "ns");
    cJSON_AddNumberToObject(t, "median", mg_knee_median(ns, n));
    cJSON_AddNumberToObject(t, "min", lo);
    cJSON_AddNumberToObject(t, "max", hi);
    char buf[32];
    snprintf(buf, sizeof buf, "%.4f", mg_knee_spread(ns, n));
    cJSON_AddNumberToObject(t, "spread", atof(buf));
    snprintf(buf, sizeof buf, "%.4f", mg_knee_shift(ns, n));
    cJSON_AddNumberToObject(t, "shift", atof(buf));
    cJSON *sm = cJSON_AddArrayToObject(o, "samples");
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(sm, cJSON_CreateNumber(ns[i]));
}

/* The kernel's flops and launch geometry. */
static void add_launch(cJSON *o, const mg_gen *g)
{
    cJSON_AddNumberToObject(o, "flops", g->k.f.flops);
    cJSON *gl = cJSON_AddArrayToObject(o, "global"), *lc = cJSON_AddArrayToObject(o, "local");
    for (int i = 0; i < 3; i++) {
        cJSON_AddItemToArray(gl, cJSON_CreateNumber((double)g->k.global[i]));
        cJSON_AddItemToArray(lc, cJSON_CreateNumber((double)g->k.local[i]));
    }
}

/* One kernel's result object; *status_out one of ok|wrong|skip|error. */
static cJSON *time_one(tctx *c, const mg_schedule *s, size_t index, const char **status_out)
{
    cJSON *o = cJSON_CreateObject();
    char canon[2048], why[1024] = "";
    mg_schedule_format(s, canon, sizeof canon);
    cJSON_AddNumberToObject(o, "index", (double)index);
    cJSON_AddStringToObject(o, "schedule", canon);
    const char *status;
    mg_diag d;
    mg_diag_init(&d);
    mg_gen g;
    mg_host ref, h;
    int have_ref = 0, have_h = 0;
    double ns[MGP_REPS_MAX];
    int n = 0;
    if (mg_gen_prepare(&g, s, &d)) {
        status = "error";
        snprintf(why, sizeof why, "generator: %s", mg_diag_first(&d));
    } else {
        have_ref = mg_host_init(&g, &ref) == 0;
        have_h = mg_host_init(&g, &h) == 0;
        if (!have_ref || !have_h) {
            status = "error";
            snprintf(why, sizeof why, "out of memory for the host data");
        } else {
            mg_host_reference(&g, &ref);
            status = run_kernel(c, s, &g, &ref, &h, o, ns, &n, why, sizeof why);
        }
    }
    if (!strcmp(status, "ok")) add_times(o, ns, n);
    cJSON_AddStringToObject(o, "status", status);
    if (strcmp(status, "ok")) cJSON_AddStringToObject(o, "reason", why);
    if (g.source) add_launch(o, &g);
    if (have_ref) mg_host_free(&ref);
    if (have_h) mg_host_free(&h);
    mg_gen_free(&g);
    mg_diag_free(&d);
    *status_out = status;
    return o;
}

/* Print one kernel's line to f. */
static void print_line(FILE *f, const cJSON *k)
{
    const char *st = cJSON_GetObjectItemCaseSensitive(k, "status")->valuestring;
    const char *sched = cJSON_GetObjectItemCaseSensitive(k, "schedule")->valuestring;
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(k, "ns");
    if (ns) {
        double med = cJSON_GetObjectItemCaseSensitive(ns, "median")->valuedouble;
        double sp = cJSON_GetObjectItemCaseSensitive(ns, "spread")->valuedouble;
        fprintf(f, "ok %10.1f us %5.1f%%  %s\n", med / 1000, 100 * sp, sched);
    } else {
        fprintf(f, "%s: %s: %s\n", st, sched,
                cJSON_GetObjectItemCaseSensitive(k, "reason")->valuestring);
    }
    fflush(f);
}

static int write_out(const char *path, const cJSON *doc)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_json_save(path, doc, &d);
    mg_diag_print(&d, stderr, "mgprobe: time");
    mg_diag_free(&d);
    return rc;
}

/* The "shift" of kernel entry k's samples (-1 when it was not timed). */
static double entry_shift(const cJSON *k)
{
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(k, "ns");
    const cJSON *sh = ns ? cJSON_GetObjectItemCaseSensitive(ns, "shift") : NULL;
    return cJSON_IsNumber(sh) ? sh->valuedouble : -1;
}

/* Time schedule s (suite index i) again, up to c->retime times, until
 * an attempt's shift is at most c->shift_max.  first is its first
 * entry.  Returns the attempt with the smallest shift (first itself, or
 * a new entry), with "attempts" (how many timings were made) and, when
 * none was stable, "stable": false.  Entries not returned are freed,
 * first excepted. */
static cJSON *retime_one(tctx *c, const mg_schedule *s, size_t i, cJSON *first)
{
    cJSON *keep = first;
    double best = entry_shift(first);
    int tries = 1;
    while (best > c->shift_max && tries <= c->retime && !stop_flag) {
        const char *st;
        cJSON *n = time_one(c, s, i, &st);
        tries++;
        double sh = entry_shift(n);
        if (sh >= 0 && sh < best) {
            if (keep != first) cJSON_Delete(keep);
            keep = n;
            best = sh;
        } else {
            cJSON_Delete(n);
        }
    }
    cJSON_AddNumberToObject(keep, "attempts", tries);
    if (best > c->shift_max) cJSON_AddFalseToObject(keep, "stable");
    return keep;
}

/* After the suite: time again every ok kernel of ks whose samples
 * shifted by more than c->shift_max (retime_one), keeping the steadiest
 * attempt in its place; one line each to txt and a summary line. */
static void retime_shifted(tctx *c, const mg_suite *su, cJSON *ks, FILE *txt)
{
    int n = 0, stable = 0;
    size_t i = 0;
    for (cJSON *k = ks->child; k && !stop_flag; i++) {
        cJSON *next = k->next;
        if (entry_shift(k) > c->shift_max) {
            fprintf(txt, "retime [%zu], shift %.1f%%: ", i, 100 * entry_shift(k));
            cJSON *e = retime_one(c, &su->s[i], i, k);
            stable += !cJSON_GetObjectItemCaseSensitive(e, "stable");
            n++;
            print_line(txt, e);
            if (e != k) cJSON_ReplaceItemViaPointer(ks, k, e);
        }
        k = next;
    }
    if (n)
        fprintf(txt, "retimed %d kernels whose samples shifted by more than %.0f%%: %d stable\n",
                n, 100 * c->shift_max, stable);
}

/* Time the whole suite; the lines go to stdout, or to stderr when the
 * timings do (out "-").  Returns the exit status. */
static int time_suite(const char *path, const mg_suite *su, unsigned pi, unsigned di,
                      const char *out, int warmup, int reps, int retime, double shift_max)
{
    mgp_rundev rd;
    mgp_stop_init();                     /* before OpenCL starts (stopsig.h) */
    if (mgp_rundev_open(&rd, "time", pi, di)) return MGP_EXIT_NODEV;
    mgp_stop_catch(&stop_flag);          /* SIGINT, SIGTERM: save and stop */
    static tctx c;                        /* large: off the stack */
    memset(&c, 0, sizeof c);
    c.rd = &rd;
    c.opts = rd.p.nv_verbose ? "-cl-nv-verbose" : NULL;
    c.warmup = warmup;
    c.reps = reps;
    c.retime = retime;
    c.shift_max = shift_max;
    char now[32];
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", MG_TIMINGS_SCHEMA);
    cJSON_AddStringToObject(doc, "tool", "mgprobe " MG_VERSION);
    cJSON_AddStringToObject(doc, "suite", path);
    cJSON_AddStringToObject(doc, "suite_name", su->name);
    cJSON_AddStringToObject(doc, "date", mgp_utc_now(now, sizeof now));
    cJSON_AddItemToObject(doc, "device", cJSON_Duplicate(rd.json, 1));
    cJSON *set = cJSON_AddObjectToObject(doc, "settings");
    cJSON_AddNumberToObject(set, "warmup", warmup);
    cJSON_AddNumberToObject(set, "reps", reps);
    cJSON_AddNumberToObject(set, "retime", retime);
    cJSON_AddNumberToObject(set, "max_shift", shift_max);
    cJSON_AddBoolToObject(set, "nv_verbose", c.opts != NULL);
    cJSON *ks = cJSON_AddArrayToObject(doc, "kernels");
    FILE *txt = out && !strcmp(out, "-") ? stderr : stdout;
    fprintf(txt, "device %u:%u: %s (driver %s), suite %s: %zu kernels\n", pi, di, rd.x.name,
           cJSON_GetObjectItemCaseSensitive(rd.json, "driver_version")->valuestring, su->name,
           su->n);
    size_t cnt[4] = {0};
    static const char *const names[] = {"ok", "wrong", "skip", "error"};
    for (size_t i = 0; i < su->n && !stop_flag; i++) {
        const char *st;
        cJSON *k = time_one(&c, &su->s[i], i, &st);
        for (int j = 0; j < 4; j++) cnt[j] += !strcmp(st, names[j]);
        print_line(txt, k);
        cJSON_AddItemToArray(ks, k);
    }
    if (c.retime > 0 && !stop_flag) retime_shifted(&c, su, ks, txt);
    if (stop_flag) cJSON_AddTrueToObject(doc, "interrupted");
    fprintf(txt, "time: %zu ok, %zu wrong, %zu skipped, %zu errors%s\n", cnt[0], cnt[1],
            cnt[2], cnt[3], stop_flag ? " (interrupted)" : "");
    int rc = cnt[1] || cnt[3] || stop_flag ? MGP_EXIT_NO : MGP_EXIT_OK;
    if (out && write_out(out, doc)) rc = MGP_EXIT_BAD;
    cJSON_Delete(doc);
    mgp_rundev_close(&rd);
    return rc;
}

int mgp_cmd_time(int argc, char **argv)
{
    const char *suite = NULL, *devid = "0:0", *out = NULL;
    long warmup = 2, reps = 10, retime = 2;
    double shift_max = 0.10;
    int list = 0;
    char *end;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgprobe", "time", "s:d:o:h", time_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 's': suite = optarg; break;
        case 'd': devid = optarg; break;
        case 'o': out = optarg; break;
        case OPT_LIST: list = 1; break;
        case OPT_WARMUP:
            warmup = strtol(optarg, &end, 10);
            if (end == optarg || *end || warmup < 0 || warmup > 100)
                return mgp_usage_error("time", "--warmup %s: expected 0 to 100", optarg);
            break;
        case OPT_REPS:
            reps = strtol(optarg, &end, 10);
            if (end == optarg || *end || reps < 1 || reps > MGP_REPS_MAX)
                return mgp_usage_error("time", "--reps %s: expected 1 to %d", optarg,
                                       MGP_REPS_MAX);
            break;
        case OPT_RETIME:
            retime = strtol(optarg, &end, 10);
            if (end == optarg || *end || retime < 0 || retime > 10)
                return mgp_usage_error("time", "--retime %s: expected 0 to 10", optarg);
            break;
        case OPT_MAX_SHIFT:
            shift_max = strtod(optarg, &end);
            if (end == optarg || *end || !(shift_max > 0 && shift_max <= 1))
                return mgp_usage_error("time", "--max-shift %s: expected a fraction in (0, 1]",
                                       optarg);
            break;
        case 'h': time_usage(stdout); return MGP_EXIT_OK;
        default:
            return MGP_EXIT_BAD;
        }
    }
    if (optind < argc) return mgp_usage_error("time", "unexpected argument '%s'", argv[optind]);
    if (!suite) return mgp_usage_error("time", "no suite: give --suite FILE");
    unsigned pi, di;
    if (mgp_kexec_parse_id(devid, &pi, &di))
        return mgp_usage_error("time", "--device %s: expected P:D, e.g. 0:0", devid);
    mg_diag d;
    mg_diag_init(&d);
    mg_suite su;
    if (mg_suite_load(suite, &su, &d)) {
        mg_diag_print(&d, stderr, "mgprobe: time");
        mg_diag_free(&d);
        return MGP_EXIT_BAD;
    }
    mg_diag_free(&d);
    int rc = MGP_EXIT_OK;
    if (list) {
        for (size_t i = 0; i < su.n; i++) {
            char canon[2048];
            mg_gen g;
            mg_diag_init(&d);
            if (mg_gen_prepare(&g, &su.s[i], &d)) {
                fprintf(stderr, "mgprobe: time: %s: $[%zu]: %s\n", suite, i, mg_diag_first(&d));
                rc = MGP_EXIT_BAD;
            }
            mg_gen_free(&g);
            mg_diag_free(&d);
            printf("%s\n", mg_schedule_format(&su.s[i], canon, sizeof canon));
        }
        printf("%s: %zu schedules\n", su.name, su.n);
    } else {
        rc = time_suite(suite, &su, pi, di, out, (int)warmup, (int)reps, (int)retime,
                        shift_max);
    }
    mg_suite_free(&su);
    return rc;
}

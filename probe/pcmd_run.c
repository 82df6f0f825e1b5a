/*
 * pcmd_run.c - `mgprobe run [--device P:D] [--aspects LIST] [--redo]
 * [-o PROFILE]`: measure the device's architecture aspect by aspect
 * (aspect.h) into a profile (sim/analysis/profile.h) with one curves file
 * per aspect beside it (PROFILE.curves/NAME.json).
 *
 * Resumable: the profile and the aspect's curves are rewritten (temp file
 * + rename) after every aspect, and on SIGINT/SIGTERM the aspect in
 * progress stops at its next launch and is saved as "interrupted".  A
 * later run on the same device skips aspects whose status is final (ok,
 * undetermined, skipped) unless --redo.  A profile of another device is
 * refused.  A launch that hangs ends the run (the device queue is not
 * trusted after it).
 */
#include "probe/aspect.h"
#include "base/term.h"
#include "probe/mgprobe.h"
#include "probe/stopsig.h"
#include "probe/rundev.h"
#include "sim/analysis/profile.h"
#include "base/afile.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"
#include "base/strsim.h"
#include "sim/version.h"
#include "base/opts.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;

static void run_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe run [--device P:D] [--aspects LIST] [--redo] [-o PROFILE]\n"
            "                   [--min-ms MS] [--reps N] [--aspect-budget S] [--quick]\n"
            "\n"
            "Measure the device's architecture with generated microbenchmark kernels,\n"
            "aspect by aspect, into PROFILE (default profile.json; schema\n"
            "mgsim-profile/1, configs/PROFILE.md) and one curves file per aspect in\n"
            "PROFILE.curves/ (the raw points: every repetition, loop count, schedule).\n"
            "Every measurement is timed by OpenCL event profiling, its loop count\n"
            "scaled until one launch lasts MS milliseconds, then repeated N times: the\n"
            "point is the median.  Knees are found by sim/analysis/knee.h; each\n"
            "conclusion has a confidence, or is null with the reason.\n"
            "\n"
            "Aspects (in the order they run):\n");
    for (const mgp_aspect *s = mgp_aspects; s->name; s++)
        fprintf(f, "  %-13s %s\n", s->name, s->summary);
    fprintf(f,
            "\n"
            "  -d, --device P:D      the device (`mgprobe devices`; default 0:0)\n"
            "  -a, --aspects LIST    comma-separated aspects, or all (default)\n"
            "  -o, --output PROFILE  the profile (default profile.json); resumed if it\n"
            "                        exists: aspects with a final status (ok,\n"
            "                        undetermined, skipped) are not measured again\n"
            "      --redo            measure the listed aspects again anyway\n"
            "      --min-ms MS       least duration of one timed launch (default 1)\n"
            "      --reps N          timed repetitions per point (default 5, max 32)\n"
            "      --aspect-budget S seconds an aspect may take before it stops with\n"
            "                        status timeout (default 300)\n"
            "      --max-footprint BYTES  no cache or bandwidth sweep past BYTES\n"
            "      --min-footprint BYTES  cache sweeps start at BYTES (default 1 KiB)\n"
            "      --quick           a few points per sweep (tests; not a real profile)\n"
            "  -q, --quiet           no \"measuring\" line on a terminal\n"
            "  -h, --help            print this help\n"
            "\n"
            "Ctrl-C stops at the next launch and saves; run again to resume.\n"
            "Exit status: 0 every listed aspect ended ok, undetermined or skipped; 1\n"
            "one ended in error, timeout or was interrupted (the profile is saved and\n"
            "valid); 2 bad usage or an unusable PROFILE; 3 no usable device.\n");
}

enum { OPT_REDO = 256, OPT_MINMS, OPT_REPS, OPT_BUDGET, OPT_QUICK, OPT_MAXFP, OPT_MINFP };

static const struct option run_opts[] = {
    {"device", required_argument, NULL, 'd'},
    {"aspects", required_argument, NULL, 'a'},
    {"output", required_argument, NULL, 'o'},
    {"redo", no_argument, NULL, OPT_REDO},
    {"min-ms", required_argument, NULL, OPT_MINMS},
    {"reps", required_argument, NULL, OPT_REPS},
    {"aspect-budget", required_argument, NULL, OPT_BUDGET},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"max-footprint", required_argument, NULL, OPT_MAXFP},
    {"min-footprint", required_argument, NULL, OPT_MINFP},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct run_opt {
    const char *devid, *out;
    int         want[32];      /* by index in mgp_aspects */
    int         redo, quick, reps, quiet;
    double      min_ms, budget, max_fp, min_fp;
} run_opt;

/* Parse the aspect list into o->want.  Returns 0 or the usage error. */
static int parse_aspects(run_opt *o, const char *list)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    memset(o->want, 0, sizeof o->want);
    const char *names[32];
    size_t n = 0;
    for (const mgp_aspect *s = mgp_aspects; s->name; s++) names[n++] = s->name;
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
        if (!strcmp(w, "all")) {
            for (size_t i = 0; i < n; i++) o->want[i] = 1;
            continue;
        }
        const mgp_aspect *s = mgp_aspect_find(w);
        if (!s) {
            mg_hint h;
            return mgp_usage_error("run", "--aspects: unknown aspect '%s'%s", w,
                                   mg_hint_near(&h, w, names, n, "'"));
        }
        o->want[s - mgp_aspects] = 1;
    }
    return 0;
}

/* Parse a positive number option. */
static int number_opt(const char *name, const char *arg, double lo, double hi, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(arg, &end);
    if (end == arg || *end || errno || !(*v >= lo && *v <= hi))
        return mgp_usage_error("run", "--%s %s: expected a number in [%g, %g]", name, arg, lo, hi);
    return 0;
}

/* The curves directory of a profile path: "X.json" -> "X.curves". */
static void curves_dir(const char *out, char *buf, size_t len)
{
    size_t n = strlen(out);
    if (n > 5 && !strcmp(out + n - 5, ".json")) n -= 5;
    snprintf(buf, len, "%.*s.curves", (int)n, out);
}

/* Write doc to path atomically.  Returns 0, or -1 after printing why. */
static int save_json(const char *path, const cJSON *doc)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_json_save(path, doc, &d);
    mg_diag_print(&d, stderr, "mgprobe: run");
    mg_diag_free(&d);
    return rc;
}

/* Load the existing profile at path for resuming, or start a new one.
 * Returns the document, or NULL after printing why (exit 2). */
static cJSON *open_profile(const char *path, const mgp_rundev *rd, const run_opt *o, int *fresh)
{
    char now[32];
    *fresh = 1;
    if (access(path, F_OK) == 0) {
        mg_diag d;
        mg_diag_init(&d);
        cJSON *p = mg_profile_load(path, &d);
        if (!p) {
            mg_diag_print(&d, stderr, "mgprobe: run");
            fprintf(stderr, "mgprobe: run: %s: not a profile to resume: remove it or give "
                    "another -o\n", path);
            mg_diag_free(&d);
            return NULL;
        }
        mg_diag_free(&d);
        const cJSON *dev = cJSON_GetObjectItemCaseSensitive(p, "device");
        const char *name = cJSON_GetObjectItemCaseSensitive(dev, "name")->valuestring;
        const char *drv = cJSON_GetObjectItemCaseSensitive(dev, "driver_version")->valuestring;
        const char *myname = cJSON_GetObjectItemCaseSensitive(rd->json, "name")->valuestring;
        const char *mydrv =
            cJSON_GetObjectItemCaseSensitive(rd->json, "driver_version")->valuestring;
        if (strcmp(name, myname) || strcmp(drv, mydrv)) {
            fprintf(stderr, "mgprobe: run: %s: measured on '%s' (driver %s), not on this "
                    "device '%s' (driver %s): give another -o\n", path, name, drv, myname,
                    mydrv);
            cJSON_Delete(p);
            return NULL;
        }
        *fresh = 0;
        return p;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "schema", MG_PROFILE_SCHEMA);
    cJSON_AddStringToObject(p, "tool", "mgprobe " MG_VERSION);
    cJSON_AddItemToObject(p, "device", cJSON_Duplicate(rd->json, 1));
    cJSON_AddStringToObject(p, "started", mgp_utc_now(now, sizeof now));
    cJSON_AddStringToObject(p, "updated", now);
    cJSON *s = cJSON_AddObjectToObject(p, "settings");
    cJSON_AddNumberToObject(s, "min_ms", o->min_ms);
    cJSON_AddNumberToObject(s, "reps", o->reps);
    cJSON_AddNumberToObject(s, "aspect_budget_s", o->budget);
    if (o->quick) cJSON_AddTrueToObject(s, "quick");
    if (o->max_fp > 0) cJSON_AddNumberToObject(s, "max_footprint", o->max_fp);
    if (o->min_fp > 0) cJSON_AddNumberToObject(s, "min_footprint", o->min_fp);
    cJSON_AddObjectToObject(p, "aspects");
    return p;
}

/* One line for the terminal: "NAME: STATUS (confidence C, S s): k=v ...". */
static void print_summary(const char *name, const cJSON *asp)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(asp, "status");
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(asp, "confidence");
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(asp, "seconds");
    printf("%s: %s", name, st->valuestring);
    if (cJSON_IsNumber(cf)) printf(" (confidence %.2f", cf->valuedouble);
    else printf(" (");
    printf("%s%.1f s)", cJSON_IsNumber(cf) ? ", " : "", sec ? sec->valuedouble : 0.0);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(asp, "error");
    if (cJSON_IsString(err)) printf(": %s", err->valuestring);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(asp, "conclusion");
    int first = 1;
    for (const cJSON *k = c ? c->child : NULL; k; k = k->next) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, "value");
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(k, "unit");
        if (cJSON_IsNull(v)) continue;
        printf("%s%s=", first ? ": " : ", ", k->string);
        first = 0;
        if (cJSON_IsNumber(v)) {
            char num[40];
            printf("%s", mg_json_number(v->valuedouble, num, sizeof num));
        } else if (cJSON_IsString(v)) {
            printf("%s", v->valuestring);
        }
        if (cJSON_IsString(u)) printf(" %s", u->valuestring);
    }
    printf("\n");
    fflush(stdout);
}

/* Run one aspect; store its entry in the profile and its curves file.
 * Returns 0, or -1 when saving failed. */
static int run_aspect(const mgp_aspect *asp, mgp_rundev *rd, mgp_timer *t, cJSON *prof,
                      const run_opt *o, const char *cdir)
{
    char now[32], rel[4400], path[4400];
    mgp_arun a;
    memset(&a, 0, sizeof a);
    a.dp = &rd->p;
    a.t = t;
    a.profile = prof;
    a.quick = o->quick;
    a.max_footprint = o->max_fp;
    a.min_footprint = o->min_fp;
    cJSON *curves = cJSON_CreateObject();
    cJSON_AddStringToObject(curves, "schema", MG_CURVE_SCHEMA);
    cJSON_AddStringToObject(curves, "aspect", asp->name);
    cJSON_AddStringToObject(curves, "device", rd->x.name);
    cJSON_AddStringToObject(curves, "date", mgp_utc_now(now, sizeof now));
    a.series = cJSON_AddArrayToObject(curves, "series");
    a.conclusion = cJSON_CreateObject();
    a.notes = cJSON_CreateArray();
    if (!o->quiet && mg_term_progress()) fprintf(stderr, "%s: measuring...\r", asp->name);
    double t0 = mgp_now();
    t->deadline = t0 + o->budget;
    asp->run(&a);
    double secs = mgp_now() - t0;
    if (!o->quiet && mg_term_progress()) fprintf(stderr, "\033[K");
    double conf;
    const char *status = mgp_arun_status(&a, &conf);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "status", status);
    cJSON_AddStringToObject(e, "date", now);
    char buf[32];
    snprintf(buf, sizeof buf, "%.1f", secs);
    cJSON_AddNumberToObject(e, "seconds", atof(buf));
    const char *base = strrchr(cdir, '/');
    snprintf(rel, sizeof rel, "%s/%s.json", base ? base + 1 : cdir, asp->name);
    cJSON_AddStringToObject(e, "curve", rel);
    if (conf >= 0) cJSON_AddNumberToObject(e, "confidence", conf);
    else cJSON_AddNullToObject(e, "confidence");
    cJSON_AddItemToObject(e, "conclusion", a.conclusion);
    cJSON_AddItemToObject(e, "notes", a.notes);
    if (strcmp(status, "ok") && strcmp(status, "undetermined"))
        cJSON_AddStringToObject(e, "error", a.error[0] ? a.error
                                            : a.early[0] ? a.early : "stopped");
    cJSON *aspects = cJSON_GetObjectItemCaseSensitive(prof, "aspects");
    if (cJSON_GetObjectItemCaseSensitive(aspects, asp->name))
        cJSON_ReplaceItemInObjectCaseSensitive(aspects, asp->name, e);
    else
        cJSON_AddItemToObject(aspects, asp->name, e);
    cJSON_ReplaceItemInObjectCaseSensitive(prof, "updated",
                                           cJSON_CreateString(mgp_utc_now(now, sizeof now)));
    snprintf(path, sizeof path, "%s/%s.json", cdir, asp->name);
    int rc = save_json(path, curves);
    cJSON_Delete(curves);
    if (rc == 0) rc = save_json(o->out, prof);
    print_summary(asp->name, e);
    return rc;
}

/* Measure the wanted aspects.  Returns the exit status. */
static int run_all(const run_opt *o, unsigned pi, unsigned di)
{
    mgp_rundev rd;
    mgp_stop_init();                     /* before OpenCL starts (stopsig.h) */
    if (mgp_rundev_open(&rd, "run", pi, di)) return MGP_EXIT_NODEV;
    int fresh;
    cJSON *prof = open_profile(o->out, &rd, o, &fresh);
    if (!prof) {
        mgp_rundev_close(&rd);
        return MGP_EXIT_BAD;
    }
    char cdir[4200];
    curves_dir(o->out, cdir, sizeof cdir);
    if (mkdir(cdir, 0755) && errno != EEXIST) {
        fprintf(stderr, "mgprobe: run: %s: cannot create: %s\n", cdir, strerror(errno));
        cJSON_Delete(prof);
        mgp_rundev_close(&rd);
        return MGP_EXIT_BAD;
    }
    mgp_stop_catch(&stop_flag);          /* SIGINT, SIGTERM: save and stop */
    mgp_timer t;
    memset(&t, 0, sizeof t);
    t.dev = &rd.x;
    t.min_ms = o->min_ms;
    t.reps = o->reps;
    t.hang_s = 60;
    t.stop = &stop_flag;
    t.build_opts = rd.p.nv_verbose ? "-cl-nv-verbose" : NULL;
    printf("device %u:%u: %s (driver %s)%s\n", pi, di, rd.x.name,
           cJSON_GetObjectItemCaseSensitive(rd.json, "driver_version")->valuestring,
           fresh ? "" : ", resuming");
    int rc = MGP_EXIT_OK;
    if (fresh && save_json(o->out, prof)) rc = MGP_EXIT_BAD;
    for (const mgp_aspect *s = mgp_aspects; rc != MGP_EXIT_BAD && s->name; s++) {
        if (!o->want[s - mgp_aspects]) continue;
        const cJSON *old = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(prof, "aspects"), s->name);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(old, "status");
        if (!o->redo && cJSON_IsString(st) && mg_profile_status_final(st->valuestring)) {
            printf("%s: %s earlier, kept (--redo measures it again)\n", s->name, st->valuestring);
            continue;
        }
        if (stop_flag || t.hung) break;
        if (run_aspect(s, &rd, &t, prof, o, cdir)) {
            rc = MGP_EXIT_BAD;
            break;
        }
        st = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(prof, "aspects"),
                                             s->name), "status");
        if (!mg_profile_status_final(st->valuestring)) rc = MGP_EXIT_NO;
    }
    if (stop_flag) printf("interrupted: the profile is saved in %s; run again to resume\n", o->out);
    else if (t.hung) printf("a launch hung: the run stops here; the profile is saved in %s\n",
                            o->out);
    cJSON_Delete(prof);
    mgp_rundev_close(&rd);
    return rc;
}

int mgp_cmd_run(int argc, char **argv)
{
    run_opt o;
    memset(&o, 0, sizeof o);
    o.devid = "0:0";
    o.out = "profile.json";
    o.min_ms = 1;
    o.reps = 5;
    o.budget = 300;
    int rc = parse_aspects(&o, "all");
    int c;
    double v;
    mg_opts po;
    mg_opts_start(&po, "mgprobe", "run", "d:a:o:qh", run_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'd': o.devid = optarg; break;
        case 'a': if ((rc = parse_aspects(&o, optarg))) return rc; break;
        case 'o': o.out = optarg; break;
        case OPT_REDO: o.redo = 1; break;
        case OPT_QUICK: o.quick = 1; break;
        case OPT_MINMS:
            if (number_opt("min-ms", optarg, 0.01, 10000, &o.min_ms)) return MGP_EXIT_BAD;
            break;
        case OPT_REPS:
            if (number_opt("reps", optarg, 1, MGP_REPS_MAX, &v)) return MGP_EXIT_BAD;
            o.reps = (int)v;
            break;
        case OPT_MAXFP:
            if (number_opt("max-footprint", optarg, 1024, 1e12, &o.max_fp)) return MGP_EXIT_BAD;
            break;
        case OPT_MINFP:
            if (number_opt("min-footprint", optarg, 1024, 1e12, &o.min_fp)) return MGP_EXIT_BAD;
            break;
        case OPT_BUDGET:
            if (number_opt("aspect-budget", optarg, 1, 86400, &o.budget)) return MGP_EXIT_BAD;
            break;
        case 'q': o.quiet = 1; break;
        case 'h': run_usage(stdout); return MGP_EXIT_OK;
        default:
            return MGP_EXIT_BAD;
        }
    }
    if (optind < argc) return mgp_usage_error("run", "unexpected argument '%s'", argv[optind]);
    if (!strcmp(o.out, "-"))
        return mgp_usage_error("run", "-o -: the profile comes with a folder of curves and is "
                               "resumed from, so it needs a file name");
    unsigned pi, di;
    if (mgp_kexec_parse_id(o.devid, &pi, &di))
        return mgp_usage_error("run", "--device %s: expected P:D, e.g. 0:0", o.devid);
    return run_all(&o, pi, di);
}

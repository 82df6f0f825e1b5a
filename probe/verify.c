/*
 * verify.c - `mgprobe verify [--device P:D] [--jobs N] [--no-trace]
 * [--matrix FILE] [OP key=val ...]`: run generated kernels on an OpenCL device and check
 * them against the generator's CPU reference (correctness) and, through
 * an instrumented build, against the generator's trace (fidelity).
 *
 * Schedules come from the command line (one) or a matrix file (one per
 * line, all parsed by vmatrix.c before anything runs).  Each prints one
 * status line; details (trace mismatches, a build log) follow it indented.  The per-schedule work is vcheck.c;
 * --jobs spreads schedules over worker processes (vjobs.c).
 */
#include "probe/kexec.h"
#include "base/term.h"
#include "probe/mgprobe.h"
#include "probe/vcheck.h"
#include "probe/vjobs.h"
#include "probe/vmatrix.h"
#include "base/opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Print the help of `mgprobe verify` to f. */
static void verify_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe verify [--device P:D] [--jobs N] [--no-trace] --matrix FILE\n"
            "       mgprobe verify [--device P:D] [--no-trace] OP [key=value ...]\n"
            "\n"
            "Generate each schedule's kernel (as `mgsim gen` does), run it on an OpenCL\n"
            "device with the generator's inputs, outputs poisoned with NaN before the\n"
            "run, and compare every output element with the CPU reference:\n"
            "    |got - ref| / max(|ref|, floor) <= 1e-5  when storage and compute are fp32,\n"
            "                                    <= 1e-2  when either is fp16,\n"
            "integer outputs exactly.  floor is 1e-3, raised to 0.05 x (n - 1) for an\n"
            "output that sums n terms (n = flops / 2 / outputs, from the plan): the\n"
            "reference sums in double, the device in fp32, whose rounding follows the\n"
            "partial sums, so an output that cancels to near zero legitimately differs\n"
            "by about n x 6e-8.\n"
            "\n"
            "Then (unless --no-trace) build the kernel again with -DMG_TRACE_LOG, so\n"
            "that it records its own memory accesses, check its outputs again, and\n"
            "check that every work item made exactly the accesses of the generated\n"
            "trace, in order, at the same addresses.\n"
            "\n"
            "One line per schedule, with the canonical schedule:\n"
            "    ok: SCHEDULE\n"
            "    FAIL: SCHEDULE: REASON      (details indented below)\n"
            "    skip: SCHEDULE: REASON      (the device lacks what the kernel needs,\n"
            "                                 e.g. cl_khr_fp16 or image support)\n"
            "then \"verify: N passed, N failed, N skipped\".  Progress goes to stderr when\n"
            "it is a terminal (and TERM is not dumb), unless -q.\n"
            "\n"
            "  -d, --device P:D  the device, numbered as `mgprobe devices` prints it\n"
            "                    (default 0:0, the first device of the first platform)\n"
            "  -j, --jobs N      run the schedules in N worker processes (default 1):\n"
            "                    kernels compile on one core each, so N cores go N times\n"
            "                    as fast; the output is the same, in the same order\n"
            "  --no-trace        check results only, not the trace\n"
            "  -q, --quiet       no progress line\n"
            "  -m, --matrix FILE one schedule per line (OP key=value ...); blank lines and\n"
            "                    '#' comments are ignored\n"
            "  -h, --help        print this help\n"
            "\n"
            "Exit status: 0 when no schedule failed (skips allowed), 1 when any failed,\n"
            "2 on bad usage or a schedule that does not parse (FILE:LINE: why), 3 when\n"
            "there is no usable OpenCL device.\n");
}

enum { OPT_NO_TRACE = 256 };

static const struct option verify_opts[] = {
    {"device", required_argument, NULL, 'd'},
    {"no-trace", no_argument, NULL, OPT_NO_TRACE},
    {"matrix", required_argument, NULL, 'm'},
    {"jobs", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Seconds since an arbitrary start. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One verify run: the schedules, the options, the device (in a worker),
 * the counts (in the parent). */
typedef struct vrun {
    const mgp_vmatrix *l;
    int      trace, tty, quiet;        /* tty: draw progress; quiet: -q */
    unsigned pi, di;
    mgp_kexec_dev dev;
    size_t   pass, fail, skip;
    double   t0;
} vrun;

/* The status line of one schedule and its indented details, as a
 * malloc'd block (NULL when out of memory). */
static char *format_result(const mg_schedule *s, const mgp_vresult *r)
{
    static const char *const tag[] = {"ok", "skip", "FAIL"};
    char canon[2048];
    mg_schedule_format(s, canon, sizeof canon);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    if (r->status == MGP_KX_OK) fprintf(f, "ok: %s\n", canon);
    else fprintf(f, "%s: %s: %s\n", tag[r->status], canon, r->reason);
    for (const char *p = r->details; p && *p;) {
        const char *e = strchr(p, '\n');
        int n = e ? (int)(e - p) : (int)strlen(p);
        fprintf(f, "    %.*s\n", n, p);
        p += n + (e ? 1 : 0);
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* vjobs init: open the device (worker 0 says why it cannot). */
static int task_init(void *ctx, int worker)
{
    vrun *v = ctx;
    mg_diag d;
    mg_diag_init(&d);
    int none = 0;
    int rc = mgp_kexec_open(&v->dev, v->pi, v->di, &none, &d);
    if (rc && worker == 0) {
        mg_diag_print(&d, stderr, "mgprobe: verify");
        if (none)
            fprintf(stderr, "mgprobe: verify: hint: install an OpenCL driver (Debian: apt-get "
                    "install pocl-opencl-icd)\n");
    }
    mg_diag_free(&d);
    return rc;
}

/* vjobs run: verify schedule i. */
static int task_run(void *ctx, size_t i, char **text)
{
    vrun *v = ctx;
    mgp_vresult r;
    mgp_verify_one(&v->dev, &v->l->s[i], v->trace, &r);
    *text = format_result(&v->l->s[i], &r);
    mgp_vresult_free(&r);
    return r.status;
}

/* vjobs fini: close the device. */
static void task_fini(void *ctx)
{
    vrun *v = ctx;
    mgp_kexec_close(&v->dev);
}

/* vjobs progress: one rewritten line on a terminal. */
static void task_progress(void *ctx, size_t done, size_t next)
{
    vrun *v = ctx;
    if (!v->tty) return;
    char canon[2048] = "";
    if (next < v->l->n) mg_schedule_format(&v->l->s[next], canon, sizeof canon);
    fprintf(stderr, "\r\033[K[%zu/%zu %.0fs] %.60s", done, v->l->n, now_s() - v->t0, canon);
}

/* vjobs report: print a result, count it. */
static void task_report(void *ctx, size_t i, int status, const char *text)
{
    vrun *v = ctx;
    (void)i;
    if (v->tty) fprintf(stderr, "\r\033[K");
    fputs(*text ? text : "FAIL: out of memory formatting a result\n", stdout);
    fflush(stdout);
    if (status == MGP_KX_OK) v->pass++;
    else if (status == MGP_KX_SKIP) v->skip++;
    else v->fail++;
}

/* Run every schedule of v->l, in `jobs` worker processes when jobs > 1;
 * print results and the summary.  Returns the exit status. */
static int run_all(vrun *v, int jobs)
{
    v->tty = !v->quiet && mg_term_progress();
    v->t0 = now_s();
    if ((size_t)jobs > v->l->n) jobs = (int)v->l->n;
    int rc = 0;
    if (jobs > 1) {
        mgp_vjobs j = {v->l->n, jobs, v, task_init, task_run, task_fini, task_report,
                       task_progress};
        rc = mgp_vjobs_run(&j);
    } else if ((rc = task_init(v, 0)) == 0) {
        for (size_t i = 0; i < v->l->n; i++) {
            task_progress(v, i, i);
            char *text = NULL;
            int status = task_run(v, i, &text);
            task_report(v, i, status, text ? text : "");
            free(text);
        }
        task_fini(v);
    }
    if (v->tty) fprintf(stderr, "\r\033[K");
    if (rc && v->pass + v->fail + v->skip == 0) return MGP_EXIT_NODEV;   /* no device */
    printf("verify: %zu passed, %zu failed, %zu skipped\n", v->pass, v->fail, v->skip);
    if (rc) return MGP_EXIT_BAD;
    return v->fail ? MGP_EXIT_NO : MGP_EXIT_OK;
}

int mgp_cmd_verify(int argc, char **argv)
{
    const char *matrix = NULL, *devid = "0:0";
    int trace = 1, quiet = 0;
    long jobs = 1;
    char *end;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgprobe", "verify", "d:m:j:qh", verify_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'd': devid = optarg; break;
        case 'j':
            jobs = strtol(optarg, &end, 10);
            if (end == optarg || *end || jobs < 1 || jobs > 64)
                return mgp_usage_error("verify", "--jobs %s: expected a number of worker "
                                       "processes in [1, 64]", optarg);
            break;
        case 'm': matrix = optarg; break;
        case OPT_NO_TRACE: trace = 0; break;
        case 'q': quiet = 1; break;
        case 'h': verify_usage(stdout); return MGP_EXIT_OK;
        default:
            return MGP_EXIT_BAD;
        }
    }
    unsigned pi, di;
    if (mgp_kexec_parse_id(devid, &pi, &di))
        return mgp_usage_error("verify", "--device %s: expected P:D, e.g. 0:0", devid);
    if (matrix && optind < argc)
        return mgp_usage_error("verify", "give either --matrix FILE or one schedule, not both");
    if (!matrix && optind >= argc)
        return mgp_usage_error("verify", "no schedule: give --matrix FILE or OP key=value ...");
    mgp_vmatrix l = {NULL, 0, 0};
    int bad = matrix ? mgp_vmatrix_load(&l, matrix)
                     : mgp_vmatrix_add_words(&l, argc - optind, argv + optind, "command line");
    int rc = MGP_EXIT_BAD;
    if (!bad) {
        vrun v;
        memset(&v, 0, sizeof v);
        v.l = &l;
        v.trace = trace;
        v.quiet = quiet;
        v.pi = pi;
        v.di = di;
        rc = run_all(&v, (int)jobs);
    }
    mgp_vmatrix_free(&l);
    return rc;
}

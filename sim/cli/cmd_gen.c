/*
 * cmd_gen.c - `mgsim gen`: generate a kernel, its launch plan and its trace
 * from one schedule.
 */
#include "sim/cli/cli.h"
#include "sim/cli/prog_source.h"
#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <stdlib.h>
#include <string.h>

static void gen_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim gen OP [key=value ...] [-o DIR] [--no-trace] [--source] [--json]\n"
            "                [--max-work N] [-q]\n"
            "       mgsim gen --schedule FILE.json [-o DIR] ...  (a JSON object: \"op\" + keys)\n"
            "       mgsim gen OP --help      the keys OP takes, with defaults and ranges\n"
            "       mgsim gen --list         the operators\n"
            "\n"
            "Generates, from one schedule, the OpenCL C kernel, its launch plan with\n"
            "static features, and its access trace.  With -o DIR, writes DIR/kernel.cl,\n"
            "DIR/kernel.json and DIR/trace.mgt (trace format v3, traces/FORMAT.md;\n"
            "--no-trace skips it).  Without -o, prints the plan (--json: kernel.json)\n"
            "or, with --source, the kernel.  DIR cannot be - (the plan alone goes to\n"
            "stdout without -o).\n"
            "\n"
            "--max-work N   refuse to write a trace of more than about N warp\n"
            "    instructions (the plan's estimate, the \"work\" line; default 1e9;\n"
            "    0: no limit).  Traces of 10^6 or more draw a progress line on a\n"
            "    terminal (stderr, TERM not dumb).\n"
            "-q, --quiet   no progress line.\n"
            "\n"
            "Example:\n"
            "  mgsim gen conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 \\\n"
            "      layout=image -o /tmp/k\n");
}

/* -o DIR: the files, the trace with a progress line when it is long and
 * not quiet (prog_source.h).  0, or -1 with the problem in d. */
static int write_dir(const mg_gen *g, const char *dir, int no_trace, int quiet, mg_diag *d)
{
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_prog_source ps;
    memset(&ps, 0, sizeof ps);
    if (!no_trace && !quiet) mg_prog_source_wrap(&ps, &src, g, "mgsim: gen");
    int rc = mg_gen_write_dir(g, dir, no_trace, &src, d);
    mg_prog_source_end(&ps);
    return rc;
}

static void list_ops(FILE *f)
{
    for (int i = 0; mg_ops[i]; i++) fprintf(f, "  %-12s %s\n", mg_ops[i]->name, mg_ops[i]->summary);
}

static void print_plan(const mg_gen *g)
{
    const mg_kernel *k = &g->k;
    char sched[1024];
    printf("schedule   %s\n", mg_schedule_format(&g->s, sched, sizeof sched));
    printf("kernel     %s, work_dim %d, global %lld x %lld x %lld, local %lld x %lld x %lld, "
           "%llu work groups\n", k->name, k->work_dim, (long long)k->global[0],
           (long long)k->global[1], (long long)k->global[2], (long long)k->local[0],
           (long long)k->local[1], (long long)k->local[2],
           (unsigned long long)mg_gen_num_wgs(g));
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        printf("tensor     %-4s %-6s [%lld, %lld, %lld, %lld] %s %s", t->name,
               t->role == MG_TENSOR_IN ? "input" : "output", (long long)t->dims[0],
               (long long)t->dims[1], (long long)t->dims[2], (long long)t->dims[3],
               t->dtype == MG_DT_F32 ? "fp32" : t->dtype == MG_DT_F16 ? "fp16" : "int32",
               t->layout == MG_TL_IMAGE ? "image" : t->layout == MG_TL_CONSTANT ? "constant"
                                                                                 : "buffer");
        if (t->layout == MG_TL_IMAGE)
            printf(" %lldx%lld texels", (long long)mg_tensor_img_width(t),
                   (long long)mg_tensor_img_height(t));
        printf("\n");
    }
    const mg_features *f = &k->f;
    printf("features   regs/item %lld, loop iters %lld, bytes/iter %lld, bytes/item %lld, "
           "access width %lld B, local %lld B, flops %.0f, boundary checks %s\n",
           (long long)f->regs_per_item, (long long)f->loop_iters, (long long)f->bytes_per_iter,
           (long long)f->bytes_per_item, (long long)f->access_width, (long long)f->local_bytes,
           f->flops, f->boundary_checks ? "yes" : "no");
    mg_gen_work w;
    mg_gen_work_estimate(g, &w);
    char n[32], b[32];
    printf("work       about %s warp instructions in %.0f warps, %s trace bytes\n",
           mg_gen_count_str(w.instrs, n, sizeof n), w.warps,
           mg_gen_count_str(w.bytes, b, sizeof b));
}

int mg_cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"no-trace", no_argument, NULL, 'n'},
        {"source", no_argument, NULL, 's'},       {"json", no_argument, NULL, 'j'},
        {"list", no_argument, NULL, 'l'},         {"help", no_argument, NULL, 'h'},
        {"schedule", required_argument, NULL, 'S'}, {"max-work", required_argument, NULL, 'W'},
        {"quiet", no_argument, NULL, 'q'},        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *sched_file = NULL;
    int no_trace = 0, source = 0, json = 0, help = 0, quiet = 0;
    double max_work = MG_GEN_MAX_WORK_DEFAULT;
    int c;
    /* Options may come anywhere; key=value words are operands. */
    mg_opts po;
    mg_opts_start(&po, "mgsim", "gen", "o:hq", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': no_trace = 1; break;
        case 'q': quiet = 1; break;
        case 's': source = 1; break;
        case 'j': json = 1; break;
        case 'l': list_ops(stdout); return MG_EXIT_OK;
        case 'h': help = 1; break;
        case 'S': sched_file = optarg; break;
        case 'W':
            if (mg_gen_max_work_parse(optarg, &max_work))
                return mg_cli_usage_error("gen", "--max-work: expected a whole number >= 0 "
                                          "(0: no limit), not '%s'", optarg);
            break;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (sched_file && optind < argc)
        return mg_cli_usage_error("gen", "--schedule takes the whole schedule; no operands");
    if (out && !strcmp(out, "-"))
        return mg_cli_usage_error("gen", "-o -: -o names a folder (kernel.cl, kernel.json, "
                                  "trace.mgt); without -o the plan goes to stdout (--json, "
                                  "--source)");
    if (optind >= argc && !sched_file) {
        if (help) { gen_usage(stdout); list_ops(stdout); return MG_EXIT_OK; }
        return mg_cli_usage_error("gen", "expected an operator (mgsim gen --list)");
    }
    const char *opname = sched_file ? NULL : argv[optind];
    if (help && opname) {
        const mg_op *op = mg_op_find(opname);
        if (!op) return mg_cli_usage_error("gen", "unknown operator '%s'", opname);
        mg_schedule_print_keys(op, stdout);
        return MG_EXIT_OK;
    }
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    int rc = MG_EXIT_OK;
    mg_gen *g = calloc(1, sizeof *g);
    int parsed;
    if (sched_file) {
        cJSON *j = mg_json_load(sched_file, &d);
        parsed = j ? mg_schedule_from_json(j, sched_file, &s, &d) : -1;
        cJSON_Delete(j);
    } else {
        parsed = mg_schedule_parse(opname, argc - optind - 1, argv + optind + 1, &s, &d);
    }
    if (!g || parsed || mg_gen_prepare(g, &s, &d)) {
        rc = MG_EXIT_BAD;
    } else if (out) {
        if ((!no_trace && mg_gen_check_work(g, max_work, &d)) ||
            write_dir(g, out, no_trace, quiet, &d))
            rc = MG_EXIT_BAD;
    } else if (source) {
        fputs(g->source, stdout);
    } else if (json) {
        cJSON *j = mg_gen_kernel_json(g);
        mg_json_write(stdout, j);
        cJSON_Delete(j);
    } else {
        print_plan(g);
    }
    mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    if (g) mg_gen_free(g);
    free(g);
    return rc;
}

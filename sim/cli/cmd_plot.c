/*
 * cmd_plot.c - `mgsim plot KIND INPUT... [-o OUT.png|OUT.svg]`: render a
 * plot of mgsim's JSON outputs with gnuplot and the scripts in plots/
 * (sim/plot/plot.h).  gnuplot is needed only here: without it every other
 * command works, and this one says so and exits 2.
 */
#include "sim/cli/cli.h"
#include "sim/plot/plot.h"
#include "base/strsim.h"
#include "base/opts.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void plot_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim plot KIND INPUT... [-o OUT.png|OUT.svg] [--config CFG]\n"
            "                  [--data DIR]\n"
            "\n"
            "Draws KIND from mgsim's JSON outputs with gnuplot (which must be on PATH)\n"
            "and the gnuplot scripts in plots/ (installed in PREFIX/share/mgsim/plots;\n"
            "$MGSIM_PLOTS overrides).  OUT's extension picks PNG or SVG; the default is\n"
            "KIND.png; -o - writes a PNG to stdout (not a terminal).  The image is\n"
            "written to a temporary file and renamed.\n"
            "\n"
            "Kinds and their INPUT:\n");
    int w = 0;
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++)
        if ((int)strlen(k->name) > w) w = (int)strlen(k->name);
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++)
        fprintf(f, "  %-*s %s\n", w, k->name, k->input);
    fprintf(f,
            "\n"
            "  --config CFG  roofline: draw every memory level and both precisions' peaks\n"
            "                of the device config CFG, not only those the kernels touched\n"
            "  --data DIR    keep the data files gnuplot reads (meta.gp, *.dat) in DIR;\n"
            "                without -o, only write them (gnuplot is not needed then)\n"
            "\n"
            "Examples:\n"
            "  mgsim run --config configs/devices/adreno640.json --json -o k.json \\\n"
            "      conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image\n"
            "  mgsim plot roofline k.json -o roofline.png\n"
            "  mgsim plot chase configs/measured/h100/profile.json -o chase.svg\n");
}

/* The command line of plot. */
typedef struct plot_args {
    const char *out, *data, *cfg;     /* -o (KIND.png when not given), --data, --config */
    const mg_plot_kind *kind;
    int n;                            /* the INPUTs */
    char **inputs;
    int render;                       /* draw an image (not only --data) */
    char defout[64];
} plot_args;

/* "unknown kind" with the list of kinds; returns 2. */
static int unknown_kind(const char *name)
{
    const char *names[16];
    size_t n = 0;
    for (const mg_plot_kind *k = mg_plot_kinds; k->name && n < 16; k++) names[n++] = k->name;
    char list[256];
    return mg_cli_usage_error("plot", "unknown kind '%s' (kinds: %s)", name,
                              mg_join_names(list, sizeof list, names, n, ", "));
}

/* Parse plot's options and operands into a.  Returns -1 when the command
 * should go on, else its exit status (--help: 0; a usage error, printed: 2). */
static int plot_parse(int argc, char **argv, plot_args *a)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"config", required_argument, NULL, 'c'},
        {"data", required_argument, NULL, 'd'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "plot", "o:h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case 'c': a->cfg = optarg; break;
        case 'd': a->data = optarg; break;
        case 'h': plot_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (optind >= argc) return mg_cli_usage_error("plot", "expected a KIND and its INPUT");
    if (a->data && !strcmp(a->data, "-"))
        return mg_cli_usage_error("plot", "--data -: the data files are a folder, which cannot "
                                  "go to stdout");
    const mg_plot_kind *kind = a->kind = mg_plot_kind_find(argv[optind]);
    if (!kind) return unknown_kind(argv[optind]);
    a->n = argc - optind - 1;
    a->inputs = argv + optind + 1;
    if (a->n < 1) return mg_cli_usage_error("plot", "%s: expected INPUT (%s)", kind->name,
                                            kind->input);
    if (kind->max_inputs && a->n > kind->max_inputs)
        return mg_cli_usage_error("plot", "%s takes %d INPUT, got %d", kind->name,
                                  kind->max_inputs, a->n);
    if (a->cfg && strcmp(kind->name, "roofline"))
        return mg_cli_usage_error("plot", "--config applies to roofline only");
    a->render = a->out || !a->data;
    if (!a->out) {
        snprintf(a->defout, sizeof a->defout, "%s.png", kind->name);
        a->out = a->defout;
    }
    if (a->render && !mg_plot_term(a->out))
        return mg_cli_usage_error("plot", "%s: unknown image type (use .png or .svg, or - for "
                                  "a PNG on stdout)", a->out);
    if (a->render && !strcmp(a->out, "-") && isatty(STDOUT_FILENO))
        return mg_cli_usage_error("plot", "-o -: stdout is a terminal; redirect it to a file "
                                  "or a pipe for the PNG");
    return -1;
}

/* Find gnuplot and KIND's script (both malloc'd).  0, or -1 with the
 * message printed. */
static int find_tools(const mg_plot_kind *kind, char **gnuplot, char **scripts)
{
    *gnuplot = mg_plot_find_gnuplot();
    if (!*gnuplot) {
        fprintf(stderr, "mgsim: plot: gnuplot not found on PATH; install it (Debian: "
                        "apt-get install gnuplot-nox, or sh mk/deps.sh install), or "
                        "write the data only with --data DIR\n");
        return -1;
    }
    *scripts = mg_plot_find_scripts(kind->script);
    if (!*scripts) {
        fprintf(stderr, "mgsim: plot: cannot find the gnuplot script %s (looked in "
                        "$MGSIM_PLOTS, BINDIR/../share/mgsim/plots and BINDIR/../plots);"
                        " set MGSIM_PLOTS to the plots/ folder\n", kind->script);
        free(*gnuplot);
        *gnuplot = NULL;
        return -1;
    }
    return 0;
}

/* Write the data files and, unless only --data, draw the image; say what
 * was written on stdout.  0, or -1 with messages in d. */
static int plot_draw(const plot_args *a, const char *gnuplot, const char *scripts, mg_diag *d)
{
    mg_plot_job job;
    int rc = -1;
    if (mg_plot_job_init(&job, a->data, d)) goto done;
    job.config = a->cfg;
    mg_plot_var_input(&job, a->n, a->inputs);
    if (a->kind->prepare(&job, a->n, a->inputs, d) || mg_plot_job_finish(&job, d)) goto done;
    if (a->render && mg_plot_render(&job, gnuplot, scripts, a->kind->script, a->out, d))
        goto done;
    if (a->render && !strcmp(a->out, "-")) ;   /* stdout holds the image */
    else if (a->render) printf("%s: %s\n", a->out, job.summary);
    else printf("%s: data for %s\n", a->data, job.summary);
    rc = 0;
done:
    mg_plot_job_free(&job);
    return rc;
}

int mg_cmd_plot(int argc, char **argv)
{
    plot_args a;
    int rc = plot_parse(argc, argv, &a);
    if (rc >= 0) return rc;
    char *gnuplot = NULL, *scripts = NULL;
    if (a.render && find_tools(a.kind, &gnuplot, &scripts)) return MG_EXIT_BAD;
    mg_diag d;
    mg_diag_init(&d);
    rc = plot_draw(&a, gnuplot, scripts, &d) ? MG_EXIT_BAD : MG_EXIT_OK;
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    free(gnuplot);
    free(scripts);
    return rc;
}

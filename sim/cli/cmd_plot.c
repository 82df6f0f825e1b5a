/*
 * cmd_plot.c - `mgsim plot KIND INPUT... [-o OUT.png|OUT.svg]`: render a
 * plot of mgsim's JSON outputs with gnuplot and the scripts in plots/
 * (sim/plot/plot.h).  gnuplot is needed only here: without it every other
 * command works, and this one says so and exits 2.
 */
#include "sim/cli/cli.h"
#include "sim/plot/plot.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void plot_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim plot KIND INPUT... [-o OUT.png|OUT.svg] [--config CFG]\n"
            "                  [--data DIR]\n"
            "\n"
            "Draws KIND from mgsim's JSON outputs with gnuplot (which must be on PATH)\n"
            "and the gnuplot scripts in plots/ (installed in PREFIX/share/mgsim/plots;\n"
            "$MGSIM_PLOTS overrides).  OUT's extension picks PNG or SVG; the default is\n"
            "KIND.png.  The image is written to a temporary file and renamed.\n"
            "\n"
            "Kinds and their INPUT:\n");
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++)
        fprintf(f, "  %-9s %s\n", k->name, k->input);
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

int mg_cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"config", required_argument, NULL, 'c'},
        {"data", required_argument, NULL, 'd'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *data = NULL, *cfg = NULL;
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'c': cfg = optarg; break;
        case 'd': data = optarg; break;
        case 'h': plot_usage(stdout); return MG_EXIT_OK;
        default:
            return mg_cli_usage_error("plot", "unknown or incomplete option '%s'",
                                      argv[optind - 1]);
        }
    }
    if (optind >= argc) return mg_cli_usage_error("plot", "expected a KIND and its INPUT");
    const mg_plot_kind *kind = mg_plot_kind_find(argv[optind]);
    if (!kind) {
        char names[256] = "";
        for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? ", " : "", k->name);
        return mg_cli_usage_error("plot", "unknown kind '%s' (kinds: %s)", argv[optind], names);
    }
    int n = argc - optind - 1;
    char **inputs = argv + optind + 1;
    if (n < 1) return mg_cli_usage_error("plot", "%s: expected INPUT (%s)", kind->name,
                                         kind->input);
    if (kind->max_inputs && n > kind->max_inputs)
        return mg_cli_usage_error("plot", "%s takes %d INPUT, got %d", kind->name,
                                  kind->max_inputs, n);
    if (cfg && strcmp(kind->name, "roofline"))
        return mg_cli_usage_error("plot", "--config applies to roofline only");
    char defout[64];
    int render = out || !data;
    if (!out) {
        snprintf(defout, sizeof defout, "%s.png", kind->name);
        out = defout;
    }
    if (render && !mg_plot_term(out))
        return mg_cli_usage_error("plot", "%s: unknown image type (use .png or .svg)", out);
    char *gnuplot = NULL, *scripts = NULL;
    if (render) {
        gnuplot = mg_plot_find_gnuplot();
        if (!gnuplot) {
            fprintf(stderr, "mgsim: plot: gnuplot not found on PATH; install it (Debian: "
                            "apt-get install gnuplot-nox, or sh mk/deps.sh install), or "
                            "write the data only with --data DIR\n");
            return MG_EXIT_BAD;
        }
        scripts = mg_plot_find_scripts(kind->script);
        if (!scripts) {
            fprintf(stderr, "mgsim: plot: cannot find the gnuplot script %s (looked in "
                            "$MGSIM_PLOTS, BINDIR/../share/mgsim/plots and BINDIR/../plots);"
                            " set MGSIM_PLOTS to the plots/ folder\n", kind->script);
            free(gnuplot);
            return MG_EXIT_BAD;
        }
    }
    mg_diag d;
    mg_diag_init(&d);
    mg_plot_job job;
    int rc = MG_EXIT_BAD;
    if (mg_plot_job_init(&job, data, &d)) goto done;
    job.config = cfg;
    if (kind->prepare(&job, n, inputs, &d) || mg_plot_job_finish(&job, &d)) goto done;
    if (render && mg_plot_render(&job, gnuplot, scripts, kind->script, out, &d)) goto done;
    if (render) printf("%s: %s\n", out, job.summary);
    else printf("%s: data for %s\n", data, job.summary);
    rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    mg_plot_job_free(&job);
    free(gnuplot);
    free(scripts);
    return rc;
}

/*
 * cmd_compare.c - `mgsim compare`: a measured profile's curves against
 * the model's virtual profile, point by point (sim/analysis/curvecmp.h).
 */
#include "sim/cli/cli.h"
#include "sim/analysis/curvecmp.h"
#include "base/opts.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void compare_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim compare --measured PROFILE --model PROFILE [--exclude FILE]\n"
            "                     [--max-mean PCT] [-o REPORT.json | -o -]\n"
            "\n"
            "Sets a measured profile's curves (mgprobe run, mgsim import archprobe)\n"
            "against a model's (mgsim vprobe) point by point, at the x both have: per\n"
            "curve (bw_buffer, bw_image, bw_local, bw_constant, cache_buffer,\n"
            "cache_image) the mean and largest relative error and the knees\n"
            "(first_drop_bytes).  --exclude names points left out, each with its\n"
            "reason (shown).  --max-mean: exit 1 when a bandwidth curve's mean error\n"
            "exceeds PCT.  -o writes the report as JSON (mgsim-compare/1) besides the\n"
            "text on stdout; -o - prints the JSON alone on stdout.\n"
            "\n"
            "Example:\n"
            "  mgsim compare --measured pixel4.json --model model.json\n");
}

/* Exit 1 when a bw_* curve's mean error exceeds lim. */
static int over_limit(const cJSON *rep, double lim)
{
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(rep, "curves");
    for (const cJSON *c = cs ? cs->child : NULL; c; c = c->next) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(c, "aspect");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(c, "mean_error_pct");
        if (!strncmp(a->valuestring, "bw_", 3) && m->valuedouble > lim) return 1;
    }
    return 0;
}

int mg_cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"measured", required_argument, NULL, 'm'}, {"model", required_argument, NULL, 'M'},
        {"exclude", required_argument, NULL, 'x'},  {"max-mean", required_argument, NULL, 'l'},
        {"output", required_argument, NULL, 'o'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *meas = NULL, *model = NULL, *exf = NULL, *out = NULL;
    double lim = INFINITY;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "compare", "o:h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'm': meas = optarg; break;
        case 'M': model = optarg; break;
        case 'x': exf = optarg; break;
        case 'o': out = optarg; break;
        case 'l': {
            char *e;
            lim = strtod(optarg, &e);
            if (*e || !(lim >= 0)) return mg_cli_usage_error("compare", "--max-mean: expected a "
                                                             "percentage >= 0");
            break;
        }
        case 'h': compare_usage(stdout); return MG_EXIT_OK;
        default:                   /* base/opts.h printed why */
            return MG_EXIT_BAD;
        }
    }
    if (!meas || !model || optind < argc)
        return mg_cli_usage_error("compare", "--measured and --model are required");
    mg_diag d;
    mg_diag_init(&d);
    cJSON *ex = exf ? mg_json_load(exf, &d) : NULL, *rep = NULL;
    int rc = MG_EXIT_BAD;
    if (exf && !ex) goto done;
    rep = mg_curvecmp(meas, model, ex, &d);
    if (!rep || (out && mg_json_save(out, rep, &d))) goto done;
    if (!out || strcmp(out, "-")) mg_curvecmp_print(stdout, rep);
    rc = over_limit(rep, lim) ? MG_EXIT_NO : MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim: compare");
    mg_diag_free(&d);
    cJSON_Delete(ex);
    cJSON_Delete(rep);
    return rc;
}

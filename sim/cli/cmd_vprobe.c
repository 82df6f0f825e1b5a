/*
 * cmd_vprobe.c - `mgsim vprobe`: mgprobe's microbenchmark aspects run
 * through the timing model of a device config (sim/vprobe/vprobe.h); a
 * virtual profile in the probe's schema, and a summary table.
 */
#include "sim/cli/cli.h"
#include "base/term.h"
#include "sim/config/device.h"
#include "base/jsonout.h"
#include "sim/vprobe/vprobe.h"
#include "base/opts.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void vprobe_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim vprobe --config CFG [-o PROFILE.json] [--aspects LIST] [--json]\n"
            "\n"
            "Runs mgprobe's microbenchmark kernels (the same generator schedules)\n"
            "through the timing model of the device config CFG, turns simulated time\n"
            "into the probe's curves and concludes with the probe's knee detection:\n"
            "a virtual profile (mgsim-profile/1, configs/PROFILE.md) that `mgprobe\n"
            "check` accepts and `mgsim calibrate` reads.  Deterministic: the same\n"
            "config gives the same bytes.  What the model cannot show (atomic ticket\n"
            "order, register spills) is concluded null with the reason.\n"
            "\n"
            "  -c, --config CFG     the device config (required)\n"
            "  -o, --output FILE    write the profile to FILE and its curves to\n"
            "                       FILE less .json plus .curves/ (NAME.json each);\n"
            "                       not - (a folder cannot go to stdout: use --json)\n"
            "  -a, --aspects LIST   comma-separated aspects (default: all): warp,\n"
            "                       flops, alu, regs, cache_buffer, cache_image,\n"
            "                       bw_buffer, bw_image, bw_local, bw_constant, dram,\n"
            "                       rstride2d (alu reads flops, regs reads warp)\n"
            "      --sweep archprobe  the bandwidth aspects with ArchProbe's footprints\n"
            "                       (16 B x 2^k) and access pattern, to set against an\n"
            "                       `mgsim import archprobe` profile (`mgsim compare`)\n"
            "      --json           print the profile on stdout instead of the table\n"
            "  -q, --quiet          no progress lines on stderr (printed on a terminal)\n"
            "  -h, --help           print this help\n"
            "\n"
            "Example:\n"
            "  mgsim vprobe --config configs/devices/adreno640.json -o vprofile.json\n"
            "  mgsim calibrate --profile vprofile.json -o adreno640-roundtrip.json\n");
}

/* The table: one line per aspect, then one per conclusion. */
static void print_table(FILE *f, const cJSON *prof)
{
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(prof, "device");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(dev, "name");
    fprintf(f, "virtual profile of %s\n", cJSON_IsString(name) ? name->valuestring : "?");
    fprintf(f, "%-13s %-12s %-28s %14s %-8s %s\n", "aspect", "status", "key", "value", "unit",
            "conf");
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(prof, "aspects");
    for (const cJSON *a = as ? as->child : NULL; a; a = a->next) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(a, "status");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(a, "conclusion");
        int first = 1;
        for (const cJSON *k = c ? c->child : NULL; k; k = k->next, first = 0) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, "value");
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(k, "unit");
            const cJSON *cf = cJSON_GetObjectItemCaseSensitive(k, "confidence");
            char val[48], num[40], conf[16] = "-";
            if (cJSON_IsNumber(v)) snprintf(val, sizeof val, "%s",
                                            mg_json_number(v->valuedouble, num, sizeof num));
            else if (cJSON_IsString(v)) snprintf(val, sizeof val, "%s", v->valuestring);
            else snprintf(val, sizeof val, "null");
            if (cJSON_IsNumber(cf)) snprintf(conf, sizeof conf, "%.2f", cf->valuedouble);
            fprintf(f, "%-13s %-12s %-28s %14s %-8s %s\n", first ? a->string : "",
                    first && cJSON_IsString(st) ? st->valuestring : "", k->string, val,
                    cJSON_IsString(u) ? u->valuestring : "", conf);
        }
        if (first) fprintf(f, "%-13s %-12s\n", a->string,
                           cJSON_IsString(st) ? st->valuestring : "");
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(a, "error");
        if (cJSON_IsString(err)) fprintf(f, "%-13s error: %s\n", "", err->valuestring);
    }
}

enum { OPT_JSON = 256, OPT_SWEEP };

int mg_cmd_vprobe(int argc, char **argv)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'}, {"output", required_argument, NULL, 'o'},
        {"aspects", required_argument, NULL, 'a'}, {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"sweep", required_argument, NULL, OPT_SWEEP},
        {NULL, 0, NULL, 0},
    };
    const char *cfg = NULL, *out = NULL, *aspects = NULL;
    int json = 0, quiet = 0, archprobe = 0;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "vprobe", "c:o:a:qh", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'c': cfg = optarg; break;
        case 'o': out = optarg; break;
        case 'a': aspects = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_SWEEP:
            if (strcmp(optarg, "archprobe"))
                return mg_cli_usage_error("vprobe", "--sweep: unknown sweep '%s' (known: "
                                          "archprobe)", optarg);
            archprobe = 1;
            break;
        case 'q': quiet = 1; break;
        case 'h': vprobe_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (!cfg) return mg_cli_usage_error("vprobe", "--config CFG is required");
    if (optind < argc) return mg_cli_usage_error("vprobe", "unexpected argument '%s'", argv[optind]);
    if (out && !strcmp(out, "-"))
        return mg_cli_usage_error("vprobe", "-o -: the profile comes with a folder of curves, "
                                  "so it needs a file name (--json prints the profile alone "
                                  "on stdout)");
    mg_diag d;
    mg_diag_init(&d);
    int rc = MG_EXIT_BAD;
    cJSON *prof = NULL, *curves = NULL;
    mg_device *dev = malloc(sizeof *dev);
    if (!dev) goto done;
    if (aspects && mg_vprobe_check_aspects(aspects, &d)) goto done;
    if (mg_device_load(cfg, 0, dev, &d)) goto done;
    char cdir[4200];
    mg_vprobe_curves_dir(out ? out : "vprofile.json", cdir, sizeof cdir);
    const char *base = strrchr(cdir, '/');
    mg_vprobe_opts o = {aspects, !quiet && mg_term_progress(), cfg, archprobe};
    if (mg_vprobe_run(dev, &o, base ? base + 1 : cdir, &prof, &curves, &d)) goto done;
    if (out && mg_vprobe_save(out, prof, curves, &d)) goto done;
    if (json) {
        if (mg_json_write(stdout, prof)) goto done;
    } else {
        print_table(stdout, prof);
    }
    rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim: vprobe");
    mg_diag_free(&d);
    cJSON_Delete(prof);
    cJSON_Delete(curves);
    free(dev);
    return rc;
}

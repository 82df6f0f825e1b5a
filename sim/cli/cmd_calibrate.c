/*
 * cmd_calibrate.c - `mgsim calibrate`: a device config from a probe
 * profile (sim/calib/calibrate.h), and the report of where each value
 * came from.
 */
#include "sim/analysis/profile.h"
#include "sim/calib/calibrate.h"
#include "sim/cli/cli.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <stdlib.h>
#include <string.h>

static void calibrate_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim calibrate --profile PROFILE.json [--base CFG] -o CFG.json\n"
            "                       [--name NAME] [--min-confidence C] [--strict] [--json]\n"
            "\n"
            "Builds a device config (mgsim-device/1) from a probe profile (`mgprobe\n"
            "run` or `mgsim vprobe`): every key the profile answers is taken from it,\n"
            "with its source (\"measured\", \"driver\" for what the device reported,\n"
            "\"inferred\" for values derived from measured ones) naming the profile and\n"
            "the aspect.key; the rest comes from the base config (its own sources) or\n"
            "the schema default; a required key neither answers is a placeholder and\n"
            "reported as unknown.  The config is written complete (defaults written\n"
            "out) and passes `mgsim config check --strict`.  The report (stdout; on\n"
            "stderr when -o - puts the config on stdout) lists every key with its\n"
            "origin: profile, base, default or unknown.\n"
            "\n"
            "Every value taken from the profile is checked for plausibility against\n"
            "the device's other figures first: one a rule calls impossible is refused\n"
            "(the base's value is kept), one it calls suspicious is flagged and used;\n"
            "both are listed in the report and in the key's source (\"check\").  The\n"
            "rules (`--rules` prints them; configs/PROFILE.md, \"Plausibility checks\"):\n"
            "\n");
    mg_cal_rules_print(f, 0);
    fprintf(f,
            "\n"
            "  -p, --profile FILE        the profile (required)\n"
            "  -b, --base CFG            the config that fills what the profile lacks\n"
            "  -o, --output FILE         the calibrated config (required; atomic)\n"
            "  -n, --name NAME           device.name (default: BASE-calibrated)\n"
            "  -m, --min-confidence C    ignore conclusions below C (default 0.5)\n"
            "      --strict              refuse flagged values too\n"
            "      --rules               print the plausibility rules and exit\n"
            "      --json                the report as JSON\n"
            "  -h, --help                print this help\n"
            "\n"
            "Example:\n"
            "  mgsim calibrate --profile configs/measured/h100/profile.json \\\n"
            "      --base configs/devices/nvidia-h100.json -o h100-calibrated.json\n");
}

enum { OPT_JSON = 256, OPT_STRICT, OPT_RULES };

int mg_cmd_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"profile", required_argument, NULL, 'p'}, {"base", required_argument, NULL, 'b'},
        {"output", required_argument, NULL, 'o'},  {"name", required_argument, NULL, 'n'},
        {"min-confidence", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, OPT_JSON},    {"strict", no_argument, NULL, OPT_STRICT},
        {"rules", no_argument, NULL, OPT_RULES},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    mg_cal_opts o = {NULL, NULL, NULL, 0.5, 0};
    const char *out = NULL;
    int json = 0;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "calibrate", "p:b:o:n:m:h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'p': o.profile_path = optarg; break;
        case 'b': o.base_path = optarg; break;
        case 'o': out = optarg; break;
        case 'n': o.name = optarg; break;
        case 'm': {
            char *end;
            o.min_conf = strtod(optarg, &end);
            if (*end || end == optarg || !(o.min_conf >= 0 && o.min_conf <= 1))
                return mg_cli_usage_error("calibrate", "--min-confidence %s: expected a number "
                                          "in [0, 1]", optarg);
            break;
        }
        case OPT_JSON: json = 1; break;
        case OPT_STRICT: o.strict = 1; break;
        case OPT_RULES: mg_cal_rules_print(stdout, 1); return MG_EXIT_OK;
        case 'h': calibrate_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (!o.profile_path) return mg_cli_usage_error("calibrate", "--profile FILE is required");
    if (!out) return mg_cli_usage_error("calibrate", "-o CFG.json is required");
    if (optind < argc)
        return mg_cli_usage_error("calibrate", "unexpected argument '%s'", argv[optind]);
    if (o.name && (!o.name[0] || strlen(o.name) >= MG_NAME_MAX))
        return mg_cli_usage_error("calibrate", "--name: expected 1 to %d characters",
                                  MG_NAME_MAX - 1);
    mg_diag d;
    mg_diag_init(&d);
    int rc = MG_EXIT_BAD;
    mg_device *base = NULL;
    mg_cal *cal = calloc(1, sizeof *cal);
    cJSON *prof = mg_profile_load(o.profile_path, &d);
    if (!prof || !cal) goto done;
    if (o.base_path) {
        base = malloc(sizeof *base);
        if (!base || mg_device_load(o.base_path, 0, base, &d)) goto done;
    }
    if (mg_calibrate(prof, base, &o, cal, &d)) goto done;
    if (mg_json_save(out, cal->config, &d)) goto done;
    FILE *rf = strcmp(out, "-") ? stdout : stderr;    /* -o -: the config has stdout */
    if (json) {
        cJSON *j = mg_cal_report_json(cal);
        int w = mg_json_write(rf, j);
        cJSON_Delete(j);
        if (w) goto done;
    } else {
        mg_cal_report_text(rf, cal);
    }
    rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim: calibrate");
    mg_diag_free(&d);
    if (cal) mg_cal_free(cal);
    free(cal);
    free(base);
    cJSON_Delete(prof);
    return rc;
}

/*
 * pcmd_check.c - `mgprobe check [--print ASPECT.KEY] FILE...`: validate
 * profiles, curves, timings and suites against their schemas
 * (sim/analysis/profile.h, suite.h), recognised by "$.schema" (a bare JSON
 * array is a suite).  No OpenCL is used.  --print prints one concluded
 * value of a profile (a number, a string, or "null"), for scripts.
 */
#include "probe/mgprobe.h"
#include "sim/analysis/profile.h"
#include "sim/analysis/suite.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <stdio.h>
#include <string.h>

static void check_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe check [--print ASPECT.KEY] FILE...\n"
            "\n"
            "Validate each FILE against its schema, told by its \"schema\" member:\n"
            "mgsim-profile/1 (`mgprobe run`), mgsim-curve/1 (its curves),\n"
            "mgsim-timings/1 (`mgprobe time`), mgsim-suite/1 or a bare JSON array (a\n"
            "kernel suite).  One line per file: \"FILE: ok (SCHEMA...)\", or every\n"
            "problem as FILE: $.path: what was expected.\n"
            "\n"
            "  -p, --print ASPECT.KEY  print the profile's concluded value of KEY in\n"
            "                          ASPECT (e.g. cache_buffer.l1_size): a number, a\n"
            "                          string, or null; nothing else is printed\n"
            "  -h, --help              print this help\n"
            "\n"
            "Exit status: 0 every file is valid; 2 any is not (or bad usage).\n");
}

static const struct option check_opts[] = {
    {"print", required_argument, NULL, 'p'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Print aspect.key of profile p.  Returns 0, or 2 when the aspect is not
 * in the profile. */
static int print_value(const char *path, const cJSON *p, const char *what)
{
    char aspect[128];
    const char *dot = strchr(what, '.');
    if (!dot || dot == what || (size_t)(dot - what) >= sizeof aspect) {
        fprintf(stderr, "mgprobe: check: --print %s: expected ASPECT.KEY\n", what);
        return MGP_EXIT_BAD;
    }
    snprintf(aspect, sizeof aspect, "%.*s", (int)(dot - what), what);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(p, "aspects"), aspect);
    if (!a) {
        fprintf(stderr, "mgprobe: check: %s: no aspect '%s'\n", path, aspect);
        return MGP_EXIT_BAD;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "conclusion"),
                                         dot + 1), "value");
    char num[40];
    if (cJSON_IsNumber(v)) printf("%s\n", mg_json_number(v->valuedouble, num, sizeof num));
    else if (cJSON_IsString(v)) printf("%s\n", v->valuestring);
    else printf("null\n");
    return MGP_EXIT_OK;
}

/* Validate one file; print its line.  Returns the exit status. */
static int check_one(const char *path, const char *print)
{
    mg_diag d;
    mg_diag_init(&d);
    cJSON *doc = mg_json_load(path, &d);
    const char *kind = "";
    char what[160] = "";
    if (doc) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "schema");
        const char *schema = cJSON_IsString(s) ? s->valuestring : cJSON_IsArray(doc) ? "" : NULL;
        if (schema && !strcmp(schema, MG_PROFILE_SCHEMA)) {
            kind = MG_PROFILE_SCHEMA;
            if (!mg_profile_validate(doc, path, &d))
                snprintf(what, sizeof what, ", %d aspects",
                         cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "aspects")));
        } else if (schema && !strcmp(schema, MG_CURVE_SCHEMA)) {
            kind = MG_CURVE_SCHEMA;
            mg_curve_validate(doc, path, &d);
        } else if (schema && !strcmp(schema, MG_TIMINGS_SCHEMA)) {
            kind = MG_TIMINGS_SCHEMA;
            if (!mg_timings_validate(doc, path, &d))
                snprintf(what, sizeof what, ", %d kernels",
                         cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "kernels")));
        } else if (schema && (!*schema || !strcmp(schema, MG_SUITE_SCHEMA))) {
            kind = MG_SUITE_SCHEMA;
            mg_suite su;
            if (!mg_suite_parse(doc, path, &su, &d)) {
                snprintf(what, sizeof what, ", %zu schedules", su.n);
                mg_suite_free(&su);
            }
        } else {
            mg_diag_error(&d, "%s: $.schema: expected \"%s\", \"%s\", \"%s\" or \"%s\" (or a "
                          "bare array: a suite)", path, MG_PROFILE_SCHEMA, MG_CURVE_SCHEMA,
                          MG_TIMINGS_SCHEMA, MG_SUITE_SCHEMA);
        }
    }
    int rc = MGP_EXIT_OK;
    if (mg_diag_failed(&d)) {
        mg_diag_print(&d, stderr, "mgprobe: check");
        rc = MGP_EXIT_BAD;
    } else if (print) {
        if (strcmp(kind, MG_PROFILE_SCHEMA)) {
            fprintf(stderr, "mgprobe: check: %s: --print needs a profile\n", path);
            rc = MGP_EXIT_BAD;
        } else {
            rc = print_value(path, doc, print);
        }
    } else {
        printf("%s: ok (%s%s)\n", path, kind, what);
    }
    cJSON_Delete(doc);
    mg_diag_free(&d);
    return rc;
}

int mgp_cmd_check(int argc, char **argv)
{
    const char *print = NULL;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgprobe", "check", "p:h", check_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'p': print = optarg; break;
        case 'h': check_usage(stdout); return MGP_EXIT_OK;
        default:
            return MGP_EXIT_BAD;
        }
    }
    if (optind >= argc) return mgp_usage_error("check", "no file to check");
    int rc = MGP_EXIT_OK;
    for (int i = optind; i < argc; i++)
        if (check_one(argv[i], print) != MGP_EXIT_OK) rc = MGP_EXIT_BAD;
    return rc;
}

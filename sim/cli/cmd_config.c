/*
 * cmd_config.c - `mgsim config check|show|diff|keys`.
 */
#include "sim/cli/cli.h"
#include "sim/config/device.h"
#include "sim/config/print.h"
#include "sim/config/schema.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/units.h"
#include "base/opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void config_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim config check [--strict] [-q] FILE...\n"
            "       mgsim config show [--text] [-o OUT] FILE\n"
            "       mgsim config diff [--json] A B\n"
            "       mgsim config keys [--json]\n"
            "       mgsim config summary [--json] FILE...\n"
            "\n"
            "check  validate device configs against the schema and its cross-field\n"
            "       rules; every problem is reported with the file and JSON path.\n"
            "       --strict  a value without an entry in \"sources\" is an error\n"
            "       -q, --quiet  print nothing for valid files\n"
            "       exit 0 when all are valid, 2 otherwise\n"
            "show   print the fully resolved config (defaults filled, units\n"
            "       canonical) as JSON, or with --text as a table of key, value,\n"
            "       origin (file|default) and source; -o writes to OUT atomically\n"
            "diff   list the keys whose resolved values differ; exit 0 when none\n"
            "       differ, 1 when some do, 2 on bad input\n"
            "keys   list the schema: key, type, unit, range, default, condition, help\n"
            "summary  one row of headline figures per device: cores, lanes, clock,\n"
            "       fp32/fp16 peak, warp, register model, texture L1, L2, DRAM\n"
            "\n"
            "The schema is documented in configs/README.md.\n");
}

enum { OPT_STRICT = 256, OPT_QUIET, OPT_TEXT, OPT_JSON, OPT_HELP };

static const struct option config_opts[] = {
    {"strict", no_argument, NULL, OPT_STRICT},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"text", no_argument, NULL, OPT_TEXT},
    {"json", no_argument, NULL, OPT_JSON},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct config_args {
    int strict, quiet, text, json, help;
    const char *out;
} config_args;

/* Parse options of `config SUB ...`; returns index of the first operand,
 * or -1 after a usage error was printed. */
static int parse_opts(int argc, char **argv, config_args *a)
{
    memset(a, 0, sizeof *a);
    int c;
    char who[48];
    snprintf(who, sizeof who, "config %s", argv[0]);
    mg_opts po;
    mg_opts_start(&po, "mgsim", who, "o:qh", config_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case OPT_STRICT: a->strict = 1; break;
        case 'q':
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_TEXT: a->text = 1; break;
        case OPT_JSON: a->json = 1; break;
        case 'o': a->out = optarg; break;
        case 'h': a->help = 1; break;
        default:
            return -1;
        }
    }
    return optind;
}

static int config_check(int argc, char **argv)
{
    config_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { config_usage(stdout); return MG_EXIT_OK; }
    if (i >= argc) return mg_cli_usage_error("config", "check: expected one or more FILEs");
    int bad = 0;
    for (; i < argc; i++) {
        mg_diag d;
        mg_diag_init(&d);
        mg_device *dev = malloc(sizeof *dev);
        if (!dev) { fprintf(stderr, "mgsim: out of memory\n"); return MG_EXIT_BAD; }
        int rc = mg_device_load(argv[i], a.strict, dev, &d);
        mg_diag_print(&d, stderr, "mgsim");
        if (rc) {
            bad = 1;
        } else if (!a.quiet) {
            int nset = 0, nsrc = 0;
            for (size_t k = 0; k < mg_schema_count; k++) {
                nset += dev->set[k];
                nsrc += dev->src[k].kind != MG_SRC_NONE;
            }
            printf("%s: ok: %s, %d keys set (%d sourced), %.1f GFLOPS fp32 peak\n", argv[i],
                   dev->name, nset, nsrc, mg_device_peak_flops(dev, 0) / 1e9);
        }
        mg_diag_free(&d);
        free(dev);
    }
    return bad ? MG_EXIT_BAD : MG_EXIT_OK;
}

/* Load one config or print its errors; NULL on failure. */
static mg_device *load_one(const char *path)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_device *dev = malloc(sizeof *dev);
    if (!dev) { fprintf(stderr, "mgsim: out of memory\n"); return NULL; }
    int rc = mg_device_load(path, 0, dev, &d);
    /* show/diff are about values: print errors, not missing-source warnings. */
    if (rc) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    if (rc) { free(dev); return NULL; }
    return dev;
}

static int config_show(int argc, char **argv)
{
    config_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { config_usage(stdout); return MG_EXIT_OK; }
    if (argc - i != 1) return mg_cli_usage_error("config", "show: expected exactly one FILE");
    mg_device *dev = load_one(argv[i]);
    if (!dev) return MG_EXIT_BAD;
    mg_afile af;
    FILE *f = mg_afile_open(&af, a.out ? a.out : "-");
    if (!f) {
        fprintf(stderr, "mgsim: %s: cannot write: %s\n", a.out, strerror(errno));
        free(dev);
        return MG_EXIT_BAD;
    }
    if (a.text) {
        mg_device_print_text(dev, f);
    } else {
        cJSON *j = mg_device_to_json(dev);
        if (j) mg_json_write(f, j);
        cJSON_Delete(j);
    }
    free(dev);
    if (mg_afile_commit(&af)) {
        fprintf(stderr, "mgsim: %s: write failed: %s\n", a.out ? a.out : "stdout",
                strerror(errno));
        return MG_EXIT_BAD;
    }
    return MG_EXIT_OK;
}

static int config_diff(int argc, char **argv)
{
    config_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { config_usage(stdout); return MG_EXIT_OK; }
    if (argc - i != 2) return mg_cli_usage_error("config", "diff: expected two FILEs, A and B");
    mg_device *A = load_one(argv[i]);
    mg_device *B = load_one(argv[i + 1]);
    if (!A || !B) { free(A); free(B); return MG_EXIT_BAD; }
    int ndiff = 0, wa = (int)strlen(argv[i]);
    cJSON *arr = cJSON_CreateArray();
    for (size_t k = 0; k < mg_schema_count; k++) {     /* width of column A */
        char v[256];
        if (!mg_schema_applies(&mg_schema[k], A)) continue;
        int n = (int)strlen(mg_device_field_text(A, k, v, sizeof v));
        if (n > wa && n <= 40) wa = n;
    }
    if (!a.json) printf("%-34s %-*s %s\n", "key", wa, argv[i], argv[i + 1]);
    for (size_t k = 0; k < mg_schema_count; k++) {
        int ina = mg_schema_applies(&mg_schema[k], A);
        int inb = mg_schema_applies(&mg_schema[k], B);
        char va[256] = "-", vb[256] = "-";
        if (ina) mg_device_field_text(A, k, va, sizeof va);
        if (inb) mg_device_field_text(B, k, vb, sizeof vb);
        if (!strcmp(va, vb)) continue;
        ndiff++;
        if (a.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "key", mg_schema[k].key);
            cJSON_AddItemToObject(o, "a", ina ? mg_device_field_json(A, k) : cJSON_CreateNull());
            cJSON_AddItemToObject(o, "b", inb ? mg_device_field_json(B, k) : cJSON_CreateNull());
            cJSON_AddItemToArray(arr, o);
        } else {
            printf("%-34s %-*s %s\n", mg_schema[k].key, wa, va, vb);
        }
    }
    if (a.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "a", argv[i]);
        cJSON_AddStringToObject(root, "b", argv[i + 1]);
        cJSON_AddNumberToObject(root, "differences", ndiff);
        cJSON_AddItemToObject(root, "keys", arr);
        mg_json_write(stdout, root);
        cJSON_Delete(root);
    } else {
        cJSON_Delete(arr);
        printf("%d key%s differ%s\n", ndiff, ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
    }
    free(A);
    free(B);
    return ndiff ? MG_EXIT_NO : MG_EXIT_OK;
}

static const char *type_name(mg_ftype t)
{
    switch (t) {
    case MG_T_STR: return "string";
    case MG_T_INT: return "integer";
    case MG_T_NUM: return "number";
    case MG_T_ENUM: return "enum";
    case MG_T_SIZE: return "size";
    case MG_T_FREQ: return "frequency";
    case MG_T_BW: return "bandwidth";
    case MG_T_TIME: return "time";
    case MG_T_STEPS: return "steps";
    }
    return "?";
}

static void range_text(const mg_field *f, char *buf, size_t len)
{
    char lo[32], hi[32];
    mg_unit_kind k = MG_UNIT_SIZE;
    switch (f->type) {
    case MG_T_STR: snprintf(buf, len, "<%zu chars", f->cap); return;
    case MG_T_STEPS: snprintf(buf, len, "1..%d steps", MG_MAX_STEPS); return;
    case MG_T_ENUM: {
        buf[0] = '\0';
        for (size_t i = 0; f->names[i]; i++) {
            if (i) strncat(buf, "|", len - strlen(buf) - 1);
            strncat(buf, f->names[i], len - strlen(buf) - 1);
        }
        return;
    }
    case MG_T_INT:
        snprintf(buf, len, "%.0f..%.0f", f->min, f->max);
        return;
    case MG_T_NUM:
        snprintf(buf, len, "%g..%g", f->min, f->max);
        return;
    case MG_T_SIZE: k = MG_UNIT_SIZE; break;
    case MG_T_FREQ: k = MG_UNIT_FREQ; break;
    case MG_T_BW: k = MG_UNIT_BANDWIDTH; break;
    case MG_T_TIME: k = MG_UNIT_TIME; break;
    }
    snprintf(buf, len, "%s..%s", mg_unit_format(k, f->min, lo, sizeof lo),
             mg_unit_format(k, f->max, hi, sizeof hi));
}

static int config_keys(int argc, char **argv)
{
    config_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { config_usage(stdout); return MG_EXIT_OK; }
    if (i != argc) return mg_cli_usage_error("config", "keys: takes no operands");
    cJSON *arr = a.json ? cJSON_CreateArray() : NULL;
    if (!a.json)
        printf("%-34s %-9s %-10s %-24s %-30s %s\n", "key", "type", "unit", "range", "default",
               "help");
    for (size_t k = 0; k < mg_schema_count; k++) {
        const mg_field *f = &mg_schema[k];
        char range[96], def[96];
        range_text(f, range, sizeof range);
        if (f->def) snprintf(def, sizeof def, "%s", f->def[0] ? f->def : "\"\"");
        else if (f->when) snprintf(def, sizeof def, "required if %s", f->when);
        else snprintf(def, sizeof def, "required");
        if (f->def && f->when) {
            size_t n = strlen(def);
            snprintf(def + n, sizeof def - n, " (if %s)", f->when);
        }
        if (a.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "key", f->key);
            cJSON_AddStringToObject(o, "type", type_name(f->type));
            cJSON_AddStringToObject(o, "unit", f->unit);
            cJSON_AddStringToObject(o, "range", range);
            if (f->def) cJSON_AddStringToObject(o, "default", f->def);
            else cJSON_AddNullToObject(o, "default");
            if (f->when) cJSON_AddStringToObject(o, "when", f->when);
            cJSON_AddStringToObject(o, "help", f->help);
            cJSON_AddItemToArray(arr, o);
        } else {
            printf("%-34s %-9s %-10s %-24s %-30s %s\n", f->key, type_name(f->type), f->unit,
                   range, def, f->help);
        }
    }
    if (a.json) {
        mg_json_write(stdout, arr);
        cJSON_Delete(arr);
    }
    return MG_EXIT_OK;
}

static int config_summary(int argc, char **argv)
{
    config_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { config_usage(stdout); return MG_EXIT_OK; }
    if (i >= argc) return mg_cli_usage_error("config", "summary: expected one or more FILEs");
    int bad = 0;
    cJSON *arr = cJSON_CreateArray();
    if (!a.json)
        printf("%-14s %5s %6s %8s %9s %9s %5s %-11s %7s %7s %10s\n", "device", "cores",
               "lanes", "clock", "fp32", "fp16", "warp", "registers", "tex_l1", "l2",
               "dram");
    for (; i < argc; i++) {
        mg_device *dev = load_one(argv[i]);
        if (!dev) { bad = 1; continue; }
        char clk[32], t1[32], l2[32], bw[32], regs[32];
        mg_unit_format(MG_UNIT_FREQ, dev->clock_hz, clk, sizeof clk);
        mg_unit_format(MG_UNIT_SIZE, (double)dev->tex_l1.size, t1, sizeof t1);
        mg_unit_format(MG_UNIT_SIZE, (double)dev->l2.size, l2, sizeof l2);
        mg_unit_format(MG_UNIT_BANDWIDTH, dev->dram_bandwidth, bw, sizeof bw);
        if (dev->reg_model == MG_REG_SHARED_POOL)
            snprintf(regs, sizeof regs, "pool %lld", (long long)dev->pool_regs_per_sp);
        else
            snprintf(regs, sizeof regs, "ded. %lld", (long long)dev->max_regs_per_item);
        double p32 = mg_device_peak_flops(dev, 0) / 1e9, p16 = mg_device_peak_flops(dev, 1) / 1e9;
        if (a.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", argv[i]);
            cJSON_AddStringToObject(o, "device", dev->name);
            cJSON_AddNumberToObject(o, "cores", (double)dev->sp_count);
            cJSON_AddNumberToObject(o, "lanes", (double)(dev->sp_count * dev->alus_per_sp));
            cJSON_AddNumberToObject(o, "clock_hz", dev->clock_hz);
            cJSON_AddNumberToObject(o, "fp32_gflops", p32);
            cJSON_AddNumberToObject(o, "fp16_gflops", p16);
            cJSON_AddNumberToObject(o, "warp_width", (double)dev->warp_width);
            cJSON_AddStringToObject(o, "register_model", mg_reg_model_names[dev->reg_model]);
            cJSON_AddNumberToObject(o, "tex_l1_bytes", (double)dev->tex_l1.size);
            cJSON_AddNumberToObject(o, "l2_bytes", (double)dev->l2.size);
            cJSON_AddNumberToObject(o, "dram_bytes_per_s", dev->dram_bandwidth);
            cJSON_AddItemToArray(arr, o);
        } else {
            printf("%-14s %5lld %6lld %8s %9.1f %9.1f %5lld %-11s %7s %7s %10s\n", dev->name,
                   (long long)dev->sp_count, (long long)(dev->sp_count * dev->alus_per_sp), clk,
                   p32, p16, (long long)dev->warp_width, regs, t1, l2, bw);
        }
        free(dev);
    }
    if (a.json) mg_json_write(stdout, arr);
    else printf("(fp32/fp16 in GFLOPS: cores x lanes x flops per lane-cycle x clock)\n");
    cJSON_Delete(arr);
    return bad ? MG_EXIT_BAD : MG_EXIT_OK;
}

int mg_cmd_config(int argc, char **argv)
{
    static const struct { const char *name; int (*fn)(int, char **); } subs[] = {
        {"check", config_check}, {"show", config_show}, {"diff", config_diff},
        {"keys", config_keys}, {"summary", config_summary},
    };
    if (argc < 2) {
        config_usage(stderr);
        return MG_EXIT_BAD;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        config_usage(stdout);
        return MG_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (!strcmp(argv[1], subs[i].name)) return subs[i].fn(argc - 1, argv + 1);
    return mg_cli_usage_error("config", "unknown subcommand '%s' (check, show, diff, keys, summary)",
                              argv[1]);
}

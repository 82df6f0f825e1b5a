/*
 * cmd_import.c - `mgsim import FORMAT INPUT`: measurements from other
 * tools turned into mgsim's documents.  Formats: archprobe (a report
 * folder -> an mgsim profile with its curves, sim/calib/archprobe.h),
 * autotvm (a tuning log -> generator schedules and timings,
 * sim/calib/autotvm.h).
 */
#include "sim/cli/cli.h"
#include "sim/calib/archprobe.h"
#include "sim/calib/autotvm.h"
#include "sim/vprobe/vprobe.h"
#include "base/opts.h"
#include "base/afile.h"
#include "base/jsonout.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static void import_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim import archprobe DIR [-o PROFILE.json] [--name NAME]\n"
            "       mgsim import autotvm LOG [-o DIR]\n"
            "\n"
            "Reads an ArchProbe report folder (microsoft/ArchProbe: ArchProbeReport.json\n"
            "and the CSV sweeps beside it) into an mgsim profile (mgsim-profile/1,\n"
            "configs/PROFILE.md): warp, flops, regs, cache_buffer, cache_image and the\n"
            "four bandwidth aspects, each conclusion's method naming the report key or\n"
            "CSV it comes from, each curve its file and columns, each point its CSV\n"
            "lines and raw cells.  `mgsim calibrate --profile` reads the result.\n"
            "Prints one line per conclusion.  Bad input: one line, exit 2, nothing\n"
            "written.\n"
            "\n"
            "AutoTVM: reads a tuning log (JSON lines, e.g. TVM's tophub mali_v0.06.log)\n"
            "and maps every record onto a generator schedule (conv2d spatial pack and\n"
            "depthwise; doc/validation.md says what differs from TVM's kernels).  Prints\n"
            "the import report: records per task as matched, approximate or not\n"
            "reproduced, each of the last two with its reason.  With -o DIR writes\n"
            "DIR/timings.json (mgsim-timings/1: every reproduced record's schedule and\n"
            "measured cost, for `mgsim validate`), DIR/timings-matched.json and\n"
            "DIR/timings-approximate.json (each fidelity alone; a file with no kernel\n"
            "is not written), DIR/import.json and DIR/import.txt (the report).  A bad\n"
            "line: one line naming its number, exit 2, nothing written.\n"
            "\n"
            "  -o, --output FILE    archprobe: write the profile to FILE and its curves\n"
            "                       to FILE less .json plus .curves/ (NAME.json each);\n"
            "                       autotvm: the folder to write (made if missing);\n"
            "                       neither can be - (stdout)\n"
            "  -n, --name NAME      the device name (default: DIR's last component)\n"
            "  -h, --help           print this help\n"
            "\n"
            "Example:\n"
            "  mgsim import archprobe ../shared/data/archprobe-pixel4 --name \"Adreno 640 \\\n"
            "      (Pixel 4, ArchProbe)\" -o pixel4.json\n"
            "  mgsim calibrate --profile pixel4.json --base configs/devices/adreno640.json \\\n"
            "      -o adreno640-pixel4.json\n"
            "  mgsim import autotvm configs/measured/mali-t860/autotvm/mali_v0.06.log -o t860\n"
            "  mgsim validate --config mali-t860-mp4 t860/timings-matched.json\n");
}

/* One line per conclusion: aspect, key, value, unit. */
static void print_conclusions(FILE *f, const cJSON *prof)
{
    fprintf(f, "%-13s %-28s %14s %s\n", "aspect", "key", "value", "unit");
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(prof, "aspects");
    for (const cJSON *a = as ? as->child : NULL; a; a = a->next) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(a, "conclusion");
        for (const cJSON *k = c ? c->child : NULL; k; k = k->next) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, "value");
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(k, "unit");
            char val[48], num[40];
            if (cJSON_IsNumber(v))
                snprintf(val, sizeof val, "%s", mg_json_number(v->valuedouble, num, sizeof num));
            else if (cJSON_IsString(v)) snprintf(val, sizeof val, "%s", v->valuestring);
            else snprintf(val, sizeof val, "null");
            fprintf(f, "%-13s %-28s %14s %s\n", a->string, k->string, val,
                    cJSON_IsString(u) ? u->valuestring : "");
        }
    }
}

/* Write the import report's text to DIR/import.txt (atomically). */
static int save_text(const char *path, const cJSON *rep, mg_diag *d)
{
    mg_afile a;
    FILE *f = mg_afile_open(&a, path);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    mg_autotvm_print(f, rep);
    if (mg_afile_commit(&a)) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The autotvm documents into dir (made if missing). */
static int save_autotvm(const char *dir, cJSON *const *timings, const cJSON *rep, mg_diag *d)
{
    struct stat st;
    if (mkdir(dir, 0777) && !(errno == EEXIST && !stat(dir, &st) && S_ISDIR(st.st_mode))) {
        mg_diag_error(d, "%s: cannot make the output folder: %s", dir,
                      errno == EEXIST ? "a file is in the way" : strerror(errno));
        return -1;
    }
    char path[4200];
    for (int i = 0; i < MG_ATVM_T_COUNT; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, mg_autotvm_files[i]);
        if (timings[i] && mg_json_save(path, timings[i], d)) return -1;
    }
    snprintf(path, sizeof path, "%s/import.json", dir);
    if (mg_json_save(path, rep, d)) return -1;
    snprintf(path, sizeof path, "%s/import.txt", dir);
    return save_text(path, rep, d);
}

static int import_autotvm(const char *log, const char *dir)
{
    mg_diag d;
    mg_diag_init(&d);
    cJSON *t[MG_ATVM_T_COUNT] = {NULL}, *rep = NULL;
    int rc = MG_EXIT_BAD;
    if (mg_autotvm_import(log, t, &rep, &d)) goto done;
    if (dir && save_autotvm(dir, t, rep, &d)) goto done;
    mg_autotvm_print(stdout, rep);
    rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim: import");
    mg_diag_free(&d);
    for (int i = 0; i < MG_ATVM_T_COUNT; i++) cJSON_Delete(t[i]);
    cJSON_Delete(rep);
    return rc;
}

int mg_cmd_import(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"name", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *name = NULL;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "import", "o:n:h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': name = optarg; break;
        case 'h': import_usage(stdout); return MG_EXIT_OK;
        default:                   /* base/opts.h printed why */
            return MG_EXIT_BAD;
        }
    }
    if (argc - optind != 2)
        return mg_cli_usage_error("import", "expected FORMAT and INPUT (e.g. archprobe DIR)");
    if (out && !strcmp(out, "-"))
        return mg_cli_usage_error("import", "-o -: %s", !strcmp(argv[optind], "autotvm")
                                  ? "autotvm writes a folder of documents, so it needs a "
                                    "folder name"
                                  : "the profile comes with a folder of curves, so it needs "
                                    "a file name");
    if (!strcmp(argv[optind], "autotvm")) {
        if (name) return mg_cli_usage_error("import", "--name is for archprobe");
        return import_autotvm(argv[optind + 1], out);
    }
    if (strcmp(argv[optind], "archprobe"))
        return mg_cli_usage_error("import", "unknown format '%s' (known: archprobe, autotvm)",
                                  argv[optind]);
    mg_diag d;
    mg_diag_init(&d);
    cJSON *prof = NULL, *curves = NULL;
    char cdir[4200];
    mg_vprobe_curves_dir(out ? out : "profile.json", cdir, sizeof cdir);
    const char *base = strrchr(cdir, '/');
    int rc = MG_EXIT_BAD;
    if (mg_archprobe_import(argv[optind + 1], name, base ? base + 1 : cdir, &prof, &curves, &d))
        goto done;
    if (out && mg_vprobe_save(out, prof, curves, &d)) goto done;
    print_conclusions(stdout, prof);
    rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim: import");
    mg_diag_free(&d);
    cJSON_Delete(prof);
    cJSON_Delete(curves);
    return rc;
}

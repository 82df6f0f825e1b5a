/*
 * pcmd_devices.c - `mgprobe devices [--json] [-o FILE]`: list every OpenCL
 * platform and device with its key properties, as a text table per device
 * or as JSON.  The data comes from devinfo.c; this file parses options and
 * renders.
 */
#include "probe/devinfo.h"
#include "probe/mgprobe.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <errno.h>
#include <string.h>

/* Print the help of `mgprobe devices` to f. */
static void devices_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgprobe devices [--json] [-o FILE]\n"
            "\n"
            "List every OpenCL platform (index, name, vendor, version) and every\n"
            "device, named P:D (platform index:device index), with the clGetDeviceInfo\n"
            "values that matter for a device config: type, compute units, clock,\n"
            "work-group limits, vector widths, memory and cache sizes, image limits\n"
            "and the cl_khr_fp16/cl_khr_fp64 extensions.  A query that fails is shown\n"
            "as \"unavailable (CL_ERROR_NAME)\" (null in JSON, with the error under\n"
            "\"unavailable\") and the listing goes on.\n"
            "\n"
            "  --json           print a JSON object {\"platforms\": [...]} instead of text\n"
            "  -o, --output FILE\n"
            "                   write to FILE (replaced only when complete), not stdout\n"
            "  -h, --help       print this help\n"
            "\n"
            "Exit status: 0 success; 2 bad usage, or a platform whose devices could\n"
            "not be listed (the rest is still printed); 3 no OpenCL platform found.\n");
}

enum { OPT_JSON = 256 };

static const struct option devices_opts[] = {
    {"json", no_argument, NULL, OPT_JSON},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Write a byte count as "N (X.Y UNIT)", or "N bytes" below 1 KiB, into buf. */
static const char *bytes_text(double v, char *buf, size_t len)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    char num[40];
    mg_json_number(v, num, sizeof num);
    if (v < 1024) {
        snprintf(buf, len, "%s bytes", num);
        return buf;
    }
    double x = v / 1024;
    size_t u = 0;
    while (x >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        x /= 1024;
        u++;
    }
    if (x == (double)(long long)x) snprintf(buf, len, "%s (%.0f %s)", num, x, units[u]);
    else snprintf(buf, len, "%s (%.1f %s)", num, x, units[u]);
    return buf;
}

/* Write the text form of field f's value v (never NULL) into buf; a null
 * value shows the error recorded under `unavail`. */
static const char *value_text(const mgp_field *f, const cJSON *v, const cJSON *unavail,
                              char *buf, size_t len)
{
    char num[40];
    if (cJSON_IsNull(v)) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(unavail, f->key);
        snprintf(buf, len, "unavailable (%s)", cJSON_IsString(e) ? e->valuestring : "?");
    } else if (cJSON_IsString(v)) {
        snprintf(buf, len, "%s", v->valuestring);
    } else if (cJSON_IsBool(v)) {
        snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "yes" : "no");
    } else if (cJSON_IsArray(v)) {
        buf[0] = '\0';
        for (const cJSON *c = v->child; c; c = c->next) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%s", n ? " x " : "",
                     mg_json_number(c->valuedouble, num, sizeof num));
        }
    } else if (f->kind == MGP_F_BYTES) {
        bytes_text(v->valuedouble, buf, len);
    } else {
        snprintf(buf, len, "%s%s%s", mg_json_number(v->valuedouble, num, sizeof num),
                 f->unit ? " " : "", f->unit ? f->unit : "");
    }
    return buf;
}

/* Print the present fields of obj, one "label  value" row each, indented
 * by `indent` spaces; values start at column 35 whatever the indent. */
static void print_fields(FILE *out, const cJSON *obj, const mgp_field *fields, size_t n,
                         int indent)
{
    const cJSON *unavail = cJSON_GetObjectItemCaseSensitive(obj, "unavailable");
    char buf[1024];
    for (size_t i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, fields[i].key);
        if (!v) continue;           /* left out: its `requires` flag is false */
        fprintf(out, "%*s%-*s %s\n", indent, "", 34 - indent, fields[i].label,
                value_text(&fields[i], v, unavail, buf, sizeof buf));
    }
}

/* Render the whole tree as text: a block per platform, a table per device. */
static void print_text(FILE *out, const cJSON *root)
{
    const cJSON *plats = cJSON_GetObjectItemCaseSensitive(root, "platforms");
    for (const cJSON *p = plats ? plats->child : NULL; p; p = p->next) {
        const cJSON *devs = cJSON_GetObjectItemCaseSensitive(p, "devices");
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(p, "error");
        int ndev = cJSON_GetArraySize(devs);
        if (p != plats->child) fputc('\n', out);
        fprintf(out, "Platform %d\n",
                cJSON_GetObjectItemCaseSensitive(p, "index")->valueint);
        print_fields(out, p, mgp_platform_fields, mgp_platform_field_count, 2);
        if (cJSON_IsString(err))
            fprintf(out, "  %-32s unavailable (%s)\n", "Devices", err->valuestring);
        else
            fprintf(out, "  %-32s %d\n", "Devices", ndev);
        for (const cJSON *d = devs ? devs->child : NULL; d; d = d->next) {
            fprintf(out, "\n  Device %s\n",
                    cJSON_GetObjectItemCaseSensitive(d, "id")->valuestring);
            print_fields(out, d, mgp_device_fields, mgp_device_field_count, 4);
        }
    }
}

/* Print the "no platform" message with an installation hint; returns 3. */
static int no_platforms(void)
{
    fprintf(stderr,
            "mgprobe: no OpenCL platforms found\n"
            "mgprobe: hint: install an OpenCL driver (Debian: apt-get install pocl-opencl-icd)\n"
            "mgprobe: hint: or register an ICD file in /etc/OpenCL/vendors (or in the\n"
            "mgprobe: hint: directory named by $OCL_ICD_VENDORS, when that is set)\n");
    return MGP_EXIT_NODEV;
}

/* Write the tree to `path` ("-" or NULL: stdout) as JSON or text, all or
 * nothing.  Returns 0, or 2 after printing why. */
static int write_output(const cJSON *root, const char *path, int json)
{
    const char *name = path ? path : "-";
    mg_afile af;
    FILE *f = mg_afile_open(&af, name);
    if (!f) {
        fprintf(stderr, "mgprobe: %s: cannot write: %s\n", name, strerror(errno));
        return MGP_EXIT_BAD;
    }
    if (json) mg_json_write(f, root);
    else print_text(f, root);
    if (mg_afile_commit(&af)) {
        fprintf(stderr, "mgprobe: %s: write failed: %s\n",
                strcmp(name, "-") ? name : "stdout", strerror(errno));
        return MGP_EXIT_BAD;
    }
    return MGP_EXIT_OK;
}

int mgp_cmd_devices(int argc, char **argv)
{
    int json = 0;
    const char *out = NULL;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgprobe", "devices", "o:h", devices_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case OPT_JSON: json = 1; break;
        case 'o': out = optarg; break;
        case 'h': devices_usage(stdout); return MGP_EXIT_OK;
        default:
            return MGP_EXIT_BAD;
        }
    }
    if (optind < argc) return mgp_usage_error("devices", "unexpected operand '%s'", argv[optind]);

    mg_diag d;
    mg_diag_init(&d);
    int none = 0;
    cJSON *root = mgp_devinfo_collect(&d, &none);
    int rc = MGP_EXIT_OK;
    if (!root) {
        fprintf(stderr, "mgprobe: out of memory\n");
        rc = MGP_EXIT_BAD;
    } else if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "platforms")) == 0) {
        mg_diag_print(&d, stderr, "mgprobe");
        rc = none ? no_platforms() : MGP_EXIT_NODEV;
    } else {
        rc = write_output(root, out, json);
        mg_diag_print(&d, stderr, "mgprobe");
        if (mg_diag_failed(&d)) rc = MGP_EXIT_BAD;
    }
    cJSON_Delete(root);
    mg_diag_free(&d);
    return rc;
}

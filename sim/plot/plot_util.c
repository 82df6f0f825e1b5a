/* plot_util.c - the plot job's data folder, meta.gp variables, data rows
 * and checked JSON access (see plot.h). */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const mg_plot_kind mg_plot_kinds[] = {
    {.name = "roofline",
     .script = "roofline.gp",
     .input = "one or more `mgsim run --json` reports (one device)",
     .max_inputs = 0,
     .prepare = mg_plot_prepare_roofline},
    {.name = "regs",
     .script = "regs.gp",
     .input = "a probe profile (mgprobe run / mgsim vprobe)",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_regs},
    {.name = "compare",
     .script = "compare.gp",
     .input = "an `mgsim compare -o` report (measured curves against a model's)",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_compare},
    {.name = "chase",
     .script = "chase.gp",
     .input = "a probe profile (mgprobe run / mgsim vprobe)",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_chase},
    {.name = "sweep",
     .script = "sweep.gp",
     .input = "a results file of `mgsim sweep -o` (JSON Lines)",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_sweep},
    {.name = "whatif",
     .script = "whatif.gp",
     .input = "an `mgsim whatif --json` report",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_whatif},
    {.name = "validate",
     .script = "validate.gp",
     .input = "an `mgsim validate --json` report",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_validate},
    {.name = "validate-residuals",
     .script = "validate-residuals.gp",
     .input = "an `mgsim validate --json` report",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_residuals},
    {.name = "net",
     .script = "net.gp",
     .input = "an `mgsim net --config --json` report (a network's timeline)",
     .max_inputs = 1,
     .prepare = mg_plot_prepare_net},
    {.name = NULL},
};

const mg_plot_kind *mg_plot_kind_find(const char *name)
{
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

int mg_plot_job_init(mg_plot_job *job, const char *dir, mg_diag *d)
{
    memset(job, 0, sizeof *job);
    if (dir) {
        if (strlen(dir) >= sizeof job->dir - 64) {
            mg_diag_error(d, "%s: path too long", dir);
            return -1;
        }
        if (mkdir(dir, 0777) && errno != EEXIST) {
            mg_diag_error(d, "%s: cannot create: %s", dir, strerror(errno));
            return -1;
        }
        snprintf(job->dir, sizeof job->dir, "%s", dir);
        job->keep = 1;
    } else {
        const char *t = getenv("TMPDIR");
        if (!t || !*t || strlen(t) > sizeof job->dir - 128) t = "/tmp";
        snprintf(job->dir, sizeof job->dir, "%s/mgsim-plot.XXXXXX", t);
        if (!mkdtemp(job->dir)) {
            mg_diag_error(d, "%s: cannot create a temporary folder: %s", t, strerror(errno));
            job->dir[0] = 0;
            return -1;
        }
    }
    job->meta = mg_plot_data_open(job, "meta.gp", d);
    if (!job->meta) return -1;
    fprintf(job->meta, "# gnuplot variables written by mgsim plot\n");
    return 0;
}

int mg_plot_job_finish(mg_plot_job *job, mg_diag *d)
{
    if (!job->meta) return 0;
    FILE *f = job->meta;
    job->meta = NULL;
    return mg_plot_data_close(job, f, "meta.gp", d);
}

void mg_plot_job_free(mg_plot_job *job)
{
    if (job->meta) fclose(job->meta);
    job->meta = NULL;
    if (job->keep || !job->dir[0]) return;
    DIR *dp = opendir(job->dir);
    if (dp) {
        struct dirent *e;
        char p[sizeof job->dir + 300];
        while ((e = readdir(dp)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(p, sizeof p, "%s/%s", job->dir, e->d_name);
            unlink(p);
        }
        closedir(dp);
    }
    rmdir(job->dir);
    job->dir[0] = 0;
}

/* Add the messages in from to d. */
cJSON *mg_plot_load(mg_plot_job *job, const char *file, mg_diag *d)
{
    mg_plot_docs *docs = job->docs;
    if (!docs) return mg_json_load(file, d);
    for (int i = 0; i < docs->n; i++) {
        if (strcmp(docs->e[i].file, file)) continue;
        mg_diag_append(d, &docs->e[i].msgs);
        return docs->e[i].doc;
    }
    char *name = docs->n < MG_PLOT_DOCS ? strdup(file) : NULL;
    if (!name) return mg_json_load(file, d);
    mg_diag *msgs = &docs->e[docs->n].msgs;
    mg_diag_init(msgs);
    docs->e[docs->n].file = name;
    docs->e[docs->n].doc = mg_json_load(file, msgs);
    mg_diag_append(d, msgs);
    return docs->e[docs->n++].doc;
}

void mg_plot_unload(mg_plot_job *job, cJSON *doc)
{
    for (int i = 0; doc && job->docs && i < job->docs->n; i++)
        if (job->docs->e[i].doc == doc) return;
    cJSON_Delete(doc);
}

void mg_plot_docs_free(mg_plot_docs *docs)
{
    for (int i = 0; i < docs->n; i++) {
        free(docs->e[i].file);
        cJSON_Delete(docs->e[i].doc);
        mg_diag_free(&docs->e[i].msgs);
    }
    docs->n = 0;
}

FILE *mg_plot_data_open(mg_plot_job *job, const char *name, mg_diag *d)
{
    char p[sizeof job->dir + 300];
    snprintf(p, sizeof p, "%s/%s", job->dir, name);
    FILE *f = fopen(p, "w");
    if (!f) mg_diag_error(d, "%s: cannot write: %s", p, strerror(errno));
    return f;
}

int mg_plot_data_close(mg_plot_job *job, FILE *f, const char *name, mg_diag *d)
{
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad) mg_diag_error(d, "%s/%s: write failed", job->dir, name);
    return bad ? -1 : 0;
}

void mg_plot_row(FILE *f, int n, const double *v)
{
    char b[40];
    for (int i = 0; i < n; i++)    /* gnuplot skips a NaN point */
        fprintf(f, "%s%s", i ? " " : "", isfinite(v[i]) ? mg_json_number(v[i], b, sizeof b)
                                                          : "NaN");
    fputc('\n', f);
}

void mg_plot_var_input(mg_plot_job *job, int n, char **inputs)
{
    const char *b = n > 0 ? strrchr(inputs[0], '/') : NULL;
    const char *first = n > 0 ? (b ? b + 1 : inputs[0]) : "";
    if (n > 1) mg_plot_var_strf(job, "input", "%s and %d more", first, n - 1);
    else mg_plot_var_str(job, "input", first);
}

void mg_plot_var_timings(mg_plot_job *job, const cJSON *report)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(report, "timings");
    if (!cJSON_IsString(t)) return;
    const char *b = strrchr(t->valuestring, '/');
    mg_plot_var_str(job, "input", b ? b + 1 : t->valuestring);
}

void mg_plot_var_num(mg_plot_job *job, const char *name, double v)
{
    char b[40];
    /* gnuplot reads "1e+300" but integers must stay integers for loops */
    fprintf(job->meta, "%s = %s\n", name, mg_json_number(v, b, sizeof b));
}

char *mg_plot_quote(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    if (len < 3) {
        if (len) buf[0] = 0;
        return buf;
    }
    buf[o++] = '\'';
    /* room for the character(s), the closing quote and the NUL */
    for (; *s && o + 3 + (*s == '\'') <= len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'') {
            buf[o++] = '\'';
            buf[o++] = '\'';
        } else {
            buf[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
        }
    }
    buf[o++] = '\'';
    buf[o] = 0;
    return buf;
}

void mg_plot_var_str(mg_plot_job *job, const char *name, const char *v)
{
    char b[2048];
    fprintf(job->meta, "%s = %s\n", name, mg_plot_quote(v, b, sizeof b));
}

void mg_plot_var_strf(mg_plot_job *job, const char *name, const char *fmt, ...)
{
    char v[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    mg_plot_var_str(job, name, v);
}

/* Look up key in o; a missing key or a wrong type is reported. */
static const cJSON *get(const cJSON *o, const char *key, const char *file, const char *path,
                        const char *want, cJSON_bool (*is)(const cJSON *), mg_diag *d)
{
    const cJSON *m = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!m) {
        mg_diag_error(d, "%s: %s.%s: expected %s, got nothing", file, path, key, want);
        return NULL;
    }
    if (!is(m)) {
        mg_diag_error(d, "%s: %s.%s: expected %s, got %s", file, path, key, want,
                      mg_json_type_name(m));
        return NULL;
    }
    return m;
}

int mg_plot_get_num(const cJSON *o, const char *key, const char *file, const char *path,
                    double *v, mg_diag *d)
{
    const cJSON *m = get(o, key, file, path, "a number", cJSON_IsNumber, d);
    if (!m) return -1;
    *v = m->valuedouble;
    return 0;
}

int mg_plot_get_pos(const cJSON *o, const char *key, const char *file, const char *path,
                    double *v, mg_diag *d)
{
    const cJSON *m = get(o, key, file, path, "a positive number", cJSON_IsNumber, d);
    if (!m) return -1;
    if (!(m->valuedouble > 0) || !isfinite(m->valuedouble)) {
        mg_diag_error(d, "%s: %s.%s: expected a positive number, got %g", file, path, key,
                      m->valuedouble);
        return -1;
    }
    *v = m->valuedouble;
    return 0;
}

int mg_plot_get_str(const cJSON *o, const char *key, const char *file, const char *path,
                    const char **v, mg_diag *d)
{
    const cJSON *m = get(o, key, file, path, "a string", cJSON_IsString, d);
    if (!m) return -1;
    *v = m->valuestring;
    return 0;
}

const cJSON *mg_plot_get_obj(const cJSON *o, const char *key, const char *file,
                             const char *path, mg_diag *d)
{
    return get(o, key, file, path, "an object", cJSON_IsObject, d);
}

const cJSON *mg_plot_get_arr(const cJSON *o, const char *key, const char *file,
                             const char *path, mg_diag *d)
{
    return get(o, key, file, path, "an array", cJSON_IsArray, d);
}

double mg_plot_decade_floor(double v)
{
    return pow(10, floor(log10(v) + 1e-9));
}

double mg_plot_decade_ceil(double v)
{
    return pow(10, ceil(log10(v) - 1e-9));
}

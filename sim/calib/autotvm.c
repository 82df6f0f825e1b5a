/*
 * autotvm.c - read an AutoTVM log line by line, check each record's
 * structure, map it (autotvm_map.c) and build the timings documents and
 * the import report (autotvm.h).  Nothing is returned unless every line
 * is good.
 */
#include "sim/calib/autotvm.h"
#include "sim/analysis/suite.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE_MAX_BYTES (1u << 20)
#define COSTS_MAX      1000

static const char *const fidelity_names[] = {"matched", "approximate", "not reproduced"};

const char *const mg_autotvm_files[MG_ATVM_T_COUNT] = {
    "timings.json", "timings-matched.json", "timings-approximate.json"};
static const char *const suite_names[MG_ATVM_T_COUNT] = {"autotvm", "autotvm-matched",
                                                         "autotvm-approximate"};

/* One good record, as the documents need it. */
typedef struct rec {
    long   line;
    const char *target, *task;
    const cJSON *workload, *entity, *costs;
    double config_index;      /* NAN when absent */
    long   error_code;
    double timestamp;         /* NAN when absent */
} rec;

typedef struct docs {
    cJSON *t[MG_ATVM_T_COUNT], *report, *list, *tasks;
    double last_time;
    char   target[256];       /* the first record's ("": none yet) */
} docs;

/* ---- one line's structure ------------------------------------------------------ */

static cJSON *item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* Check the record's parts into r; -1 with "why" in d. */
static int rec_parse(const cJSON *j, rec *r, mg_diag *d)
{
    const cJSON *in = item(j, "input"), *cf = item(j, "config"), *rs = item(j, "result");
    const cJSON *tg = cJSON_GetArrayItem(in, 0), *tk = cJSON_GetArrayItem(in, 1);
    if (!cJSON_IsObject(j)) return mg_diag_error(d, "expected a JSON object (a record)"), -1;
    if (!cJSON_IsArray(in) || cJSON_GetArraySize(in) < 3 || !cJSON_IsString(tg) ||
        !cJSON_IsString(tk))
        return mg_diag_error(d, "input: expected [target, task name, workload, ...]"), -1;
    r->target = tg->valuestring;
    r->task = tk->valuestring;
    r->workload = cJSON_GetArrayItem(in, 2);
    r->entity = item(cf, "entity");
    if (!cJSON_IsObject(cf) || !cJSON_IsArray(r->entity))
        return mg_diag_error(d, "config: expected an object with an \"entity\" array"), -1;
    const cJSON *ix = item(cf, "index");
    r->config_index = cJSON_IsNumber(ix) ? ix->valuedouble : NAN;
    r->costs = cJSON_GetArrayItem(rs, 0);
    const cJSON *ec = cJSON_GetArrayItem(rs, 1), *ts = cJSON_GetArrayItem(rs, 3);
    int nc = cJSON_IsArray(r->costs) ? cJSON_GetArraySize(r->costs) : 0;
    if (!cJSON_IsArray(rs) || nc < 1 || nc > COSTS_MAX || !cJSON_IsNumber(ec) ||
        ec->valuedouble != floor(ec->valuedouble) || fabs(ec->valuedouble) > 1e6)
        return mg_diag_error(d, "result: expected [[1..%d costs in seconds], error code, ...]",
                             COSTS_MAX), -1;
    r->error_code = (long)ec->valuedouble;
    r->timestamp = cJSON_IsNumber(ts) && isfinite(ts->valuedouble) ? ts->valuedouble : NAN;
    int i = 0;
    for (const cJSON *c = r->costs->child; c; c = c->next, i++)
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) ||
            (r->error_code == 0 && !(c->valuedouble > 0 && c->valuedouble < 1e6)))
            return mg_diag_error(d, "result[0][%d]: expected a cost in seconds (a positive "
                                 "number under 1e6)", i), -1;
    return 0;
}

/* ---- documents -------------------------------------------------------------------- */

static double median_of(double *x, int n)
{
    for (int i = 1; i < n; i++)                        /* insertion sort: n <= COSTS_MAX */
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* A timings kernel for a reproduced record. */
static cJSON *kernel_of(const rec *r, const mg_atvm_map *m, int index)
{
    double x[COSTS_MAX];
    int n = 0;
    cJSON *k = cJSON_CreateObject(), *ns = cJSON_CreateObject(), *smp = cJSON_CreateArray();
    for (const cJSON *c = r->costs->child; c; c = c->next) {
        x[n] = c->valuedouble * 1e9;
        cJSON_AddItemToArray(smp, cJSON_CreateNumber(x[n++]));
    }
    double med = median_of(x, n);
    cJSON_AddNumberToObject(k, "index", index);
    cJSON_AddStringToObject(k, "schedule", m->schedule);
    cJSON_AddStringToObject(k, "status", "ok");
    cJSON_AddNumberToObject(ns, "median", med);
    cJSON_AddNumberToObject(ns, "min", x[0]);
    cJSON_AddNumberToObject(ns, "max", x[n - 1]);
    cJSON_AddNumberToObject(ns, "spread", (x[n - 1] - x[0]) / med);
    cJSON_AddItemToObject(k, "ns", ns);
    cJSON_AddItemToObject(k, "samples", smp);
    cJSON *a = cJSON_AddObjectToObject(k, "autotvm");
    cJSON_AddNumberToObject(a, "line", (double)r->line);
    cJSON_AddStringToObject(a, "task", r->task);
    if (isfinite(r->config_index)) cJSON_AddNumberToObject(a, "config_index", r->config_index);
    cJSON_AddStringToObject(a, "fidelity", fidelity_names[m->fidelity]);
    if (m->reason[0]) cJSON_AddStringToObject(a, "note", m->reason);
    cJSON_AddItemToObject(a, "entity", cJSON_Duplicate(r->entity, 1));
    return k;
}

/* The first tensor's dtype of a workload ("?" when there is none). */
static const char *dtype_of(const cJSON *w)
{
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetArrayItem(w, 0), 2);
    return cJSON_IsString(t) ? t->valuestring : "?";
}

/* Count the record under its task: records and per fidelity. */
static void count_task(docs *D, const char *task, int fidelity)
{
    cJSON *t = cJSON_GetObjectItemCaseSensitive(D->tasks, task);
    if (!t) {
        t = cJSON_AddObjectToObject(D->tasks, task);
        cJSON_AddNumberToObject(t, "records", 0);
        for (int f = 0; f < 3; f++) cJSON_AddNumberToObject(t, fidelity_names[f], 0);
    }
    cJSON *n = item(t, "records"), *f = item(t, fidelity_names[fidelity]);
    cJSON_SetNumberValue(n, n->valuedouble + 1);
    cJSON_SetNumberValue(f, f->valuedouble + 1);
}

/* The workload as short text: tensors as their shapes (1x64x56x56), the
 * other arguments as compact JSON, the last (the output dtype) left out. */
static void workload_text(const cJSON *w, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (const cJSON *a = w->child; a && a->next && at + 1 < len; a = a->next) {
        const cJSON *tag = cJSON_GetArrayItem(a, 0), *sh = cJSON_GetArrayItem(a, 1);
        if (at) out[at++] = ' ', out[at] = '\0';
        if (cJSON_IsString(tag) && !strcmp(tag->valuestring, "TENSOR") && cJSON_IsArray(sh)) {
            for (const cJSON *x = sh->child; x && at + 1 < len; x = x->next)
                at += (size_t)snprintf(out + at, len - at, "%s%.0f", x == sh->child ? "" : "x",
                                       cJSON_IsNumber(x) ? x->valuedouble : -1);
        } else {
            char *j = cJSON_PrintUnformatted(a);
            at += (size_t)snprintf(out + at, len - at, "%s", j ? j : "?");
            free(j);
        }
        if (at >= len) at = len - 1;
    }
}

/* Add a good record to the documents. */
static void add_record(docs *D, const rec *r, const mg_atvm_map *m)
{
    cJSON *e = cJSON_CreateObject();
    char w[512];
    workload_text(r->workload, w, sizeof w);
    cJSON_AddNumberToObject(e, "line", (double)r->line);
    cJSON_AddStringToObject(e, "task", r->task);
    cJSON_AddStringToObject(e, "family", m->family);
    cJSON_AddStringToObject(e, "dtype", dtype_of(r->workload));
    cJSON_AddStringToObject(e, "workload", w);
    cJSON_AddNumberToObject(e, "cost_ns", cJSON_GetArrayItem(r->costs, 0)->valuedouble * 1e9);
    cJSON_AddStringToObject(e, "fidelity", fidelity_names[m->fidelity]);
    if (m->fidelity != MG_ATVM_NONE) cJSON_AddStringToObject(e, "schedule", m->schedule);
    if (m->reason[0]) cJSON_AddStringToObject(e, "reason", m->reason);
    cJSON_AddItemToArray(D->list, e);
    count_task(D, r->task, m->fidelity);
    if (!D->target[0]) snprintf(D->target, sizeof D->target, "%s", r->target);
    if (isfinite(r->timestamp) && !(r->timestamp <= D->last_time)) D->last_time = r->timestamp;
    if (m->fidelity == MG_ATVM_NONE) return;
    int own = m->fidelity == MG_ATVM_MATCHED ? MG_ATVM_T_MATCHED : MG_ATVM_T_APPROX;
    for (int x = 0; x < 2; x++) {
        cJSON *ks = item(D->t[x ? own : MG_ATVM_T_ALL], "kernels");
        cJSON_AddItemToArray(ks, kernel_of(r, m, cJSON_GetArraySize(ks)));
    }
}

static cJSON *timings_new(const char *path, const char *name)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "schema", MG_TIMINGS_SCHEMA);
    cJSON_AddStringToObject(t, "tool", "mgsim import autotvm");
    cJSON_AddStringToObject(t, "suite", path);
    cJSON_AddStringToObject(t, "suite_name", name);
    cJSON_AddArrayToObject(t, "kernels");
    return t;
}

/* The header fields known only after the last record: the date (the
 * latest measurement's), the device (the first record's target), the
 * measurement's settings. */
static void timings_finish(cJSON *t, const docs *D)
{
    char date[32] = "unknown";
    if (isfinite(D->last_time) && D->last_time > 0 && D->last_time < 1e11) {
        time_t s = (time_t)D->last_time;
        struct tm tm;
        if (gmtime_r(&s, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    cJSON_AddStringToObject(t, "date", date);
    cJSON *dv = cJSON_AddObjectToObject(t, "device");
    cJSON_AddStringToObject(dv, "name", D->target[0] ? D->target : "unknown");
    cJSON_AddStringToObject(dv, "driver_version", "not recorded (AutoTVM log)");
    cJSON *st = cJSON_AddObjectToObject(t, "settings");
    cJSON_AddNumberToObject(st, "warmup", 1);
    cJSON_AddStringToObject(st, "method", "AutoTVM time_evaluator: one untimed call, then each "
                            "cost is the mean time of one repeat's runs of the whole task (its "
                            "packing kernels included)");
}

/* ---- the log -------------------------------------------------------------------------- */

/* Parse, check and map the line text[0..len) (NUL at len) numbered `no`. */
static int one_line(docs *D, const char *path, long no, const char *text, size_t len,
                    mg_diag *d)
{
    char name[4200];
    snprintf(name, sizeof name, "%s:%ld", path, no);
    mg_diag ld;
    mg_diag_init(&ld);
    cJSON *j = mg_json_parse(name, text, len, &ld);
    rec r = {.line = no};
    mg_atvm_map m;
    int rc = -1;
    if (!j) {
        mg_diag_error(d, "%s", mg_diag_first(&ld));
        goto out;
    }
    if (rec_parse(j, &r, &ld)) goto bad;
    if (r.error_code) {
        memset(&m, 0, sizeof m);
        m.fidelity = MG_ATVM_NONE;
        snprintf(m.family, sizeof m.family, "?");
        snprintf(m.reason, sizeof m.reason, "AutoTVM error code %ld: the measurement failed",
                 r.error_code);
    } else if (mg_autotvm_map(r.task, r.workload, r.entity, &m, &ld)) goto bad;
    add_record(D, &r, &m);
    rc = 0;
    goto out;
bad:
    mg_diag_error(d, "%s: %s", name, mg_diag_first(&ld));
out:
    mg_diag_free(&ld);
    cJSON_Delete(j);
    return rc;
}

/* Every line of text: blank lines and '#' comments skipped. */
static int all_lines(docs *D, const char *path, char *text, size_t len, mg_diag *d)
{
    long no = 0, records = 0;
    for (size_t at = 0; at < len;) {
        char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len, n = end - at;
        no++;
        char *s = text + at;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
        if (i < n && s[i] != '#') {
            if (n > LINE_MAX_BYTES)
                return mg_diag_error(d, "%s:%ld: a line of more than %u bytes", path, no,
                                     LINE_MAX_BYTES), -1;
            if (++records > MG_AUTOTVM_MAX_LINES)
                return mg_diag_error(d, "%s:%ld: more than %d records", path, no,
                                     MG_AUTOTVM_MAX_LINES), -1;
            char keep = s[n];
            s[n] = '\0';
            int rc = one_line(D, path, no, s, n, d);
            s[n] = keep;
            if (rc) return -1;
        }
        at = end + 1;
    }
    if (!records) return mg_diag_error(d, "%s: no records (JSON lines)", path), -1;
    return 0;
}

int mg_autotvm_import(const char *path, cJSON *timings[MG_ATVM_T_COUNT], cJSON **report,
                      mg_diag *d)
{
    *report = NULL;
    for (int x = 0; x < MG_ATVM_T_COUNT; x++) timings[x] = NULL;
    size_t len;
    char *text = mg_read_file(path, MG_JSON_MAX_BYTES, &len, d);
    if (!text) return -1;
    docs D = {.report = cJSON_CreateObject(), .last_time = NAN};
    for (int x = 0; x < MG_ATVM_T_COUNT; x++) D.t[x] = timings_new(path, suite_names[x]);
    cJSON_AddStringToObject(D.report, "schema", MG_AUTOTVM_SCHEMA);
    cJSON_AddStringToObject(D.report, "log", path);
    D.tasks = cJSON_AddObjectToObject(D.report, "tasks");
    D.list = cJSON_AddArrayToObject(D.report, "records");
    int rc = all_lines(&D, path, text, len, d);
    free(text);
    if (rc) {
        for (int x = 0; x < MG_ATVM_T_COUNT; x++) cJSON_Delete(D.t[x]);
        cJSON_Delete(D.report);
        return -1;
    }
    cJSON *counts = cJSON_AddObjectToObject(D.report, "timed");
    for (int x = 0; x < MG_ATVM_T_COUNT; x++) {
        int n = cJSON_GetArraySize(item(D.t[x], "kernels"));
        cJSON_AddNumberToObject(counts, mg_autotvm_files[x], n);
        if (n) timings_finish(D.t[x], &D);
        else cJSON_Delete(D.t[x]), D.t[x] = NULL;
        timings[x] = D.t[x];
    }
    *report = D.report;
    return 0;
}

/* ---- text ----------------------------------------------------------------------------- */

static double num(const cJSON *o, const char *key)
{
    const cJSON *j = item(o, key);
    return cJSON_IsNumber(j) ? j->valuedouble : 0;
}

/* The records of one fidelity, one line each: line, task, dtype, reason. */
static void print_list(FILE *f, const cJSON *rep, const char *fidelity, const char *title)
{
    int first = 1;
    const cJSON *recs = item(rep, "records");
    for (const cJSON *e = recs ? recs->child : NULL; e; e = e->next) {
        if (strcmp(item(e, "fidelity")->valuestring, fidelity)) continue;
        if (first) fprintf(f, "\n%s\n", title);
        first = 0;
        fprintf(f, "  line %-5.0f %-30s %-8s %s: %s\n", num(e, "line"),
                item(e, "task")->valuestring, item(e, "dtype")->valuestring,
                item(e, "workload")->valuestring, item(e, "reason")->valuestring);
    }
}

void mg_autotvm_print(FILE *f, const cJSON *rep)
{
    fprintf(f, "autotvm log %s: %d records\n", item(rep, "log")->valuestring,
            cJSON_GetArraySize(item(rep, "records")));
    fprintf(f, "%-32s %8s %8s %12s %15s\n", "task", "records", "matched", "approximate",
            "not reproduced");
    double tot[4] = {0};
    for (const cJSON *t = item(rep, "tasks")->child; t; t = t->next) {
        double v[4] = {num(t, "records"), num(t, "matched"), num(t, "approximate"),
                       num(t, "not reproduced")};
        fprintf(f, "%-32s %8.0f %8.0f %12.0f %15.0f\n", t->string, v[0], v[1], v[2], v[3]);
        for (int i = 0; i < 4; i++) tot[i] += v[i];
    }
    fprintf(f, "%-32s %8.0f %8.0f %12.0f %15.0f\n", "total", tot[0], tot[1], tot[2], tot[3]);
    const cJSON *timed = item(rep, "timed");
    fprintf(f, "timings: %.0f kernels (%s): %.0f matched (%s), %.0f approximate (%s)\n",
            num(timed, mg_autotvm_files[0]), mg_autotvm_files[0],
            num(timed, mg_autotvm_files[1]), mg_autotvm_files[1],
            num(timed, mg_autotvm_files[2]), mg_autotvm_files[2]);
    print_list(f, rep, "approximate", "approximate (line, task, dtype, workload: what differs):");
    print_list(f, rep, "not reproduced", "not reproduced (line, task, dtype, workload: why):");
}

/*
 * sweep_result.c - one sweep result: simulate a candidate, print it as one
 * line of JSON, parse such a line back.  The line format is the contract
 * with tools that read results files (configs/README.md, "Sweep results").
 */
#include "sim/search/sweep.h"
#include "sim/search/screen.h"

#include "traces/gen/gen.h"
#include "sim/search/memo.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"
#include "sim/version.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 96

void mg_sweep_result_free(mg_sweep_result *r)
{
    free(r->schedule);
    free(r->reason);
    r->schedule = r->reason = NULL;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static void reject(mg_sweep_result *r, const char *words, const char *why)
{
    r->ok = 0;
    if (!r->schedule) r->schedule = dup_str(words);
    r->reason = dup_str(why && *why ? why : "rejected");
}

/* Split a copy of words at spaces; returns the count, or -1 when too many. */
static int split_words(char *buf, char **w)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (n == MAX_WORDS) return -1;
        w[n++] = t;
    }
    return n;
}

/* The figures of a complete replay into r (ok): the stats, their
 * roofline, occupancy and sampling. */
static void fill_figures(const mg_device *dev, const mg_sim_stats *st, mg_sweep_result *r)
{
    mg_roofline rf;
    mg_roofline_compute(dev, st, &rf);
    r->ok = 1;
    r->cycles = st->cycles;
    r->seconds = st->seconds;
    r->flops = st->flops;
    r->gflops = rf.achieved_flops / 1e9;
    r->bound_gflops = rf.bound_flops / 1e9;
    r->binding = rf.binding;
    r->pct_of_bound = rf.bound_flops > 0 ? 100.0 * rf.achieved_flops / rf.bound_flops : 0;
    for (int lv = 0; lv < MG_LV_COUNT; lv++) r->oi[lv] = rf.oi[lv];
    r->resident_warps_mean = st->resident_warps_mean;
    r->resident_warps_max = st->resident_warps_max;
    r->warps_per_group = st->warps_per_group;
    r->occupancy_groups = st->occupancy_groups;
    r->has_sampling = st->sample_mode != MG_SAMPLE_OFF;
    r->sample_used = st->sample_used;
    r->wgs_simulated = st->sample_wgs_simulated;
    r->wgs_total = st->work_groups;
    r->sample_error = st->sample_error;
}

/* Generate schedule s and replay it on dev: r gets its figures, its cut
 * (past cycle_limit) or its rejection (words: as given). */
static void simulate_schedule(const mg_device *dev, const mg_schedule *s, const char *words,
                              int sample, double cycle_limit, double max_work, mg_gen *g,
                              mg_sweep_result *r, mg_diag *d)
{
    if (mg_gen_prepare(g, s, d) || mg_gen_check_work(g, max_work, d)) {
        reject(r, words, mg_diag_first(d));
        return;
    }
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_sim_opts so = {0};
    so.quiet = 1;
    so.sample = sample;
    so.cycle_limit = cycle_limit;
    mg_sim_stats st;
    if (mg_sim_run(dev, &src, &so, &st, d)) {
        reject(r, words, mg_diag_first(d));
        return;
    }
    if (st.cut) {                                /* slower than the bar: no figures */
        r->cut = 1;
        r->cut_by_bound = st.cut_by_bound;
        r->cut_cycles = st.cycles;
        r->cut_seconds = st.seconds;
        return;
    }
    fill_figures(dev, &st, r);
}

/* Parse `words` ("op key=value ...") into s, r->schedule its canonical
 * words (canon, len bytes).  Returns 0, or -1 after rejecting r. */
static int parse_words(const char *words, mg_schedule *s, char *canon, size_t len,
                       mg_sweep_result *r, mg_diag *d)
{
    char *buf = dup_str(words);
    char *w[MAX_WORDS];
    int n = buf ? split_words(buf, w) : -1;
    int rc = -1;
    if (n < 1) reject(r, words, buf ? "too many words" : "out of memory");
    else if (mg_schedule_parse(w[0], n - 1, w + 1, s, d)) reject(r, words, mg_diag_first(d));
    else rc = 0;
    free(buf);
    if (rc) return -1;
    mg_schedule_format(s, canon, len);
    r->schedule = dup_str(canon);
    return 0;
}

int mg_sweep_simulate(const mg_device *dev, const char *words, int sample, double cycle_limit,
                      double max_work, mg_memo *memo, int nowait, mg_sweep_result *r)
{
    int deferred = 0;
    r->ok = 0;
    r->schedule = r->reason = NULL;
    char key[1024], canon[1024];
    int claimed = 0;
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    if (!g) {
        reject(r, words, "out of memory");
        goto out;
    }
    if (parse_words(words, &s, canon, sizeof canon, r, &d)) goto out;
    if (memo && mg_memo_key(&s, canon, key, sizeof key)) memo = NULL;
    if (memo) {
        int got = mg_memo_get(memo, key, nowait, r);
        if (got == 1) goto out;
        if (got == 2) {                          /* in flight elsewhere: come back later */
            free(r->schedule);
            r->schedule = NULL;
            deferred = 1;
            goto out;
        }
        claimed = got == 0;                      /* else simulate, do not settle */
    }
    simulate_schedule(dev, &s, words, sample, cycle_limit, max_work, g, r, &d);
out:
    if (claimed) mg_memo_put(memo, key, r);     /* a rejection too: wakes the waiters */
    if (g) mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
    return deferred;
}

/* ---- one line of JSON ----------------------------------------------------- */

typedef struct lbuf { char *p; size_t n, cap; int oom; } lbuf;

static void put(lbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 512;
        while (b->n + n + 1 > cap) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->oom = 1; return; }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void puts_(lbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_str(lbuf *b, const char *s)
{
    put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[8];
        if (*p == '"' || *p == '\\') { e[0] = '\\'; e[1] = (char)*p; put(b, e, 2); }
        else if (*p < 0x20) { snprintf(e, sizeof e, "\\u%04x", *p); puts_(b, e); }
        else put(b, (const char *)p, 1);
    }
    put(b, "\"", 1);
}

static void put_key(lbuf *b, const char *k)
{
    if (b->n > 1 && b->p[b->n - 1] != '{') put(b, ",", 1);
    put_str(b, k);
    put(b, ":", 1);
}

static void put_num(lbuf *b, const char *k, double v)
{
    char num[40];
    put_key(b, k);
    puts_(b, mg_json_number(v, num, sizeof num));
}

char *mg_sweep_result_line(const mg_sweep_result *r)
{
    lbuf b = {0};
    puts_(&b, "{");
    put_num(&b, "index", (double)r->index);
    put_key(&b, "schedule");
    put_str(&b, r->schedule ? r->schedule : "");
    if (r->has_rules) {
        put_key(&b, "kept");
        puts_(&b, r->fired ? "false" : "true");
        put_key(&b, "fired");
        puts_(&b, "[");
        int first = 1;
        for (int i = 0; i < MG_RULE_COUNT; i++)
            if (r->fired & (1u << i)) {
                if (!first) puts_(&b, ",");
                put_str(&b, mg_rule_names[i]);
                first = 0;
            }
        puts_(&b, "]");
    }
    put_key(&b, "status");
    put_str(&b, r->ok ? "ok" : r->cut ? "cut" : "rejected");
    if (r->cut) {
        put_num(&b, "cycles_over", r->cut_cycles);
        put_num(&b, "seconds_over", r->cut_seconds);
        put_key(&b, "cut_by");
        put_str(&b, r->cut_by_bound ? "bound" : "replay");
    } else if (!r->ok) {
        put_key(&b, "reason");
        put_str(&b, r->reason ? r->reason : "");
    } else {
        put_num(&b, "cycles", r->cycles);
        put_num(&b, "seconds", r->seconds);
        put_num(&b, "flops", r->flops);
        put_num(&b, "gflops", r->gflops);
        put_num(&b, "bound_gflops", r->bound_gflops);
        put_key(&b, "binding");
        put_str(&b, mg_level_name(r->binding));
        put_num(&b, "pct_of_bound", r->pct_of_bound);
        put_key(&b, "oi");
        puts_(&b, "{");
        for (int lv = 0; lv < MG_LV_COUNT; lv++)
            if (r->oi[lv] > 0) put_num(&b, mg_level_name(lv), r->oi[lv]);
        puts_(&b, "}");
        put_key(&b, "occupancy");
        puts_(&b, "{");
        put_num(&b, "resident_warps_mean", r->resident_warps_mean);
        put_num(&b, "resident_warps_max", r->resident_warps_max);
        put_num(&b, "warps_per_group", r->warps_per_group);
        put_num(&b, "occupancy_groups", r->occupancy_groups);
        puts_(&b, "}");
        if (r->has_sampling) {
            put_key(&b, "sampling");
            puts_(&b, "{");
            put_key(&b, "used");
            puts_(&b, r->sample_used ? "true" : "false");
            put_num(&b, "work_groups_simulated", (double)r->wgs_simulated);
            put_num(&b, "work_groups_total", (double)r->wgs_total);
            put_num(&b, "estimated_error", r->sample_error);
            puts_(&b, "}");
        }
    }
    puts_(&b, "}\n");
    if (b.oom) { free(b.p); return NULL; }
    return b.p;
}

/* ---- parsing a line back -------------------------------------------------- */

static int level_index(const char *name)
{
    for (int lv = 0; lv < MG_LV_COUNT; lv++)
        if (!strcmp(name, mg_level_name(lv))) return lv;
    return strcmp(name, "compute") ? -2 : -1;
}

static int get_num(const cJSON *o, const char *k, double *v, char *err, size_t errlen)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(j)) {
        snprintf(err, errlen, "$.%s: expected a number", k);
        return -1;
    }
    *v = j->valuedouble;
    return 0;
}

/* $.kept and $.fired, both or neither: the rules that fired (r->has_rules
 * set), kept true exactly when none did.  Returns 0, or -1 with the reason
 * in err. */
static int parse_fired(const cJSON *o, mg_sweep_result *r, char *err, size_t errlen)
{
    const cJSON *fired = cJSON_GetObjectItemCaseSensitive(o, "fired");
    const cJSON *kept = cJSON_GetObjectItemCaseSensitive(o, "kept");
    if (!fired && !kept) return 0;
    if (!cJSON_IsArray(fired) || !cJSON_IsBool(kept)) {
        snprintf(err, errlen, "$.kept and $.fired: expected a boolean and an array, both");
        return -1;
    }
    r->has_rules = 1;
    const cJSON *f;
    cJSON_ArrayForEach(f, fired) {
        int i = 0;
        while (i < MG_RULE_COUNT && (!cJSON_IsString(f) || strcmp(f->valuestring,
                                                                  mg_rule_names[i])))
            i++;
        if (i == MG_RULE_COUNT) { snprintf(err, errlen, "$.fired: unknown rule"); return -1; }
        r->fired |= 1u << i;
    }
    if (cJSON_IsTrue(kept) != (r->fired == 0)) {
        snprintf(err, errlen, "$.kept: %s, but %s", cJSON_IsTrue(kept) ? "true" : "false",
                 r->fired ? "rules fired" : "no rule fired");
        return -1;
    }
    return 0;
}

/* A "cut" result's figures.  Returns 0, or -1 with the reason in err. */
static int parse_cut(const cJSON *o, mg_sweep_result *r, char *err, size_t errlen)
{
    r->cut = 1;
    if (get_num(o, "cycles_over", &r->cut_cycles, err, errlen) ||
        get_num(o, "seconds_over", &r->cut_seconds, err, errlen))
        return -1;
    const cJSON *by = cJSON_GetObjectItemCaseSensitive(o, "cut_by");
    if (by && !(cJSON_IsString(by) && (!strcmp(by->valuestring, "bound") ||
                                      !strcmp(by->valuestring, "replay")))) {
        snprintf(err, errlen, "$.cut_by: expected \"bound\" or \"replay\"");
        return -1;
    }
    r->cut_by_bound = by && !strcmp(by->valuestring, "bound");
    return 0;
}

#define TWO_TO_32 4294967296.0
#define TWO_TO_64 18446744073709551616.0

/* $.key of o as a count below lim (its fraction dropped), or 0 when it is
 * not a number or out of [0, lim): converting a double beyond the type is
 * undefined. */
static uint64_t get_count(const cJSON *o, const char *key, double lim, char *err,
                          size_t errlen)
{
    double x = 0;
    if (get_num(o, key, &x, err, errlen) || !(x >= 0 && x < lim)) return 0;
    return (uint64_t)x;
}

/* The optional parts of an "ok" result: $.occupancy and $.sampling (a
 * figure that is not a number, or a count out of its type's range, is
 * left 0). */
static void parse_ok_extras(const cJSON *o, mg_sweep_result *r, char *err, size_t errlen)
{
    const cJSON *oc = cJSON_GetObjectItemCaseSensitive(o, "occupancy");
    if (cJSON_IsObject(oc)) {
        double x = 0;
        if (!get_num(oc, "resident_warps_mean", &x, err, errlen)) r->resident_warps_mean = x;
        r->resident_warps_max = (uint32_t)get_count(oc, "resident_warps_max", TWO_TO_32, err,
                                                    errlen);
        r->warps_per_group = (uint32_t)get_count(oc, "warps_per_group", TWO_TO_32, err, errlen);
        r->occupancy_groups = (uint32_t)get_count(oc, "occupancy_groups", TWO_TO_32, err,
                                                  errlen);
    }
    const cJSON *sm = cJSON_GetObjectItemCaseSensitive(o, "sampling");
    if (cJSON_IsObject(sm)) {
        double x = 0;
        r->has_sampling = 1;
        r->sample_used = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sm, "used"));
        r->wgs_simulated = get_count(sm, "work_groups_simulated", TWO_TO_64, err, errlen);
        r->wgs_total = get_count(sm, "work_groups_total", TWO_TO_64, err, errlen);
        if (!get_num(sm, "estimated_error", &x, err, errlen)) r->sample_error = x;
    }
}

/* An "ok" result's figures.  Returns 0, or -1 with the reason in err. */
static int parse_ok(const cJSON *o, mg_sweep_result *r, char *err, size_t errlen)
{
    r->ok = 1;
    if (get_num(o, "cycles", &r->cycles, err, errlen) ||
        get_num(o, "seconds", &r->seconds, err, errlen) ||
        get_num(o, "flops", &r->flops, err, errlen) ||
        get_num(o, "gflops", &r->gflops, err, errlen) ||
        get_num(o, "bound_gflops", &r->bound_gflops, err, errlen) ||
        get_num(o, "pct_of_bound", &r->pct_of_bound, err, errlen))
        return -1;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "binding");
    if (!cJSON_IsString(b) || (r->binding = level_index(b->valuestring)) == -2) {
        snprintf(err, errlen, "$.binding: expected a level name or \"compute\"");
        return -1;
    }
    const cJSON *oi = cJSON_GetObjectItemCaseSensitive(o, "oi"), *e;
    cJSON_ArrayForEach(e, oi) {
        int lv = level_index(e->string);
        if (lv >= 0 && cJSON_IsNumber(e)) r->oi[lv] = e->valuedouble;
    }
    parse_ok_extras(o, r, err, errlen);
    return 0;
}

/* The fields every result has ($.index, $.schedule, $.fired), then by
 * $.status its reason, cut or figures. */
static int parse_result(const cJSON *o, mg_sweep_result *r, char *err, size_t errlen)
{
    double v;
    if (get_num(o, "index", &v, err, errlen)) return -1;
    if (!(v >= 0 && v < TWO_TO_64) || v != floor(v)) {
        snprintf(err, errlen, "$.index: expected an integer");
        return -1;
    }
    r->index = (uint64_t)v;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "schedule");
    if (!cJSON_IsString(s)) { snprintf(err, errlen, "$.schedule: expected a string"); return -1; }
    r->schedule = dup_str(s->valuestring);
    if (parse_fired(o, r, err, errlen)) return -1;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
    if (!cJSON_IsString(st)) { snprintf(err, errlen, "$.status: expected a string"); return -1; }
    if (!strcmp(st->valuestring, "rejected")) {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(o, "reason");
        r->reason = dup_str(cJSON_IsString(why) ? why->valuestring : "");
        return 0;
    }
    if (!strcmp(st->valuestring, "cut")) return parse_cut(o, r, err, errlen);
    if (strcmp(st->valuestring, "ok")) { snprintf(err, errlen, "$.status: unknown"); return -1; }
    return parse_ok(o, r, err, errlen);
}

int mg_sweep_result_parse(const char *line, mg_sweep_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    /* no message: a line that does not parse is "not a JSON object" */
    cJSON *o = mg_json_parse("record", line, strlen(line), NULL);
    int rc = -1;
    if (!o || !cJSON_IsObject(o)) snprintf(err, errlen, "not a JSON object");
    else rc = parse_result(o, r, err, errlen);
    if (rc) mg_sweep_result_free(r);
    cJSON_Delete(o);
    return rc;
}

/* ---- the header line ------------------------------------------------------ */

char *mg_sweep_header_line(const mg_sweep_ident *id)
{
    lbuf b = {0};
    char smp[32];
    puts_(&b, "{");
    put_key(&b, "schema");
    put_str(&b, MG_SWEEP_SCHEMA);
    put_key(&b, "mgsim");
    put_str(&b, MG_VERSION);
    put_num(&b, "model", MG_MODEL_REVISION);
    put_key(&b, "config");
    put_str(&b, id->config);
    put_key(&b, "config_hash");
    put_str(&b, id->config_hash);
    put_key(&b, "space");
    put_str(&b, id->space);
    put_key(&b, "space_hash");
    put_str(&b, id->space_hash);
    put_key(&b, "rules");
    if (id->rules[0]) put_str(&b, id->rules);
    else puts_(&b, "null");
    put_key(&b, "rules_hash");
    if (id->rules[0]) put_str(&b, id->rules_hash);
    else puts_(&b, "null");
    put_key(&b, "sample");
    put_str(&b, mg_sweep_sample_str(id->sample, smp, sizeof smp));
    put_key(&b, "pruned_only");
    puts_(&b, id->pruned_only ? "true" : "false");
    if (id->cutoff > 0) put_num(&b, "cutoff", id->cutoff);    /* absent without --cutoff */
    if (id->max_work != MG_GEN_MAX_WORK_DEFAULT)                /* absent at the default */
        put_num(&b, "max_work", id->max_work);
    if (id->screen_k) {                                         /* absent without --screen */
        char scr[48];
        put_key(&b, "screen");
        put_str(&b, mg_screen_str(id->screen_k, id->screen_kept, scr, sizeof scr));
    }
    put_num(&b, "size", (double)id->size);
    if (id->shard_n > 1) {                   /* a shard's file (shard.h): the last field */
        char sh[48];
        snprintf(sh, sizeof sh, "%" PRIu32 "/%" PRIu32, id->shard_i, id->shard_n);
        put_key(&b, "shard");
        put_str(&b, sh);
    }
    puts_(&b, "}\n");
    if (b.oom) { free(b.p); return NULL; }
    return b.p;
}

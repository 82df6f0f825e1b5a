/*
 * space_enum.c - enumerate a search space in its documented order
 * (space.h), assemble each combination into schedule words, parse them,
 * and count what is excluded (constraints) and invalid (the generator).
 */
#include "sim/search/space.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

uint64_t mg_space_raw(const mg_space *sp)
{
    uint64_t n = 1;
    for (int i = 0; i < sp->nknobs; i++) n *= (uint64_t)sp->knobs[i].nopts;
    return n;
}

char *mg_space_reason(const char *msg, char *buf, size_t len)
{
    if (!strncmp(msg, "schedule: ", 10)) msg += 10;
    const char *colon = strchr(msg, ':');        /* "conv2d: ..." */
    if (colon && colon[1] == ' ' && !memchr(msg, ' ', (size_t)(colon - msg))) msg = colon + 2;
    size_t o = 0;
    for (const char *p = msg; *p && o + 1 < len;) {
        if (isdigit((unsigned char)*p)) {
            buf[o++] = 'N';
            while (isdigit((unsigned char)*p)) p++;
        } else {
            buf[o++] = *p++;
        }
    }
    buf[o] = 0;
    return buf;
}

static void tally(mg_space_stats *st, const char *msg)
{
    char r[200];
    mg_space_reason(msg, r, sizeof r);
    for (int i = 0; i < st->nreasons; i++)
        if (!strcmp(st->reason[i], r)) { st->reason_n[i]++; return; }
    if (st->nreasons == MG_SPACE_REASONS) { st->reason_other++; return; }
    snprintf(st->reason[st->nreasons], sizeof st->reason[0], "%s", r);
    st->reason_n[st->nreasons++] = 1;
}

static const mg_space_val *value(const mg_space *sp, const int64_t *pos, int var)
{
    const mg_space_var *v = &sp->vars[var];
    if (v->alias >= 0) var = v->alias, v = &sp->vars[var];
    if (v->knob < 0) return &v->fixed;
    const mg_space_knob *k = &sp->knobs[v->knob];
    int q = 0;
    while (k->var[q] != var) q++;
    return &k->opts[pos[v->knob] * k->nvars + q];
}

static int cons_ok(const mg_space *sp, const int64_t *pos)
{
    for (int i = 0; i < sp->ncons; i++) {
        const mg_space_cons *c = &sp->cons[i];
        if (c->kind == MG_CONS_EQUAL) {
            if (value(sp, pos, c->var[0])->i != value(sp, pos, c->var[1])->i) return 0;
            continue;
        }
        int64_t p = 1;
        for (int q = 0; q < c->nvars; q++) p *= value(sp, pos, c->var[q])->i;
        if ((c->min >= 0 && p < c->min) || (c->max >= 0 && p > c->max) ||
            (c->multiple_of && p % c->multiple_of) || (c->divides && (p == 0 || c->divides % p)))
            return 0;
    }
    return 1;
}

/* Append the n bytes of t at buf + *o (len the room): 0, or -1 when they
 * do not fit. */
static int append(char *buf, size_t len, size_t *o, const char *t, size_t n)
{
    if (*o + n >= len) return -1;
    memcpy(buf + *o, t, n);
    *o += n;
    return 0;
}

/* "op key=value ..." into buf (NUL-separated words; the caller joins
 * them); word pointers into w for the parser.  The number of words, or -1
 * when they do not fit.  memcpy, not printf: the enumeration assembles
 * every combination of a space. */
static int words(const mg_space *sp, const int64_t *pos, char *buf, size_t len, char **w)
{
    size_t o = 0;
    int n = 0;
    if (append(buf, len, &o, sp->op, strlen(sp->op))) return -1;
    for (int k = 0; k < sp->nkeys; k++) {
        buf[o++] = 0;
        w[n++] = buf + o;
        const char *kn = sp->keyname[k];
        if (append(buf, len, &o, kn, strlen(kn)) || append(buf, len, &o, "=", 1)) return -1;
        int parts = sp->keyparts[k] ? sp->keyparts[k] : 1;
        for (int p = 0; p < parts; p++) {
            int v = sp->keyvars[k][p];
            const char *sep = sp->keyparts[k] == 2 ? "x" : ",";
            const char *t = v < 0 ? "1" : value(sp, pos, v)->s;
            if ((p && append(buf, len, &o, sep, 1)) || append(buf, len, &o, t, strlen(t)))
                return -1;
        }
    }
    buf[o] = 0;
    return n;
}

static int cmp_reason(const void *a, const void *b, const mg_space_stats *st)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (st->reason_n[i] != st->reason_n[j]) return st->reason_n[i] > st->reason_n[j] ? -1 : 1;
    return strcmp(st->reason[i], st->reason[j]);
}

static void sort_reasons(mg_space_stats *st)
{
    /* insertion sort: at most MG_SPACE_REASONS entries */
    int idx[MG_SPACE_REASONS];
    for (int i = 0; i < st->nreasons; i++) idx[i] = i;
    for (int i = 1; i < st->nreasons; i++)
        for (int j = i; j > 0 && cmp_reason(&idx[j], &idx[j - 1], st) < 0; j--) {
            int t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t;
        }
    static _Thread_local char r[MG_SPACE_REASONS][200];   /* large; one per thread */
    uint64_t n[MG_SPACE_REASONS];
    for (int i = 0; i < st->nreasons; i++) {
        memcpy(r[i], st->reason[idx[i]], sizeof r[i]);
        n[i] = st->reason_n[idx[i]];
    }
    memcpy(st->reason, r, sizeof r[0] * (size_t)st->nreasons);
    memcpy(st->reason_n, n, sizeof n[0] * (size_t)st->nreasons);
}

int mg_space_enumerate(const mg_space *sp, mg_space_visit fn, void *ctx, mg_space_stats *st)
{
    memset(st, 0, sizeof *st);
    int64_t pos[MG_SPACE_MAX_KNOBS] = {0};
    mg_space_cand *c = malloc(sizeof *c);
    if (!c) return -1;
    char *w[MG_SPACE_MAX_VARS + 1];
    int rc = 0;
    uint64_t raw = mg_space_raw(sp);
    mg_diag d;
    mg_diag_init(&d);
    for (uint64_t r = 0; r < raw && !rc; r++) {
        if (r) {                                 /* odometer: last knob fastest */
            int k = sp->nknobs - 1;
            while (k >= 0 && ++pos[k] == sp->knobs[k].nopts) pos[k--] = 0;
        }
        st->raw++;
        if (!cons_ok(sp, pos)) { st->excluded++; continue; }
        int n = words(sp, pos, c->words, sizeof c->words, w);
        if (n < 0 || mg_schedule_parse(sp->op, n, w, &c->s, &d)) {
            st->invalid++;
            tally(st, n < 0 ? "schedule too long" : mg_diag_first(&d));
            mg_diag_free(&d);
            mg_diag_init(&d);
            continue;
        }
        for (int i = 0; i < n; i++) w[i][-1] = ' ';      /* one line of words */
        c->index = st->size++;
        c->raw = r;
        if (fn) rc = fn(ctx, c);
    }
    mg_diag_free(&d);
    free(c);
    sort_reasons(st);
    return rc;
}

/* The odometer position of raw combination r (the last knob fastest). */
static void position_of(const mg_space *sp, uint64_t r, int64_t *pos)
{
    for (int k = sp->nknobs - 1; k >= 0; k--) {
        uint64_t n = (uint64_t)sp->knobs[k].nopts;
        pos[k] = (int64_t)(r % n);
        r /= n;
    }
}

int mg_space_visit_members(const mg_space *sp, const uint64_t *raw, uint64_t n,
                           mg_space_want want, mg_space_visit fn, void *ctx)
{
    int64_t pos[MG_SPACE_MAX_KNOBS] = {0};
    mg_space_cand *c = malloc(sizeof *c);
    if (!c) return -1;
    char *w[MG_SPACE_MAX_VARS + 1];
    int rc = 0;
    mg_diag d;
    mg_diag_init(&d);
    for (uint64_t i = 0; i < n && !rc; i++) {
        if (want && !want(ctx, i)) continue;
        position_of(sp, raw[i], pos);
        int nw = words(sp, pos, c->words, sizeof c->words, w);
        if (nw < 0 || mg_schedule_parse(sp->op, nw, w, &c->s, &d)) {
            rc = -1;                             /* not a member: the list is another space's */
            break;
        }
        for (int k = 0; k < nw; k++) w[k][-1] = ' ';
        c->index = i;
        c->raw = raw[i];
        rc = fn(ctx, c);
    }
    mg_diag_free(&d);
    free(c);
    return rc;
}

cJSON *mg_space_stats_json(const mg_space *sp, const mg_space_stats *st)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "space", sp->name);
    cJSON_AddStringToObject(j, "op", sp->op);
    cJSON_AddNumberToObject(j, "raw", (double)st->raw);
    cJSON_AddNumberToObject(j, "excluded", (double)st->excluded);
    cJSON_AddNumberToObject(j, "invalid", (double)st->invalid);
    cJSON_AddNumberToObject(j, "size", (double)st->size);
    cJSON *r = cJSON_AddObjectToObject(j, "invalid_by_reason");
    for (int i = 0; i < st->nreasons; i++)
        cJSON_AddNumberToObject(r, st->reason[i], (double)st->reason_n[i]);
    if (st->reason_other) cJSON_AddNumberToObject(r, "(other)", (double)st->reason_other);
    cJSON *k = cJSON_AddArrayToObject(j, "knobs");
    for (int i = 0; i < sp->nknobs; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sp->knobs[i].name);
        cJSON_AddNumberToObject(o, "options", (double)sp->knobs[i].nopts);
        if (sp->knobs[i].shape) cJSON_AddBoolToObject(o, "shape", 1);
        cJSON_AddItemToArray(k, o);
    }
    return j;
}

void mg_space_stats_print(const mg_space *sp, const mg_space_stats *st, FILE *f)
{
    fprintf(f, "space      %s (%s)\n", sp->name, sp->op);
    fprintf(f, "knobs     ");
    for (int i = 0; i < sp->nknobs; i++)
        fprintf(f, " %s%s %" PRId64 "%s", sp->knobs[i].name, sp->knobs[i].shape ? " (shape)" : "",
                sp->knobs[i].nopts, i + 1 < sp->nknobs ? " x" : "");
    fprintf(f, "\nraw        %" PRIu64 "\n", st->raw);
    fprintf(f, "excluded   %" PRIu64 " (space constraints)\n", st->excluded);
    fprintf(f, "invalid    %" PRIu64 " (rejected by the generator)\n", st->invalid);
    for (int i = 0; i < st->nreasons; i++)
        fprintf(f, "  %10" PRIu64 "  %s\n", st->reason_n[i], st->reason[i]);
    if (st->reason_other) fprintf(f, "  %10" PRIu64 "  (other reasons)\n", st->reason_other);
    fprintf(f, "size       %" PRIu64 "\n", st->size);
}

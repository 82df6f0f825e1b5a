/*
 * shard.c - the split of a sweep into shards, and merging shard files
 * (shard.h).
 *
 * A merge is a sweep of the whole space whose results come from the shard
 * files instead of simulations (mg_sweep_dist.fetch): the engine scans the
 * space and the rules as for any sweep, asks for every record it writes in
 * candidate order, and this file reads each from the shard that holds it,
 * which must have it next.  So the merged file is written by the code that
 * writes one process's sweep, and a shard that stopped early, holds a
 * stranger's record or another sweep's header is found, not merged.
 */
#include "sim/search/shard.h"

#include "base/afile.h"
#include "base/jsonfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t mg_shard_of(uint64_t index, uint32_t n)
{
    return n <= 1 ? 0 : (uint32_t)((index / MG_SHARD_BLOCK) % n);
}

int mg_shard_has(const mg_sweep_ident *id, uint64_t index)
{
    return id->shard_n <= 1 || mg_shard_of(index, id->shard_n) == id->shard_i;
}

int mg_shard_parse(const char *s, uint32_t *i, uint32_t *n)
{
    char *end;
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    unsigned long a = strtoul(s, &end, 10);
    if (errno || *end != '/' || end[1] < '0' || end[1] > '9') return -1;
    unsigned long b = strtoul(end + 1, &end, 10);
    if (errno || *end || b < 2 || b > MG_SHARD_MAX || a >= b) return -1;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return 0;
}

/* ---- reading the shard files --------------------------------------------- */

typedef struct shard_in {
    const char *path;
    FILE       *f;
    uint64_t    lineno;           /* of the line last read */
    char       *line;
    size_t      cap;
} shard_in;

typedef struct merge {
    uint32_t  n;
    shard_in *in;                 /* by shard number */
    const char *first;            /* the first file opened */
} merge;

/* The header of shard i of n of the sweep cfg describes (sweep.c's
 * mg_sweep_run fills a sweep's ident so; a merge has no --cutoff). */
static char *shard_header(const mg_sweep_cfg *cfg, uint64_t size, uint32_t i, uint32_t n)
{
    mg_sweep_ident id = cfg->id;
    id.pruned_only = cfg->pruned_only;
    id.cutoff = 0;
    id.sample = cfg->sample;
    id.max_work = cfg->max_work;
    id.size = size;
    id.shard_i = i;
    id.shard_n = n;
    return mg_sweep_header_line(&id);
}

/* Report how header line `have` of path differs from `want`: the first
 * field that differs (the shard aside), or that it is no sweep's. */
static void header_differs(const char *path, const char *have, const char *want, mg_diag *d)
{
    mg_diag e;
    mg_diag_init(&e);
    cJSON *h = mg_json_parse(path, have, strlen(have), &e);
    cJSON *w = mg_json_parse(path, want, strlen(want), &e);
    char what[300] = "its header differs";
    for (const cJSON *k = w ? w->child : NULL; h && k; k = k->next) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(h, k->string);
        if (!strcmp(k->string, "shard") || (o && cJSON_Compare(o, k, 1))) continue;
        char *a = o ? cJSON_PrintUnformatted(o) : NULL, *b = cJSON_PrintUnformatted(k);
        snprintf(what, sizeof what, "%s is %s in the file, %s in this sweep", k->string,
                 a ? a : "missing", b ? b : "?");
        cJSON_free(a);
        cJSON_free(b);
        break;
    }
    mg_diag_error(d, "%s: a shard of another sweep (%s); merge needs the options the shards "
                  "ran with", path, what);
    cJSON_Delete(h);
    cJSON_Delete(w);
    mg_diag_free(&e);
}

/* The shard number and count a shard file's header line names.  Returns
 * 0, or -1 with the problem in d. */
static int header_shard(const char *path, const char *line, uint32_t *i, uint32_t *n,
                        mg_diag *d)
{
    mg_diag e;
    mg_diag_init(&e);
    cJSON *h = mg_json_parse(path, line, strlen(line), &e);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(h, "shard");
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(h, "schema");
    int rc = 0;
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, MG_SWEEP_SCHEMA)) {
        mg_diag_error(d, "%s: not a sweep results file (no %s header line)", path,
                      MG_SWEEP_SCHEMA);
        rc = -1;
    } else if (!cJSON_IsString(s) || mg_shard_parse(s->valuestring, i, n)) {
        mg_diag_error(d, "%s: not a shard's results file (its header has no \"shard\": "
                      "\"I/N\"; made without --shard?)", path);
        rc = -1;
    }
    cJSON_Delete(h);
    mg_diag_free(&e);
    return rc;
}

/* Open files[k], read its header and file it under its shard number in m
 * (m->n set by the first).  Returns 0, or -1 with the problem in d. */
static int open_shard(merge *m, const mg_sweep_cfg *cfg, uint64_t size, const char *path,
                      mg_diag *d)
{
    shard_in t = {.path = path};
    uint32_t i, n;
    t.f = fopen(path, "r");
    if (!t.f) {
        mg_diag_error(d, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    ssize_t len = getline(&t.line, &t.cap, t.f);
    t.lineno = 1;
    int rc = -1;
    if (len <= 0 || t.line[len - 1] != '\n')
        mg_diag_error(d, "%s: no header line (empty, or cut short)", path);
    else if (!header_shard(path, t.line, &i, &n, d)) {
        char *want = shard_header(cfg, size, i, n);
        if (!want) mg_diag_error(d, "out of memory");
        else if (strcmp(t.line, want)) header_differs(path, t.line, want, d);
        else if (m->n && n != m->n)
            mg_diag_error(d, "%s: shard %" PRIu32 "/%" PRIu32 ", but %s is a shard of %"
                          PRIu32, path, i, n, m->first, m->n);
        else rc = 0;
        free(want);
    }
    if (!rc && !m->n) {
        m->in = calloc(n, sizeof *m->in);
        if (!m->in) { mg_diag_error(d, "out of memory"); rc = -1; }
        else {
            m->n = n;
            m->first = path;
        }
    }
    if (!rc && m->in[i].f) {
        mg_diag_error(d, "%s and %s are both shard %" PRIu32 "/%" PRIu32, m->in[i].path, path,
                      i, n);
        rc = -1;
    }
    if (rc) {
        fclose(t.f);
        free(t.line);
        return -1;
    }
    m->in[i] = t;
    return 0;
}

/* mg_sweep_dist.fetch: the next record of the shard holding `index`,
 * which must be index's. */
static int merge_fetch(void *ctx, uint64_t index, mg_sweep_result *r, mg_diag *d)
{
    merge *m = ctx;
    uint32_t k = mg_shard_of(index, m->n);
    shard_in *s = &m->in[k];
    ssize_t len = getline(&s->line, &s->cap, s->f);
    s->lineno++;
    if (len <= 0 || s->line[len - 1] != '\n') {
        mg_diag_error(d, "%s: shard %" PRIu32 "/%" PRIu32 " ends before its record for "
                      "candidate %" PRIu64 " (the shard is incomplete: rerun its sweep to "
                      "finish it)", s->path, k, m->n, index);
        return -1;
    }
    char err[200];
    if (mg_sweep_result_parse(s->line, r, err, sizeof err)) {
        mg_diag_error(d, "%s:%" PRIu64 ": not a sweep record (%s)", s->path, s->lineno, err);
        return -1;
    }
    if (r->index != index) {
        mg_diag_error(d, "%s:%" PRIu64 ": the record of candidate %" PRIu64 " where shard %"
                      PRIu32 "/%" PRIu32 "'s next is candidate %" PRIu64 " (the file was "
                      "edited)", s->path, s->lineno, r->index, k, m->n, index);
        mg_sweep_result_free(r);
        return -1;
    }
    return 0;
}

/* After the merge: every shard file must have been read to its end. */
static int check_ends(merge *m, mg_diag *d)
{
    for (uint32_t k = 0; k < m->n; k++) {
        shard_in *s = &m->in[k];
        if (getline(&s->line, &s->cap, s->f) > 0) {
            mg_diag_error(d, "%s:%" PRIu64 ": a record this sweep does not have (the file "
                          "was edited)", s->path, s->lineno + 1);
            return -1;
        }
    }
    return 0;
}

/* Open every shard file into m: all of shards 0 .. N-1, once each.
 * Returns 0, or -1 with the problem in d. */
static int open_shards(merge *m, const mg_sweep_cfg *cfg, char *const *files, int nfiles,
                       mg_diag *d)
{
    mg_space_stats st;
    mg_space_enumerate(cfg->space, NULL, NULL, &st);
    for (int k = 0; k < nfiles; k++)
        if (open_shard(m, cfg, st.size, files[k], d)) return -1;
    for (uint32_t k = 0; k < m->n; k++)
        if (!m->in[k].f) {
            mg_diag_error(d, "shard %" PRIu32 "/%" PRIu32 " is missing (%d files given for "
                          "%" PRIu32 " shards)", k, m->n, nfiles, m->n);
            return -1;
        }
    return 0;
}

static void close_shards(merge *m)
{
    for (uint32_t k = 0; m->in && k < m->n; k++) {
        if (m->in[k].f) fclose(m->in[k].f);
        free(m->in[k].line);
    }
    free(m->in);
}

int mg_sweep_merge(const mg_sweep_cfg *cfg, char *const *files, int nfiles, mg_sweep_sum *sum,
                   mg_diag *d)
{
    char final[4096], tmp[4200];
    if (mg_afile_target(cfg->results, final, sizeof final)) {
        mg_diag_error(d, "%s: --merge writes a regular file", cfg->results);
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", final, (long)getpid());
    merge m = {0};
    int rc = open_shards(&m, cfg, files, nfiles, d);
    if (!rc) {
        mg_sweep_dist dist = {.fetch = merge_fetch, .ctx = &m};
        mg_sweep_cfg c = *cfg;
        c.results = tmp;
        c.restart = 1;
        c.threads = 1;
        c.limit = 0;
        c.dist = &dist;
        int slot = mg_afile_track(tmp, 0);
        rc = mg_sweep_run(&c, sum, d);
        if (!rc && !sum->interrupted) rc = check_ends(&m, d);
        if (!rc && !sum->interrupted && rename(tmp, final)) {
            mg_diag_error(d, "%s: cannot write: %s", final, strerror(errno));
            rc = -1;
        }
        if (rc || sum->interrupted) unlink(tmp);
        mg_afile_untrack(slot);
    }
    close_shards(&m);
    return rc;
}

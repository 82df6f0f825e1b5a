/*
 * nt_given.c - the schedules file of `mgsim net --layers-only` (nettune.h):
 * {"schema": "mgsim-net-schedules/1", "layers": {"NAME": "op key=value
 * ...", ...}}.  Every problem is reported ("FILE: $.layers.NAME: ..."): a
 * name that is no layer of the network (with the nearest one), a value that
 * is not a string, a schedule the generator refuses.  With --batch, the
 * schedules are stacked (mg_nt_given_stack).
 */
#include "sim/nettune/nettune.h"
#include "traces/gen/op.h"
#include "traces/gen/schedule.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <stdlib.h>
#include <string.h>

#define GIVEN_SCHEMA "mgsim-net-schedules/1"

/* One entry; 0, or -1 after reporting it. */
static int given_one(const char *path, const mg_net *net, const char **names,
                     const cJSON *e, mg_nt_given *g, mg_diag *d)
{
    int found = 0;
    for (int i = 0; i < net->nlayers && !found; i++) found = !strcmp(names[i], e->string);
    mg_hint h;
    if (!found) {
        mg_diag_error(d, "%s: $.layers.%s: no layer of %s is named '%s'%s", path, e->string,
                      net->name, e->string,
                      mg_hint_near(&h, e->string, names, (size_t)net->nlayers, "'"));
        return -1;
    }
    if (!cJSON_IsString(e)) {
        mg_diag_error(d, "%s: $.layers.%s: expected a schedule string (\"op key=value ...\"), "
                      "got %s", path, e->string, mg_json_type_name(e));
        return -1;
    }
    mg_diag sd;
    mg_diag_init(&sd);
    mg_schedule s;
    int bad = mg_schedule_parse_line(e->valuestring, NULL, &s, &sd);
    if (bad) mg_diag_error(d, "%s: $.layers.%s: %s", path, e->string, mg_diag_first(&sd));
    mg_diag_free(&sd);
    if (bad) return -1;
    snprintf(g->name[g->n], sizeof g->name[g->n], "%s", e->string);
    g->words[g->n] = strdup(e->valuestring);
    g->n++;
    return 0;
}

int mg_nt_given_load(const char *path, const mg_net *net, mg_nt_given *g, mg_diag *d)
{
    memset(g, 0, sizeof *g);
    cJSON *j = mg_json_load(path, d);
    if (!j) return -1;
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(j, "layers");
    int n = cJSON_GetArraySize(ls), bad = 0;
    const char **names = calloc((size_t)net->nlayers + 1, sizeof *names);
    g->name = calloc((size_t)n + 1, sizeof *g->name);
    g->words = calloc((size_t)n + 1, sizeof *g->words);
    if (!names || !g->name || !g->words) {
        mg_diag_error(d, "out of memory");
        bad = 1;
    } else if (!cJSON_IsString(sc) || strcmp(sc->valuestring, GIVEN_SCHEMA)) {
        mg_diag_error(d, "%s: $.schema: expected \"%s\"", path, GIVEN_SCHEMA);
        bad = 1;
    } else if (!cJSON_IsObject(ls)) {
        mg_diag_error(d, "%s: $.layers: expected an object of layer name -> schedule", path);
        bad = 1;
    } else {
        for (int i = 0; i < net->nlayers; i++) names[i] = net->layers[i].name;
        const cJSON *e;
        cJSON_ArrayForEach(e, ls) bad |= given_one(path, net, names, e, g, d) != 0;
    }
    free(names);
    cJSON_Delete(j);
    if (bad) mg_nt_given_free(g);
    return bad ? -1 : 0;
}

void mg_nt_given_free(mg_nt_given *g)
{
    for (int i = 0; i < g->n; i++) free(g->words[i]);
    free(g->words);
    free(g->name);
    memset(g, 0, sizeof *g);
}

/* Whether op takes the key `name`. */
static int has_key(const mg_op *op, const char *name)
{
    for (const mg_key *k = op->keys; k && k->name; k++)
        if (!strcmp(k->name, name)) return 1;
    return 0;
}

/* One schedule stacked batch times into out (len bytes); 0, or -1 with
 * the problem in d. */
static int stack_one(const char *name, const char *words, int64_t batch, char *out,
                     size_t len, mg_diag *d)
{
    mg_diag sd;
    mg_diag_init(&sd);
    mg_schedule s;
    int rc = mg_schedule_parse_line(words, NULL, &s, &sd);
    if (!rc && has_key(s.op, "H")) s.H *= batch;
    else if (!rc && has_key(s.op, "M")) s.M *= batch;
    else if (!rc) {
        mg_diag_error(d, "--batch %lld: layer %s: %s has no H or M to stack the images along",
                      (long long)batch, name, s.op->name);
        rc = -1;
    }
    if (!rc) {
        char text[1024];
        mg_schedule_format(&s, text, sizeof text);
        mg_schedule t;
        if (mg_schedule_parse_line(text, NULL, &t, &sd)) {
            mg_diag_error(d, "--batch %lld: layer %s: %s", (long long)batch, name,
                          mg_diag_first(&sd));
            rc = -1;
        } else {
            snprintf(out, len, "%s", text);
        }
    } else if (sd.n) {
        mg_diag_error(d, "layer %s: %s", name, mg_diag_first(&sd));
    }
    mg_diag_free(&sd);
    return rc;
}

int mg_nt_given_stack(const mg_nt_given *g, int64_t batch, mg_nt_given *out, mg_diag *d)
{
    memset(out, 0, sizeof *out);
    out->name = calloc((size_t)g->n + 1, sizeof *out->name);
    out->words = calloc((size_t)g->n + 1, sizeof *out->words);
    if (!out->name || !out->words) {
        mg_nt_given_free(out);
        mg_diag_error(d, "out of memory");
        return -1;
    }
    for (int i = 0; i < g->n; i++) {
        char text[1024];
        if (stack_one(g->name[i], g->words[i], batch, text, sizeof text, d)) {
            mg_nt_given_free(out);
            return -1;
        }
        snprintf(out->name[i], sizeof out->name[i], "%s", g->name[i]);
        out->words[i] = strdup(text);
        out->n = i + 1;
        if (!out->words[i]) {
            mg_nt_given_free(out);
            mg_diag_error(d, "out of memory");
            return -1;
        }
    }
    return 0;
}

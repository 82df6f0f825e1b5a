/*
 * nt_given.c - the schedules file of `mgsim net --layers-only` (nettune.h):
 * {"schema": "mgsim-net-schedules/1", "layers": {"NAME": "op key=value
 * ...", ...}}.  Every problem is reported ("FILE: $.layers.NAME: ..."): a
 * name that is no layer of the network (with the nearest one), a value that
 * is not a string, a schedule the generator refuses.
 */
#include "sim/nettune/nettune.h"
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

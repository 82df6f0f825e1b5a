/*
 * net_load.c - read a network description (net.h) into mg_net: the
 * document's keys, the inputs and the layers with their operator keys.
 * The graph (names, cycles, shapes, costs) is checked by net_graph.c.
 */
#include "sim/net/net_internal.h"
#include "sim/net/nop.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_net_act_names[] = {"none", "relu", "relu6", "gelu", NULL};
const char *const mg_net_pool_names[] = {"max", "avg", NULL};

typedef enum { LK_PAIR, LK_BOOL, LK_ACT, LK_POOL } lk_type;

/* The operator keys a layer may carry (each operator names its own). */
typedef struct lkey {
    const char *name;
    lk_type type;
    size_t off;
    int64_t min, max;
} lkey;

static const lkey lkeys[] = {
    {"kernel", LK_PAIR, offsetof(mg_net_layer, kernel), 1, 64},
    {"stride", LK_PAIR, offsetof(mg_net_layer, stride), 1, 64},
    {"pad", LK_PAIR, offsetof(mg_net_layer, pad), 0, 64},
    {"dilation", LK_PAIR, offsetof(mg_net_layer, dilation), 1, 64},
    {"depthwise", LK_BOOL, offsetof(mg_net_layer, depthwise), 0, 1},
    {"bias", LK_BOOL, offsetof(mg_net_layer, bias), 0, 1},
    {"ceil", LK_BOOL, offsetof(mg_net_layer, ceil), 0, 1},
    {"transpose_b", LK_BOOL, offsetof(mg_net_layer, transpose_b), 0, 1},
    {"act", LK_ACT, offsetof(mg_net_layer, act), 0, 0},
    {"kind", LK_POOL, offsetof(mg_net_layer, kind), 0, 0},
};
#define NLKEYS (sizeof lkeys / sizeof lkeys[0])

/* Is word one of the space-separated words of list? */
static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
    return 0;
}

int mg_net_shape_of(const mg_net_ctx *c, const char *path, const cJSON *j, int64_t s[4])
{
    int ok = cJSON_IsArray(j) && cJSON_GetArraySize(j) == 4;
    double elems = 1;
    for (int i = 0; ok && i < 4; i++) {
        const cJSON *e = cJSON_GetArrayItem(j, i);
        ok = cJSON_IsNumber(e) && e->valuedouble >= 1 && e->valuedouble <= (1 << 24) &&
             e->valuedouble == floor(e->valuedouble);
        if (ok) s[i] = (int64_t)e->valuedouble;
        if (ok) elems *= e->valuedouble;
    }
    if (!ok || elems > 1e12) {
        mg_diag_error(c->d, "%s: %s: expected a shape [N, H, W, C] of 4 integers in 1..%d "
                      "(at most 1e12 elements)", c->file, path, 1 << 24);
        return -1;
    }
    return 0;
}

/* An integer, or a pair [a, b] of integers, in [k->min, k->max]. */
static int read_pair(const mg_net_ctx *c, const char *path, const lkey *k, const cJSON *j,
                     int64_t *out)
{
    const cJSON *v[2] = {j, j};
    if (cJSON_IsArray(j) && cJSON_GetArraySize(j) == 2) {
        v[0] = cJSON_GetArrayItem(j, 0);
        v[1] = cJSON_GetArrayItem(j, 1);
    }
    for (int i = 0; i < 2; i++) {
        double x = cJSON_IsNumber(v[i]) ? v[i]->valuedouble : NAN;
        if (!(x >= (double)k->min && x <= (double)k->max && x == floor(x))) {
            mg_diag_error(c->d, "%s: %s.%s: expected an integer or a pair [H, W] of integers "
                          "in %lld..%lld", c->file, path, k->name, (long long)k->min,
                          (long long)k->max);
            return -1;
        }
        out[i] = (int64_t)x;
    }
    return 0;
}

/* The word j names in names (a NULL-terminated list) as its index, or -1. */
static int read_enum(const mg_net_ctx *c, const char *path, const char *key, const cJSON *j,
                     const char *const *names)
{
    size_t n = 0;
    while (names[n]) n++;
    if (cJSON_IsString(j))
        for (size_t i = 0; i < n; i++)
            if (!strcmp(names[i], j->valuestring)) return (int)i;
    char known[128];
    mg_hint h;
    mg_diag_error(c->d, "%s: %s.%s: expected one of %s, got %s%s", c->file, path, key,
                  mg_join_names(known, sizeof known, names, n, ", "),
                  cJSON_IsString(j) ? j->valuestring : mg_json_type_name(j),
                  cJSON_IsString(j) ? mg_hint_near(&h, j->valuestring, names, n, "") : "");
    return -1;
}

static int read_key(const mg_net_ctx *c, const char *path, const lkey *k, const cJSON *j,
                    mg_net_layer *l)
{
    char *field = (char *)l + k->off;
    int v;
    switch (k->type) {
    case LK_PAIR: return read_pair(c, path, k, j, (int64_t *)(void *)field);
    case LK_BOOL:
        if (!cJSON_IsBool(j)) {
            mg_diag_error(c->d, "%s: %s.%s: expected true or false, got %s", c->file, path,
                          k->name, mg_json_type_name(j));
            return -1;
        }
        *(int *)(void *)field = cJSON_IsTrue(j);
        return 0;
    case LK_ACT:
    case LK_POOL:
        v = read_enum(c, path, k->name, j,
                      k->type == LK_ACT ? mg_net_act_names : mg_net_pool_names);
        if (v < 0) return -1;
        if (k->type == LK_ACT) l->act = (mg_net_act)v;
        else l->kind = (mg_net_pool)v;
        return 0;
    }
    return -1;
}

/* The layer's operator: its "op" word, known. */
static const mg_nop *layer_op(const mg_net_ctx *c, const char *path, const cJSON *j)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
    if (!cJSON_IsString(op)) {
        mg_diag_error(c->d, "%s: %s.op: %s (the layer's operator)", c->file, path,
                      op ? "expected a string" : "missing required key");
        return NULL;
    }
    const mg_nop *n = mg_nop_find(op->valuestring);
    if (!n) {
        const char *names[64];
        size_t k = 0;
        while (mg_nops[k] && k < 64) names[k] = mg_nops[k]->name, k++;
        char known[256];
        mg_hint h;
        mg_diag_error(c->d, "%s: %s: unknown operator \"%s\"%s (known: %s)", c->file, path,
                      op->valuestring, mg_hint_near(&h, op->valuestring, names, k, "\""),
                      mg_join_names(known, sizeof known, names, k, ", "));
    }
    return n;
}

/* Every key of layer j but name, op, inputs and shape: one its operator
 * takes, read into l. */
static int layer_keys(const mg_net_ctx *c, const char *path, const cJSON *j, mg_net_layer *l)
{
    int bad = 0;
    for (const cJSON *e = j->child; e; e = e->next) {
        const char *k = e->string;
        if (!strcmp(k, "name") || !strcmp(k, "op") || !strcmp(k, "inputs") ||
            !strcmp(k, "shape"))
            continue;
        size_t i = 0;
        while (i < NLKEYS && strcmp(lkeys[i].name, k)) i++;
        if (i < NLKEYS && in_list(l->op->keys, k)) {
            bad |= read_key(c, path, &lkeys[i], e, l);
            continue;
        }
        const char *cands[NLKEYS + 4] = {"name", "op", "inputs", "shape"};
        size_t n = 4;
        for (size_t q = 0; q < NLKEYS; q++)
            if (in_list(l->op->keys, lkeys[q].name)) cands[n++] = lkeys[q].name;
        mg_hint h;
        mg_diag_error(c->d, "%s: %s: %s takes no key \"%s\"%s (it takes: %s)", c->file, path,
                      l->op->name, k, mg_hint_near(&h, k, cands, n, "\""),
                      *l->op->keys ? l->op->keys : "no operator keys");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* Layer i from j: name, operator, its keys, the input names (kept in
 * c->in_names for net_graph.c) and the stated shape. */
static int read_layer(mg_net_ctx *c, int i, const cJSON *j)
{
    mg_net_layer *l = &c->net->layers[i];
    char path[MG_NET_NAME_MAX + 40];
    snprintf(path, sizeof path, "$.layers[%d]", i);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    if (!cJSON_IsObject(j) || !cJSON_IsString(name) || !*name->valuestring ||
        strlen(name->valuestring) >= MG_NET_NAME_MAX) {
        mg_diag_error(c->d, "%s: %s: expected an object with a \"name\" of 1..%d characters",
                      c->file, path, MG_NET_NAME_MAX - 1);
        return -1;
    }
    snprintf(l->name, sizeof l->name, "%s", name->valuestring);
    snprintf(path, sizeof path, "$.layers[%d] (%s)", i, l->name);
    for (int a = 0; a < 2; a++) l->kernel[a] = l->stride[a] = l->dilation[a] = 1;
    if (!(l->op = layer_op(c, path, j)) || layer_keys(c, path, j, l)) return -1;
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(j, "inputs");
    int nin = cJSON_IsArray(ins) ? cJSON_GetArraySize(ins) : -1;
    if (nin < l->op->min_in || nin > l->op->max_in) {
        mg_diag_error(c->d, "%s: %s.inputs: %s takes %d%s input%s: expected an array of that "
                      "many names, got %s", c->file, path, l->op->name, l->op->min_in,
                      l->op->max_in > l->op->min_in ? " or more" : "",
                      l->op->max_in > 1 ? "s" : "",
                      nin < 0 ? mg_json_type_name(ins) : "a different count");
        return -1;
    }
    l->nin = nin;
    for (int k = 0; k < nin; k++) {
        const cJSON *e = cJSON_GetArrayItem(ins, k);
        if (!cJSON_IsString(e)) {
            mg_diag_error(c->d, "%s: %s.inputs[%d]: expected a name", c->file, path, k);
            return -1;
        }
        c->in_names[i][k] = e->valuestring;
    }
    return mg_net_shape_of(c, path, cJSON_GetObjectItemCaseSensitive(j, "shape"), l->shape);
}

static int read_text(const mg_net_ctx *c, const cJSON *doc, const char *key, char *out,
                     size_t len, int required)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!j && !required) return 0;
    if (!cJSON_IsString(j) || strlen(j->valuestring) >= len || (required && !*j->valuestring)) {
        mg_diag_error(c->d, "%s: $.%s: %s (a string of at most %zu characters)", c->file, key,
                      j ? "expected text" : "missing required key", len - 1);
        return -1;
    }
    snprintf(out, len, "%s", j->valuestring);
    return 0;
}

/* A number >= min at key of obj (path names obj); absent: 0 when optional. */
static int read_num(const mg_net_ctx *c, const cJSON *obj, const char *path, const char *key,
                    double min, double *out, int required)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!j && !required) return 0;
    if (!cJSON_IsNumber(j) || !(j->valuedouble >= min) || !isfinite(j->valuedouble)) {
        mg_diag_error(c->d, "%s: %s.%s: %s (a number >= %g)", c->file, path, key,
                      j ? "expected a number" : "missing required key", min);
        return -1;
    }
    *out = j->valuedouble;
    return 0;
}

static int read_published(mg_net_ctx *c, const cJSON *doc)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "published");
    mg_net *n = c->net;
    if (!cJSON_IsObject(p)) {
        mg_diag_error(c->d, "%s: $.published: %s (an object: macs, params, tolerance, source)",
                      c->file, p ? "expected an object" : "missing required key");
        return -1;
    }
    static const char *const keys[] = {"macs", "params", "tolerance", "source"};
    int bad = mg_net_known_keys(c, "$.published", p, keys, 4);
    bad |= read_num(c, p, "$.published", "macs", 1, &n->pub_macs, 1);
    bad |= read_num(c, p, "$.published", "params", 1, &n->pub_params, 0);
    bad |= read_num(c, p, "$.published", "tolerance", 0, &n->pub_tolerance, 1);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(p, "source");
    if (!cJSON_IsString(s) || !*s->valuestring ||
        strlen(s->valuestring) >= sizeof n->pub_source) {
        mg_diag_error(c->d, "%s: $.published.source: expected where the figures come from",
                      c->file);
        return -1;
    }
    snprintf(n->pub_source, sizeof n->pub_source, "%s", s->valuestring);
    return bad ? -1 : 0;
}

int mg_net_known_keys(const mg_net_ctx *c, const char *path, const cJSON *obj,
                      const char *const *keys, size_t n)
{
    int bad = 0;
    for (const cJSON *e = obj->child; e; e = e->next) {
        size_t i = 0;
        while (i < n && strcmp(keys[i], e->string)) i++;
        if (i < n) continue;
        mg_hint h;
        mg_diag_error(c->d, "%s: %s.%s: unknown key%s", c->file, path, e->string,
                      mg_hint_near(&h, e->string, keys, n, "\""));
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* The document's own keys: schema, texts, published, stated totals. */
static int read_head(mg_net_ctx *c, const cJSON *doc)
{
    static const char *const keys[] = {"schema", "name", "description", "source",
                                       "published", "macs", "params", "inputs",
                                       "outputs", "layers"};
    if (!cJSON_IsObject(doc)) {
        mg_diag_error(c->d, "%s: $: expected a network object", c->file);
        return -1;
    }
    int bad = mg_net_known_keys(c, "$", doc, keys, sizeof keys / sizeof keys[0]);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (s && (!cJSON_IsString(s) || strcmp(s->valuestring, MG_NET_SCHEMA))) {
        mg_diag_error(c->d, "%s: $.schema: expected \"%s\"", c->file, MG_NET_SCHEMA);
        bad = 1;
    }
    mg_net *n = c->net;
    bad |= read_text(c, doc, "name", n->name, sizeof n->name, 1);
    bad |= read_text(c, doc, "description", n->description, sizeof n->description, 0);
    bad |= read_text(c, doc, "source", n->source, sizeof n->source, 1);
    bad |= read_published(c, doc);
    c->stated_macs = c->stated_params = -1;
    bad |= read_num(c, doc, "$", "macs", 0, &c->stated_macs, 0);
    bad |= read_num(c, doc, "$", "params", 0, &c->stated_params, 0);
    return bad ? -1 : 0;
}

/* The layers array: allocate and read each layer. */
static int read_layers(mg_net_ctx *c, const cJSON *doc)
{
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(doc, "layers");
    int n = cJSON_IsArray(ls) ? cJSON_GetArraySize(ls) : 0;
    if (n < 1 || n > MG_NET_MAX_LAYERS) {
        mg_diag_error(c->d, "%s: $.layers: expected an array of 1..%d layers", c->file,
                      MG_NET_MAX_LAYERS);
        return -1;
    }
    mg_net *net = c->net;
    net->layers = calloc((size_t)n, sizeof *net->layers);
    c->in_names = calloc((size_t)n, sizeof *c->in_names);
    if (!net->layers || !c->in_names) {
        mg_diag_error(c->d, "%s: out of memory for %d layers", c->file, n);
        return -1;
    }
    net->nlayers = n;
    int bad = 0, i = 0;
    for (const cJSON *e = ls->child; e; e = e->next, i++) bad |= read_layer(c, i, e);
    return bad ? -1 : 0;
}

int mg_net_parse(const cJSON *doc, const char *file, mg_net *net, mg_diag *d)
{
    memset(net, 0, sizeof *net);
    snprintf(net->file, sizeof net->file, "%s", file);
    mg_net_ctx c = {.file = file, .net = net, .d = d};
    int rc = 0;
    if (read_head(&c, doc) || read_layers(&c, doc) || mg_net_graph(&c, doc)) rc = -1;
    free(c.in_names);
    if (rc) mg_net_free(net);
    return rc;
}

int mg_net_load(const char *path, mg_net *net, mg_diag *d)
{
    memset(net, 0, sizeof *net);
    cJSON *doc = mg_json_load(path, d);
    if (!doc) return -1;
    int rc = mg_net_parse(doc, path, net, d);
    cJSON_Delete(doc);
    return rc;
}

void mg_net_free(mg_net *net)
{
    free(net->layers);
    free(net->tensors);
    free(net->order);
    free(net->outputs);
    net->layers = NULL;
    net->tensors = NULL;
    net->order = NULL;
    net->outputs = NULL;
    net->nlayers = net->ntensors = 0;
}

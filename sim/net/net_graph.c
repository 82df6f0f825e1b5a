/*
 * net_graph.c - check a network's graph and count its costs (net.h): the
 * network inputs, unique tensor names, every layer input naming a tensor,
 * a topological order (else the cycle, named), each layer's input shapes
 * and stated shape against its operator, the outputs, the totals against
 * those the file states.
 */
#include "sim/net/net_internal.h"
#include "sim/net/nop.h"
#include "base/strsim.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int find_tensor(const mg_net *n, const char *name)
{
    for (int t = 0; t < n->ntensors; t++)
        if (!strcmp(n->tensors[t].name, name)) return t;
    return -1;
}

/* Add a tensor named name unless the name is taken (then an error at path). */
static int add_tensor(mg_net_ctx *c, const char *path, const char *name, const int64_t s[4],
                      int layer)
{
    mg_net *n = c->net;
    if (find_tensor(n, name) >= 0) {
        mg_diag_error(c->d, "%s: %s: the name \"%s\" is already taken (names are unique "
                      "among inputs and layers)", c->file, path, name);
        return -1;
    }
    mg_net_tensor *t = &n->tensors[n->ntensors++];
    snprintf(t->name, sizeof t->name, "%s", name);
    memcpy(t->shape, s, sizeof t->shape);
    t->layer = layer;
    return 0;
}

/* $.inputs: [{name, shape}], then one tensor per layer. */
static int read_tensors(mg_net_ctx *c, const cJSON *doc)
{
    mg_net *n = c->net;
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    int ni = cJSON_IsArray(ins) ? cJSON_GetArraySize(ins) : 0;
    if (ni < 1 || ni > 64) {
        mg_diag_error(c->d, "%s: $.inputs: expected an array of 1..64 {\"name\", \"shape\"}",
                      c->file);
        return -1;
    }
    n->tensors = calloc((size_t)(ni + n->nlayers), sizeof *n->tensors);
    if (!n->tensors) return -1;
    int bad = 0, i = 0;
    static const char *const keys[] = {"name", "shape"};
    for (const cJSON *e = ins->child; e; e = e->next, i++) {
        char path[64];
        snprintf(path, sizeof path, "$.inputs[%d]", i);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        int64_t s[4];
        if (!cJSON_IsObject(e) || !cJSON_IsString(name) || !*name->valuestring ||
            strlen(name->valuestring) >= MG_NET_NAME_MAX) {
            mg_diag_error(c->d, "%s: %s: expected {\"name\", \"shape\"}", c->file, path);
            bad = 1;
        } else if (mg_net_known_keys(c, path, e, keys, 2) ||
                   mg_net_shape_of(c, path, cJSON_GetObjectItemCaseSensitive(e, "shape"), s) ||
                   add_tensor(c, path, name->valuestring, s, -1)) {
            bad = 1;
        }
    }
    n->ninputs = i;
    for (int l = 0; l < n->nlayers && !bad; l++) {
        char path[128];
        snprintf(path, sizeof path, "$.layers[%d] (%s)", l, n->layers[l].name);
        bad |= add_tensor(c, path, n->layers[l].name, n->layers[l].shape, l);
    }
    return bad ? -1 : 0;
}

/* Every layer input names a tensor (not the layer itself). */
static int resolve_inputs(mg_net_ctx *c)
{
    mg_net *n = c->net;
    const char **names = malloc((size_t)n->ntensors * sizeof *names);
    if (!names) return -1;
    for (int t = 0; t < n->ntensors; t++) names[t] = n->tensors[t].name;
    int bad = 0;
    for (int i = 0; i < n->nlayers; i++) {
        mg_net_layer *l = &n->layers[i];
        for (int k = 0; k < l->nin; k++) {
            const char *w = c->in_names[i][k];
            int t = find_tensor(n, w);
            l->in[k] = t;
            if (t >= 0) continue;
            mg_hint h;
            mg_diag_error(c->d, "%s: $.layers[%d] (%s): dangling input \"%s\": no network "
                          "input or layer has that name%s", c->file, i, l->name, w,
                          mg_hint_near(&h, w, names, (size_t)n->ntensors, "\""));
            bad = 1;
        }
    }
    free(names);
    return bad ? -1 : 0;
}

/* A cycle among the unordered layers, reached from layer i by walking to
 * an unordered producer until a layer repeats: written as "a -> b -> a"
 * in data-flow order into buf; returns the index of its first layer. */
static int cycle_text(const mg_net *n, const int *done, int i, char *buf, size_t len)
{
    int *walk = malloc((size_t)(n->nlayers + 1) * sizeof *walk);
    if (!walk) { snprintf(buf, len, "%s", n->layers[i].name); return i; }
    int m = 0, cur = i, first = -1;
    while (first < 0) {
        walk[m++] = cur;
        const mg_net_layer *l = &n->layers[cur];
        for (int k = 0; k < l->nin; k++) {
            int p = n->tensors[l->in[k]].layer;
            if (p >= 0 && !done[p]) { cur = p; break; }
        }
        for (int k = 0; k < m && first < 0; k++)
            if (walk[k] == cur) first = k;
    }
    /* walk[first .. m) is the cycle, consumers before producers */
    size_t o = 0;
    buf[0] = 0;
    for (int k = m - 1; k >= first - 1 && o < len; k--)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", k < m - 1 ? " -> " : "",
                              n->layers[walk[k < first ? m - 1 : k]].name);
    int start = walk[m - 1];
    free(walk);
    return start;
}

/* A topological order (Kahn's, lowest index first: the file's order
 * where it is one); a cycle is an error naming its layers. */
static int order_layers(mg_net_ctx *c)
{
    mg_net *n = c->net;
    int *done = calloc((size_t)n->nlayers, sizeof *done);
    n->order = malloc((size_t)n->nlayers * sizeof *n->order);
    if (!done || !n->order) { free(done); return -1; }
    int m = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < n->nlayers; i++) {
            if (done[i]) continue;
            int ready = 1;
            for (int k = 0; k < n->layers[i].nin && ready; k++) {
                int p = n->tensors[n->layers[i].in[k]].layer;
                ready = p < 0 || done[p];
            }
            if (ready) { done[i] = 1; n->order[m++] = i; progress = 1; }
        }
    }
    int rc = 0;
    for (int i = 0; i < n->nlayers && !rc; i++)
        if (!done[i]) {
            char text[1024];
            int at = cycle_text(n, done, i, text, sizeof text);
            mg_diag_error(c->d, "%s: $.layers[%d] (%s): on a cycle: %s (a network is "
                          "acyclic)", c->file, at, n->layers[at].name, text);
            rc = -1;
        }
    free(done);
    return rc;
}

/* Layer i's shape against its operator's, then its costs. */
static int check_layer(mg_net_ctx *c, int i)
{
    mg_net *n = c->net;
    mg_net_layer *l = &n->layers[i];
    int64_t in[MG_NET_MAX_IN][4], out[4];
    for (int k = 0; k < l->nin; k++) memcpy(in[k], n->tensors[l->in[k]].shape, sizeof in[k]);
    mg_nop_why why = {{0}};
    if (l->op->shape(l, (const int64_t(*)[4])in, out, &why)) {
        mg_diag_error(c->d, "%s: $.layers[%d] (%s): shape mismatch: %s", c->file, i, l->name,
                      why.text);
        return -1;
    }
    if (memcmp(out, l->shape, sizeof out)) {
        char so[64], ss[64], si[64];
        mg_diag_error(c->d, "%s: $.layers[%d] (%s): shape mismatch: states %s, but %s of %s "
                      "(\"%s\") gives %s", c->file, i, l->name,
                      mg_nop_shape_str(l->shape, ss, sizeof ss), l->op->name,
                      mg_nop_shape_str(in[0], si, sizeof si), n->tensors[l->in[0]].name,
                      mg_nop_shape_str(out, so, sizeof so));
        return -1;
    }
    l->op->cost(l, (const int64_t(*)[4])in);
    return 0;
}

static int read_outputs(mg_net_ctx *c, const cJSON *doc)
{
    mg_net *n = c->net;
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(doc, "outputs");
    int no = cJSON_IsArray(outs) ? cJSON_GetArraySize(outs) : 0;
    if (no < 1 || no > 64) {
        mg_diag_error(c->d, "%s: $.outputs: expected an array of 1..64 layer names", c->file);
        return -1;
    }
    n->outputs = calloc((size_t)no, sizeof *n->outputs);
    if (!n->outputs) return -1;
    int i = 0, bad = 0;
    for (const cJSON *e = outs->child; e; e = e->next, i++) {
        int t = cJSON_IsString(e) ? find_tensor(n, e->valuestring) : -1;
        if (t < 0) {
            mg_diag_error(c->d, "%s: $.outputs[%d]: expected the name of a layer or input",
                          c->file, i);
            bad = 1;
        }
        n->outputs[i] = t;
    }
    n->noutputs = no;
    return bad ? -1 : 0;
}

/* The totals, and those the file states (exact: both are counts). */
static int totals(mg_net_ctx *c)
{
    mg_net *n = c->net;
    double other = 0;
    for (int i = 0; i < n->nlayers; i++) {
        n->macs += n->layers[i].macs;
        n->params += n->layers[i].params;
        other += n->layers[i].flops_other;
    }
    n->flops = 2 * n->macs + other;
    int bad = 0;
    if (c->stated_macs >= 0 && c->stated_macs != n->macs) {
        mg_diag_error(c->d, "%s: $.macs: states %.0f MACs, the layers count %.0f", c->file,
                      c->stated_macs, n->macs);
        bad = 1;
    }
    if (c->stated_params >= 0 && c->stated_params != n->params) {
        mg_diag_error(c->d, "%s: $.params: states %.0f params, the layers count %.0f",
                      c->file, c->stated_params, n->params);
        bad = 1;
    }
    return bad ? -1 : 0;
}

int mg_net_graph(mg_net_ctx *c, const cJSON *doc)
{
    if (read_tensors(c, doc) || resolve_inputs(c) || order_layers(c)) return -1;
    int bad = 0;
    for (int m = 0; m < c->net->nlayers && !bad; m++) bad |= check_layer(c, c->net->order[m]);
    if (bad || read_outputs(c, doc)) return -1;
    return totals(c);
}

int mg_net_matches_published(const mg_net *n)
{
    double tol = n->pub_tolerance + 1e-12;
    if (fabs(n->macs - n->pub_macs) > tol * n->pub_macs) return 0;
    return !n->pub_params || fabs(n->params - n->pub_params) <= tol * n->pub_params;
}

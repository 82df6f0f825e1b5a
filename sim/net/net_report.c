/*
 * net_report.c - a loaded network as a report (net.h): identity, totals
 * against the published figures, one row per layer in topological order;
 * text for people, JSON for tools, the same numbers in both.
 */
#include "sim/net/net.h"
#include "sim/net/nop.h"

#include <math.h>
#include <stdio.h>

/* Relative difference of x from the published p, in percent. */
static double rel_pct(double x, double p) { return p > 0 ? 100 * (x - p) / p : 0; }

static void print_totals(const mg_net *n, FILE *f)
{
    int ok = mg_net_matches_published(n);
    fprintf(f, "network  %s: %s\n", n->name, n->description);
    fprintf(f, "source   %s\n", n->source);
    fprintf(f, "layers   %d (inputs %d, outputs %d)\n", n->nlayers, n->ninputs, n->noutputs);
    fprintf(f, "MACs     %.2f M (published %.2f M, %+.2f%%; tolerance %g%%: %s)\n",
            n->macs / 1e6, n->pub_macs / 1e6, rel_pct(n->macs, n->pub_macs),
            100 * n->pub_tolerance, ok ? "within" : "OUTSIDE");
    if (n->pub_params)
        fprintf(f, "params   %.2f M (published %.2f M, %+.2f%%)\n", n->params / 1e6,
                n->pub_params / 1e6, rel_pct(n->params, n->pub_params));
    else
        fprintf(f, "params   %.2f M (none published)\n", n->params / 1e6);
    fprintf(f, "FLOPs    %.2f M (2 x MACs + %.2f M other)\n", n->flops / 1e6,
            (n->flops - 2 * n->macs) / 1e6);
    fprintf(f, "figures  %s\n", n->pub_source);
}

void mg_net_print(const mg_net *n, FILE *f)
{
    print_totals(n, f);
    fprintf(f, "\n%4s  %-22s %-9s %-22s %10s %6s %10s\n", "#", "layer", "op", "shape",
            "MACs(M)", "share", "other(M)");
    for (int m = 0; m < n->nlayers; m++) {
        const mg_net_layer *l = &n->layers[n->order[m]];
        char s[64];
        fprintf(f, "%4d  %-22s %-9s %-22s %10.3f %5.1f%% %10.3f\n", m, l->name, l->op->name,
                mg_nop_shape_str(l->shape, s, sizeof s), l->macs / 1e6,
                n->macs > 0 ? 100 * l->macs / n->macs : 0, l->flops_other / 1e6);
    }
}

static cJSON *shape_json(const int64_t s[4])
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 4; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s[i]));
    return a;
}

static cJSON *layer_json(const mg_net *n, const mg_net_layer *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON_AddStringToObject(o, "op", l->op->name);
    cJSON *in = cJSON_AddArrayToObject(o, "inputs");
    for (int k = 0; k < l->nin; k++)
        cJSON_AddItemToArray(in, cJSON_CreateString(n->tensors[l->in[k]].name));
    cJSON_AddItemToObject(o, "shape", shape_json(l->shape));
    cJSON_AddNumberToObject(o, "macs", l->macs);
    cJSON_AddNumberToObject(o, "flops_other", l->flops_other);
    cJSON_AddNumberToObject(o, "params", l->params);
    cJSON_AddNumberToObject(o, "bytes", l->bytes);
    return o;
}

cJSON *mg_net_json(const mg_net *n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "mgsim-network-info/1");
    cJSON_AddStringToObject(o, "name", n->name);
    cJSON_AddStringToObject(o, "description", n->description);
    cJSON_AddStringToObject(o, "source", n->source);
    cJSON_AddNumberToObject(o, "macs", n->macs);
    cJSON_AddNumberToObject(o, "flops", n->flops);
    cJSON_AddNumberToObject(o, "params", n->params);
    cJSON *p = cJSON_AddObjectToObject(o, "published");
    cJSON_AddNumberToObject(p, "macs", n->pub_macs);
    if (n->pub_params) cJSON_AddNumberToObject(p, "params", n->pub_params);
    cJSON_AddNumberToObject(p, "tolerance", n->pub_tolerance);
    cJSON_AddStringToObject(p, "source", n->pub_source);
    cJSON_AddBoolToObject(p, "within", mg_net_matches_published(n));
    cJSON *ls = cJSON_AddArrayToObject(o, "layers");
    for (int m = 0; m < n->nlayers; m++)
        cJSON_AddItemToArray(ls, layer_json(n, &n->layers[n->order[m]]));
    return o;
}

/*
 * sweep_sum.c - the summary of a sweep: counted here from results (in
 * any order), printed as a text table and as JSON.
 *
 * Every figure is independent of the order results arrive in (a resumed
 * sweep adds the file's results first): counts, and bests chosen by
 * (time, index), the lower index winning a tie.
 */
#include "sim/search/sweep.h"
#include "sim/search/screen.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static int faster(double s1, uint64_t i1, double s2, uint64_t i2)
{
    return s1 < s2 || (s1 == s2 && i1 < i2);
}

static void set_best(mg_sweep_best *b, const mg_sweep_result *r, int kept)
{
    b->valid = 1;
    b->index = r->index;
    b->kept = kept;
    b->seconds = r->seconds;
    b->gflops = r->gflops;
    b->bound_gflops = r->bound_gflops;
    b->pct_of_bound = r->pct_of_bound;
    b->binding = r->binding;
    snprintf(b->schedule, sizeof b->schedule, "%s", r->schedule ? r->schedule : "");
}

void mg_sweep_sum_shapes(mg_sweep_sum *s, const mg_space *sp)
{
    s->nshape_keys = 0;
    for (int k = 0; k < sp->nknobs; k++) {
        if (!sp->knobs[k].shape) continue;
        for (int q = 0; q < sp->knobs[k].nvars && s->nshape_keys < 4; q++) {
            const char *key = sp->vars[sp->knobs[k].var[q]].key;
            int dup = 0;
            for (int z = 0; z < s->nshape_keys; z++) dup |= !strcmp(s->shape_keys[z], key);
            if (!dup)
                snprintf(s->shape_keys[s->nshape_keys++], sizeof s->shape_keys[0], "%s", key);
        }
    }
}

mg_sweep_group *mg_sweep_group_of(mg_sweep_sum *s, const char *words, int member)
{
    if (!s->nshape_keys || !words) return NULL;
    char shape[64] = "";
    size_t o = 0;
    for (int k = 0; k < s->nshape_keys; k++) {
        size_t kl = strlen(s->shape_keys[k]);
        for (const char *p = words; (p = strstr(p, s->shape_keys[k])); p += kl) {
            if ((p != words && p[-1] != ' ') || p[kl] != '=') continue;
            size_t n = strcspn(p, " ");
            if (o + n + 2 < sizeof shape)
                o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%.*s", o ? " " : "",
                                      (int)n, p);
            break;
        }
    }
    for (int g = 0; g < s->ngroups; g++)
        if (!strcmp(s->group[g].shape, shape)) {
            s->group[g].size += member;
            return &s->group[g];
        }
    if (s->ngroups == MG_SWEEP_SHAPES) {
        s->groups_other += member;
        return NULL;
    }
    mg_sweep_group *g = &s->group[s->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->shape, sizeof g->shape, "%s", shape);
    g->size = (uint64_t)member;
    return g;
}

static void group_add(mg_sweep_sum *s, const mg_sweep_result *r, int kept)
{
    mg_sweep_group *g = mg_sweep_group_of(s, r->schedule, 0);
    if (!g) return;
    g->done++;
    if (!r->ok) {
        if (r->cut) g->cut++;
        else g->failed++;
        return;
    }
    if (!g->best.valid || faster(r->seconds, r->index, g->best.seconds, g->best.index))
        set_best(&g->best, r, kept);
    if (kept && (!g->best_kept.valid ||
                 faster(r->seconds, r->index, g->best_kept.seconds, g->best_kept.index)))
        set_best(&g->best_kept, r, kept);
}

void mg_sweep_sum_add(mg_sweep_sum *s, const mg_sweep_result *r)
{
    s->done++;
    group_add(s, r, !r->has_rules || !r->fired);
    if (r->cut) {
        s->cut++;
        s->cut_bound += r->cut_by_bound ? 1 : 0;
        if (s->cut == 1 || r->cut_seconds < s->cut_floor) s->cut_floor = r->cut_seconds;
        return;
    }
    if (!r->ok) {
        s->failed++;
        return;
    }
    if (r->sample_used) {
        s->sampled++;
        s->sample_error_ppb += (uint64_t)llround(r->sample_error * 1e9);
        if (r->sample_error > s->sample_error_max) s->sample_error_max = r->sample_error;
    }
    int kept = !r->has_rules || !r->fired;
    if (!s->best.valid || faster(r->seconds, r->index, s->best.seconds, s->best.index))
        set_best(&s->best, r, kept);
    if (kept && (!s->best_kept.valid ||
                 faster(r->seconds, r->index, s->best_kept.seconds, s->best_kept.index)))
        set_best(&s->best_kept, r, kept);
    int at = s->ntop;
    while (at > 0 && faster(r->seconds, r->index, s->top[at - 1].seconds, s->top[at - 1].index))
        at--;
    if (at == MG_SWEEP_TOP) return;
    int n = s->ntop < MG_SWEEP_TOP ? s->ntop + 1 : MG_SWEEP_TOP;
    memmove(&s->top[at + 1], &s->top[at], (size_t)(n - 1 - at) * sizeof s->top[0]);
    set_best(&s->top[at], r, kept);
    s->ntop = n;
}

/* Regret and the top-10 overlap need every candidate simulated and rules. */
static int comparable(const mg_sweep_sum *s)
{
    return s->has_rules && !s->id.pruned_only && !s->id.screen_k && s->best.valid;
}

uint64_t mg_sweep_simulated(const mg_sweep_sum *s)
{
    return s->done - s->failed - s->cut;
}

double mg_sweep_regret(const mg_sweep_sum *s)
{
    if (!comparable(s) || !s->best_kept.valid || s->best.seconds <= 0) return NAN;
    return s->best_kept.seconds / s->best.seconds - 1.0;
}

int mg_sweep_top_kept(const mg_sweep_sum *s)
{
    int n = 0;
    for (int i = 0; i < s->ntop; i++) n += s->top[i].kept;
    return comparable(s) ? n : -1;
}

/* Are the fastest listed the fastest of all?  Only a cut result could be
 * missing, and each is slower than its bar: the list is complete when it
 * is full and its last is no slower than the lowest bar, or when it holds
 * every result that was not cut. */
static int top_complete(const mg_sweep_sum *s)
{
    if (!s->cut) return 1;
    return s->ntop == MG_SWEEP_TOP && s->top[s->ntop - 1].seconds <= s->cut_floor;
}

static double mean_error(const mg_sweep_sum *s)
{
    return s->sampled ? 1e-9 * (double)s->sample_error_ppb / (double)s->sampled : 0.0;
}

static double reduction(const mg_sweep_sum *s)
{
    return s->id.size ? 100.0 * (double)(s->id.size - s->kept) / (double)s->id.size : 0.0;
}

/* ---- text ----------------------------------------------------------------- */

static void print_best(FILE *f, const char *what, const mg_sweep_best *b)
{
    if (!b->valid) {
        fprintf(f, "%-11s none\n", what);
        return;
    }
    fprintf(f, "%-11s #%" PRIu64 "  %.3f us  %.2f GFLOPS  bound %.2f GFLOPS (%s), %.1f%% of "
            "bound\n", what, b->index, b->seconds * 1e6, b->gflops, b->bound_gflops,
            mg_level_name(b->binding), b->pct_of_bound);
    fprintf(f, "%-11s %s\n", "", b->schedule);
}

/* A best's time in microseconds, or "-". */
static const char *us(const mg_sweep_best *b, char *buf, size_t len)
{
    if (b->valid) snprintf(buf, len, "%.3f", b->seconds * 1e6);
    else snprintf(buf, len, "-");
    return buf;
}

static double group_regret(const mg_sweep_sum *s, const mg_sweep_group *g)
{
    if (!s->has_rules || s->id.pruned_only || !g->best.valid || !g->best_kept.valid ||
        g->best.seconds <= 0)
        return NAN;
    return g->best_kept.seconds / g->best.seconds - 1.0;
}

/* Per shape: kept, best, best kept, regret. */
static void print_groups(const mg_sweep_sum *s, FILE *f)
{
    if (!s->ngroups) return;
    int full = s->has_rules && !s->id.pruned_only;
    fprintf(f, "\nper shape (bests above are over every shape)\n%-16s %13s  %-9s %10s", "shape",
            s->has_rules ? "kept" : "members", full || !s->has_rules ? "best" : "best(k)",
            "time_us");
    if (full) fprintf(f, "  %-9s %10s %8s", "best_kept", "kept_us", "regret%");
    fputc('\n', f);
    for (int i = 0; i < s->ngroups; i++) {
        const mg_sweep_group *g = &s->group[i];
        char n[48], b[32], k[32];
        if (s->has_rules) snprintf(n, sizeof n, "%" PRIu64 "/%" PRIu64, g->kept, g->size);
        else snprintf(n, sizeof n, "%" PRIu64, g->size);
        snprintf(b, sizeof b, g->best.valid ? "#%" PRIu64 : "none", g->best.index);
        char t1[24], t2[24], rg[24];
        fprintf(f, "%-16s %13s  %-9s %10s", g->shape, n, b, us(&g->best, t1, sizeof t1));
        if (full) {
            double x = group_regret(s, g);
            snprintf(k, sizeof k, g->best_kept.valid ? "#%" PRIu64 : "none", g->best_kept.index);
            snprintf(rg, sizeof rg, isnan(x) ? "-" : "%.2f", 100.0 * x);
            fprintf(f, "  %-9s %10s %8s", k, us(&g->best_kept, t2, sizeof t2), rg);
        }
        fputc('\n', f);
    }
    if (s->groups_other)
        fprintf(f, "(%" PRIu64 " members of further shapes not listed)\n", s->groups_other);
}

void mg_sweep_sum_print(const mg_sweep_sum *s, FILE *f)
{
    char smp[32];
    fprintf(f, "space       %s: %" PRIu64 " candidates (%" PRIu64 " raw, %" PRIu64
            " excluded, %" PRIu64 " invalid)\n", s->id.space, s->id.size, s->raw, s->excluded,
            s->invalid);
    fprintf(f, "config      %s\n", s->id.config);
    if (s->has_rules) {
        fprintf(f, "rules       %s: kept %" PRIu64 " of %" PRIu64 " (reduction %.2f%%)", s->id.rules,
                s->kept, s->id.size, reduction(s));
        const char *sep = "; fired:";
        for (int i = 0; i < MG_RULE_COUNT; i++)
            if (s->fired[i]) {
                fprintf(f, "%s %s %" PRIu64, sep, mg_rule_names[i], s->fired[i]);
                sep = ",";
            }
        fputc('\n', f);
    } else {
        fprintf(f, "rules       none\n");
    }
    fprintf(f, "simulated   %" PRIu64 "%s, %" PRIu64 " rejected by the generator or the model\n",
            mg_sweep_simulated(s), s->id.pruned_only ? " (kept candidates only)" : "",
            s->failed);
    if (s->id.screen_k) {
        char scr[48];
        fprintf(f, "screen      %s: %" PRIu64 " candidates ranked by the analytical model, %"
                PRIu64 " chosen to simulate (%.2f%% of the space)\n",
                mg_screen_str(s->id.screen_k, s->id.screen_kept, scr, sizeof scr),
                s->screen_ranked, s->screen_chosen,
                s->id.size ? 100.0 * (double)s->screen_chosen / (double)s->id.size : 0.0);
    }
    if (s->id.cutoff > 0)
        fprintf(f, "cutoff      %g x the best kept: %" PRIu64 " pruned candidates stopped at "
                "that bar (the lowest %.3f us), %" PRIu64 " of them on their trace's lower "
                "bound alone\n", s->id.cutoff, s->cut, s->cut ? s->cut_floor * 1e6 : 0.0,
                s->cut_bound);
    fprintf(f, "sampling    %s", mg_sweep_sample_str(s->id.sample, smp, sizeof smp));
    if (s->sampled)
        fprintf(f, ": %" PRIu64 " extrapolated from a sample, estimated error mean %.2f%%, "
                "max %.2f%%", s->sampled, 100.0 * mean_error(s), 100.0 * s->sample_error_max);
    else if (s->id.sample != MG_SAMPLE_OFF)
        fprintf(f, ": every candidate simulated in full");
    fputc('\n', f);
    if (s->done < s->total)
        fprintf(f, "partial     %" PRIu64 " of the %" PRIu64 " candidates to simulate are done "
                "(--limit %" PRIu64 "); the figures below are theirs\n", s->done, s->total,
                s->limit);
    print_best(f, s->id.pruned_only ? "best (kept)" : "best", &s->best);
    if (s->has_rules && !s->id.pruned_only) {
        print_best(f, "best kept", &s->best_kept);
        double rg = mg_sweep_regret(s);
        if (isnan(rg)) fprintf(f, "regret      n/a\n");
        else fprintf(f, "regret      %.2f%% (best kept / best overall - 1)\n", 100.0 * rg);
        fprintf(f, "top-10      %d of the %d fastest are kept%s\n", mg_sweep_top_kept(s), s->ntop,
                top_complete(s) ? "" : " (cut candidates may be faster than the last listed)");
    }
    print_groups(s, f);
    if (!s->ntop) return;
    fprintf(f, "\nrank  index        time_us     GFLOPS   bound  level      %%bound%s\n",
            s->has_rules ? "  kept" : "");
    for (int i = 0; i < s->ntop; i++) {
        const mg_sweep_best *b = &s->top[i];
        fprintf(f, "%-5d %-10" PRIu64 " %10.3f %10.2f %7.2f  %-9s %7.1f%s\n", i + 1, b->index,
                b->seconds * 1e6, b->gflops, b->bound_gflops, mg_level_name(b->binding),
                b->pct_of_bound, s->has_rules ? (b->kept ? "  yes" : "  no") : "");
    }
}

/* ---- JSON ----------------------------------------------------------------- */

cJSON *mg_sweep_best_json(const mg_sweep_best *b)
{
    if (!b->valid) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", (double)b->index);
    cJSON_AddStringToObject(o, "schedule", b->schedule);
    cJSON_AddBoolToObject(o, "kept", b->kept);
    cJSON_AddNumberToObject(o, "seconds", b->seconds);
    cJSON_AddNumberToObject(o, "gflops", b->gflops);
    cJSON_AddNumberToObject(o, "bound_gflops", b->bound_gflops);
    cJSON_AddStringToObject(o, "binding", mg_level_name(b->binding));
    cJSON_AddNumberToObject(o, "pct_of_bound", b->pct_of_bound);
    return o;
}

cJSON *mg_sweep_sum_json(const mg_sweep_sum *s)
{
    char smp[32];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", MG_SWEEP_SCHEMA);
    cJSON_AddStringToObject(j, "space", s->id.space);
    cJSON_AddStringToObject(j, "config", s->id.config);
    if (s->has_rules) cJSON_AddStringToObject(j, "rules", s->id.rules);
    else cJSON_AddNullToObject(j, "rules");
    cJSON_AddStringToObject(j, "sample", mg_sweep_sample_str(s->id.sample, smp, sizeof smp));
    cJSON_AddBoolToObject(j, "pruned_only", s->id.pruned_only);
    cJSON_AddNumberToObject(j, "raw", (double)s->raw);
    cJSON_AddNumberToObject(j, "excluded", (double)s->excluded);
    cJSON_AddNumberToObject(j, "invalid", (double)s->invalid);
    cJSON_AddNumberToObject(j, "size", (double)s->id.size);
    cJSON_AddNumberToObject(j, "to_simulate", (double)s->total);
    cJSON_AddNumberToObject(j, "simulated", (double)mg_sweep_simulated(s));
    cJSON_AddNumberToObject(j, "rejected", (double)s->failed);
    if (s->id.screen_k) {
        char scr[48];
        cJSON *o = cJSON_AddObjectToObject(j, "screen");
        cJSON_AddStringToObject(o, "mode", mg_screen_str(s->id.screen_k, s->id.screen_kept, scr,
                                                         sizeof scr));
        cJSON_AddNumberToObject(o, "ranked", (double)s->screen_ranked);
        cJSON_AddNumberToObject(o, "chosen", (double)s->screen_chosen);
    }
    if (s->id.cutoff > 0) {
        cJSON_AddNumberToObject(j, "cutoff", s->id.cutoff);
        cJSON_AddNumberToObject(j, "cut", (double)s->cut);
        cJSON_AddNumberToObject(j, "cut_by_bound", (double)s->cut_bound);
        if (s->cut) cJSON_AddNumberToObject(j, "cut_floor_seconds", s->cut_floor);
        else cJSON_AddNullToObject(j, "cut_floor_seconds");
        cJSON_AddBoolToObject(j, "top_complete", top_complete(s));
    }
    cJSON_AddNumberToObject(j, "sampled", (double)s->sampled);
    cJSON_AddNumberToObject(j, "sample_error_mean", mean_error(s));
    cJSON_AddNumberToObject(j, "sample_error_max", s->sample_error_max);
    if (s->has_rules) {
        cJSON_AddNumberToObject(j, "kept", (double)s->kept);
        cJSON_AddNumberToObject(j, "reduction_pct", reduction(s));
        cJSON *pr = cJSON_AddObjectToObject(j, "fired");
        for (int i = 0; i < MG_RULE_COUNT; i++)
            cJSON_AddNumberToObject(pr, mg_rule_names[i], (double)s->fired[i]);
    }
    cJSON_AddItemToObject(j, "best", mg_sweep_best_json(&s->best));
    if (s->has_rules)
        cJSON_AddItemToObject(j, "best_kept", mg_sweep_best_json(&s->best_kept));
    double rg = mg_sweep_regret(s);
    if (isnan(rg)) cJSON_AddNullToObject(j, "regret");
    else cJSON_AddNumberToObject(j, "regret", rg);
    int tk = mg_sweep_top_kept(s);
    if (tk < 0) cJSON_AddNullToObject(j, "top10_kept");
    else cJSON_AddNumberToObject(j, "top10_kept", tk);
    if (s->ngroups) {
        cJSON *gs = cJSON_AddArrayToObject(j, "shapes");
        for (int i = 0; i < s->ngroups; i++) {
            const mg_sweep_group *g = &s->group[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "shape", g->shape);
            cJSON_AddNumberToObject(o, "size", (double)g->size);
            if (s->has_rules) cJSON_AddNumberToObject(o, "kept", (double)g->kept);
            cJSON_AddNumberToObject(o, "simulated", (double)(g->done - g->failed - g->cut));
            if (s->id.cutoff > 0) cJSON_AddNumberToObject(o, "cut", (double)g->cut);
            cJSON_AddItemToObject(o, "best", mg_sweep_best_json(&g->best));
            if (s->has_rules) cJSON_AddItemToObject(o, "best_kept", mg_sweep_best_json(&g->best_kept));
            double grg = group_regret(s, g);
            if (isnan(grg)) cJSON_AddNullToObject(o, "regret");
            else cJSON_AddNumberToObject(o, "regret", grg);
            cJSON_AddItemToArray(gs, o);
        }
    }
    cJSON *top = cJSON_AddArrayToObject(j, "top");
    for (int i = 0; i < s->ntop; i++) cJSON_AddItemToArray(top, mg_sweep_best_json(&s->top[i]));
    return j;
}

/*
 * schedule.c - parse, check and print schedules against the key tables.
 */
#include "traces/gen/op.h"
#include "traces/gen/schedule.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_layout_names[] = {"image", "buffer", "packed", NULL};
const char *const mg_prec_names[] = {"fp32", "fp16", NULL};
const char *const mg_pattern_names[] = {"row", "column", "block2", "block4", "block8", NULL};
const char *const mg_memkind_names[] = {"image", "buffer", "local", "constant", NULL};
static const char *const bcast_names[] = {"auto", "explicit", NULL};

/* The common knobs.  An op accepts those named in its `knobs` string. */
const mg_key mg_common_keys[] = {
    MG_KEY_ENUM("layout", layout[0], "image", mg_layout_names,
                "layout of every tensor (image|buffer); layout_in/_w/_out override"),
    MG_KEY_ENUM("layout_in", layout[MG_ROLE_IN], "image", mg_layout_names,
                "layout of the input tensor"),
    MG_KEY_ENUM("layout_w", layout[MG_ROLE_W], "image", mg_layout_names,
                "layout of the weight (second input) tensor"),
    MG_KEY_ENUM("layout_out", layout[MG_ROLE_OUT], "image", mg_layout_names,
                "layout of the output tensor"),
    MG_KEY_INTS("tile", MG_K_PAIR, tile, 1, 64, "1x1",
                "output tile per work item, ROWSxCOLS (coarsening, e.g. 4x4)"),
    MG_KEY_INTS("wg", MG_K_TRIPLE, wg, 1, 1024, "64,1,1", "work-group size x[,y[,z]]"),
    MG_KEY_ENUM("pattern", pattern, "row", mg_pattern_names,
                "order an item walks its 2D input region: row|column|block2|block4|block8"),
    MG_KEY_INT("vec", vec, 1, 8, "4", "load vector width: 1, 2, 4 or 8"),
    MG_KEY_ENUM("storage", storage, "fp32", mg_prec_names, "storage precision of tensors"),
    MG_KEY_ENUM("compute", compute, "fp32", mg_prec_names,
                "arithmetic precision (fp16 needs cl_khr_fp16)"),
    MG_KEY_ENUM("broadcast", broadcast, "auto", bcast_names,
                "scalar broadcast in vector math: auto (compiler) or explicit (vector splat)"),
    MG_KEY_INT("split", split, 1, 256, "1",
               "reduction split across work items, combined through local memory"),
    MG_KEY_INT("unroll", unroll, 1, 64, "1", "unroll factor of the main loop"),
    MG_KEY_INT("warp", warp, 1, MG_TRACE_MAX_LANES, "64",
               "lanes per warp when grouping the trace (the device's warp width)"),
    MG_KEY_INT("seed", seed, 0, 2147483647, "1", "input data seed"),
    MG_KEY_END,
};

enum { NCOMMON = sizeof mg_common_keys / sizeof mg_common_keys[0] - 1 };

/* Does op accept common knob `name`? */
static int op_accepts(const mg_op *op, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = op->knobs; p && *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && !strncmp(p, name, n)) return 1;
        p = e;
    }
    return 0;
}

/* Find a key by name among the op's keys and accepted knobs; *idx is its
 * index in s->set.  Looked up once per (op, name) and thread, then from a
 * small memo (a space's enumeration looks every key of every combination
 * up). */
static const mg_key *search_key(const mg_op *op, const char *name, int *idx);

static const mg_key *find_key(const mg_op *op, const char *name, int *idx)
{
    static _Thread_local struct {
        const mg_op *op;
        char name[24];
        const mg_key *k;
        int idx;
    } memo[64];
    size_t n = strlen(name);
    unsigned h = (unsigned)((uintptr_t)op >> 4) * 31u + (unsigned)n;
    for (size_t i = 0; i < n; i++) h = h * 31u + (unsigned char)name[i];
    h &= 63u;
    if (memo[h].op == op && !strcmp(memo[h].name, name)) {
        *idx = memo[h].idx;
        return memo[h].k;
    }
    int i = -1;
    const mg_key *k = search_key(op, name, &i);
    *idx = i;
    if (n < sizeof memo[h].name) {          /* a key the op lacks is remembered too */
        memo[h].op = op;
        memcpy(memo[h].name, name, n + 1);
        memo[h].k = k;
        memo[h].idx = i;
    }
    return k;
}

static const mg_key *search_key(const mg_op *op, const char *name, int *idx)
{
    for (int i = 0; op->keys[i].name; i++) {
        if (!strcmp(op->keys[i].name, name)) {
            *idx = NCOMMON + i;
            return &op->keys[i];
        }
    }
    for (int i = 0; i < NCOMMON; i++) {
        if (!strcmp(mg_common_keys[i].name, name) && op_accepts(op, name)) {
            *idx = i;
            return &mg_common_keys[i];
        }
    }
    return NULL;
}

/* The parsers of one key's text v, by type: each stores the value at dst
 * (s + k->off) and returns 0, or adds "where: key=v: ..." to d and
 * returns -1 leaving dst unchanged. */

static int parse_int(const mg_key *k, const char *v, void *dst, const char *where, mg_diag *d)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno) {
        mg_diag_error(d, "%s: %s=%s: expected an integer", where, k->name, v);
        return -1;
    }
    if (x < k->min || x > k->max) {
        mg_diag_error(d, "%s: %s=%s: expected an integer in [%lld, %lld]", where, k->name, v,
                      (long long)k->min, (long long)k->max);
        return -1;
    }
    *(int64_t *)dst = x;
    return 0;
}

static int parse_float(const mg_key *k, const char *v, void *dst, const char *where, mg_diag *d)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x)) {
        mg_diag_error(d, "%s: %s=%s: expected a finite number", where, k->name, v);
        return -1;
    }
    *(double *)dst = x;
    return 0;
}

/* TEXT: v with each run of blanks or ':' written as one ':' (none at
 * either end), so that the value is one word of a schedule line. */
static int parse_text(const mg_key *k, const char *v, void *dst, const char *where, mg_diag *d)
{
    char buf[MG_SCHED_SUB_LEN * 2];
    size_t n = 0;
    for (const char *p = v; *p && n < sizeof buf - 1; p++) {
        int sep = *p == ' ' || *p == '\t' || *p == '\n' || *p == ':';
        if (sep && (n == 0 || buf[n - 1] == ':')) continue;
        buf[n++] = sep ? ':' : *p;
    }
    if (n && buf[n - 1] == ':') n--;
    if (n >= (size_t)k->max || strlen(v) >= sizeof buf - 1) {
        mg_diag_error(d, "%s: %s=%s: longer than %lld characters", where, k->name, v,
                      (long long)k->max - 1);
        return -1;
    }
    memcpy(dst, buf, n);
    ((char *)dst)[n] = '\0';
    return 0;
}

/* ENUM: the index of v among k->names, stored as an int. */
static int parse_enum(const mg_key *k, const char *v, void *dst, const char *where, mg_diag *d)
{
    size_t n = 0;
    for (; k->names[n]; n++) {
        if (!strcmp(v, k->names[n])) {
            *(int *)dst = (int)n;
            return 0;
        }
    }
    char list[160];
    mg_hint h;
    mg_diag_error(d, "%s: %s=%s: expected one of %s%s", where, k->name, v,
                  mg_join_names(list, sizeof list, k->names, n, "|"),
                  mg_hint_near(&h, v, k->names, n, ""));
    return -1;
}

/* PAIR, TRIPLE, LIST: the values of v, separated by 'x' (PAIR) or ','
 * into vals (at most max of them, each in k's range); their count, or -1
 * with a message. */
static int split_ints(const mg_key *k, const char *v, int64_t *vals, int max,
                      const char *where, mg_diag *d)
{
    char sep = k->type == MG_K_PAIR ? 'x' : ',';
    int n = 0;
    for (const char *p = v;;) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (end == p || errno || n == max || x < k->min || x > k->max) {
            const char *shape = k->type == MG_K_PAIR     ? "ROWSxCOLS, e.g. 4x4"
                                : k->type == MG_K_TRIPLE ? "X[,Y[,Z]], e.g. 16,4"
                                                         : "a comma-separated list";
            mg_diag_error(d, "%s: %s=%s: expected %s with each value in [%lld, %lld]", where,
                          k->name, v, shape, (long long)k->min, (long long)k->max);
            return -1;
        }
        vals[n++] = x;
        if (*end == sep) { p = end + 1; continue; }
        if (*end) {
            mg_diag_error(d, "%s: %s=%s: unexpected '%c'", where, k->name, v, *end);
            return -1;
        }
        return n;
    }
}

/* PAIR: tile=4 means 4x4; TRIPLE: missing values are 1; LIST: stored as
 * count then values (nstrides, strides). */
static int parse_ints(const mg_key *k, const char *v, void *dst, const char *where, mg_diag *d)
{
    int max = k->type == MG_K_PAIR ? 2 : k->type == MG_K_TRIPLE ? 3 : MG_SCHED_MAX_STRIDES;
    int64_t vals[MG_SCHED_MAX_STRIDES];
    int n = split_ints(k, v, vals, max, where, d);
    if (n < 0) return -1;
    int64_t *out = dst;
    if (k->type == MG_K_PAIR) {
        out[0] = vals[0];
        out[1] = n == 1 ? vals[0] : vals[1];
    } else if (k->type == MG_K_TRIPLE) {
        for (int i = 0; i < 3; i++) out[i] = i < n ? vals[i] : 1;
    } else {
        out[0] = n;
        for (int i = 0; i < n; i++) out[1 + i] = vals[i];
    }
    return 0;
}

/* Parse text v as key k into s.  Returns 0 or -1 with a message. */
static int set_key(mg_schedule *s, const mg_key *k, const char *v, const char *where,
                   mg_diag *d)
{
    void *dst = (char *)s + k->off;
    switch (k->type) {
    case MG_K_INT: return parse_int(k, v, dst, where, d);
    case MG_K_FLOAT: return parse_float(k, v, dst, where, d);
    case MG_K_ENUM: return parse_enum(k, v, dst, where, d);
    case MG_K_PAIR:
    case MG_K_TRIPLE:
    case MG_K_LIST: return parse_ints(k, v, dst, where, d);
    case MG_K_TEXT: return parse_text(k, v, dst, where, d);
    }
    return -1;
}

/* s (zeroed but for s->op == op) with op's defaults: parsed once per op
 * and thread, then copied (a space's enumeration parses every
 * combination). */
static void apply_defaults(mg_schedule *s, const mg_op *op)
{
    static _Thread_local const mg_op *last;
    static _Thread_local mg_schedule def;
    if (last != op) {
        mg_diag d;
        mg_diag_init(&d);
        for (int i = 0; i < NCOMMON; i++) set_key(s, &mg_common_keys[i], mg_common_keys[i].def,
                                                  "default", &d);
        for (int i = 0; op->keys[i].name; i++) set_key(s, &op->keys[i], op->keys[i].def,
                                                       "default", &d);
        mg_diag_free(&d);     /* defaults are checked by a unit test */
        if (op->defaults) op->defaults(s);
        def = *s;
        last = op;
    }
    *s = def;
}

/* After all words: `layout` sets each role not given on its own. */
static void resolve_layouts(mg_schedule *s)
{
    int idx;
    const mg_key *k = find_key(s->op, "layout", &idx);
    if (!k || !s->set[idx]) return;
    static const char *const roles[] = {"layout_in", "layout_w", "layout_out"};
    for (int r = 0; r < MG_ROLE_COUNT; r++) {
        int ri;
        if (find_key(s->op, roles[r], &ri) && s->set[ri]) continue;
        s->layout[r] = s->layout[0];
    }
}

static const mg_op *lookup_op(const char *op, const char *where, mg_diag *d)
{
    const mg_op *o = mg_op_find(op);
    if (o) return o;
    const char *names[64];
    size_t n = 0;
    for (; mg_ops[n] && n < 64; n++) names[n] = mg_ops[n]->name;
    mg_hint h;
    char list[512];
    const char *hint = mg_hint_near(&h, op, names, n, "'");
    mg_join_names(list, sizeof list, names, n, ", ");
    mg_diag_error(d, "%s: unknown operator '%s'%s; known: %s", where, op, hint, list);
    return NULL;
}

static void unknown_key(const mg_op *op, const char *name, const char *where, mg_diag *d)
{
    int common = 0;
    for (int i = 0; i < NCOMMON; i++) common |= !strcmp(mg_common_keys[i].name, name);
    if (common) {
        mg_diag_error(d, "%s: %s does not take the knob '%s' (`mgsim gen %s --help` lists "
                      "its keys)", where, op->name, name, op->name);
        return;
    }
    const char *names[128];
    size_t n = 0;
    for (int i = 0; op->keys[i].name; i++) names[n++] = op->keys[i].name;
    for (int i = 0; i < NCOMMON; i++)
        if (op_accepts(op, mg_common_keys[i].name)) names[n++] = mg_common_keys[i].name;
    mg_hint h;
    mg_diag_error(d, "%s: %s: unknown key '%s'%s", where, op->name, name,
                  mg_hint_near(&h, name, names, n, "'"));
}

int mg_schedule_parse_line(const char *line, const char *extra, mg_schedule *s, mg_diag *d)
{
    char *buf = strdup(line), *words[MG_SCHEDULE_MAX_WORDS + 1], *save = NULL;
    if (!buf) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    int n = 0, rc = -1;
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (n == MG_SCHEDULE_MAX_WORDS) {
            mg_diag_error(d, "schedule: more than %d words", MG_SCHEDULE_MAX_WORDS);
            goto done;
        }
        words[n++] = t;
    }
    if (n == 0) {
        mg_diag_error(d, "empty schedule");
        goto done;
    }
    if (extra) words[n++] = (char *)extra;
    rc = mg_schedule_parse(words[0], n - 1, words + 1, s, d);
done:
    free(buf);
    return rc;
}

/* layout=packed: the weights alone, of an operator that packs them. */
static void check_packed(const mg_schedule *s, const char *where, mg_diag *d)
{
    static const char *const roles[] = {"layout_in", "layout_w", "layout_out"};
    for (int r = 0; r < MG_ROLE_COUNT; r++) {
        if (s->layout[r] != MG_LAYOUT_PACKED) continue;
        if (r != MG_ROLE_W)
            mg_diag_error(d, "%s: %s=packed: only the weights (layout_w) can be packed", where,
                          roles[r]);
        else if (!s->op->packed_w)
            mg_diag_error(d, "%s: %s: layout_w=packed: this operator has no packed weight "
                          "layout (image or buffer)", where, s->op->name);
    }
}

int mg_schedule_parse(const char *op, int nwords, char **words, mg_schedule *s, mg_diag *d)
{
    memset(s, 0, sizeof *s);
    size_t before = d->n;
    const char *where = "schedule";
    s->op = lookup_op(op, where, d);
    if (!s->op) return -1;
    apply_defaults(s, s->op);
    for (int i = 0; i < nwords; i++) {
        const char *eq = strchr(words[i], '=');
        if (!eq || eq == words[i]) {
            mg_diag_error(d, "%s: '%s': expected key=value", where, words[i]);
            continue;
        }
        char name[64];
        size_t n = (size_t)(eq - words[i]);
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, words[i], n);
        name[n] = '\0';
        int idx;
        const mg_key *k = find_key(s->op, name, &idx);
        if (!k) { unknown_key(s->op, name, where, d); continue; }
        if (s->set[idx]) {
            mg_diag_error(d, "%s: %s given twice", where, name);
            continue;
        }
        if (set_key(s, k, eq + 1, where, d) == 0) s->set[idx] = 1;
    }
    resolve_layouts(s);
    if (d->n == before) check_packed(s, where, d);
    if (d->n == before && s->op->check) s->op->check(s, where, d);
    return d->n == before ? 0 : -1;
}

int mg_schedule_from_json(const cJSON *j, const char *where, mg_schedule *s, mg_diag *d)
{
    memset(s, 0, sizeof *s);
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
    if (!cJSON_IsObject(j) || !cJSON_IsString(op)) {
        mg_diag_error(d, "%s: expected an object with a string \"op\"", where);
        return -1;
    }
    /* Turn the object into key=value words and reuse the word parser. */
    char *words[96];
    char *store[96];
    int n = 0;
    size_t before = d->n;
    for (const cJSON *c = j->child; c && n < 96; c = c->next) {
        if (!strcmp(c->string, "op")) continue;
        char val[256];
        if (cJSON_IsString(c)) {
            snprintf(val, sizeof val, "%s", c->valuestring);
        } else if (cJSON_IsNumber(c)) {
            snprintf(val, sizeof val, "%.17g", c->valuedouble);
        } else if (cJSON_IsArray(c)) {
            val[0] = '\0';
            for (const cJSON *e = c->child; e; e = e->next) {
                if (!cJSON_IsNumber(e)) break;
                size_t l = strlen(val);
                snprintf(val + l, sizeof val - l, "%s%.17g", l ? "," : "", e->valuedouble);
            }
        } else {
            mg_diag_error(d, "%s: $.%s: expected a string, number or array of numbers, got %s",
                          where, c->string, mg_json_type_name(c));
            continue;
        }
        size_t len = strlen(c->string) + strlen(val) + 2;
        store[n] = malloc(len);
        if (!store[n]) break;
        snprintf(store[n], len, "%s=%s", c->string, val);
        words[n] = store[n];
        n++;
    }
    int rc = d->n == before ? mg_schedule_parse(op->valuestring, n, words, s, d) : -1;
    for (int i = 0; i < n; i++) free(store[i]);
    if (rc && d->n > before) {
        /* Messages from the word parser say "schedule": fine, the caller's
         * `where` was printed on the first error line above if any. */
    }
    return rc;
}

/* Format key k's value in s. */
static void key_text(const mg_schedule *s, const mg_key *k, char *buf, size_t len)
{
    const char *base = (const char *)s + k->off;
    const int64_t *v = (const int64_t *)base;
    switch (k->type) {
    case MG_K_INT: snprintf(buf, len, "%lld", (long long)v[0]); break;
    case MG_K_FLOAT: snprintf(buf, len, "%.17g", *(const double *)base); break;
    case MG_K_ENUM: snprintf(buf, len, "%s", k->names[*(const int *)base]); break;
    case MG_K_PAIR: snprintf(buf, len, "%lldx%lld", (long long)v[0], (long long)v[1]); break;
    case MG_K_TRIPLE:
        snprintf(buf, len, "%lld,%lld,%lld", (long long)v[0], (long long)v[1],
                 (long long)v[2]);
        break;
    case MG_K_TEXT: snprintf(buf, len, "%s", base); break;
    case MG_K_LIST: {
        buf[0] = '\0';
        for (int64_t i = 0; i < v[0]; i++) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%lld", i ? "," : "", (long long)v[1 + i]);
        }
        break;
    }
    }
}

char *mg_schedule_format(const mg_schedule *s, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", s->op->name);
    const mg_op *op = s->op;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; pass == 0 ? op->keys[i].name != NULL : i < NCOMMON; i++) {
            const mg_key *k = pass == 0 ? &op->keys[i] : &mg_common_keys[i];
            if (pass == 1 && (!op_accepts(op, k->name) || !strcmp(k->name, "layout")))
                continue;
            char v[MG_SCHED_SUB_LEN];
            key_text(s, k, v, sizeof v);
            if (k->quiet && !strcmp(v, k->def)) continue;
            if (n < len) n += (size_t)snprintf(buf + n, len - n, " %s=%s", k->name, v);
        }
    }
    return buf;
}

cJSON *mg_schedule_to_json(const mg_schedule *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "op", s->op->name);
    const mg_op *op = s->op;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; pass == 0 ? op->keys[i].name != NULL : i < NCOMMON; i++) {
            const mg_key *k = pass == 0 ? &op->keys[i] : &mg_common_keys[i];
            if (pass == 1 && (!op_accepts(op, k->name) || !strcmp(k->name, "layout")))
                continue;
            const char *base = (const char *)s + k->off;
            char q[160];
            key_text(s, k, q, sizeof q);
            if (k->quiet && !strcmp(q, k->def)) continue;
            if (k->type == MG_K_INT)
                cJSON_AddNumberToObject(o, k->name, (double)*(const int64_t *)base);
            else if (k->type == MG_K_FLOAT)
                cJSON_AddNumberToObject(o, k->name, *(const double *)base);
            else {
                char v[MG_SCHED_SUB_LEN];
                key_text(s, k, v, sizeof v);
                cJSON_AddStringToObject(o, k->name, v);
            }
        }
    }
    return o;
}

int mg_schedule_is_set(const mg_schedule *s, const char *name)
{
    int idx;
    return find_key(s->op, name, &idx) != NULL && s->set[idx];
}

static void print_key(const mg_key *k, FILE *f)
{
    char range[96] = "";
    switch (k->type) {
    case MG_K_ENUM:
        for (size_t i = 0; k->names[i]; i++) {
            if (i) strncat(range, "|", sizeof range - strlen(range) - 1);
            strncat(range, k->names[i], sizeof range - strlen(range) - 1);
        }
        break;
    case MG_K_FLOAT: snprintf(range, sizeof range, "number"); break;
    case MG_K_TEXT: snprintf(range, sizeof range, "text"); break;
    default:
        snprintf(range, sizeof range, "%lld..%lld", (long long)k->min, (long long)k->max);
    }
    fprintf(f, "  %-11s %-8s %-22s %s\n", k->name, k->def, range, k->help);
}

void mg_schedule_print_keys(const mg_op *op, FILE *f)
{
    mg_schedule s;
    memset(&s, 0, sizeof s);
    s.op = op;
    apply_defaults(&s, op);
    fprintf(f, "%s: %s\n\n  %-11s %-8s %-22s %s\n", op->name, op->summary, "key", "default",
            "range", "meaning");
    for (int i = 0; op->keys[i].name; i++) print_key(&op->keys[i], f);
    for (int i = 0; i < NCOMMON; i++) {
        if (!op_accepts(op, mg_common_keys[i].name)) continue;
        mg_key k = mg_common_keys[i];
        char def[160];
        key_text(&s, &k, def, sizeof def);   /* the op's own default */
        k.def = def;
        print_key(&k, f);
    }
}

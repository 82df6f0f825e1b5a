/*
 * space_load.c - read and check a search-space file (space.h).
 * Every problem is reported with the file and its JSON path; nothing is
 * enumerated here except each knob's option list.
 */
#include "sim/search/space.h"
#include "traces/gen/op.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 1000000

typedef struct ctx {
    const char *file;
    mg_space *sp;
    const mg_op *op;
    mg_diag *d;
} ctx;

static void suggest_err(ctx *c, const char *path, const char *what, const char *word,
                        const char *const *cands, size_t n)
{
    mg_hint h;
    mg_diag_error(c->d, "%s: %s: unknown %s \"%s\"%s", c->file, path, what, word,
                  mg_hint_near(&h, word, cands, n, "\""));
}

/* The op's key named `name` (own keys, then the common knobs it accepts). */
static const mg_key *op_key(const mg_op *op, const char *name)
{
    for (const mg_key *k = op->keys; k->name; k++)
        if (!strcmp(k->name, name)) return k;
    size_t n = strlen(name);
    for (const char *p = op->knobs; (p = strstr(p, name)); p += n)
        if ((p == op->knobs || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            for (const mg_key *k = mg_common_keys; k->name; k++)
                if (!strcmp(k->name, name)) return k;
    return NULL;
}

/* Define variable `name` (a key or key.PART); returns its index or -1. */
static int add_var(ctx *c, const char *path, const char *name, int knob)
{
    mg_space *sp = c->sp;
    char key[24];
    int part = -1;
    const char *dot = strchr(name, '.');
    size_t kl = dot ? (size_t)(dot - name) : strlen(name);
    if (kl == 0 || kl >= sizeof key || strlen(name) >= sizeof sp->vars[0].name) {
        mg_diag_error(c->d, "%s: %s: \"%s\" is not a schedule key", c->file, path, name);
        return -1;
    }
    memcpy(key, name, kl);
    key[kl] = 0;
    const mg_key *k = op_key(c->op, key);
    if (!k) {
        const char *cands[64];
        size_t n = 0;
        for (const mg_key *q = c->op->keys; q->name && n < 64; q++) cands[n++] = q->name;
        for (const mg_key *q = mg_common_keys; q->name && n < 64; q++)
            if (op_key(c->op, q->name)) cands[n++] = q->name;
        char what[64];
        snprintf(what, sizeof what, "%s key", c->op->name);
        suggest_err(c, path, what, key, cands, n);
        return -1;
    }
    if (dot) {
        int maxp = k->type == MG_K_PAIR ? 2 : k->type == MG_K_TRIPLE ? 3 : 0;
        char *end;
        long p = strtol(dot + 1, &end, 10);
        if (!maxp || *end || end == dot + 1 || p < 0 || p >= maxp) {
            mg_diag_error(c->d, "%s: %s: \"%s\": %s", c->file, path, name,
                          maxp ? "part out of range (pair: .0 .1, triple: .0 .1 .2)"
                               : "only pair and triple keys (tile, wg) have parts");
            return -1;
        }
        part = (int)p;
    }
    for (int i = 0; i < sp->nvars; i++) {
        const mg_space_var *v = &sp->vars[i];
        if (!strcmp(v->key, key) && (v->part == part || v->part < 0 || part < 0)) {
            mg_diag_error(c->d, "%s: %s: \"%s\" is already given (as \"%s\")", c->file, path,
                          name, v->name);
            return -1;
        }
    }
    if (sp->nvars >= MG_SPACE_MAX_VARS) {
        mg_diag_error(c->d, "%s: %s: more than %d variables", c->file, path, MG_SPACE_MAX_VARS);
        return -1;
    }
    mg_space_var *v = &sp->vars[sp->nvars];
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->key, sizeof v->key, "%s", key);
    v->part = part;
    v->knob = knob;
    v->alias = -1;
    return sp->nvars++;
}

static int set_val(ctx *c, const char *path, const cJSON *j, mg_space_val *v)
{
    memset(v, 0, sizeof *v);
    if (cJSON_IsNumber(j)) {
        double x = j->valuedouble;
        /* The range first: converting a double beyond int64_t is undefined. */
        if (!(x >= -1e15 && x <= 1e15) || x != (double)(int64_t)x) {
            mg_diag_error(c->d, "%s: %s: expected an integer, got %g", c->file, path, x);
            return -1;
        }
        v->i = (int64_t)x;
        v->is_int = 1;
        snprintf(v->s, sizeof v->s, "%" PRId64, v->i);
        return 0;
    }
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        if (!*s || strlen(s) >= sizeof v->s || strchr(s, ' ')) {
            mg_diag_error(c->d, "%s: %s: expected a value of 1..%zu characters without "
                          "spaces, got \"%s\"", c->file, path, sizeof v->s - 1, s);
            return -1;
        }
        snprintf(v->s, sizeof v->s, "%s", s);
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (!*end && !errno) { v->i = x; v->is_int = 1; }
        return 0;
    }
    mg_diag_error(c->d, "%s: %s: expected a number or a string, got %s", c->file, path,
                  mg_json_type_name(j));
    return -1;
}

static int get_int(ctx *c, const char *path, const cJSON *obj, const char *name, int64_t min,
                   int64_t *out, int required)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!j) {
        if (required) mg_diag_error(c->d, "%s: %s: missing \"%s\"", c->file, path, name);
        return required ? -1 : 1;
    }
    if (!cJSON_IsNumber(j) || !(j->valuedouble >= (double)min && j->valuedouble <= 1e12) ||
        j->valuedouble != (double)(int64_t)j->valuedouble) {
        mg_diag_error(c->d, "%s: %s.%s: expected an integer >= %" PRId64, c->file, path, name,
                      min);
        return -1;
    }
    *out = (int64_t)j->valuedouble;
    return 0;
}

static int check_keys(ctx *c, const char *path, const cJSON *obj, const char *const *allowed,
                      size_t n)
{
    int bad = 0;
    for (const cJSON *e = obj->child; e; e = e->next) {
        size_t i = 0;
        while (i < n && strcmp(allowed[i], e->string)) i++;
        if (i == n) {
            suggest_err(c, path, "key", e->string, allowed, n);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* Options storage: grow by one tuple. */
static mg_space_val *push_opt(mg_space_knob *k)
{
    if (k->nopts >= MAX_OPTS) return NULL;
    if ((k->nopts & (k->nopts - 1)) == 0) {     /* grow at powers of two */
        size_t cap = k->nopts ? (size_t)k->nopts * 2 : 1;
        mg_space_val *p = realloc(k->opts, cap * (size_t)k->nvars * sizeof *p);
        if (!p) return NULL;
        k->opts = p;
    }
    mg_space_val *v = &k->opts[k->nopts * k->nvars];
    k->nopts++;
    return v;
}

static void int_opt(mg_space_val *v, int64_t x)
{
    memset(v, 0, sizeof *v);
    v->i = x;
    v->is_int = 1;
    snprintf(v->s, sizeof v->s, "%" PRId64, x);
}

static int is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* Every ordered tuple of nk factors whose product divides n (cur[0 ..
 * depth) chosen so far) as options of k.  Returns 0, -1 past MAX_OPTS or
 * on OOM. */
static int split_tuples(mg_space_knob *k, int nk, int64_t n, int pow2, int depth, int64_t *cur)
{
    if (depth == nk) {
        mg_space_val *v = push_opt(k);
        if (!v) return -1;
        for (int i = 0; i < nk; i++) int_opt(&v[i], cur[i]);
        return 0;
    }
    for (int64_t f = 1; f <= n; f++) {
        if (n % f || (pow2 && !is_pow2(f))) continue;
        cur[depth] = f;
        if (split_tuples(k, nk, n / f, pow2, depth + 1, cur)) return -1;
    }
    return 0;
}

static int var_list(ctx *c, const char *path, const cJSON *arr, int *vars, int *nvars, int knob,
                    int define)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 || cJSON_GetArraySize(arr) > 4) {
        mg_diag_error(c->d, "%s: %s: expected an array of 1 to 4 key names", c->file, path);
        return -1;
    }
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        char p[256];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        if (!cJSON_IsString(e)) {
            mg_diag_error(c->d, "%s: %s: expected a key name", c->file, p);
            return -1;
        }
        int v = -1;
        if (define) {
            v = add_var(c, p, e->valuestring, knob);
        } else {
            for (int q = 0; q < c->sp->nvars; q++)
                if (!strcmp(c->sp->vars[q].name, e->valuestring)) v = q;
            if (v < 0)
                mg_diag_error(c->d, "%s: %s: \"%s\" is neither a knob nor a fixed key", c->file,
                              p, e->valuestring);
        }
        if (v < 0) return -1;
        vars[i] = v;
    }
    *nvars = i;
    return 0;
}

/* The "too many options" error of knob path. */
static int knob_oom(ctx *c, const char *path)
{
    mg_diag_error(c->d, "%s: %s: more than %d options (or out of memory)", c->file, path,
                  MAX_OPTS);
    return -1;
}

/* A split knob (path: the knob's): {"keys", "of", "policy"}, its keys
 * defined and its options every tuple split_tuples makes.  key, keys: the
 * knob's own "key" and "keys", which a split must not have. */
static int knob_split(ctx *c, const char *path, int ki, const cJSON *split, const cJSON *key,
                      const cJSON *keys)
{
    static const char *const sa[] = {"keys", "of", "policy"};
    mg_space_knob *k = &c->sp->knobs[ki];
    char p[160];
    snprintf(p, sizeof p, "%s.split", path);
    if (key || keys || !cJSON_IsObject(split)) {
        mg_diag_error(c->d, "%s: %s: a split is an object {\"keys\", \"of\", \"policy\"} "
                      "and names its keys itself", c->file, p);
        return -1;
    }
    if (check_keys(c, p, split, sa, 3)) return -1;
    char pk[200];
    snprintf(pk, sizeof pk, "%s.keys", p);
    if (var_list(c, pk, cJSON_GetObjectItemCaseSensitive(split, "keys"), k->var, &k->nvars,
                 ki, 1))
        return -1;
    int64_t of;
    if (get_int(c, p, split, "of", 1, &of, 1)) return -1;
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(split, "policy");
    int pow2 = 0;
    if (pol) {
        if (!cJSON_IsString(pol) || (strcmp(pol->valuestring, "factors") &&
                                      strcmp(pol->valuestring, "power2"))) {
            mg_diag_error(c->d, "%s: %s.policy: expected \"factors\" or \"power2\"", c->file, p);
            return -1;
        }
        pow2 = !strcmp(pol->valuestring, "power2");
    }
    int64_t cur[4];
    return split_tuples(k, k->nvars, of, pow2, 0, cur) ? knob_oom(c, path) : 0;
}

/* The variables a knob sets: "keys" (a list, only with "values") or
 * "key" (one). */
static int knob_vars(ctx *c, const char *path, int ki, const cJSON *key, const cJSON *keys,
                     const cJSON *values)
{
    mg_space_knob *k = &c->sp->knobs[ki];
    char p[160];
    if (keys) {
        if (key || !values) {
            mg_diag_error(c->d, "%s: %s: \"keys\" goes with \"values\" (a list of tuples) and "
                          "without \"key\"", c->file, path);
            return -1;
        }
        snprintf(p, sizeof p, "%s.keys", path);
        return var_list(c, p, keys, k->var, &k->nvars, ki, 1);
    }
    if (!cJSON_IsString(key)) {
        mg_diag_error(c->d, "%s: %s.key: expected the schedule key this knob sets", c->file,
                      path);
        return -1;
    }
    snprintf(p, sizeof p, "%s.key", path);
    if ((k->var[0] = add_var(c, p, key->valuestring, ki)) < 0) return -1;
    k->nvars = 1;
    return 0;
}

/* The options of a "values" knob: one value each, or with "keys" (tuple
 * set) a tuple of one value per key. */
static int knob_values(ctx *c, const char *path, mg_space_knob *k, const cJSON *values,
                       int tuple)
{
    char p[160];
    snprintf(p, sizeof p, "%s.values", path);
    if (!cJSON_IsArray(values) || cJSON_GetArraySize(values) < 1) {
        mg_diag_error(c->d, "%s: %s: expected a non-empty array", c->file, p);
        return -1;
    }
    int i = 0;
    for (const cJSON *e = values->child; e; e = e->next, i++) {
        char pe[200];
        snprintf(pe, sizeof pe, "%s[%d]", p, i);
        mg_space_val *v = push_opt(k);
        if (!v) return knob_oom(c, path);
        if (!tuple) {
            if (set_val(c, pe, e, v)) return -1;
            continue;
        }
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != k->nvars) {
            mg_diag_error(c->d, "%s: %s: expected an array of %d values (one per key)",
                          c->file, pe, k->nvars);
            return -1;
        }
        int q = 0;
        for (const cJSON *x = e->child; x; x = x->next, q++) {
            char px[220];
            snprintf(px, sizeof px, "%s[%d]", pe, q);
            if (set_val(c, px, x, &v[q])) return -1;
        }
    }
    return 0;
}

/* The options of a "divisors": N knob: every divisor of N. */
static int knob_divisors(ctx *c, const char *path, mg_space_knob *k, const cJSON *j)
{
    int64_t n;
    if (get_int(c, path, j, "divisors", 1, &n, 1)) return -1;
    for (int64_t f = 1; f <= n; f++)
        if (n % f == 0) {
            mg_space_val *v = push_opt(k);
            if (!v) return knob_oom(c, path);
            int_opt(v, f);
        }
    return 0;
}

/* The options of a "range" knob: {"from", "to", and "step" or "times"}. */
static int knob_range(ctx *c, const char *path, mg_space_knob *k, const cJSON *range)
{
    static const char *const ra[] = {"from", "to", "step", "times"};
    char p[160];
    snprintf(p, sizeof p, "%s.range", path);
    if (!cJSON_IsObject(range) || check_keys(c, p, range, ra, 4)) {
        if (!cJSON_IsObject(range))
            mg_diag_error(c->d, "%s: %s: expected {\"from\", \"to\", \"step\" or \"times\"}",
                          c->file, p);
        return -1;
    }
    int64_t from, to, step = 0, times = 0;
    if (get_int(c, p, range, "from", 0, &from, 1) || get_int(c, p, range, "to", from, &to, 1))
        return -1;
    int hs = get_int(c, p, range, "step", 1, &step, 0);
    int ht = get_int(c, p, range, "times", 2, &times, 0);
    if (hs < 0 || ht < 0) return -1;
    if ((hs == 0) == (ht == 0) || (ht == 0 && from < 1)) {
        mg_diag_error(c->d, "%s: %s: expected exactly one of \"step\" or \"times\" (times "
                      "needs from >= 1)", c->file, p);
        return -1;
    }
    for (int64_t x = from; x <= to; x = hs == 0 ? x + step : x * times) {
        mg_space_val *v = push_opt(k);
        if (!v) return knob_oom(c, path);
        int_opt(v, x);
    }
    return 0;
}

/* A knob's "name" and "shape". */
static int knob_name(ctx *c, const char *path, mg_space_knob *k, const cJSON *j)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    if (!cJSON_IsString(name) || !*name->valuestring || strlen(name->valuestring) >= 32) {
        mg_diag_error(c->d, "%s: %s.name: expected a name (1..31 characters)", c->file, path);
        return -1;
    }
    snprintf(k->name, sizeof k->name, "%s", name->valuestring);
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    if (shape && !cJSON_IsBool(shape)) {
        mg_diag_error(c->d, "%s: %s.shape: expected true or false", c->file, path);
        return -1;
    }
    k->shape = cJSON_IsTrue(shape);
    return 0;
}

/* Knob ki, $.knobs[ki]: its name, then exactly one way to make its
 * options: "split" (its own keys), or "key"/"keys" with "values",
 * "divisors" or "range". */
static int load_knob(ctx *c, int ki, const cJSON *j)
{
    static const char *const allowed[] = {"name", "shape", "key", "keys", "values",
                                          "divisors", "range", "split", "comment"};
    char path[128];
    snprintf(path, sizeof path, "$.knobs[%d]", ki);
    if (!cJSON_IsObject(j)) {
        mg_diag_error(c->d, "%s: %s: expected an object", c->file, path);
        return -1;
    }
    if (check_keys(c, path, j, allowed, sizeof allowed / sizeof *allowed)) return -1;
    mg_space_knob *k = &c->sp->knobs[ki];
    if (knob_name(c, path, k, j)) return -1;
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(j, "key");
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(j, "keys");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(j, "values");
    const cJSON *divs = cJSON_GetObjectItemCaseSensitive(j, "divisors");
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(j, "range");
    const cJSON *split = cJSON_GetObjectItemCaseSensitive(j, "split");
    int ngen = !!values + !!divs + !!range + !!split;
    if (ngen != 1) {
        mg_diag_error(c->d, "%s: %s: expected exactly one of \"values\", \"divisors\", "
                      "\"range\", \"split\"", c->file, path);
        return -1;
    }
    if (split) return knob_split(c, path, ki, split, key, keys);
    if (knob_vars(c, path, ki, key, keys, values)) return -1;
    if (values) return knob_values(c, path, k, values, keys != NULL);
    if (divs) return knob_divisors(c, path, k, j);
    return knob_range(c, path, k, range);
}

static int load_cons(ctx *c, int ci, const cJSON *j)
{
    static const char *const allowed[] = {"product", "equal", "min", "max", "multiple_of",
                                          "divides", "comment"};
    char path[64];
    snprintf(path, sizeof path, "$.constraints[%d]", ci);
    if (!cJSON_IsObject(j)) {
        mg_diag_error(c->d, "%s: %s: expected an object", c->file, path);
        return -1;
    }
    if (check_keys(c, path, j, allowed, sizeof allowed / sizeof *allowed)) return -1;
    mg_space_cons *k = &c->sp->cons[ci];
    const cJSON *prod = cJSON_GetObjectItemCaseSensitive(j, "product");
    const cJSON *eq = cJSON_GetObjectItemCaseSensitive(j, "equal");
    if (!prod == !eq) {
        mg_diag_error(c->d, "%s: %s: expected one of \"product\" or \"equal\"", c->file, path);
        return -1;
    }
    char p[96];
    snprintf(p, sizeof p, "%s.%s", path, prod ? "product" : "equal");
    k->kind = prod ? MG_CONS_PRODUCT : MG_CONS_EQUAL;
    if (var_list(c, p, prod ? prod : eq, k->var, &k->nvars, -1, 0)) return -1;
    k->min = k->max = -1;
    if (prod) {
        if (get_int(c, path, j, "min", 0, &k->min, 0) < 0 ||
            get_int(c, path, j, "max", 0, &k->max, 0) < 0 ||
            get_int(c, path, j, "multiple_of", 1, &k->multiple_of, 0) < 0 ||
            get_int(c, path, j, "divides", 1, &k->divides, 0) < 0)
            return -1;
    } else if (k->nvars != 2) {
        mg_diag_error(c->d, "%s: %s: expected two keys", c->file, p);
        return -1;
    }
    /* every value of the variables must be an integer */
    for (int i = 0; i < k->nvars; i++) {
        const mg_space_var *v = &c->sp->vars[k->var[i]];
        if (v->alias >= 0) v = &c->sp->vars[v->alias];
        int ok = 1;
        if (v->knob < 0) {
            ok = v->fixed.is_int;
        } else {
            const mg_space_knob *kn = &c->sp->knobs[v->knob];
            int q = 0;
            while (kn->var[q] != k->var[i]) q++;
            for (int64_t o = 0; o < kn->nopts; o++) ok &= kn->opts[o * kn->nvars + q].is_int;
        }
        if (!ok) {
            mg_diag_error(c->d, "%s: %s[%d]: \"%s\" takes non-integer values", c->file, p, i,
                          v->name);
            return -1;
        }
    }
    return 0;
}

/* Order the words by the op's key table and collect pair/triple parts. */
static int build_keys(ctx *c)
{
    mg_space *sp = c->sp;
    const mg_key *tables[2] = {c->op->keys, mg_common_keys};
    for (int t = 0; t < 2; t++)
        for (const mg_key *k = tables[t]; k->name; k++) {
            int whole = -1, parts[3] = {-1, -1, -1}, any = 0;
            for (int i = 0; i < sp->nvars; i++) {
                if (strcmp(sp->vars[i].key, k->name)) continue;
                if (sp->vars[i].part < 0) whole = i;
                else parts[sp->vars[i].part] = i, any = 1;
            }
            if (whole < 0 && !any) continue;
            int n = sp->nkeys++;
            snprintf(sp->keyname[n], sizeof sp->keyname[n], "%s", k->name);
            sp->keyparts[n] = any ? (k->type == MG_K_PAIR ? 2 : 3) : 0;
            memcpy(sp->keyvars[n], parts, sizeof parts);
            if (!any) sp->keyvars[n][0] = whole;
        }
    return 0;
}

/* $.schema, $.name and $.op (into c->op). */
static int load_header(ctx *c, const cJSON *root)
{
    mg_space *sp = c->sp;
    const char *name = c->file;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, MG_SPACE_SCHEMA)) {
        mg_diag_error(c->d, "%s: $.schema: expected \"%s\"", name, MG_SPACE_SCHEMA);
        return -1;
    }
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (!cJSON_IsString(nm) || !*nm->valuestring || strlen(nm->valuestring) >= sizeof sp->name) {
        mg_diag_error(c->d, "%s: $.name: expected a name (1..63 characters)", name);
        return -1;
    }
    snprintf(sp->name, sizeof sp->name, "%s", nm->valuestring);
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(root, "op");
    if (!cJSON_IsString(op) || !(c->op = mg_op_find(op->valuestring))) {
        const char *cands[32];
        size_t n = 0;
        for (int i = 0; mg_ops[i] && n < 32; i++) cands[n++] = mg_ops[i]->name;
        if (cJSON_IsString(op)) suggest_err(c, "$.op", "operator", op->valuestring, cands, n);
        else mg_diag_error(c->d, "%s: $.op: expected an operator name (mgsim gen --list)", name);
        return -1;
    }
    snprintf(sp->op, sizeof sp->op, "%s", c->op->name);
    return 0;
}

/* $.shape and $.fixed: key: value pairs, each a fixed variable. */
static int load_fixed(ctx *c, const cJSON *root)
{
    const char *fixeds[2] = {"shape", "fixed"};
    for (int f = 0; f < 2; f++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, fixeds[f]);
        if (!o) continue;
        if (!cJSON_IsObject(o)) {
            mg_diag_error(c->d, "%s: $.%s: expected an object of key: value", c->file,
                          fixeds[f]);
            return -1;
        }
        for (const cJSON *e = o->child; e; e = e->next) {
            char p[128];
            snprintf(p, sizeof p, "$.%s.%s", fixeds[f], e->string);
            int v = add_var(c, p, e->string, -1);
            if (v < 0 || set_val(c, p, e, &c->sp->vars[v].fixed)) return -1;
        }
    }
    return 0;
}

/* $.knobs (required) and $.constraints (optional), in order. */
static int load_knobs_and_cons(ctx *c, const cJSON *root)
{
    mg_space *sp = c->sp;
    const cJSON *knobs = cJSON_GetObjectItemCaseSensitive(root, "knobs");
    if (!cJSON_IsArray(knobs) || cJSON_GetArraySize(knobs) > MG_SPACE_MAX_KNOBS) {
        mg_diag_error(c->d, "%s: $.knobs: expected an array of at most %d knobs", c->file,
                      MG_SPACE_MAX_KNOBS);
        return -1;
    }
    for (const cJSON *e = knobs->child; e; e = e->next) {
        sp->nknobs++;
        if (load_knob(c, sp->nknobs - 1, e)) return -1;
    }
    const cJSON *cons = cJSON_GetObjectItemCaseSensitive(root, "constraints");
    if (!cons) return 0;
    if (!cJSON_IsArray(cons) || cJSON_GetArraySize(cons) > MG_SPACE_MAX_CONS) {
        mg_diag_error(c->d, "%s: $.constraints: expected an array of at most %d", c->file,
                      MG_SPACE_MAX_CONS);
        return -1;
    }
    for (const cJSON *e = cons->child; e; e = e->next) {
        sp->ncons++;
        if (load_cons(c, sp->ncons - 1, e)) return -1;
    }
    return 0;
}

/* A fixed value "=NAME" is an alias of the knob or fixed key NAME: resolve
 * each (an unresolved one is an error in c->d). */
static void resolve_aliases(ctx *c)
{
    mg_space *sp = c->sp;
    for (int i = 0; i < sp->nvars; i++) {
        mg_space_var *v = &sp->vars[i];
        if (v->knob >= 0 || v->fixed.s[0] != '=') continue;
        for (int q = 0; q < sp->nvars; q++)
            if (q != i && !strcmp(sp->vars[q].name, v->fixed.s + 1) && sp->vars[q].alias < 0 &&
                sp->vars[q].fixed.s[0] != '=')
                v->alias = q;
        if (v->alias < 0)
            mg_diag_error(c->d, "%s: $.fixed.%s: \"%s\": expected =NAME of a knob or fixed key",
                          c->file, v->name, v->fixed.s);
    }
}

/* mg_space_from_json without freeing what it filled on failure. */
static int space_parse(const cJSON *root, const char *name, mg_space *sp, mg_diag *d)
{
    memset(sp, 0, sizeof *sp);
    snprintf(sp->path, sizeof sp->path, "%s", name);
    ctx c = {name, sp, NULL, d};
    size_t before = d->n;
    static const char *const top[] = {"schema", "name", "description", "op", "shape",
                                      "fixed", "knobs", "constraints", "source"};
    if (!cJSON_IsObject(root)) {
        mg_diag_error(d, "%s: $: expected an object", name);
        return -1;
    }
    if (check_keys(&c, "$", root, top, sizeof top / sizeof *top) || load_header(&c, root) ||
        load_fixed(&c, root) || load_knobs_and_cons(&c, root))
        return -1;
    resolve_aliases(&c);
    build_keys(&c);
    return d->n == before ? 0 : -1;
}

int mg_space_from_json(const cJSON *root, const char *name, mg_space *sp, mg_diag *d)
{
    int rc = space_parse(root, name, sp, d);
    if (rc) mg_space_free(sp);
    return rc;
}

int mg_space_load(const char *path, mg_space *sp, mg_diag *d)
{
    memset(sp, 0, sizeof *sp);
    cJSON *j = mg_json_load(path, d);
    if (!j) return -1;
    int rc = mg_space_from_json(j, path, sp, d);
    cJSON_Delete(j);
    return rc;
}

void mg_space_free(mg_space *sp)
{
    for (int i = 0; i < MG_SPACE_MAX_KNOBS; i++) {
        free(sp->knobs[i].opts);
        sp->knobs[i].opts = NULL;
        sp->knobs[i].nopts = 0;
    }
}

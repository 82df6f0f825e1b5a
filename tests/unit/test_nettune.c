/* test_nettune.c - a network timed (sim/nettune): the spaces derived from
 * layers (every operator the table names, batching, the reasons a layer
 * is not simulated), the cache's keys and entries, the --layers-only
 * file. */
#include <CUnit/CUnit.h>

#include "tests/unit/suites.h"
#include "base/jsonfile.h"
#include "sim/net/net.h"
#include "sim/net/nop.h"
#include "sim/nettune/nettune.h"
#include "sim/nettune/nt_fuse.h"
#include "sim/nettune/nt_space.h"
#include "sim/search/space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int load(const char *path, mg_net *n)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_net_load(path, n, &d);
    mg_diag_free(&d);
    return rc;
}

static const mg_net_layer *layer(const mg_net *n, const char *name)
{
    for (int i = 0; i < n->nlayers; i++)
        if (!strcmp(n->layers[i].name, name)) return &n->layers[i];
    return NULL;
}

/* Every layer of the shipped networks: a space that loads, whose op is
 * the generator's, or a reason; conv2d, fc, pool, gpool, softmax,
 * layernorm, matmul, add, act and concat layers of these networks all
 * derive, but for ceil-mode pools, non-square or dilated windows and GELU
 * activations; resize and reshape do not. */
static void test_derive_all(void)
{
    const char *nets[] = {"mobilenet_v2", "resnet_18", "bert_base_layer", "squeezenet_v1",
                          "inception_v3", "deeplab_v3"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "configs/networks/%s.json", nets[i]);
        mg_net n;
        CU_ASSERT_FATAL(load(path, &n) == 0);
        static mg_nt_space sp;
        for (int l = 0; l < n.nlayers; l++) {
            const mg_net_layer *ly = &n.layers[l];
            char why[256] = "";
            int r = mg_nt_space_derive(&n, ly, 1, &sp, why, sizeof why);
            const char *op = ly->op->name;
            int runs = !strcmp(op, "conv2d") || !strcmp(op, "fc") || !strcmp(op, "pool") ||
                       !strcmp(op, "gpool") || !strcmp(op, "softmax") ||
                       !strcmp(op, "layernorm") || !strcmp(op, "matmul") ||
                       !strcmp(op, "add") || !strcmp(op, "act") || !strcmp(op, "concat");
            runs &= !ly->ceil;                  /* SqueezeNet's ceil-mode pools */
            runs &= ly->kernel[0] == ly->kernel[1] && ly->dilation[0] == 1 &&
                    ly->dilation[1] == 1 && ly->pad[0] == ly->pad[1];  /* Inception, DeepLab */
            if (!strcmp(op, "add") || !strcmp(op, "act"))   /* relu and relu6 only */
                runs &= ly->act != MG_ACT_GELU;
            if (r) {
                CU_ASSERT(strlen(why) > 0);
                if (runs) fprintf(stderr, "\n%s %s: %s\n", nets[i], ly->name, why);
                CU_ASSERT(!runs);
                continue;
            }
            CU_ASSERT(runs);
            mg_diag d;
            mg_diag_init(&d);
            cJSON *j = mg_json_parse("derived", sp.text, strlen(sp.text), &d);
            mg_space *s = calloc(1, sizeof *s);
            CU_ASSERT_FATAL(j != NULL && s != NULL);
            int bad = mg_space_from_json(j, "derived", s, &d);
            if (bad) fprintf(stderr, "\n%s %s: %s\n", nets[i], ly->name, mg_diag_first(&d));
            CU_ASSERT(!bad);
            if (!bad) mg_space_free(s);
            free(s);
            cJSON_Delete(j);
            mg_diag_free(&d);
        }
        mg_net_free(&n);
    }
}

/* A shape key's value in a derived space's text ("\"H\":48"). */
static int has(const mg_nt_space *sp, const char *text)
{
    return strstr(sp->text, text) != NULL;
}

static void test_derive_batch(void)
{
    mg_net n;
    CU_ASSERT_FATAL(load("tests/networks/tiny.json", &n) == 0);
    static mg_nt_space sp;
    char why[256];
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "conv0"), 3, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"H\":48,\"W\":16,\"Cin\":8,\"Cout\":16"));
    CU_ASSERT(has(&sp, "\"divisors\":48"));            /* the stacked output rows */
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "fc"), 3, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"M\":3,\"N\":12,\"K\":16"));
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "gap"), 2, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"H\":16,\"W\":8,\"C\":16,\"K\":8,\"stride\":8"));
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "res"), 2, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"op\":\"add\""));
    CU_ASSERT(has(&sp, "\"H\":32,\"W\":16,\"C\":16,\"act\":\"none\""));
    /* pw1 and pw2 have one shape: one space, byte for byte */
    static mg_nt_space sp2;
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "pw1"), 1, &sp, why, sizeof why) == 0);
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "pw2"), 1, &sp2, why, sizeof why) == 0);
    CU_ASSERT_STRING_EQUAL(sp.text, sp2.text);
    mg_net_free(&n);
    CU_ASSERT_FATAL(load("tests/networks/branch.json", &n) == 0);
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "cat"), 1, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"op\":\"concat\",\"shape\":{\"H\":8,\"W\":8,\"C\":\"16,16,16\"}"));
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "clip"), 1, &sp, why, sizeof why) == 0);
    CU_ASSERT(has(&sp, "\"C\":48,\"act\":\"relu6\""));
    mg_net_free(&n);
    CU_ASSERT_FATAL(load("configs/networks/deeplab_v3.json", &n) == 0);
    for (int i = 0; i < n.nlayers; i++)
        if (!strcmp(n.layers[i].op->name, "resize")) {
            CU_ASSERT(mg_nt_space_derive(&n, &n.layers[i], 1, &sp, why, sizeof why) == 1);
            CU_ASSERT_STRING_EQUAL(why, "the generator has no operator for resize");
        }
    mg_net_free(&n);
    CU_ASSERT_FATAL(load("configs/networks/bert_base_layer.json", &n) == 0);
    CU_ASSERT(mg_nt_space_derive(&n, layer(&n, "scores"), 2, &sp, why, sizeof why) == 0);
    CU_ASSERT_EQUAL(sp.reps, 24);                       /* 2 x 12 heads */
    CU_ASSERT(has(&sp, "\"M\":128,\"N\":128,\"K\":64"));
    mg_net_free(&n);
}

static void test_cache(void)
{
    mg_nt_search s;
    memset(&s, 0, sizeof s);
    snprintf(s.dev_hash, sizeof s.dev_hash, "0123456789abcdef");
    char k1[24], k2[24], k3[24], k4[24];
    mg_nt_cache_key(&s, "space", "{}", k1);
    mg_nt_cache_key(&s, "space", "{ }", k2);
    s.screen_k = 8;
    mg_nt_cache_key(&s, "space", "{}", k3);
    s.screen_k = 0;
    snprintf(s.rules_hash, sizeof s.rules_hash, "fedcba9876543210");
    mg_nt_cache_key(&s, "space", "{}", k4);
    CU_ASSERT(strcmp(k1, k2) && strcmp(k1, k3) && strcmp(k1, k4));
    char dir[] = "/tmp/mgsim-nettune-XXXXXX";
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    char sub[64];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    mg_nt_kernel k, back;
    memset(&k, 0, sizeof k);
    k.ok = 1;
    snprintf(k.schedule, sizeof k.schedule, "conv2d H=8");
    k.seconds = 1.25e-5;
    k.gflops = 3.5;
    k.binding = 0;
    k.alu_util = 0.125;
    k.space = 100;
    k.kept = 7;
    CU_ASSERT(mg_nt_cache_get(sub, k1, &back) == 0);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT(mg_nt_cache_put(sub, k1, &k, &d) == 0);
    mg_diag_free(&d);
    CU_ASSERT(mg_nt_cache_get(sub, k1, &back) == 1);
    CU_ASSERT_STRING_EQUAL(back.schedule, k.schedule);
    CU_ASSERT_EQUAL(back.seconds, k.seconds);
    CU_ASSERT_EQUAL(back.alu_util, k.alu_util);
    CU_ASSERT_EQUAL(back.binding, 0);
    CU_ASSERT_EQUAL(back.kept, 7);
    CU_ASSERT(mg_nt_cache_get(sub, k2, &back) == 0);
    /* an entry under another key's name is not taken */
    char from[128], to[128];
    snprintf(from, sizeof from, "%s/%s.json", sub, k1);
    snprintf(to, sizeof to, "%s/%s.json", sub, k2);
    CU_ASSERT(rename(from, to) == 0);
    CU_ASSERT(mg_nt_cache_get(sub, k2, &back) == 0);
    /* a torn entry is a miss */
    FILE *f = fopen(to, "w");
    fputs("{\"schema\": \"mgsim-net-kernel/1\", \"key\"", f);
    fclose(f);
    CU_ASSERT(mg_nt_cache_get(sub, k2, &back) == 0);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT(system(cmd) == 0);
}

static void test_given(void)
{
    mg_net n;
    CU_ASSERT_FATAL(load("tests/networks/tiny.json", &n) == 0);
    mg_nt_given g;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT(mg_nt_given_load("tests/networks/tiny-schedules.json", &n, &g, &d) == 0);
    CU_ASSERT_EQUAL(g.n, 5);
    mg_nt_given st;                     /* --batch 3: H (conv2d) or M (matmul) x 3 */
    CU_ASSERT_FATAL(mg_nt_given_stack(&g, 3, &st, &d) == 0);
    CU_ASSERT_EQUAL(st.n, 5);
    CU_ASSERT(strstr(st.words[0], "conv2d H=48 W=16 Cin=8") != NULL);
    CU_ASSERT(strstr(st.words[4], "matmul M=3 N=12 K=16") != NULL);
    mg_nt_given_free(&st);
    CU_ASSERT(mg_nt_given_stack(&g, 1000, &st, &d) == -1);   /* H=16000: past 4096 */
    CU_ASSERT(strstr(mg_diag_first(&d), "--batch 1000: layer conv0") != NULL);
    mg_diag_free(&d);
    mg_diag_init(&d);
    mg_nt_given_free(&g);
    CU_ASSERT(mg_nt_given_load("tests/bad/cmds/net-layers-unknown.json", &n, &g, &d) == -1);
    CU_ASSERT(strstr(mg_diag_first(&d), "(did you mean 'conv0'?)") != NULL);
    mg_diag_free(&d);
    mg_net_free(&n);
}

/* The groups of f: each parallel group's units pairwise independent (no
 * fusion across a dependency), each sequential group a conv2d and the
 * pooling that reads it; returns how many groups name layer `a` and `b`
 * as separate units of one parallel group. */
static int check_groups(const mg_nt_fusion *f, const mg_nt_result *r, const char *a,
                        const char *b)
{
    int found = 0;
    for (int i = 0; i < f->ngroups; i++) {
        const mg_nt_group *g = &f->groups[i];
        int la = -1, lb = -1;
        for (int x = 0; x < g->n; x++) {
            int lx = r->rows[g->rows[x]].layer;
            const char *nx = r->net->layers[lx].name;
            if (!strcmp(nx, a)) la = g->unit_of[x];
            if (!strcmp(nx, b)) lb = g->unit_of[x];
            for (int y = 0; y < g->n && g->parallel; y++) {
                if (g->unit_of[x] == g->unit_of[y]) continue;
                int ly = r->rows[g->rows[y]].layer;
                CU_ASSERT(!mg_nt_depends(r->net, lx, ly));
            }
        }
        if (!g->parallel) {
            CU_ASSERT_EQUAL(g->n, 2);
            CU_ASSERT(mg_nt_depends(r->net, r->rows[g->rows[0]].layer,
                                    r->rows[g->rows[1]].layer));
        }
        found += g->parallel && la >= 0 && lb >= 0 && la != lb;
    }
    return found;
}

/* The fusion picker on tests/networks/branch.json with its given
 * schedules: pa, ca and cb hang off conv0; cpa reads ca and cpb cb. */
static void test_fuse(void)
{
    mg_net n;
    CU_ASSERT_FATAL(load("tests/networks/branch.json", &n) == 0);
    int conv0 = (int)(layer(&n, "conv0") - n.layers), cpa = (int)(layer(&n, "cpa") - n.layers);
    int pa = (int)(layer(&n, "pa") - n.layers), ca = (int)(layer(&n, "ca") - n.layers);
    CU_ASSERT(mg_nt_depends(&n, conv0, cpa) && mg_nt_depends(&n, ca, cpa));
    CU_ASSERT(!mg_nt_depends(&n, pa, cpa) && !mg_nt_depends(&n, cpa, pa));
    CU_ASSERT(!mg_nt_depends(&n, cpa, ca));
    static mg_device dev;
    static mg_nt_given g;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FATAL(mg_device_load("configs/devices/adreno640.json", 0, &dev, &d) == 0);
    CU_ASSERT_FATAL(mg_nt_given_load("tests/networks/branch-schedules.json", &n, &g, &d) == 0);
    mg_nt_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.search.dev = &dev;
    cfg.cache = "";
    cfg.batch = 1;
    cfg.given = &g;
    mg_nt_result r;
    mg_nt_fusion f;
    CU_ASSERT_FATAL(mg_nt_run(&cfg, &n, &r, &d) == 0);
    for (int mode = MG_NT_FUSE_SEQ; mode <= MG_NT_FUSE_BOTH; mode++) {
        CU_ASSERT_FATAL(mg_nt_fuse(&cfg, &r, mode, &f, &d) == 0);
        CU_ASSERT(check_groups(&f, &r, "ca", "cpa") == 0);   /* a dependency */
        CU_ASSERT(check_groups(&f, &r, "conv0", "pa") == 0);
        int seq = 0, par = 0;
        for (int i = 0; i < f.ngroups; i++) {
            seq += !f.groups[i].parallel;
            par += f.groups[i].parallel;
            CU_ASSERT(f.groups[i].k.ok);
        }
        CU_ASSERT_EQUAL(seq, mode & MG_NT_FUSE_SEQ ? 2 : 0);  /* ca+cpa, cb+cpb */
        if (mode == MG_NT_FUSE_PAR) CU_ASSERT(check_groups(&f, &r, "cpa", "cpb") == 1);
        CU_ASSERT(par > 0 || !(mode & MG_NT_FUSE_PAR));
        CU_ASSERT(f.latency_s <= r.total_s);
        mg_nt_fusion_free(&f);
    }
    mg_nt_result_free(&r);
    mg_nt_given_free(&g);
    mg_diag_free(&d);
    mg_net_free(&n);
}

int add_nettune_suite(void)
{
    CU_pSuite s = CU_add_suite("nettune", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "derive_all", test_derive_all) ||
        !CU_add_test(s, "derive_batch", test_derive_batch) ||
        !CU_add_test(s, "cache", test_cache) || !CU_add_test(s, "given", test_given) ||
        !CU_add_test(s, "fuse", test_fuse))
        return -1;
    return 0;
}

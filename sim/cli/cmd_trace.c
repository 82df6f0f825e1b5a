/*
 * cmd_trace.c - `mgsim trace dump|stats`: print a trace file record by
 * record, or the statistics of traces/trace_stats.c as text or JSON.
 */
#include "sim/cli/cli.h"
#include "traces/trace.h"
#include "traces/trace_stats.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <stdlib.h>
#include <string.h>

static void trace_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim trace dump [--limit N] FILE\n"
            "       mgsim trace stats [--line BYTES] [--tile WxH] [--json] FILE\n"
            "\n"
            "dump   print the header, then one line per record: record index (over\n"
            "       the file), work group, warp, index in the warp, type, site, active\n"
            "       lanes / lanes, and the ALU figures or the object, width and the\n"
            "       first active lanes' addresses (texel x,y for images)\n"
            "       --limit N  stop after N records\n"
            "stats  records, lane accesses and bytes by type, ALU operations by class,\n"
            "       flops, and distinct lines per buffer and texel tiles per image\n"
            "       --line BYTES  line size for buffers (default 64)\n"
            "       --tile WxH    tile size in texels for images (default 4x4)\n"
            "       --json        JSON instead of text\n"
            "\n"
            "The whole file is checked as it is read; the first problem is reported\n"
            "with the record index and byte offset, and the exit status is 2.\n"
            "FILE - reads standard input.  The format is traces/FORMAT.md.\n");
}

enum { OPT_LIMIT = 256, OPT_LINE, OPT_TILE, OPT_JSON };

static const struct option trace_opts[] = {
    {"limit", required_argument, NULL, OPT_LIMIT},
    {"line", required_argument, NULL, OPT_LINE},
    {"tile", required_argument, NULL, OPT_TILE},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct trace_args {
    int json, help;
    unsigned long long limit;     /* 0: no limit */
    uint32_t line, tile_w, tile_h;
} trace_args;

/* Parse a decimal integer in [lo, hi] that fills all of s. */
static int parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
                      unsigned long long *out)
{
    if (!s[0] || s[0] == '-' || s[0] == '+') return -1;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* Parse the options of `trace SUB ...`; returns the index of the first
 * operand, or -1 after a usage error was printed. */
static int parse_opts(int argc, char **argv, trace_args *a)
{
    memset(a, 0, sizeof *a);
    a->line = 64;
    a->tile_w = a->tile_h = 4;
    int c;
    unsigned long long v, w, h;
    char who[48];
    snprintf(who, sizeof who, "trace %s", argv[0]);
    mg_opts po;
    mg_opts_start(&po, "mgsim", who, "h", trace_opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case OPT_LIMIT:
            if (parse_uint(optarg, 1, ~0ull, &v)) {
                mg_cli_usage_error("trace", "%s: --limit: expected a positive integer, got '%s'",
                                   argv[0], optarg);
                return -1;
            }
            a->limit = v;
            break;
        case OPT_LINE:
            if (parse_uint(optarg, 1, 1u << 20, &v)) {
                mg_cli_usage_error("trace", "%s: --line: expected bytes in 1..1048576, got '%s'",
                                   argv[0], optarg);
                return -1;
            }
            a->line = (uint32_t)v;
            break;
        case OPT_TILE: {
            char buf[64];
            snprintf(buf, sizeof buf, "%s", optarg);
            char *x = strchr(buf, 'x');
            if (x) *x = '\0';
            if (!x || parse_uint(buf, 1, 65536, &w) || parse_uint(x + 1, 1, 65536, &h)) {
                mg_cli_usage_error("trace", "%s: --tile: expected WxH texels (e.g. 4x4), got '%s'",
                                   argv[0], optarg);
                return -1;
            }
            a->tile_w = (uint32_t)w;
            a->tile_h = (uint32_t)h;
            break;
        }
        case OPT_JSON: a->json = 1; break;
        case 'h': a->help = 1; break;
        default:
            return -1;
        }
    }
    return optind;
}

/* Open FILE, or print its error; NULL on failure. */
static mg_trace_reader *open_trace(const char *path)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *r = mg_trace_reader_open(path, &d);
    if (!r) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return r;
}

static const char *const texel_names[] = {"fp32", "fp16"};
static const char *const space_names[] = {"global", "constant"};

/* Print the header as dump does. */
static void print_header(const mg_trace_header *h, const char *path)
{
    printf("trace %s: format v%u, kernel %s\n", path, h->version, h->kernel);
    printf("global %u,%u,%u  local %u,%u,%u  warp %u  (%llu work groups of %u warps)\n",
           h->global[0], h->global[1], h->global[2], h->local[0], h->local[1], h->local[2],
           h->warp_width, (unsigned long long)mg_trace_num_wgs(h), mg_trace_warps_per_wg(h));
    printf("registers per item %u  local memory %u B\n", h->regs_per_item, h->local_bytes);
    for (uint32_t i = 0; i < h->n_images; i++) {
        const mg_trace_image *im = &h->images[i];
        printf("image %u %s: %ux%u, %u channels %s, %u B per texel\n", i, im->name, im->width,
               im->height, im->channels, texel_names[im->type & 1], im->texel_bytes);
    }
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        const mg_trace_buffer *b = &h->buffers[i];
        printf("buffer %u %s: %llu B %s", i, b->name, (unsigned long long)b->bytes,
               space_names[b->space & 1]);
        if (b->elem) printf(", %u B per element\n", b->elem);
        else printf(", element size not known\n");
    }
}

/* Print the detail part of one record's dump line. */
static void print_detail(const mg_rec *r)
{
    enum { SHOW = 4 };
    if (r->type == MG_REC_ALU) {
        printf(" %s vec%u n=%u flops=%u", mg_alu_class_name(r->cls), r->vec, r->n, r->flops);
        if (r->keep) printf(" keep=%u", r->keep);
        return;
    }
    if (r->type == MG_REC_BARRIER) {
        printf(" fence=%s", r->obj == 3 ? "local|global" : r->obj == 2 ? "global"
                          : r->obj == 1 ? "local" : "none");
        return;
    }
    int img = r->type == MG_REC_TEX_READ || r->type == MG_REC_IMG_WRITE;
    if (r->type == MG_REC_LOCAL_LOAD || r->type == MG_REC_LOCAL_STORE) printf(" width=%u", r->width);
    else printf(" %s=%u width=%u", img ? "img" : "buf", r->obj, r->width);
    unsigned shown = 0, act = mg_rec_popcount(r);
    printf(" [");
    for (unsigned l = 0; l < r->lanes && shown < SHOW; l++) {
        if (!mg_rec_active(r, l)) continue;
        if (img) printf("%s%u:(%lld,%lld)", shown ? " " : "", l, (long long)r->a[l],
                        (long long)r->b[l]);
        else printf("%s%u:%lld", shown ? " " : "", l, (long long)r->a[l]);
        shown++;
    }
    printf("%s]", act > SHOW ? " ..." : "");
}

/* `trace dump [--limit N] FILE`: header, then one line per record; exit 2
 * (after what was printed) at the first problem in the file. */
static int trace_dump(int argc, char **argv)
{
    trace_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { trace_usage(stdout); return MG_EXIT_OK; }
    if (argc - i != 1) return mg_cli_usage_error("trace", "dump: expected exactly one FILE");
    mg_trace_reader *rd = open_trace(argv[i]);
    if (!rd) return MG_EXIT_BAD;
    print_header(mg_trace_reader_header(rd), argv[i]);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_rec *r = malloc(sizeof *r);
    unsigned long long index = 0;
    int rc = r ? 1 : -1;
    if (!r) mg_diag_error(&d, "out of memory");
    while (rc == 1 && (!a.limit || index < a.limit) &&
           (rc = mg_trace_reader_next_wg(rd, &wg, &d)) == 1) {
        for (uint32_t k = 0; k < wg.n_warps && rc == 1; k++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, k);
            int got;
            while ((!a.limit || index < a.limit) && (got = mg_trace_cursor_next(&c, r, &d)) == 1) {
                printf("#%llu wg %u,%u,%u warp %u rec %u %s site %u lanes %u/%u", index, wg.id[0],
                       wg.id[1], wg.id[2], k, c.index - 1, mg_rec_type_name(r->type), r->site,
                       mg_rec_popcount(r), r->lanes);
                print_detail(r);
                putchar('\n');
                index++;
            }
            if (mg_diag_failed(&d)) rc = -1;
        }
    }
    if (rc >= 0 && a.limit && index >= a.limit) printf("(--limit %llu reached)\n", a.limit);
    free(r);
    mg_trace_wg_free(&wg);
    mg_trace_reader_close(rd);
    fflush(stdout);
    mg_diag_print(&d, stderr, "mgsim");
    int bad = mg_diag_failed(&d);
    mg_diag_free(&d);
    return bad ? MG_EXIT_BAD : MG_EXIT_OK;
}

/* Print stats as a text report. */
static void stats_text(const mg_trace_stats *s, const char *path)
{
    const mg_trace_header *h = &s->hdr;
    printf("trace %s: kernel %s, global %u,%u,%u, local %u,%u,%u, warp %u\n", path, h->kernel,
           h->global[0], h->global[1], h->global[2], h->local[0], h->local[1], h->local[2],
           h->warp_width);
    printf("work groups %llu (of %llu in the launch), warps %llu, records %llu\n",
           (unsigned long long)s->wgs, (unsigned long long)mg_trace_num_wgs(h),
           (unsigned long long)s->warps, (unsigned long long)s->records);
    printf("\n%-12s %12s %16s %16s\n", "type", "records", "lane accesses", "bytes");
    for (int t = 1; t < MG_REC_TYPE_COUNT; t++) {
        if (t == MG_REC_ALU || t == MG_REC_BARRIER) {
            printf("%-12s %12llu %16llu %16s\n", mg_rec_type_name(t),
                   (unsigned long long)s->recs[t], (unsigned long long)s->lanes[t], "-");
        } else {
            printf("%-12s %12llu %16llu %16llu\n", mg_rec_type_name(t),
                   (unsigned long long)s->recs[t], (unsigned long long)s->lanes[t],
                   (unsigned long long)s->bytes[t]);
        }
    }
    printf("\nALU operations (active lanes x n x vec):");
    for (int c = 0; c < MG_ALU_CLASS_COUNT; c++)
        printf(" %s %llu%s", mg_alu_class_name(c), (unsigned long long)s->alu_ops[c],
               c + 1 < MG_ALU_CLASS_COUNT ? "," : "\n");
    printf("flops %llu\n", (unsigned long long)s->flops);
    const char *est = s->exact ? "" : " (estimated)";
    if (h->n_buffers) printf("\ndistinct %u B lines%s:\n", s->line_bytes, est);
    for (uint32_t i = 0; i < h->n_buffers; i++)
        printf("  buffer %u %-20s %12llu\n", i, h->buffers[i].name,
               (unsigned long long)s->buf_lines[i]);
    if (h->n_images) printf("\ndistinct %ux%u texel tiles%s:\n", s->tile_w, s->tile_h, est);
    for (uint32_t i = 0; i < h->n_images; i++)
        printf("  image %u %-21s %12llu\n", i, h->images[i].name,
               (unsigned long long)s->img_tiles[i]);
    if (s->saturated) printf("(some counters saturated at 2^64-1)\n");
}

/* Build the JSON report of stats. */
static cJSON *stats_json(const mg_trace_stats *s, const char *path)
{
    const mg_trace_header *h = &s->hdr;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    cJSON_AddStringToObject(o, "kernel", h->kernel);
    cJSON_AddItemToObject(o, "global", cJSON_CreateDoubleArray((double[]){h->global[0],
                                                         h->global[1], h->global[2]}, 3));
    cJSON_AddItemToObject(o, "local", cJSON_CreateDoubleArray((double[]){h->local[0],
                                                        h->local[1], h->local[2]}, 3));
    cJSON_AddNumberToObject(o, "warp_width", h->warp_width);
    cJSON_AddNumberToObject(o, "work_groups", (double)s->wgs);
    cJSON_AddNumberToObject(o, "work_groups_in_launch", (double)mg_trace_num_wgs(h));
    cJSON_AddNumberToObject(o, "warps", (double)s->warps);
    cJSON_AddNumberToObject(o, "records", (double)s->records);
    cJSON *types = cJSON_AddObjectToObject(o, "by_type");
    for (int t = 1; t < MG_REC_TYPE_COUNT; t++) {
        cJSON *e = cJSON_AddObjectToObject(types, mg_rec_type_name(t));
        cJSON_AddNumberToObject(e, "records", (double)s->recs[t]);
        cJSON_AddNumberToObject(e, "lane_accesses", (double)s->lanes[t]);
        if (t != MG_REC_ALU && t != MG_REC_BARRIER)
            cJSON_AddNumberToObject(e, "bytes", (double)s->bytes[t]);
    }
    cJSON *alu = cJSON_AddObjectToObject(o, "alu_ops");
    for (int c = 0; c < MG_ALU_CLASS_COUNT; c++)
        cJSON_AddNumberToObject(alu, mg_alu_class_name(c), (double)s->alu_ops[c]);
    cJSON_AddNumberToObject(o, "flops", (double)s->flops);
    cJSON_AddNumberToObject(o, "line_bytes", s->line_bytes);
    cJSON_AddItemToObject(o, "tile", cJSON_CreateDoubleArray((double[]){s->tile_w, s->tile_h}, 2));
    cJSON_AddBoolToObject(o, "exact", s->exact);
    cJSON *bufs = cJSON_AddArrayToObject(o, "buffers");
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "name", h->buffers[i].name);
        cJSON_AddStringToObject(b, "space", space_names[h->buffers[i].space & 1]);
        cJSON_AddNumberToObject(b, "elem", h->buffers[i].elem);
        cJSON_AddNumberToObject(b, "bytes", (double)h->buffers[i].bytes);
        cJSON_AddNumberToObject(b, "distinct_lines", (double)s->buf_lines[i]);
        cJSON_AddItemToArray(bufs, b);
    }
    cJSON *imgs = cJSON_AddArrayToObject(o, "images");
    for (uint32_t i = 0; i < h->n_images; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "name", h->images[i].name);
        cJSON_AddNumberToObject(m, "width", h->images[i].width);
        cJSON_AddNumberToObject(m, "height", h->images[i].height);
        cJSON_AddNumberToObject(m, "distinct_tiles", (double)s->img_tiles[i]);
        cJSON_AddItemToArray(imgs, m);
    }
    cJSON_AddBoolToObject(o, "saturated", s->saturated);
    return o;
}

/* `trace stats [--line B] [--tile WxH] [--json] FILE`: read the whole file,
 * then print; on any problem print nothing on stdout and exit 2. */
static int trace_stats(int argc, char **argv)
{
    trace_args a;
    int i = parse_opts(argc, argv, &a);
    if (i < 0) return MG_EXIT_BAD;
    if (a.help) { trace_usage(stdout); return MG_EXIT_OK; }
    if (argc - i != 1) return mg_cli_usage_error("trace", "stats: expected exactly one FILE");
    if (a.limit) return mg_cli_usage_error("trace", "stats: --limit is a dump option");
    mg_trace_reader *rd = open_trace(argv[i]);
    if (!rd) return MG_EXIT_BAD;
    mg_trace_stats *s = malloc(sizeof *s);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_source src = mg_trace_reader_source(rd);
    int rc = -1;
    if (!s) mg_diag_error(&d, "out of memory");
    else rc = mg_trace_stats_run(s, &src, a.line, a.tile_w, a.tile_h, &d);
    mg_trace_reader_close(rd);
    if (rc == 0) {
        if (a.json) {
            cJSON *j = stats_json(s, argv[i]);
            mg_json_write(stdout, j);
            cJSON_Delete(j);
        } else {
            stats_text(s, argv[i]);
        }
    }
    if (s) mg_trace_stats_free(s);
    free(s);
    mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc ? MG_EXIT_BAD : MG_EXIT_OK;
}

/* `mgsim trace SUB ...`: dispatch to dump or stats. */
int mg_cmd_trace(int argc, char **argv)
{
    if (argc < 2) {
        trace_usage(stderr);
        return MG_EXIT_BAD;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        trace_usage(stdout);
        return MG_EXIT_OK;
    }
    if (!strcmp(argv[1], "dump")) return trace_dump(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stats")) return trace_stats(argc - 1, argv + 1);
    return mg_cli_usage_error("trace", "unknown subcommand '%s' (dump, stats)", argv[1]);
}

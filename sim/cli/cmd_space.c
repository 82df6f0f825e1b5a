/*
 * cmd_space.c - `mgsim space count|list SPACE`: the size of a search space
 * (raw, excluded, invalid by reason) and its members' canonical schedules.
 */
#include "sim/cli/cli.h"
#include "sim/search/space.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void space_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim space count SPACE [--json]\n"
            "       mgsim space list SPACE [--limit N] [--json]\n"
            "\n"
            "count  raw combinations, those a space constraint excludes, those the\n"
            "       generator rejects (invalid, tallied by reason) and the size\n"
            "list   the members in enumeration order, one canonical schedule per\n"
            "       line (mgsim gen accepts it); --limit N stops after N\n"
            "\n"
            "SPACE is a search-space file (configs/spaces/, schema in\n"
            "configs/README.md).\n");
}

typedef struct list_ctx {
    uint64_t limit;
    cJSON *arr;
} list_ctx;

static int list_one(void *p, const mg_space_cand *c)
{
    list_ctx *l = p;
    if (l->limit && c->index >= l->limit) return 1;
    char buf[1024];
    mg_schedule_format(&c->s, buf, sizeof buf);
    if (l->arr) cJSON_AddItemToArray(l->arr, cJSON_CreateString(buf));
    else printf("%s\n", buf);
    return 0;
}

int mg_cmd_space(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'}, {"limit", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int json = 0;
    uint64_t limit = 0;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "space", "h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'n': {
            char *end;
            long long v = strtoll(optarg, &end, 10);
            if (*end || end == optarg || v < 1)
                return mg_cli_usage_error("space", "--limit: expected a positive integer, "
                                          "got '%s'", optarg);
            limit = (uint64_t)v;
            break;
        }
        case 'h': space_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (argc - optind != 2)
        return mg_cli_usage_error("space", "expected count|list and a space file");
    const char *sub = argv[optind], *file = argv[optind + 1];
    int list = !strcmp(sub, "list");
    if (!list && strcmp(sub, "count"))
        return mg_cli_usage_error("space", "unknown subcommand '%s' (count or list)", sub);
    mg_diag d;
    mg_diag_init(&d);
    mg_space *sp = calloc(1, sizeof *sp);
    mg_space_stats *st = calloc(1, sizeof *st);
    int rc = MG_EXIT_OK;
    if (!sp || !st || mg_space_load(file, sp, &d)) {
        mg_diag_print(&d, stderr, "mgsim");
        rc = MG_EXIT_BAD;
    } else if (list) {
        list_ctx l = {limit, json ? cJSON_CreateArray() : NULL};
        mg_space_enumerate(sp, list_one, &l, st);
        if (l.arr) {
            mg_json_write(stdout, l.arr);
            cJSON_Delete(l.arr);
        }
    } else {
        mg_space_enumerate(sp, NULL, NULL, st);
        if (json) {
            cJSON *j = mg_space_stats_json(sp, st);
            mg_json_write(stdout, j);
            cJSON_Delete(j);
        } else {
            mg_space_stats_print(sp, st, stdout);
        }
    }
    if (sp) mg_space_free(sp);
    mg_diag_free(&d);
    free(sp);
    free(st);
    return rc;
}

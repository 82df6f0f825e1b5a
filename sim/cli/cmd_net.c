/*
 * cmd_net.c - `mgsim net NETWORK`: load and check a network description
 * (configs/networks/, sim/net/net.h) and print its layers, shapes and
 * costs against the published figures, as text or JSON.
 */
#include "sim/cli/cli.h"
#include "sim/net/net.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <errno.h>
#include <string.h>

static void net_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim net NETWORK [--json] [-o FILE]\n"
            "\n"
            "Load and check a network description (configs/networks/*.json, format in\n"
            "configs/networks/README.md): every layer's operator, keys, inputs and\n"
            "shape; the graph acyclic.  Prints the totals (MACs, params, FLOPs)\n"
            "against the published figures the file cites, and one row per layer in\n"
            "execution order.\n"
            "\n"
            "  --json     the report as JSON (schema mgsim-network-info/1)\n"
            "  -o FILE    write the report to FILE (all or nothing; - is stdout)\n"
            "\n"
            "A bad network is one line naming the file, the layer and the problem\n"
            "(exit 2); nothing is written then.\n");
}

static int write_report(const mg_net *n, int json, const char *out, mg_diag *d)
{
    mg_afile af;
    FILE *f = mg_afile_open(&af, out);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", out, strerror(errno));
        return -1;
    }
    if (json) {
        cJSON *j = mg_net_json(n);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        mg_net_print(n, f);
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

int mg_cmd_net(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'}, {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int json = 0, c;
    const char *out = "-";
    mg_opts po;
    mg_opts_start(&po, "mgsim", "net", "o:h", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'o': out = optarg; break;
        case 'h': net_usage(stdout); return MG_EXIT_OK;
        default: return MG_EXIT_BAD;
        }
    }
    if (argc - optind != 1) return mg_cli_usage_error("net", "expected one network file");
    mg_diag d;
    mg_diag_init(&d);
    mg_net n;
    int rc = MG_EXIT_OK;
    if (mg_net_load(argv[optind], &n, &d)) {
        rc = MG_EXIT_BAD;
    } else {
        if (write_report(&n, json, out, &d)) rc = MG_EXIT_BAD;
        mg_net_free(&n);
    }
    if (rc) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc;
}

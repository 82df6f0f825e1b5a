/* subcmd.c - see subcmd.h. */
#include "base/subcmd.h"
#include "base/strsim.h"

#include <string.h>

const mg_subcmd *mg_subcmd_find(const mg_subcmd *cmds, const char *name)
{
    for (const mg_subcmd *c = cmds; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

void mg_subcmd_list(const mg_subcmd *cmds, FILE *f)
{
    for (const mg_subcmd *c = cmds; c->name; c++) fprintf(f, "  %-10s %s\n", c->name, c->summary);
}

/* "PROG: unknown command 'CMD' (did you mean 'X'?)"; returns 2. */
static int unknown(const mg_prog *p, const char *cmd)
{
    const char *names[64];
    size_t n = 0;
    for (const mg_subcmd *k = p->cmds; k->name && n < 64; k++) names[n++] = k->name;
    mg_hint h;
    fprintf(stderr, "%s: unknown command '%s'%s\nTry '%s --help'.\n", p->name, cmd,
            mg_hint_near(&h, cmd, names, n, "'"), p->name);
    return 2;
}

/* `PROG help CMD`: CMD's own --help (exit 0), or the unknown-command
 * message (2). */
static int help_of(const mg_prog *p, const char *cmd)
{
    const mg_subcmd *c = mg_subcmd_find(p->cmds, cmd);
    if (!c) return unknown(p, cmd);
    char name[64], help[] = "--help";
    snprintf(name, sizeof name, "%s", cmd);
    char *args[] = {name, help, NULL};
    return c->run(2, args);
}

int mg_prog_main(const mg_prog *p, int argc, char **argv)
{
    if (argc < 2) {
        p->usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") && argc >= 3) return help_of(p, argv[2]);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        p->usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("%s %s\n", p->name, p->version);
        return 0;
    }
    const mg_subcmd *c = mg_subcmd_find(p->cmds, cmd);
    return c ? c->run(argc - 1, argv + 1) : unknown(p, cmd);
}

/* opts.c - see opts.h. */
#include "base/opts.h"
#include "base/strsim.h"

#include <stdio.h>
#include <string.h>

void mg_opts_start(mg_opts *p, const char *prog, const char *cmd, const char *shorts,
                   const struct option *longs)
{
    p->prog = prog;
    p->cmd = cmd;
    p->longs = longs;
    if (*shorts == '+') shorts++;
    snprintf(p->spec, sizeof p->spec, ":%s", shorts);
    p->shorts = p->spec + 1;
    opterr = 0;
    optind = 0;                       /* GNU: a full reset; argv[0] is the command */
}

/* The row whose name is the len first characters of word, or NULL. */
static const struct option *find_long(const struct option *o, const char *word, size_t len)
{
    for (; o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, word, len)) return o;
    return NULL;
}

/* " (did you mean '--NAME'?)" for the long option nearest to name, or "". */
static const char *hint_long(mg_hint *h, const struct option *longs, const char *name)
{
    const char *names[128];
    size_t n = 0;
    for (const struct option *o = longs; o->name && n < 128; o++) names[n++] = o->name;
    const char *sug = mg_suggest(name, names, n);
    char buf[96];
    if (sug) snprintf(buf, sizeof buf, "--%s", sug);
    return mg_hint_of(h, sug ? buf : NULL, "'");
}

/* Print why the option at argv[optind - 1] was refused (c: getopt's ':'
 * or '?'), and the --help hint. */
static void refuse(const mg_opts *p, int c, int argc, char **argv)
{
    const char *word = optind >= 1 && optind <= argc ? argv[optind - 1] : "?";
    fprintf(stderr, "%s: %s: ", p->prog, p->cmd);
    if (c == ':') {
        if (!strncmp(word, "--", 2)) fprintf(stderr, "option '%s' needs an argument", word);
        else fprintf(stderr, "option '-%c' needs an argument", optopt);
    } else if (!strncmp(word, "--", 2)) {
        const char *name = word + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const struct option *o = find_long(p->longs, name, len);
        char bare[96];
        snprintf(bare, sizeof bare, "%.*s", (int)(len < 80 ? len : 80), name);
        mg_hint h;
        if (o && eq && o->has_arg == no_argument)
            fprintf(stderr, "option '--%s' takes no argument", o->name);
        else
            fprintf(stderr, "unknown option '--%s'%s", bare, hint_long(&h, p->longs, bare));
    } else {
        fprintf(stderr, "unknown option '-%c'", optopt ? optopt : '?');
    }
    fprintf(stderr, "\nTry '%s %s --help'.\n", p->prog, p->cmd);
}

int mg_opts_next(mg_opts *p, int argc, char **argv)
{
    int c = getopt_long(argc, argv, p->spec, p->longs, NULL);
    if (c == ':' || c == '?') {
        refuse(p, c, argc, argv);
        return '?';
    }
    return c;
}

/* strbuf.c - see strbuf.h. */
#include "traces/gen/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_sb_init(mg_sb *b) { memset(b, 0, sizeof *b); }

void mg_sb_free(mg_sb *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

static int sb_reserve(mg_sb *b, size_t extra)
{
    if (b->oom) return -1;
    if (b->len + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) { b->oom = 1; return -1; }
    b->s = s;
    b->cap = cap;
    return 0;
}

void mg_sb_printf(mg_sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || sb_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void mg_sb_puts(mg_sb *b, const char *s)
{
    size_t n = strlen(s);
    if (sb_reserve(b, n)) return;
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

char *mg_sb_take(mg_sb *b, size_t *len)
{
    char *s = b->s;
    if (len) *len = b->len;
    if (!s && !b->oom) s = calloc(1, 1);
    if (b->oom) { free(s); s = NULL; }
    memset(b, 0, sizeof *b);
    return s;
}

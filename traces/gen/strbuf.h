/*
 * strbuf.h - a growable string for emitting source text.
 */
#ifndef MG_STRBUF_H
#define MG_STRBUF_H

#include <stddef.h>

typedef struct mg_sb {
    char  *s;        /* NUL-terminated contents (NULL until first append) */
    size_t len, cap;
    int    oom;      /* set when an allocation failed; appends then no-op */
} mg_sb;

void mg_sb_init(mg_sb *b);
void mg_sb_free(mg_sb *b);
/* Append formatted text. */
void mg_sb_printf(mg_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_sb_puts(mg_sb *b, const char *s);
/* Detach the string (caller frees); the buffer is reset. */
char *mg_sb_take(mg_sb *b, size_t *len);

#endif

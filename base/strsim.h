/*
 * strsim.h - edit distance and "did you mean" suggestions.
 */
#ifndef MG_STRSIM_H
#define MG_STRSIM_H

#include <stddef.h>

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transposition) between a and b, case-sensitive.  Strings longer than 127
 * characters are compared on their first 127. */
size_t mg_edit_distance(const char *a, const char *b);

/* The same when it is at most max; otherwise max + 1, found without
 * finishing the table when it can (max < SIZE_MAX). */
size_t mg_edit_distance_max(const char *a, const char *b, size_t max);

/* The candidate nearest to `word`, or NULL when none is near enough to be
 * a plausible typo (distance <= max(1, strlen(word)/3), or one is a prefix
 * of the other).  Ties go to the earliest candidate. */
const char *mg_suggest(const char *word, const char *const *cands, size_t n);

/* The text of a suggestion, for "unknown X" messages. */
typedef struct mg_hint {
    char text[192];
} mg_hint;

/* " (did you mean <q>SUG<q>?)" where SUG is mg_suggest(word, cands, n),
 * or "" when nothing is near enough; q is the quote around the
 * suggestion ("'", "\"" or "").  Written into h; returns h->text, so a
 * message reads: mg_diag_error(d, "unknown key '%s'%s", w,
 * mg_hint_near(&h, w, keys, n, "'")). */
const char *mg_hint_near(mg_hint *h, const char *word, const char *const *cands, size_t n,
                         const char *q);

/* The same for a suggestion already chosen (sug may be NULL: ""). */
const char *mg_hint_of(mg_hint *h, const char *sug, const char *q);

/* The n names joined by sep into buf (size len, always terminated,
 * truncated if it must be); returns buf.  For the "known: a, b, c" part. */
char *mg_join_names(char *buf, size_t len, const char *const *names, size_t n, const char *sep);

#endif

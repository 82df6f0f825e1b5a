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

/* The candidate nearest to `word`, or NULL when none is near enough to be
 * a plausible typo (distance <= max(1, strlen(word)/3), or one is a prefix
 * of the other).  Ties go to the earliest candidate. */
const char *mg_suggest(const char *word, const char *const *cands, size_t n);

#endif

/*
 * words.h - "key=value" words: the value of one key in a space-separated
 * list of words (schedule texts, search-space group names).
 */
#ifndef MG_WORDS_H
#define MG_WORDS_H

#include <stddef.h>

/* The value of the word "key=VALUE" in words (the first such word) into
 * out (truncated to len - 1 characters).  Returns 1 when found, 0 (out
 * "") when not. */
int mg_word_value(const char *words, const char *key, char *out, size_t len);

#endif

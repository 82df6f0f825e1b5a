/*
 * jsonstr.h - the strings of a parsed JSON document checked against its
 * text: every key and every string value must be valid UTF-8 (no overlong
 * form, no surrogate, nothing past U+10FFFF) and hold no control character
 * (U+0000..U+001F, U+007F..U+009F), whether written raw or as an escape
 * ("\u001b", "\n", "\u0000").  The check reads the literals in the text, so
 * an escaped NUL, which cJSON's decoded string would end at, is seen too.
 * Every number must be finite as a double ("1e309" is out of range).
 * Called by mg_json_parse for every document and results line it reads.
 */
#ifndef MG_JSONSTR_H
#define MG_JSONSTR_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

/* Check every string and number of j, the document cJSON parsed from
 * `len` bytes of `text` (named `name` in messages; text[len] is '\0' and
 * no NUL comes before it, as mg_json_parse checks).  Returns 0 when all are
 * clean, else -1 after adding one error naming the JSON path and the first
 * bad character ("FILE: $.device.name: expected text without control
 * characters, got U+001B at character 1") or number ("FILE: $.core.clock:
 * 1e309 is out of range for a double ..."). */
int mg_json_check_values(const char *name, const char *text, size_t len,
                          const cJSON *j, mg_diag *d);

/* A place in a parsed document, for a message's JSON path, written out
 * only when a message needs it: node, member or element idx of the
 * array or object (in_object) at up (NULL: the root's). */
typedef struct mg_json_at {
    const struct mg_json_at *up;
    const cJSON *node;
    int idx;
    int in_object;
} mg_json_at;

/* The JSON path of at ("$", "$.core.clock", "$.levels[2]") into buf[len],
 * cut to fit; returns buf. */
char *mg_json_at_path(const mg_json_at *at, char *buf, size_t len);

/* The code point of the UTF-8 sequence at p (p < end); sets *n to its
 * length (1 when invalid).  Returns -1 for a byte that does not start a
 * valid, shortest sequence of a scalar value (no surrogate, nothing past
 * U+10FFFF).  For writers that must not pass invalid text on. */
long mg_utf8_decode(const unsigned char *p, const unsigned char *end, size_t *n);

#endif

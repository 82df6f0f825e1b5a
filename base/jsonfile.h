/*
 * jsonfile.h - strict JSON input: read a file, parse it, reject what cJSON
 * would silently accept (duplicate keys, NUL bytes, trailing garbage, strings
 * that are not UTF-8 or hold control characters: base/jsonstr.h), and
 * locate errors as FILE:LINE:COL (byte offset N).
 *
 * Limits: an input is at most MG_JSON_MAX_BYTES (64 MiB) and nests at most
 * CJSON_NESTING_LIMIT (1000) arrays and objects; beyond either it is
 * refused with a message.  Parsing and the duplicate-key check (hashed per
 * object) are linear in the input.
 */
#ifndef MG_JSONFILE_H
#define MG_JSONFILE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

/* Largest JSON input accepted (configs, spaces, rules, profiles). */
#define MG_JSON_MAX_BYTES (64u << 20)

/* Parse `len` bytes of `text` (NUL-terminated at text[len]) named `name`
 * (used in messages).  Returns the document, or NULL after adding one
 * error to d; d NULL: no message, nor the work of placing the error (for a
 * caller that only needs to know, such as a results line's parser). */
cJSON *mg_json_parse(const char *name, const char *text, size_t len, mg_diag *d);

/* Read and parse the file at `path` ("-" reads stdin). */
cJSON *mg_json_load(const char *path, mg_diag *d);

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL and an
 * error in d on failure (not found, too large, a directory). */
char *mg_read_file(const char *path, size_t max, size_t *len, mg_diag *d);

/* A short name for a cJSON node's type: "object", "string", ... */
const char *mg_json_type_name(const cJSON *j);

#endif

/* jsonout.c - see jsonout.h. */
#include "base/jsonout.h"
#include "base/afile.h"
#include "base/jsonstr.h"

#include <errno.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

char *mg_json_number(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "null");          /* JSON has no inf/nan */
    } else if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, len, "%.0f", v);
        if (!strcmp(buf, "-0")) snprintf(buf, len, "0");
    } else {
        snprintf(buf, len, "%.15g", v);
        if (strtod(buf, NULL) != v) snprintf(buf, len, "%.17g", v);
    }
    return buf;
}

/* s as a JSON string; a byte that is not valid UTF-8 (a path or a name
 * from the command line) is written as U+FFFD, so the output stays JSON. */
static void write_string(FILE *f, const char *s)
{
    fputc('"', f);
    const unsigned char *end = (const unsigned char *)s + strlen(s);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            size_t n;
            if (mg_utf8_decode(p, end, &n) < 0) fputs("\\ufffd", f);
            else fwrite(p, 1, n, f);
            p += n - 1;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Arrays of scalars only are kept on one line when short. */
static int is_flat(const cJSON *j)
{
    int n = 0;
    for (const cJSON *c = j->child; c; c = c->next, n++)
        if (cJSON_IsObject(c) || cJSON_IsArray(c) || cJSON_IsString(c)) return 0;
    return n <= 16;
}

static void write_value(FILE *f, const cJSON *j, int depth)
{
    char num[40];
    if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
        int obj = cJSON_IsObject(j);
        if (!j->child) {
            fputs(obj ? "{}" : "[]", f);
            return;
        }
        if (!obj && is_flat(j)) {
            fputc('[', f);
            for (const cJSON *c = j->child; c; c = c->next) {
                write_value(f, c, depth + 1);
                if (c->next) fputs(", ", f);
            }
            fputc(']', f);
            return;
        }
        fputs(obj ? "{\n" : "[\n", f);
        for (const cJSON *c = j->child; c; c = c->next) {
            fprintf(f, "%*s", 2 * (depth + 1), "");
            if (obj) {
                write_string(f, c->string ? c->string : "");
                fputs(": ", f);
            }
            write_value(f, c, depth + 1);
            fputs(c->next ? ",\n" : "\n", f);
        }
        fprintf(f, "%*s%c", 2 * depth, "", obj ? '}' : ']');
    } else if (cJSON_IsString(j)) {
        write_string(f, j->valuestring);
    } else if (cJSON_IsNumber(j)) {
        fputs(mg_json_number(j->valuedouble, num, sizeof num), f);
    } else if (cJSON_IsTrue(j)) {
        fputs("true", f);
    } else if (cJSON_IsFalse(j)) {
        fputs("false", f);
    } else {
        fputs("null", f);
    }
}

int mg_json_write(FILE *f, const cJSON *j)
{
    write_value(f, j, 0);
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

int mg_json_save(const char *path, const cJSON *j, mg_diag *d)
{
    mg_afile af;
    FILE *f = mg_afile_open(&af, path);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (mg_json_write(f, j)) {
        mg_afile_abort(&af);
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

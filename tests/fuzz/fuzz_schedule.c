/*
 * fuzz_schedule.c - libFuzzer target: the schedule parser
 * (traces/gen/schedule.c): "OP key=value ..." words (the first line of the
 * input) and the JSON form.  An accepted schedule's canonical text must
 * parse back to the same canonical text.
 */
#include "tests/fuzz/harness.h"

#include "traces/gen/schedule.h"
#include "base/diag.h"

#include <stdlib.h>
#include <string.h>

/* Parse line as words; check the canonical round trip. */
static void words(const char *line)
{
    mg_schedule s, back;
    mg_diag d;
    mg_diag_init(&d);
    if (mg_schedule_parse_line(line, NULL, &s, &d) == 0) {
        char canon[2048], again[2048];
        mg_schedule_format(&s, canon, sizeof canon);
        mg_diag e;
        mg_diag_init(&e);
        mg_fuzz_assert(mg_schedule_parse_line(canon, NULL, &back, &e) == 0,
                       "a canonical schedule does not parse back");
        mg_schedule_format(&back, again, sizeof again);
        mg_fuzz_assert(!strcmp(canon, again), "a canonical schedule changes when re-parsed");
        mg_diag_free(&e);
    }
    mg_diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = mg_fuzz_text(data, size);
    char *nl = strchr(s, '\n');
    if (nl) *nl = '\0';
    words(s);
    free(s);
    cJSON *j = mg_fuzz_json(data, size);
    if (j) {
        mg_schedule sch;
        mg_diag d;
        mg_diag_init(&d);
        (void)mg_schedule_from_json(j, "fuzz.json", &sch, &d);
        mg_diag_free(&d);
        cJSON_Delete(j);
    }
    return 0;
}

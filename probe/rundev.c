/* rundev.c - see rundev.h. */
#include "probe/rundev.h"
#include "probe/devinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *mgp_utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/* The devices listing's object of device pi:di with its platform's name
 * and version; NULL when not found. */
static cJSON *describe(unsigned pi, unsigned di)
{
    mg_diag d;
    mg_diag_init(&d);
    int none = 0;
    cJSON *all = mgp_devinfo_collect(&d, &none);
    mg_diag_free(&d);
    cJSON *plat = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(all, "platforms"), (int)pi);
    cJSON *dev = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(plat, "devices"), (int)di);
    cJSON *o = dev ? cJSON_Duplicate(dev, 1) : NULL;
    if (o) {
        cJSON_DeleteItemFromObjectCaseSensitive(o, "index");
        cJSON_DeleteItemFromObjectCaseSensitive(o, "unavailable");
        const cJSON *pn = cJSON_GetObjectItemCaseSensitive(plat, "name");
        const cJSON *pv = cJSON_GetObjectItemCaseSensitive(plat, "version");
        cJSON_AddStringToObject(o, "platform", cJSON_IsString(pn) ? pn->valuestring : "");
        cJSON_AddStringToObject(o, "platform_version", cJSON_IsString(pv) ? pv->valuestring : "");
    }
    cJSON_Delete(all);
    return o;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

int mgp_rundev_open(mgp_rundev *rd, const char *cmd, unsigned pi, unsigned di)
{
    memset(rd, 0, sizeof *rd);
    mg_diag d;
    mg_diag_init(&d);
    int none = 0;
    if (mgp_kexec_open(&rd->x, pi, di, &none, &d)) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "mgprobe: %s", cmd);
        mg_diag_print(&d, stderr, prefix);
        if (none)
            fprintf(stderr, "mgprobe: %s: hint: install an OpenCL driver (Debian: apt-get "
                    "install pocl-opencl-icd)\n", cmd);
        mg_diag_free(&d);
        return -1;
    }
    mg_diag_free(&d);
    rd->json = describe(pi, di);
    if (!rd->json) {
        fprintf(stderr, "mgprobe: %s: device %u:%u: cannot describe it\n", cmd, pi, di);
        mgp_kexec_close(&rd->x);
        return -1;
    }
    /* the run's identity: the same name as the kexec device */
    cJSON_DeleteItemFromObjectCaseSensitive(rd->json, "name");
    cJSON_AddStringToObject(rd->json, "name", rd->x.name);
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rd->json, "driver_version")))
        cJSON_ReplaceItemInObjectCaseSensitive(rd->json, "driver_version",
                                               cJSON_CreateString("unknown"));
    if (!cJSON_GetObjectItemCaseSensitive(rd->json, "driver_version"))
        cJSON_AddStringToObject(rd->json, "driver_version", "unknown");
    rd->x.lax_wg = 1;
    mgp_devp *p = &rd->p;
    p->x = &rd->x;
    p->cus = (unsigned)num(rd->json, "compute_units");
    p->clock_mhz = (unsigned)num(rd->json, "max_clock_mhz");
    p->global_mem = (uint64_t)num(rd->json, "global_mem_size");
    p->cache_size = (uint64_t)num(rd->json, "global_mem_cache_size");
    p->cacheline = (uint64_t)num(rd->json, "global_mem_cacheline_size");
    p->pref_vec_float = (unsigned)num(rd->json, "preferred_vector_width_float");
    p->pref_vec_half = (unsigned)num(rd->json, "preferred_vector_width_half");
    if (p->cus == 0) p->cus = 1;
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(rd->json, "type");
    snprintf(p->type, sizeof p->type, "%s", cJSON_IsString(ty) ? ty->valuestring : "");
    char *ext = NULL;
    if (mgp_cl_device_str(rd->x.device, CL_DEVICE_EXTENSIONS, &ext) == CL_SUCCESS)
        p->nv_verbose = mgp_cl_has_extension(ext, "cl_nv_compiler_options");
    free(ext);
    cJSON_AddBoolToObject(rd->json, "cl_nv_compiler_options", p->nv_verbose);
    return 0;
}

void mgp_rundev_close(mgp_rundev *rd)
{
    mgp_kexec_close(&rd->x);
    cJSON_Delete(rd->json);
    rd->json = NULL;
}

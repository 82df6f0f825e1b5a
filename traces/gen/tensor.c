/*
 * tensor.c - tensor geometry and host <-> device packing (kernel.h).
 */
#include "traces/gen/kernel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int64_t mg_tensor_elems(const mg_tensor *t)
{
    return t->dims[0] * t->dims[1] * t->dims[2] * t->dims[3];
}

static int64_t texels_per_row_item(const mg_tensor *t)
{
    return (t->dims[3] + t->channels - 1) / t->channels;
}

int64_t mg_tensor_img_width(const mg_tensor *t)
{
    return t->dims[2] * texels_per_row_item(t);
}

int64_t mg_tensor_img_height(const mg_tensor *t) { return t->dims[0] * t->dims[1]; }

int mg_tensor_elem_bytes(const mg_tensor *t) { return t->dtype == MG_DT_F16 ? 2 : 4; }

int64_t mg_tensor_device_bytes(const mg_tensor *t)
{
    if (t->layout == MG_TL_IMAGE)
        return mg_tensor_img_width(t) * mg_tensor_img_height(t) * t->channels *
               mg_tensor_elem_bytes(t);
    return mg_tensor_elems(t) * mg_tensor_elem_bytes(t);
}

/* IEEE binary16 from float, round to nearest even (subnormals handled). */
static uint16_t to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t man = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    if (exp >= 31) return (uint16_t)(sign | 0x7c00u);            /* overflow: inf */
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;                     /* underflow: 0 */
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = sign | ((uint32_t)exp << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;       /* may carry into exp */
    return (uint16_t)h;
}

static float from_half(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu, x;
    if (exp == 0) {
        if (man == 0) {
            x = sign;
        } else {                                                  /* subnormal */
            float f = ldexpf((float)man, -24);
            return sign ? -f : f;
        }
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (man << 13);
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

float mg_round_half(float x) { return from_half(to_half(x)); }

/* Device element index of logical element e (row-major over dims). */
static int64_t device_index(const mg_tensor *t, int64_t e)
{
    if (t->layout != MG_TL_IMAGE) return e;
    int64_t d3 = t->dims[3], d2 = t->dims[2], d1 = t->dims[1];
    int64_t i3 = e % d3, i2 = (e / d3) % d2, i1 = (e / (d3 * d2)) % d1,
            i0 = e / (d3 * d2 * d1);
    int64_t x = i2 * texels_per_row_item(t) + i3 / t->channels;
    int64_t y = i0 * d1 + i1;
    return (y * mg_tensor_img_width(t) + x) * t->channels + i3 % t->channels;
}

void mg_tensor_pack(const mg_tensor *t, const float *f, const int32_t *i, void *dev)
{
    int64_t n = mg_tensor_elems(t);
    memset(dev, 0, (size_t)mg_tensor_device_bytes(t));
    for (int64_t e = 0; e < n; e++) {
        int64_t di = device_index(t, e);
        switch (t->dtype) {
        case MG_DT_F32: ((float *)dev)[di] = f[e]; break;
        case MG_DT_F16: ((uint16_t *)dev)[di] = to_half(f[e]); break;
        case MG_DT_I32: ((int32_t *)dev)[di] = i[e]; break;
        }
    }
}

void mg_tensor_unpack(const mg_tensor *t, const void *dev, float *f, int32_t *i)
{
    int64_t n = mg_tensor_elems(t);
    for (int64_t e = 0; e < n; e++) {
        int64_t di = device_index(t, e);
        switch (t->dtype) {
        case MG_DT_F32: f[e] = ((const float *)dev)[di]; break;
        case MG_DT_F16: f[e] = from_half(((const uint16_t *)dev)[di]); break;
        case MG_DT_I32: i[e] = ((const int32_t *)dev)[di]; break;
        }
    }
}

void mg_kernel_trace_header(const mg_kernel *k, mg_trace_header *h)
{
    memset(h, 0, sizeof *h);
    h->version = MG_TRACE_VERSION;
    snprintf(h->kernel, sizeof h->kernel, "%s", k->name);
    for (int i = 0; i < 3; i++) {
        h->global[i] = (uint32_t)k->global[i];
        h->local[i] = (uint32_t)k->local[i];
    }
    h->warp_width = k->warp;
    h->regs_per_item = (uint32_t)k->f.regs_per_item;
    h->local_bytes = (uint32_t)k->f.local_bytes;
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        if (t->layout == MG_TL_IMAGE) {
            mg_trace_image *im = &h->images[h->n_images++];
            snprintf(im->name, sizeof im->name, "%s", t->name);
            im->width = (uint32_t)mg_tensor_img_width(t);
            im->height = (uint32_t)mg_tensor_img_height(t);
            im->channels = (uint8_t)t->channels;
            im->type = t->dtype == MG_DT_F16 ? MG_TEXEL_FP16 : MG_TEXEL_FP32;
            im->texel_bytes = (uint32_t)(t->channels * mg_tensor_elem_bytes(t));
        } else {
            mg_trace_buffer *b = &h->buffers[h->n_buffers++];
            snprintf(b->name, sizeof b->name, "%s", t->name);
            b->bytes = (uint64_t)mg_tensor_device_bytes(t);
            b->space = t->layout == MG_TL_CONSTANT ? MG_SPACE_CONSTANT : MG_SPACE_GLOBAL;
            b->elem = (uint8_t)mg_tensor_elem_bytes(t);
        }
    }
}

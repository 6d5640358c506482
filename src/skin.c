/*
 * Public entry points of tendon/skin.h: validate everything (NULLs, counts, strides, byte
 * extents, overlaps, every joint index), then one call through the active table. (The prepared
 * mesh, which validates once at creation, is src/skin_mesh.c.)
 */
#include <math.h> /* isfinite: a macro, no libm call */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "skin_internal.h"

#define check_attr tendon_skin_check_attr
#define attrs_overlap tendon_skin_attrs_overlap
#define find_bad_index tendon_skin_find_bad_index

/* Resolve a stride (0 → packed) and check it, the pointer's alignment and the byte extent. */
tendon_status check_attr(const char *fn, attr *a, size_t *stride_io, size_t elem, size_t align,
                         size_t count)
{
    if (*stride_io == 0)
        *stride_io = elem;
    a->stride = *stride_io;
    a->elem = elem;
    if (a->stride < elem || a->stride % align != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s stride is %zu bytes: it must be 0 (packed) or at least the "
                           "element's %zu bytes and a multiple of %zu",
                           fn, a->name, a->stride, elem, align);
    if (count == 0) {
        a->extent = 0;
        return TENDON_OK;
    }
    if (!a->p)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL with %zu vertices", fn, a->name,
                           count);
    if ((uintptr_t)a->p % align != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s is not aligned to its element type (%zu bytes)", fn, a->name,
                           align);
    if (count - 1 > (SIZE_MAX - elem) / a->stride)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %s: %zu vertices of stride %zu bytes overflow size_t", fn,
                           a->name, count, a->stride);
    a->extent = (count - 1) * a->stride + elem;
    /* as src/check.c's check_address_range: the last byte must not lie past the end */
    if ((uintptr_t)a->p > UINTPTR_MAX - (a->extent - 1))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %s: %zu bytes from %p run past the end of the address space", fn,
                           a->name, a->extent, a->p);
    return TENDON_OK;
}

/*
 * Whether two strided attributes share a byte. Attributes interleaved in one buffer (equal
 * strides, each element inside the other's gap) do not, even though their extents overlap.
 */
int attrs_overlap(const attr *a, const attr *b)
{
    if (!tendon_ranges_overlap(a->p, a->extent, b->p, b->extent))
        return 0;
    if (a->stride == b->stride) {
        const size_t s = a->stride;
        const uintptr_t pa = (uintptr_t)a->p, pb = (uintptr_t)b->p;
        /* b's offset within a's period, (pb − pa) mod s, without signed overflow */
        const size_t off = pb >= pa ? (size_t)((pb - pa) % s) : (s - (size_t)((pa - pb) % s)) % s;
        if (off >= a->elem && off + b->elem <= s)
            return 0;
    }
    return 1;
}

/* The first joint index ≥ palette_count, scanning vertices in order; 0 if none. */
int find_bad_index(const tendon_skin_job *job, size_t *vertex, size_t *influence,
                   unsigned *value)
{
    const size_t n = job->influence_count, count = job->vertex_count, pc = job->palette_count;
    const int u16 = job->joint_index_type == TENDON_JOINT_INDEX_U16;
    if ((!u16 && pc >= 256) || (u16 && pc >= 65536))
        return 0; /* every representable index is in range */
    const unsigned char *base = job->joints;
    const size_t isz = u16 ? 2 : 1;
    unsigned mx = 0;
    if (job->joints_stride == n * isz) {
        /* packed: a max over a flat array, which the compiler vectorises */
        const size_t total = count * n;
        if (u16) {
            const uint16_t *p = (const uint16_t *)(const void *)base;
            for (size_t i = 0; i < total; ++i)
                mx = p[i] > mx ? p[i] : mx;
        } else {
            for (size_t i = 0; i < total; ++i)
                mx = base[i] > mx ? base[i] : mx;
        }
        if (mx < pc)
            return 0;
    }
    for (size_t v = 0; v < count; ++v) {
        const unsigned char *p = base + v * job->joints_stride;
        for (size_t k = 0; k < n; ++k) {
            unsigned idx;
            if (u16) {
                uint16_t s;
                memcpy(&s, p + 2 * k, sizeof s);
                idx = s;
            } else {
                idx = p[k];
            }
            if (idx >= pc) {
                *vertex = v;
                *influence = k;
                *value = idx;
                return 1;
            }
        }
    }
    return 0;
}

tendon_status tendon_skin(const tendon_skin_job *in)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_skin";
    const tendon_kernels *k;
    tendon_status s;
    if (!in)
        return tendon_fail(TENDON_ERR_NULL, "%s: job is NULL", fn);
    tendon_skin_job job = *in;
    const size_t n = job.vertex_count;
    if (job.influence_count < 1 || job.influence_count > 4)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: influence_count is %zu: expected 1, 2, 3 or 4 influences per "
                           "vertex",
                           fn, job.influence_count);
    if (job.joint_index_type != TENDON_JOINT_INDEX_U8 &&
        job.joint_index_type != TENDON_JOINT_INDEX_U16)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: joint_index_type is %d: expected TENDON_JOINT_INDEX_U8 (1) or "
                           "TENDON_JOINT_INDEX_U16 (2)",
                           fn, (int)job.joint_index_type);
    if (!job.normals != !job.out_normals)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: %s is NULL but %s is not: give both to skin normals, or neither",
                           fn, job.normals ? "out_normals" : "normals",
                           job.normals ? "normals" : "out_normals");
    if (!job.tangents != !job.out_tangents)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: %s is NULL but %s is not: give both to skin tangents, or neither",
                           fn, job.tangents ? "out_tangents" : "tangents",
                           job.tangents ? "tangents" : "out_tangents");
    if (job.tangents && !job.normals)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: tangents are given but normals is NULL: tangents are skinned "
                           "with normals (they share the blended matrix's determinant)",
                           fn);
    if (job.palette_count > SIZE_MAX / (16 * sizeof(float)))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: palette_count %zu: its byte size overflows size_t", fn,
                           job.palette_count);
    if (n > 0 && !job.palette)
        return tendon_fail(TENDON_ERR_NULL, "%s: palette is NULL with %zu vertices", fn, n);

    const size_t isz = (size_t)job.joint_index_type, ni = job.influence_count;
    enum { A_JOINTS, A_WEIGHTS, A_POS, A_NRM, A_TAN, A_OUT_POS, A_OUT_NRM, A_OUT_TAN, A_PALETTE,
           A_COUNT };
    attr a[A_COUNT] = {{.name = "joints", .p = job.joints},
                       {.name = "weights", .p = job.weights},
                       {.name = "positions", .p = job.positions},
                       {.name = "normals", .p = job.normals},
                       {.name = "tangents", .p = job.tangents},
                       {.name = "out_positions", .p = job.out_positions},
                       {.name = "out_normals", .p = job.out_normals},
                       {.name = "out_tangents", .p = job.out_tangents},
                       {.name = "palette", .p = job.palette}};
    const int with_normals = job.normals != NULL, with_tangents = job.tangents != NULL;
    const size_t f = sizeof(float);
    if ((s = check_attr(fn, &a[A_JOINTS], &job.joints_stride, ni * isz, isz, n)) != TENDON_OK ||
        (s = check_attr(fn, &a[A_WEIGHTS], &job.weights_stride, ni * f, f, n)) != TENDON_OK ||
        (s = check_attr(fn, &a[A_POS], &job.positions_stride, 3 * f, f, n)) != TENDON_OK ||
        (s = check_attr(fn, &a[A_OUT_POS], &job.out_positions_stride, 3 * f, f, n)) != TENDON_OK)
        return s;
    if (with_normals &&
        ((s = check_attr(fn, &a[A_NRM], &job.normals_stride, 3 * f, f, n)) != TENDON_OK ||
         (s = check_attr(fn, &a[A_OUT_NRM], &job.out_normals_stride, 3 * f, f, n)) != TENDON_OK))
        return s;
    if (with_tangents &&
        ((s = check_attr(fn, &a[A_TAN], &job.tangents_stride, 4 * f, f, n)) != TENDON_OK ||
         (s = check_attr(fn, &a[A_OUT_TAN], &job.out_tangents_stride, 4 * f, f, n)) !=
             TENDON_OK))
        return s;
    if (n == 0) {
        if ((s = tendon_active_kernels(&k)) != TENDON_OK)
            return s;
        return TENDON_OK;
    }
    /* aligned to float, and its byte extent inside the address space (src/check.c) */
    if ((s = tendon_check_array(fn, "palette", job.palette, job.palette_count, 16)) != TENDON_OK)
        return s;
    a[A_PALETTE].stride = a[A_PALETTE].elem = a[A_PALETTE].extent =
        job.palette_count * 16 * sizeof(float);

    /* Outputs against inputs and each other: exact aliasing in place, else disjoint bytes. */
    const int outs[3] = {A_OUT_POS, A_OUT_NRM, A_OUT_TAN};
    const int used[A_COUNT] = {1, 1, 1, with_normals, with_tangents, 1, with_normals,
                               with_tangents, 1};
    for (int o = 0; o < 3; ++o) {
        if (!used[outs[o]])
            continue;
        const attr *out = &a[outs[o]];
        for (int i = 0; i < A_COUNT; ++i) {
            if (i == outs[o] || !used[i])
                continue;
            const attr *other = &a[i];
            if (i == outs[o] - (A_OUT_POS - A_POS)) { /* the output's own input */
                if (out->p == other->p && out->stride == other->stride)
                    continue; /* in place */
            }
            if (attrs_overlap(out, other))
                return tendon_fail(TENDON_ERR_ALIAS,
                                   "%s: %s overlaps %s; an output may be exactly its own input "
                                   "(same pointer, same stride) but must not otherwise share a "
                                   "byte with an input or another output",
                                   fn, out->name, other->name);
        }
    }

    size_t bad_v, bad_k;
    unsigned bad_idx;
    if (find_bad_index(&job, &bad_v, &bad_k, &bad_idx)) {
        if (job.palette_count == 0)
            return tendon_fail(TENDON_ERR_RANGE,
                               "%s: vertex %zu, influence %zu has joint index %u, but the "
                               "palette has no entries (palette_count is 0)",
                               fn, bad_v, bad_k, bad_idx);
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: vertex %zu, influence %zu has joint index %u, but the palette "
                           "has %zu entries (indices 0..%zu)",
                           fn, bad_v, bad_k, bad_idx, job.palette_count, job.palette_count - 1);
    }
    if ((s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    k->skin(&job);
    return TENDON_OK;
}

tendon_status tendon_skin_weights_normalize(float *weights, size_t stride, size_t influence_count,
                                            size_t vertex_count)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_skin_weights_normalize";
    tendon_status s;
    if (influence_count < 1 || influence_count > 4)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: influence_count is %zu: expected 1, 2, 3 or 4", fn,
                           influence_count);
    attr a = {.name = "weights", .p = weights};
    if ((s = check_attr(fn, &a, &stride, influence_count * sizeof(float), sizeof(float),
                        vertex_count)) != TENDON_OK)
        return s;
    /* Check every vertex before writing any. */
    for (size_t v = 0; v < vertex_count; ++v) {
        const float *w = (const float *)(const void *)((const unsigned char *)weights + v * stride);
        float sum = w[0];
        for (size_t k = 0; k < influence_count; ++k) {
            if (!(w[k] >= 0.0f) || !isfinite(w[k]))
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: vertex %zu, influence %zu has weight %g: weights must be "
                                   "finite and not negative",
                                   fn, v, k, (double)w[k]);
            if (k > 0)
                sum = sum + w[k];
        }
        if (!isfinite(sum))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: vertex %zu: the weights' sum overflows float", fn, v);
    }
    for (size_t v = 0; v < vertex_count; ++v) {
        float *w = (float *)(void *)((unsigned char *)weights + v * stride);
        float sum = w[0];
        for (size_t k = 1; k < influence_count; ++k)
            sum = sum + w[k];
        if (sum > 0.0f) {
            for (size_t k = 0; k < influence_count; ++k)
                w[k] = w[k] / sum;
        } else {
            /* all zero: the whole vertex to its first influence */
            w[0] = 1.0f;
            for (size_t k = 1; k < influence_count; ++k)
                w[k] = 0.0f;
        }
    }
    return TENDON_OK;
}

tendon_status tendon_morph(const float *base, const float *const *deltas, const float *weights,
                           size_t target_count, size_t float_count, float *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_morph";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = tendon_check_array(fn, "base", base, float_count, 1)) != TENDON_OK ||
        (s = tendon_check_array(fn, "out", out, float_count, 1)) != TENDON_OK ||
        (s = tendon_check_array(fn, "weights", weights, target_count, 1)) != TENDON_OK)
        return s;
    if (target_count > SIZE_MAX / sizeof *deltas)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: target_count %zu: its byte size overflows size_t", fn,
                           target_count);
    if (target_count > 0 && !deltas)
        return tendon_fail(TENDON_ERR_NULL, "%s: deltas is NULL with %zu targets", fn,
                           target_count);
    if (target_count > 0 && (uintptr_t)deltas % _Alignof(const float *) != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: deltas at %p is not aligned to its element type (a pointer: a "
                           "multiple of %zu bytes, as C requires)",
                           fn, (const void *)deltas, _Alignof(const float *));
    if (target_count > 0 &&
        (uintptr_t)deltas > UINTPTR_MAX - (target_count * sizeof *deltas - 1))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: deltas at %p with %zu pointers would run past the end of the "
                           "address space; the count is wrong",
                           fn, (const void *)deltas, target_count);
    const size_t bytes = float_count * sizeof(float);
    if (out != base && tendon_ranges_overlap(out, bytes, base, bytes))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: out partly overlaps base; it may be exactly base (in place)", fn);
    if (tendon_ranges_overlap(out, bytes, weights, target_count * sizeof(float)) ||
        tendon_ranges_overlap(out, bytes, deltas, target_count * sizeof *deltas))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps the weights or the deltas array",
                           fn);
    for (size_t t = 0; t < target_count && float_count > 0; ++t) {
        if (weights[t] == 0.0f)
            continue; /* skipped: never read */
        if (!deltas[t])
            return tendon_fail(TENDON_ERR_NULL,
                               "%s: deltas[%zu] is NULL but its weight is %g (only a target of "
                               "weight zero may be NULL)",
                               fn, t, (double)weights[t]);
        char name[40];
        snprintf(name, sizeof name, "deltas[%zu]", t);
        if ((s = tendon_check_array(fn, name, deltas[t], float_count, 1)) != TENDON_OK)
            return s;
        if (tendon_ranges_overlap(out, bytes, deltas[t], bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps deltas[%zu]", fn, t);
    }
    if ((s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (float_count)
        k->morph(base, deltas, weights, target_count, float_count, out);
    return TENDON_OK;
}

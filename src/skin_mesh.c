/*
 * The prepared skinning mesh (tendon/skin.h): created once — every stride, index and weight
 * checked, the vertex inputs copied into the ISA-independent block layout of
 * src/common/skin_mesh.h — then applied per frame with O(1) checks and one indirect call.
 */
#include <math.h> /* isfinite: a macro, no libm call */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/aligned.h"
#include "common/dq_ref.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/skin_mesh.h"
#include "skin_internal.h"

typedef struct tendon_skin_mesh mesh_t;

/* 64-byte multiple at least x (x ≤ SIZE_MAX − 63). */
static size_t round64(size_t x) { return (x + 63) & ~(size_t)63; }
tendon_status tendon_skin_mesh_create(const tendon_skin_job *in, tendon_skin_mesh **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_skin_mesh_create";
    tendon_status s;
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!in)
        return tendon_fail(TENDON_ERR_NULL, "%s: job is NULL", fn);
    tendon_skin_job job = *in;
    const size_t n = job.vertex_count, ni = job.influence_count;
    if (ni < 1 || ni > 4)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: influence_count is %zu: expected 1, 2, 3 or 4 influences per "
                           "vertex (more, glTF JOINTS_1, are not supported)",
                           fn, ni);
    if (job.joint_index_type != TENDON_JOINT_INDEX_U8 &&
        job.joint_index_type != TENDON_JOINT_INDEX_U16)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: joint_index_type is %d: expected TENDON_JOINT_INDEX_U8 (1) or "
                           "TENDON_JOINT_INDEX_U16 (2)",
                           fn, (int)job.joint_index_type);
    if (job.tangents && !job.normals)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: tangents are given but normals is NULL: tangents are skinned "
                           "with normals (they share the blended matrix's determinant)",
                           fn);
    if (job.palette_count > SIZE_MAX / (16 * sizeof(float)))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: palette_count %zu: its byte size overflows size_t", fn,
                           job.palette_count);

    /* the inputs (their strides resolved), then the output strides alone (no pointers yet) */
    const size_t isz = (size_t)job.joint_index_type, f = sizeof(float);
    attr a[5] = {{.name = "joints", .p = job.joints},
                 {.name = "weights", .p = job.weights},
                 {.name = "positions", .p = job.positions},
                 {.name = "normals", .p = job.normals},
                 {.name = "tangents", .p = job.tangents}};
    if ((s = tendon_skin_check_attr(fn, &a[0], &job.joints_stride, ni * isz, isz, n)) ||
        (s = tendon_skin_check_attr(fn, &a[1], &job.weights_stride, ni * f, f, n)) ||
        (s = tendon_skin_check_attr(fn, &a[2], &job.positions_stride, 3 * f, f, n)))
        return s;
    if (job.normals &&
        (s = tendon_skin_check_attr(fn, &a[3], &job.normals_stride, 3 * f, f, n)))
        return s;
    if (job.tangents &&
        (s = tendon_skin_check_attr(fn, &a[4], &job.tangents_stride, 4 * f, f, n)))
        return s;
    /* the output strides of the outputs the mesh has (an absent output's stride is never used,
       as tendon_skin ignores it) */
    attr o[3] = {{.name = "out_positions"}, {.name = "out_normals"}, {.name = "out_tangents"}};
    if ((s = tendon_skin_check_attr(fn, &o[0], &job.out_positions_stride, 3 * f, f, 0)) ||
        (job.normals &&
         (s = tendon_skin_check_attr(fn, &o[1], &job.out_normals_stride, 3 * f, f, 0))) ||
        (job.tangents &&
         (s = tendon_skin_check_attr(fn, &o[2], &job.out_tangents_stride, 4 * f, f, 0))))
        return s;

    size_t bad_v, bad_k;
    unsigned bad_idx;
    if (n > 0 && tendon_skin_find_bad_index(&job, &bad_v, &bad_k, &bad_idx)) {
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
    for (size_t v = 0; v < n; ++v) {
        const unsigned char *wp = (const unsigned char *)job.weights + v * job.weights_stride;
        for (size_t k = 0; k < ni; ++k) {
            float w;
            memcpy(&w, wp + 4 * k, sizeof w);
            if (!isfinite(w))
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: vertex %zu, influence %zu has weight %g: a prepared "
                                   "mesh's weights must be finite (other weights are used as "
                                   "given)",
                                   fn, v, k, (double)w);
        }
    }

    /* the block layout (src/common/skin_mesh.h) */
    const size_t L = TENDON_MESH_LANES;
    const size_t off_w = tendon_mesh_off_w(ni), off_p = tendon_mesh_off_p(ni);
    const size_t off_n = tendon_mesh_off_n(ni), off_t = tendon_mesh_off_t(ni, job.normals != NULL);
    const size_t block_bytes = round64(off_t + (job.tangents ? 16 * L : 0));
    const size_t blocks = n / L + (n % L != 0);
    if (blocks > (SIZE_MAX - sizeof(mesh_t) - 64) / block_bytes)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %zu vertices: the mesh's %zu blocks of %zu bytes overflow size_t",
                           fn, n, blocks, block_bytes);
    mesh_t *m = calloc(1, sizeof *m);
    unsigned char *mem = blocks ? tendon_aligned_alloc(64, blocks * block_bytes) : NULL;
    if (!m || (blocks && !mem)) {
        free(m);
        tendon_aligned_free(mem);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory for %zu vertices (%zu bytes)", fn,
                           n, blocks * block_bytes);
    }
    m->vertex_count = n;
    m->influence_count = ni;
    m->palette_count = job.palette_count;
    /* pre-scaled when every index present fits (not palette_count: a u8 mesh of a large skin
       uses at most 256 of its joints) */
    unsigned max_idx = 0;
    for (size_t v = 0; v < n; ++v)
        for (size_t k = 0; k < ni; ++k) {
            const unsigned j = tendon_ref_joint_index(
                tendon_ref_at(job.joints, job.joints_stride, v), job.joint_index_type, k);
            max_idx = j > max_idx ? j : max_idx;
        }
    m->joint_shift = max_idx < TENDON_MESH_SCALED_MAX ? TENDON_MESH_JOINT_SHIFT : 0u;
    m->block_count = blocks;
    m->block_bytes = block_bytes;
    m->off_w = off_w, m->off_p = off_p, m->off_n = off_n, m->off_t = off_t;
    m->outputs = TENDON_SKIN_OUTPUT_POSITIONS | (job.normals ? TENDON_SKIN_OUTPUT_NORMALS : 0u) |
                 (job.tangents ? TENDON_SKIN_OUTPUT_TANGENTS : 0u);
    m->out_stride[0] = job.out_positions_stride;
    /* an output the mesh does not have: packed (never used; apply refuses that output) */
    m->out_stride[1] = job.normals ? job.out_normals_stride : 3 * sizeof(float);
    m->out_stride[2] = job.tangents ? job.out_tangents_stride : 4 * sizeof(float);
    m->bytes = sizeof *m + blocks * block_bytes;
    m->blocks = mem;
    if (blocks)
        memset(mem + (blocks - 1) * block_bytes, 0, block_bytes); /* the last block's padding */
    for (size_t v = 0; v < n; ++v) {
        unsigned char *b = mem + (v / L) * block_bytes;
        const size_t l = v % L;
        const void *jp = tendon_ref_at(job.joints, job.joints_stride, v);
        const unsigned char *wp = (const unsigned char *)job.weights + v * job.weights_stride;
        for (size_t k = 0; k < ni; ++k) {
            /* fits: a shift only when every index is below SCALED_MAX */
            const uint16_t j = (uint16_t)(tendon_ref_joint_index(jp, job.joint_index_type, k)
                                          << m->joint_shift);
            memcpy(b + 2 * (ni * l + k), &j, sizeof j);
            memcpy(b + off_w + 4 * (ni * l + k), wp + 4 * k, 4);
        }
        const unsigned char *pp = (const unsigned char *)job.positions + v * job.positions_stride;
        for (size_t c = 0; c < 3; ++c)
            memcpy(b + off_p + 4 * (L * c + l), pp + 4 * c, 4);
        if (job.normals) {
            const unsigned char *np = (const unsigned char *)job.normals + v * job.normals_stride;
            for (size_t c = 0; c < 3; ++c)
                memcpy(b + off_n + 4 * (L * c + l), np + 4 * c, 4);
        }
        if (job.tangents) {
            const unsigned char *tp =
                (const unsigned char *)job.tangents + v * job.tangents_stride;
            for (size_t c = 0; c < 4; ++c)
                memcpy(b + off_t + 4 * (L * c + l), tp + 4 * c, 4);
        }
    }
    *out = m;
    return TENDON_OK;
}

void tendon_skin_mesh_destroy(tendon_skin_mesh *mesh)
{
    if (mesh) {
        tendon_aligned_free(mesh->blocks);
        free(mesh);
    }
}

size_t tendon_skin_mesh_vertex_count(const tendon_skin_mesh *m) { return m ? m->vertex_count : 0; }
size_t tendon_skin_mesh_influence_count(const tendon_skin_mesh *m)
{
    return m ? m->influence_count : 0;
}
size_t tendon_skin_mesh_palette_count(const tendon_skin_mesh *m) { return m ? m->palette_count : 0; }
unsigned tendon_skin_mesh_outputs(const tendon_skin_mesh *m) { return m ? m->outputs : 0u; }
size_t tendon_skin_mesh_memory_bytes(const tendon_skin_mesh *m) { return m ? m->bytes : 0; }

tendon_status tendon_skin_mesh_set_positions(tendon_skin_mesh *m, const float *positions,
                                             size_t stride, size_t first, size_t count)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_skin_mesh_set_positions";
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: mesh is NULL", fn);
    if (first > m->vertex_count || count > m->vertex_count - first)
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: vertices [%zu, %zu + %zu) are not all within the mesh's %zu "
                           "vertices",
                           fn, first, first, count, m->vertex_count);
    attr a = {.name = "positions", .p = positions};
    tendon_status s = tendon_skin_check_attr(fn, &a, &stride, 3 * sizeof(float), sizeof(float),
                                             count);
    if (s != TENDON_OK)
        return s;
    const size_t L = TENDON_MESH_LANES;
    for (size_t i = 0; i < count; ++i) {
        const size_t v = first + i;
        unsigned char *b = m->blocks + (v / L) * m->block_bytes + m->off_p;
        const unsigned char *pp = (const unsigned char *)positions + i * stride;
        for (size_t c = 0; c < 3; ++c)
            memcpy(b + 4 * (L * c + v % L), pp + 4 * c, 4);
    }
    return TENDON_OK;
}

/*
 * The O(1) checks of an apply call (fn names it in messages): the range, the palette pointer,
 * which outputs are asked for, their pointers and extents over the written range, overlaps.
 */
static tendon_status check_apply(const char *fn, const mesh_t *m, const void *palette,
                                           const char *palette_name, size_t palette_elem_floats,
                                           size_t first, size_t count, float *const outs[3])
{
    static const char *const names[3] = {"out_positions", "out_normals", "out_tangents"};
    static const char *const inputs[3] = {"positions", "normals", "tangents"};
    static const size_t elems[3] = {12, 12, 16};
    tendon_status s;
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: mesh is NULL", fn);
    if (first > m->vertex_count || count > m->vertex_count - first)
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: vertices [%zu, %zu + %zu) are not all within the mesh's %zu "
                           "vertices",
                           fn, first, first, count, m->vertex_count);
    for (int i = 1; i < 3; ++i)
        if (outs[i] && !(m->outputs & (1u << i)))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: %s is given, but the mesh was created without %s (the job's "
                               "%s was NULL): pass NULL",
                               fn, names[i], inputs[i], inputs[i]);
    if (count == 0)
        return TENDON_OK;
    if (!palette)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL with %zu vertices to skin", fn,
                           palette_name, count);
    if ((s = tendon_check_array(fn, palette_name, palette, m->palette_count,
                                palette_elem_floats)) != TENDON_OK)
        return s;
    attr a[4];
    int used[4] = {0, 0, 0, 1};
    for (int i = 0; i < 3; ++i) {
        if (!outs[i])
            continue;
        size_t stride = m->out_stride[i];
        /* the byte offset of vertex `first` itself must fit (decided before the pointer to it
           is formed: past the address space that is undefined behaviour) */
        if (first > 0 && (first > SIZE_MAX / stride ||
                          (uintptr_t)outs[i] > UINTPTR_MAX - first * stride))
            return tendon_fail(TENDON_ERR_OVERFLOW,
                               "%s: %s: vertex %zu at stride %zu lies past the end of the "
                               "address space",
                               fn, names[i], first, stride);
        a[i] = (attr){.name = names[i], .p = (const unsigned char *)outs[i] + first * stride};
        if ((s = tendon_skin_check_attr(fn, &a[i], &stride, elems[i], sizeof(float), count)) !=
            TENDON_OK)
            return s;
        used[i] = 1;
    }
    a[3] = (attr){.name = palette_name, .p = palette};
    a[3].stride = a[3].elem = a[3].extent = m->palette_count * palette_elem_floats * sizeof(float);
    for (int i = 0; i < 3; ++i) {
        if (!used[i])
            continue;
        for (int j = i + 1; j < 4; ++j)
            if (used[j] && tendon_skin_attrs_overlap(&a[i], &a[j]))
                return tendon_fail(TENDON_ERR_ALIAS,
                                   "%s: %s overlaps %s; outputs must not share a byte with each "
                                   "other or with the %s",
                                   fn, a[i].name, a[j].name, palette_name);
    }
    return TENDON_OK;
}

/*
 * Every public apply form in one (each calls it under its own guard): fn is the caller's name,
 * for its messages; dq: m is dual quaternions (tendon_palette_to_dual_quat) and the mesh is
 * skinned by them, else m is the palette.
 */
static tendon_status apply_range(const char *fn, int dq, const tendon_kernels *kernels,
                                 const tendon_skin_mesh *mesh, const float *m,
                                 size_t first_vertex, size_t vertex_count, float *out_positions,
                                 float *out_normals, float *out_tangents)
{
    const tendon_kernels *k = kernels;
    float *const outs[3] = {out_positions, out_normals, out_tangents};
    tendon_status s = check_apply(fn, mesh, m, dq ? "dq" : "palette", 16, first_vertex,
                                  vertex_count, outs);
    if (s != TENDON_OK)
        return s;
    if (!k && (s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (vertex_count && (out_positions || out_normals || out_tangents))
        (dq ? k->skin_mesh_dq : k->skin_mesh)(mesh, m, first_vertex, vertex_count, out_positions,
                                              out_normals, out_tangents);
    return TENDON_OK;
}

tendon_status tendon_skin_mesh_apply_range_on(const tendon_kernels *kernels,
                                              const tendon_skin_mesh *mesh, const float *palette,
                                              size_t first_vertex, size_t vertex_count,
                                              float *out_positions, float *out_normals,
                                              float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply_range_on", 0, kernels, mesh, palette,
                       first_vertex, vertex_count, out_positions, out_normals, out_tangents);
}

tendon_status tendon_skin_mesh_apply_range(const tendon_skin_mesh *mesh, const float *palette,
                                           size_t first_vertex, size_t vertex_count,
                                           float *out_positions, float *out_normals,
                                           float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply_range", 0, NULL, mesh, palette, first_vertex,
                       vertex_count, out_positions, out_normals, out_tangents);
}

tendon_status tendon_skin_mesh_apply(const tendon_skin_mesh *mesh, const float *palette,
                                     float *out_positions, float *out_normals,
                                     float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply", 0, NULL, mesh, palette, 0,
                       mesh ? mesh->vertex_count : 0, out_positions, out_normals, out_tangents);
}

/* ---- dual quaternions ------------------------------------------------------------------------ */

tendon_status tendon_palette_to_dual_quat(const float *palette, size_t count, float *out_dq)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_palette_to_dual_quat";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = tendon_check_array(fn, "palette", palette, count, 16)) != TENDON_OK ||
        (s = tendon_check_array(fn, "out_dq", out_dq, count, 16)) != TENDON_OK)
        return s;
    const size_t bytes = count * 16 * sizeof(float);
    if ((const float *)out_dq != palette && tendon_ranges_overlap(out_dq, bytes, palette, bytes))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: out_dq partly overlaps palette; it may be exactly palette (in "
                           "place) but not overlap it otherwise",
                           fn);
    if ((s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (count == 0)
        return TENDON_OK;
    const size_t bad = k->palette_to_dual_quat(palette, count, out_dq);
    if (bad == count)
        return TENDON_OK;
    /* say why, from the scalar reference's metrics of that matrix (the kernel's bits) */
    const float *m = palette + 16 * bad;
    tendon_dq_metrics o;
    tendon_ref_dq_metrics(m, &o);
    switch (tendon_ref_dq_check(m, &o)) {
    case TENDON_DQ_NONFINITE:
        for (int e = 0; e < 15; ++e)
            if ((e & 3) != 3 && !isfinite(m[e]))
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: palette entry %zu has a non-finite element (m[%d] = %g): "
                                   "no dual quaternion",
                                   fn, bad, e, (double)m[e]);
        break;
    case TENDON_DQ_MIRROR:
        if (o.det != o.det) { /* ∞ − ∞ in the cofactors: the elements, not the handedness */
            double big = 0.0;
            for (int e = 0; e < 11; ++e)
                if ((e & 3) != 3 && (m[e] < 0.0f ? -(double)m[e] : (double)m[e]) > big)
                    big = m[e] < 0.0f ? -(double)m[e] : (double)m[e];
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: palette entry %zu is too large: its determinant overflows "
                               "float32 (NaN: products of three of its elements, up to %g, pass "
                               "FLT_MAX; elements must stay below ~7e12 for it): no dual "
                               "quaternion",
                               fn, bad, big);
        }
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: palette entry %zu has determinant %g: a mirror or a degenerate "
                           "matrix has no dual quaternion (skin it with tendon_skin_mesh_apply)",
                           fn, bad, (double)o.det);
    case TENDON_DQ_SCALE:
        if (!isfinite(o.l0) || !isfinite(o.l1) || !isfinite(o.l2) || !isfinite(o.s))
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: palette entry %zu's scale is too large: a column's squared "
                               "length overflows float32 (column lengths %.7g, %.7g, %.7g; "
                               "elements must stay below ~1.8e19): no dual quaternion",
                               fn, bad, (double)o.l0, (double)o.l1, (double)o.l2);
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: palette entry %zu has a non-uniform scale (column lengths %.7g, "
                           "%.7g, %.7g differ from their mean by more than 2^-10 of it): dual "
                           "quaternions carry a uniform scale only (skin such joints with "
                           "tendon_skin_mesh_apply)",
                           fn, bad, (double)o.l0, (double)o.l1, (double)o.l2);
    case TENDON_DQ_SHEAR: {
        const double c01 = (double)o.d01 / ((double)o.l0 * o.l1);
        const double c02 = (double)o.d02 / ((double)o.l0 * o.l2);
        const double c12 = (double)o.d12 / ((double)o.l1 * o.l2);
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: palette entry %zu is sheared (the cosines between its columns "
                           "are %.3g, %.3g, %.3g; at most 2^-10 is taken as orthogonal): dual "
                           "quaternions carry no shear (skin such joints with "
                           "tendon_skin_mesh_apply)",
                           fn, bad, c01, c02, c12);
    }
    default: break;
    }
    return tendon_fail(TENDON_ERR_VALUE, "%s: palette entry %zu is not a rigid transform", fn,
                       bad);
}

tendon_status tendon_skin_mesh_apply_dq_range_on(const tendon_kernels *kernels,
                                                 const tendon_skin_mesh *mesh, const float *dq,
                                                 size_t first_vertex, size_t vertex_count,
                                                 float *out_positions, float *out_normals,
                                                 float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply_dq_range_on", 1, kernels, mesh, dq,
                       first_vertex, vertex_count, out_positions, out_normals, out_tangents);
}

tendon_status tendon_skin_mesh_apply_dq_range(const tendon_skin_mesh *mesh, const float *dq,
                                              size_t first_vertex, size_t vertex_count,
                                              float *out_positions, float *out_normals,
                                              float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply_dq_range", 1, NULL, mesh, dq, first_vertex,
                       vertex_count, out_positions, out_normals, out_tangents);
}

tendon_status tendon_skin_mesh_apply_dq(const tendon_skin_mesh *mesh, const float *dq,
                                        float *out_positions, float *out_normals,
                                        float *out_tangents)
{
    TENDON_FPENV_GUARD();
    return apply_range("tendon_skin_mesh_apply_dq", 1, NULL, mesh, dq, 0,
                       mesh ? mesh->vertex_count : 0, out_positions, out_normals, out_tangents);
}

/*
 * Scalar reference: local matrices, model matrices, palette, linear-blend skinning, morph
 * targets (float32; src/common/skin_ref.h holds the per-element arithmetic).
 */
#include "../common/dq_ref.h"
#include "../common/kernels_internal.h"
#include "../common/skin_mesh.h"
#include "../common/skin_ref.h"

void tendon_local_matrices_scalar_from(const float *translation, const float *rotation,
                                       const float *scale, size_t first, size_t end, float *out)
{
    for (size_t j = first; j < end; ++j)
        tendon_ref_local_matrix(translation + 3 * j, rotation + 4 * j, scale + 3 * j,
                                out + 16 * j);
}

void tendon_local_matrices_scalar(const float *translation, const float *rotation,
                                  const float *scale, size_t count, float *out)
{
    tendon_local_matrices_scalar_from(translation, rotation, scale, 0, count, out);
}

/*
 * local_model_lanes over lanes [i0, i0 + nb), nb ≤ 16: each lane's local matrix, then the
 * products lane by lane (tendon_ref_mat4_mul's element order and grouping). Called with nb a
 * constant 16 for whole blocks, so a compiler may vectorise the lane loops as it does the 4×4
 * product's; the last partial block takes a variable nb.
 */
static inline void local_model_block(const float *translation, const float *rotation,
                                     const float *scale, size_t i0, size_t nb,
                                     const float *parent, size_t parent_stride, float *local,
                                     float *model, size_t stride)
{
    float l[16][16], a[16][16]; /* [element][lane] */
    for (size_t i = 0; i < nb; ++i) {
        float m[16];
        tendon_ref_local_matrix(translation + 3 * (i0 + i), rotation + 4 * (i0 + i),
                                scale + 3 * (i0 + i), m);
        for (int e = 0; e < 16; ++e)
            l[e][i] = m[e];
    }
    for (int e = 0; e < 16; ++e) { /* rows 0-2 of the parent: all rows 0-2 of a product read */
        if ((e & 3) == 3)
            continue;
        if (parent)
            for (size_t i = 0; i < nb; ++i)
                a[e][i] = parent_stride ? parent[(size_t)e * parent_stride + i0 + i] : parent[e];
        if (local)
            for (size_t i = 0; i < nb; ++i)
                local[(size_t)e * stride + i0 + i] = l[e][i];
    }
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) {
            float *out = model + (size_t)(4 * c + r) * stride + i0;
            if (!parent) {
                for (size_t i = 0; i < nb; ++i)
                    out[i] = l[4 * c + r][i];
                continue;
            }
            for (size_t i = 0; i < nb; ++i)
                out[i] = (a[r][i] * l[4 * c][i] + a[4 + r][i] * l[4 * c + 1][i]) +
                         (a[8 + r][i] * l[4 * c + 2][i] + a[12 + r][i] * l[4 * c + 3][i]);
        }
}

void tendon_local_model_lanes_scalar_from(const float *translation, const float *rotation,
                                          const float *scale, size_t first, size_t end,
                                          const float *parent, size_t parent_stride, float *local,
                                          float *model, size_t stride)
{
    size_t i0 = first;
    for (; i0 + 16 <= end; i0 += 16)
        local_model_block(translation, rotation, scale, i0, 16, parent, parent_stride, local,
                          model, stride);
    if (i0 < end)
        local_model_block(translation, rotation, scale, i0, end - i0, parent, parent_stride,
                          local, model, stride);
}

/* transform_points_lanes over lanes [i0, i0 + nb), nb ≤ 16 (a constant 16 for whole blocks, as
   above): every point of the block read before any result is written (out may be p when both
   are planes with the same stride), each lane's arithmetic in the written order. */
static inline void transform_block(const float *m, size_t m_stride, const float *p,
                                   size_t p_stride, size_t i0, size_t nb, float *out,
                                   size_t out_stride)
{
    float q[3][16], r[3][16];
    for (int k = 0; k < 3; ++k)
        for (size_t i = 0; i < nb; ++i)
            q[k][i] = p_stride ? p[(size_t)k * p_stride + i0 + i] : p[k];
    for (int k = 0; k < 3; ++k)
        for (size_t i = 0; i < nb; ++i) {
#define TENDON_M(e) (m_stride ? m[(size_t)(e) * m_stride + i0 + i] : m[e])
            r[k][i] = ((TENDON_M(k) * q[0][i] + TENDON_M(4 + k) * q[1][i]) +
                       TENDON_M(8 + k) * q[2][i]) +
                      TENDON_M(12 + k);
#undef TENDON_M
        }
    for (int k = 0; k < 3; ++k)
        for (size_t i = 0; i < nb; ++i)
            out[(size_t)k * out_stride + i0 + i] = r[k][i];
}

void tendon_transform_points_lanes_scalar_from(const float *m, size_t m_stride, const float *p,
                                              size_t p_stride, size_t first, size_t end,
                                              float *out, size_t out_stride)
{
    size_t i0 = first;
    for (; i0 + 16 <= end; i0 += 16)
        transform_block(m, m_stride, p, p_stride, i0, 16, out, out_stride);
    if (i0 < end)
        transform_block(m, m_stride, p, p_stride, i0, end - i0, out, out_stride);
}

void tendon_transform_points_lanes_scalar(const float *m, size_t m_stride, const float *p,
                                          size_t p_stride, size_t count, float *out,
                                          size_t out_stride)
{
    tendon_transform_points_lanes_scalar_from(m, m_stride, p, p_stride, 0, count, out, out_stride);
}

void tendon_local_model_lanes_scalar(const float *translation, const float *rotation,
                                     const float *scale, size_t count, const float *parent,
                                     size_t parent_stride, float *local, float *model,
                                     size_t stride)
{
    tendon_local_model_lanes_scalar_from(translation, rotation, scale, 0, count, parent,
                                         parent_stride, local, model, stride);
}

void tendon_model_matrices_scalar(const float *local, const int32_t *parents, const float *root,
                                  size_t first, size_t end, float *model)
{
    for (size_t j = first; j < end; ++j)
        tendon_ref_model_joint(local, parents, root, j, model);
}

void tendon_model_matrices_ordered_scalar(const float *local, const int32_t *parents,
                                          const float *root, const uint32_t *order, size_t count,
                                          float *model)
{
    for (size_t i = 0; i < count; ++i)
        tendon_ref_model_joint(local, parents, root, order[i], model);
}

void tendon_palette_scalar(const float *model, const uint32_t *joint_of,
                           const float *inverse_bind, size_t count, float *out)
{
    for (size_t k = 0; k < count; ++k)
        tendon_ref_mat4_mul(model + 16 * (size_t)joint_of[k], inverse_bind + 16 * k,
                            out + 16 * k);
}

void tendon_palette_splat_scalar(const float *model, const uint32_t *joint_of,
                                 const float *inverse_bind_splat, size_t count, float *out)
{
    for (size_t k = 0; k < count; ++k) {
        const float *s = inverse_bind_splat + 64 * k;
        float b[16];
        for (int c = 0; c < 4; ++c)
            for (int e = 0; e < 4; ++e)
                b[4 * c + e] = s[16 * e + 4 * c];
        tendon_ref_mat4_mul(model + 16 * (size_t)joint_of[k], b, out + 16 * k);
    }
}

void tendon_skin_scalar_from(const tendon_skin_job *job, size_t first, size_t end)
{
    for (size_t i = first; i < end; ++i)
        tendon_ref_skin_vertex(job, i);
}

void tendon_skin_scalar(const tendon_skin_job *job)
{
    tendon_skin_scalar_from(job, 0, job->vertex_count);
}

void tendon_skin_mesh_scalar(const struct tendon_skin_mesh *mesh, const float *palette,
                             size_t first, size_t count, float *out_positions, float *out_normals,
                             float *out_tangents)
{
    for (size_t v = first; v < first + count; ++v)
        tendon_ref_mesh_vertex(mesh, palette, v, out_positions, out_normals, out_tangents);
}

void tendon_palette_to_dual_quat_scalar_from(const float *palette, size_t first, size_t end,
                                             float *out)
{
    for (size_t j = first; j < end; ++j) {
        tendon_dq_metrics o;
        tendon_ref_dq_metrics(palette + 16 * j, &o);
        tendon_ref_dq_convert(palette + 16 * j, &o, out + 16 * j);
    }
}

size_t tendon_palette_to_dual_quat_scalar(const float *palette, size_t count, float *out)
{
    for (size_t j = 0; j < count; ++j) {
        tendon_dq_metrics o;
        tendon_ref_dq_metrics(palette + 16 * j, &o);
        if (tendon_ref_dq_check(palette + 16 * j, &o) != TENDON_DQ_OK)
            return j;
    }
    tendon_palette_to_dual_quat_scalar_from(palette, 0, count, out);
    return count;
}

void tendon_skin_mesh_dq_scalar(const struct tendon_skin_mesh *mesh, const float *dq,
                                size_t first, size_t count, float *out_positions,
                                float *out_normals, float *out_tangents)
{
    for (size_t v = first; v < first + count; ++v)
        tendon_ref_mesh_vertex_dq(mesh, dq, v, out_positions, out_normals, out_tangents);
}

void tendon_morph_scalar_from(const float *base, const float *const *deltas, const float *weights,
                              size_t target_count, size_t first, size_t end, float *out)
{
    for (size_t e = first; e < end; ++e) {
        float acc = base[e];
        for (size_t t = 0; t < target_count; ++t)
            if (weights[t] != 0.0f)
                acc = acc + weights[t] * deltas[t][e];
        out[e] = acc;
    }
}

void tendon_morph_scalar(const float *base, const float *const *deltas, const float *weights,
                         size_t target_count, size_t float_count, float *out)
{
    tendon_morph_scalar_from(base, deltas, weights, target_count, 0, float_count, out);
}

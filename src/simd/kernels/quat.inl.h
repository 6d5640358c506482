/*
 * THE SIMD body of the quaternion array kernels (slerp, nlerp, product), written once over the
 * wide layer and instantiated per ISA by src/simd/<isa>/quat_<isa>.c. U·W elements per
 * iteration (see wblocks_at for the last, partial one); fewer than W left go to the scalar
 * reference, equal by construction. Every slot is loaded before any is stored, so out may be
 * exactly a or b.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

#define TENDON_QUAT_LOOP(count, ...)                                                              \
    size_t i = 0;                                                                                  \
    for (size_t blocks = (count) / TENDON_W; blocks > 0;) {                                        \
        const wblocks blk = wblocks_at(i, blocks);                                                 \
        __VA_ARGS__;                                                                                   \
        i += (size_t)blk.fresh * TENDON_W;                                                         \
        blocks -= (size_t)blk.fresh;                                                               \
    }

void TENDON_FN(quat_slerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    TENDON_QUAT_LOOP(count, {
        const wquat qa = wload_quat(a, &blk), qb = wload_quat(b, &blk);
        const vw w = wclamp01(wload_f64(t, &blk));
        wstore_quat(out, &blk, wslerp(qa, qb, w));
    })
    tendon_quat_slerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_nlerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    TENDON_QUAT_LOOP(count, {
        const wquat qa = wload_quat(a, &blk), qb = wload_quat(b, &blk);
        const vw w = wclamp01(wload_f64(t, &blk));
        wstore_quat(out, &blk, wnlerp(qa, qb, w));
    })
    tendon_quat_nlerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_multiply)(const float *a, const float *b, size_t count, float *out)
{
    TENDON_QUAT_LOOP(count, {
        const wquat qa = wload_quat(a, &blk), qb = wload_quat(b, &blk);
        wstore_quat(out, &blk, wmultiply(qa, qb));
    })
    tendon_quat_multiply_scalar(a + 4 * i, b + 4 * i, count - i, out + 4 * i);
}

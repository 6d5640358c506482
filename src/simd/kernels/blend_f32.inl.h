/*
 * THE SIMD body of the float32 tier's pose and quaternion kernels (docs/fast-tier.md), written
 * once over the op layer's float lanes and instantiated per ISA by
 * src/simd/<isa>/blend_f32_<isa>.c: the lane-wise twin of src/scalar/blend_f32_scalar.c.
 *
 * A block is TENDON_WF joints: rotations loaded and transposed to one vector per component
 * (vfload4q, in the op layer's quaternion lane order), slerped / nlerped / composed, transposed
 * back (vfstore4q); translations and scales
 * as 3·WF contiguous floats, computed in place with the weight expanded to one per component
 * (vfexpand3) — a weight shared by every joint needs no expansion at all. Per-joint (masked)
 * weights are computed in double, as the reference does, and rounded to float once (vfpack).
 * Every block's inputs are read before its outputs are written, so out may be exactly an input.
 * Fewer than WF joints left go to the scalar reference.
 */
#include "quat_f32_core.inl.h"
#include "../../common/kernels_internal.h"
#include "../../common/quat_ref_f32.h" /* tendon_weight_to_f32: the weights rounded once */

/* ---- weights (double, rounded once: tendon_blend_weight_f32 / tendon_add_weight_f32) ---- */

static inline vd vdclamp01(vd w)
{
    const vd zero = vset1(0.0), one = vset1(1.0);
    return vsel(vlt(w, zero), zero, vsel(vgt(w, one), one, w));
}

/* joint_weight of blend_scalar.c: 0 where the clamped mask is 0, else t·m. */
static inline vd vdjoint_weight(double t, const float *p)
{
    const vd m = vdclamp01(vload_f32(p));
    return vsel(veq(m, vset1(0.0)), vset1(0.0), vmul(vset1(t), m));
}

/** WF per-joint blend weights from joint j: clamp(t·m, 0, 1) in double, rounded once. */
static inline vf vfblend_weights(double t, const float *joint_weights, size_t j)
{
    return vfpack(vdclamp01(vdjoint_weight(t, joint_weights + j)),
                  vdclamp01(vdjoint_weight(t, joint_weights + j + TENDON_W)));
}

/* max(raw, 0) with a finite value beyond FLT_MAX saturated (tendon_weight_to_f32 for w ≥ 0). */
static inline vd vdadd_weight(vd raw)
{
    const vd w = vsel(vlt(raw, vset1(0.0)), vset1(0.0), raw);
    const vmask big = vmand(vgt(w, vset1((double)FLT_MAX)), vlt(w, vset1((double)INFINITY)));
    return vsel(big, vset1((double)FLT_MAX), w);
}

/** WF per-joint additive weights from joint j: max(weight·m, 0) in double, rounded once. */
static inline vf vfadd_weights(double weight, const float *joint_weights, size_t j)
{
    return vfpack(vdadd_weight(vdjoint_weight(weight, joint_weights + j)),
                  vdadd_weight(vdjoint_weight(weight, joint_weights + j + TENDON_W)));
}

/* ---- pose blend (slerp and nlerp) ---- */

/*
 * One block's translations or scales: out = from + (to − from)·e, 3·WF floats from offset o
 * (each vector loaded and stored in turn: out may be exactly from or to).
 */
static inline void vflerp3(const float *from, const float *to, size_t o, const vf e[3],
                           float *out)
{
    for (int k = 0; k < 3; ++k) {
        const vf f = vfload(from + o + k * TENDON_WF), g = vfload(to + o + k * TENDON_WF);
        vfstore(out + o + k * TENDON_WF, vfadd(f, vfmul(vfsub(g, f), e[k])));
    }
}

/* Blocks per step: TENDON_F32_STAGE and TENDON_F32_NLERP_STAGE (quat_f32_core.inl.h). The
   blend's loops over a step's blocks are unrolled in full (TENDON_UNROLL_BLOCKS, there); not the
   additive's: unrolled, V8 spills more there and it runs 3-5 % slower. */

/*
 * nb blocks of WF joints from joint j, in three phases (loads and dots; weights; combine,
 * normalise, store), each over all nb blocks before the next begins.
 */
static inline __attribute__((always_inline)) void blend_f32_blocks(
    const tendon_pose *a, const tendon_pose *b, double t, const float *joint_weights,
    const float *given, size_t j, int nb, vf w_all, vf omw_all, tendon_pose *out, int nlerp)
{
    const int per_joint = joint_weights || given;
    const vfmask end_all = vfis_end(w_all); /* the same for every block: hoisted */
    vf wn[TENDON_F32_STAGE], w[TENDON_F32_STAGE], s0[TENDON_F32_STAGE], s1[TENDON_F32_STAGE];
    vf dot[TENDON_F32_STAGE];
    vfquat qa[TENDON_F32_STAGE], qb[TENDON_F32_STAGE];
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c) {
        const size_t jc = j + (size_t)c * TENDON_WF;
        wn[c] = given           ? vfload(given + jc) /* memory order */
                : joint_weights ? vfblend_weights(t, joint_weights, jc)
                                : w_all;
        w[c] = per_joint ? vfqorder(wn[c]) : w_all;
        qa[c] = vfload_quat(a->rotation + 4 * jc);
        qb[c] = vfload_quat(b->rotation + 4 * jc);
        dot[c] = vfdot4(qa[c], qb[c]);
    }
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c) {
        if (nlerp)
            vfnlerp_weights(dot[c], w[c], per_joint ? vfsub(vfset1(1.0f), w[c]) : omw_all,
                            &s0[c], &s1[c]);
        else
            vfslerp_weights_ends(dot[c], w[c], per_joint ? vfis_end(w[c]) : end_all,
                                 &s0[c], &s1[c]);
    }
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c) {
        const size_t jc = j + (size_t)c * TENDON_WF;
        vfstore_quat(out->rotation + 4 * jc, vfcombine(qa[c], qb[c], s0[c], s1[c]));
        /* the pose's three arrays never overlap each other (partial overlaps are refused), so
           the rotations are written before the translations and scales are read */
        vf e[3] = {w_all, w_all, w_all};
        if (per_joint)
            vfexpand3(wn[c], &e[0], &e[1], &e[2]);
        vflerp3(a->translation, b->translation, 3 * jc, e, out->translation);
        vflerp3(a->scale, b->scale, 3 * jc, e, out->scale);
    }
}

static inline __attribute__((always_inline)) void blend_f32_loop(
    const tendon_pose *a_in, const tendon_pose *b_in, double t, const float *joint_weights,
    const float *given, size_t joint_count, tendon_pose *out_in, int nlerp)
{
    /* the poses copied to locals: stores through float * could otherwise alias the structs */
    const tendon_pose a = *a_in, b = *b_in;
    tendon_pose out = *out_in;
    const vf w_all = vfset1(tendon_blend_weight_f32(t, NULL, 0));
    const vf omw_all = vfsub(vfset1(1.0f), w_all);
    size_t j = 0;
    const int nb = nlerp ? TENDON_F32_NLERP_STAGE : TENDON_F32_STAGE;
    for (; j + (size_t)nb * TENDON_WF <= joint_count; j += (size_t)nb * TENDON_WF)
        blend_f32_blocks(&a, &b, t, joint_weights, given, j, nb, w_all, omw_all, &out, nlerp);
    for (; j + TENDON_WF <= joint_count; j += TENDON_WF)
        blend_f32_blocks(&a, &b, t, joint_weights, given, j, 1, w_all, omw_all, &out, nlerp);
    if (j == joint_count) /* no tail: not even a call (it shows at small counts) */
        return;
    if (given)
        tendon_pose_blend_weighted_f32_scalar_from(a_in, b_in, given, j, joint_count, out_in);
    else if (nlerp)
        tendon_pose_blend_nlerp_f32_scalar_from(a_in, b_in, t, joint_weights, j, joint_count,
                                                out_in);
    else
        tendon_pose_blend_f32_scalar_from(a_in, b_in, t, joint_weights, j, joint_count, out_in);
}

/* One instantiation with a mask and one without, so neither tests joint_weights per block. */
static inline __attribute__((always_inline)) void blend_f32_body(
    const tendon_pose *a, const tendon_pose *b, double t, const float *joint_weights,
    size_t joint_count, tendon_pose *out, int nlerp)
{
    if (joint_weights)
        blend_f32_loop(a, b, t, joint_weights, NULL, joint_count, out, nlerp);
    else
        blend_f32_loop(a, b, t, NULL, NULL, joint_count, out, nlerp);
}

void TENDON_FN(pose_blend_f32)(const tendon_pose *a, const tendon_pose *b, double t,
                               const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    blend_f32_body(a, b, t, joint_weights, joint_count, out, 0);
}

void TENDON_FN(pose_blend_nlerp_f32)(const tendon_pose *a, const tendon_pose *b, double t,
                                     const float *joint_weights, size_t joint_count,
                                     tendon_pose *out)
{
    blend_f32_body(a, b, t, joint_weights, joint_count, out, 1);
}

void TENDON_FN(pose_blend_weighted_f32)(const tendon_pose *a, const tendon_pose *b,
                                        const float *weights, size_t joint_count,
                                        tendon_pose *out)
{
    blend_f32_loop(a, b, 0.0, NULL, weights, joint_count, out, 0);
}

/* ---- additive layer ---- */

/*
 * nb blocks of the additive layer from joint j, in phases as blend_f32_blocks: the deltas'
 * weights (the slerp from the identity's acos and sines), then the composition and the stores.
 */
static inline __attribute__((always_inline)) void add_f32_blocks(
    const tendon_pose *base, const tendon_pose *delta, double weight, const float *joint_weights,
    const float *given, size_t j, int nb, vf w_all, tendon_pose *out, int rotations_only)
{
    const int per_joint = joint_weights || given;
    const vf one = vfset1(1.0f);
    const vfmask end_all = vfis_end(vfsel(vfgt(w_all, one), one, w_all)); /* hoisted */
    vf wn[TENDON_F32_STAGE], wq[TENDON_F32_STAGE], s0[TENDON_F32_STAGE], s1[TENDON_F32_STAGE];
    vfquat qd[TENDON_F32_STAGE];
    for (int c = 0; c < nb; ++c) {
        const size_t jc = j + (size_t)c * TENDON_WF;
        wn[c] = given           ? vfload(given + jc) /* memory order */
                : joint_weights ? vfadd_weights(weight, joint_weights, jc)
                                : w_all;
        const vf w = per_joint ? vfqorder(wn[c]) : w_all;
        wq[c] = vfsel(vfgt(w, one), one, w); /* the rotation's weight, min(w, 1) */
        qd[c] = vfload_quat(delta->rotation + 4 * jc);
    }
    for (int c = 0; c < nb; ++c)
        vfslerp_weights_ends(qd[c].w, wq[c], per_joint ? vfis_end(wq[c]) : end_all, &s0[c],
                             &s1[c]);
    for (int c = 0; c < nb; ++c) {
        const size_t jc = j + (size_t)c * TENDON_WF;
        vfquat r;
        r.x = vfmul(s1[c], qd[c].x);
        r.y = vfmul(s1[c], qd[c].y);
        r.z = vfmul(s1[c], qd[c].z);
        r.w = vfadd(s0[c], vfmul(s1[c], qd[c].w));
        const vfquat qb = vfload_quat(base->rotation + 4 * jc);
        vfstore_quat(out->rotation + 4 * jc, vfmultiply(qb, vfnormalize(r)));
        if (rotations_only)
            continue;
        /* the pose's three arrays never overlap each other: rotations written, then the rest */
        vf e[3] = {w_all, w_all, w_all};
        if (per_joint)
            vfexpand3(wn[c], &e[0], &e[1], &e[2]);
        for (int k = 0; k < 3; ++k) {
            const size_t o = 3 * jc + (size_t)k * TENDON_WF;
            const vf b0 = vfload(base->translation + o), d0 = vfload(delta->translation + o);
            vfstore(out->translation + o, vfadd(b0, vfmul(d0, e[k])));
            const vf b1 = vfload(base->scale + o), d1 = vfload(delta->scale + o);
            vfstore(out->scale + o, vfmul(b1, vfadd(one, vfmul(vfsub(d1, one), e[k]))));
        }
    }
}

/* rotations_only (a constant once inlined): quat_add_weighted_f32, the rotations alone. */
static inline __attribute__((always_inline)) void add_f32_loop(
    const tendon_pose *base_in, const tendon_pose *delta_in, double weight,
    const float *joint_weights, const float *given, size_t joint_count, tendon_pose *out_in,
    int rotations_only)
{
    const tendon_pose base = *base_in, delta = *delta_in;
    tendon_pose out = *out_in;
    const vf w_all = vfset1(tendon_add_weight_f32(weight, NULL, 0));
    size_t j = 0;
    for (; j + TENDON_F32_STAGE * TENDON_WF <= joint_count; j += TENDON_F32_STAGE * TENDON_WF)
        add_f32_blocks(&base, &delta, weight, joint_weights, given, j, TENDON_F32_STAGE, w_all,
                       &out, rotations_only);
    for (; j + TENDON_WF <= joint_count; j += TENDON_WF)
        add_f32_blocks(&base, &delta, weight, joint_weights, given, j, 1, w_all, &out,
                       rotations_only);
    if (j == joint_count) /* no tail: not even a call (it shows at small counts) */
        return;
    if (rotations_only)
        tendon_quat_add_weighted_f32_scalar_from(base_in->rotation, delta_in->rotation, given, j,
                                                 joint_count, out_in->rotation);
    else if (given)
        tendon_pose_add_weighted_f32_scalar_from(base_in, delta_in, given, j, joint_count, out_in);
    else
        tendon_pose_add_f32_scalar_from(base_in, delta_in, weight, joint_weights, j, joint_count,
                                        out_in);
}

void TENDON_FN(pose_add_f32)(const tendon_pose *base, const tendon_pose *delta, double weight,
                             const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    if (joint_weights)
        add_f32_loop(base, delta, weight, joint_weights, NULL, joint_count, out, 0);
    else
        add_f32_loop(base, delta, weight, NULL, NULL, joint_count, out, 0);
}

void TENDON_FN(pose_add_weighted_f32)(const tendon_pose *base, const tendon_pose *delta,
                                      const float *weights, size_t joint_count, tendon_pose *out)
{
    add_f32_loop(base, delta, 0.0, NULL, weights, joint_count, out, 0);
}

void TENDON_FN(quat_add_weighted_f32)(const float *base, const float *delta, const float *weights,
                                      size_t count, float *out)
{
    /* the poses' rotations only: their translations and scales are never touched */
    const tendon_pose b = {NULL, (float *)(uintptr_t)base, NULL, count};
    const tendon_pose d = {NULL, (float *)(uintptr_t)delta, NULL, count};
    tendon_pose o = {NULL, out, NULL, count};
    add_f32_loop(&b, &d, 0.0, NULL, weights, count, &o, 1);
}

/* ---- quaternion arrays ---- */

void TENDON_FN(quat_slerp_f32)(const float *a, const float *b, const float *t, size_t count,
                               float *out)
{
    const size_t i = vfinterp_loop(a, b, t, vfset1(0.0f), count, out, 0);
    tendon_quat_slerp_f32_scalar_from(a, b, t, i, count, out);
}

void TENDON_FN(quat_nlerp_f32)(const float *a, const float *b, const float *t, size_t count,
                               float *out)
{
    const size_t i = vfinterp_loop(a, b, t, vfset1(0.0f), count, out, 1);
    tendon_quat_nlerp_f32_scalar_from(a, b, t, i, count, out);
}

void TENDON_FN(quat_multiply_f32)(const float *a, const float *b, size_t count, float *out)
{
    size_t i = 0;
    for (; i + TENDON_WF <= count; i += TENDON_WF)
        vfstore_quat(out + 4 * i, vfmultiply(vfload_quat(a + 4 * i), vfload_quat(b + 4 * i)));
    tendon_quat_multiply_f32_scalar_from(a, b, i, count, out);
}

/* ---- N-layer blending (tendon_pose_blend_layers_f32; the formula in tendon/blend.h) ---- */

/* The accumulators of one block: W, T and S in memory order (T, S as 3·WF floats in their
   pose layout: three vectors), Q in the quaternion lane order. */
typedef struct layers_acc {
    vf W, T[3], S[3];
    vfquat Q;
} layers_acc;

/* One blended layer of block j: wn the weights in memory order, e expanded, wq in q-order. */
static inline void layers_accumulate(const tendon_pose *p, size_t j, vf wn, const vf e[3], vf wq,
                                     layers_acc *acc)
{
    acc->W = vfadd(acc->W, wn);
    for (int k = 0; k < 3; ++k) {
        const size_t o = 3 * j + (size_t)k * TENDON_WF;
        acc->T[k] = vfadd(acc->T[k], vfmul(e[k], vfload(p->translation + o)));
        acc->S[k] = vfadd(acc->S[k], vfmul(e[k], vfload(p->scale + o)));
    }
    const vfquat q = vfload_quat(p->rotation + 4 * j);
    const vf sw = vfneg_where(vflt(vfdot4(acc->Q, q), vfset1(0.0f)), wq);
    acc->Q.x = vfadd(acc->Q.x, vfmul(sw, q.x));
    acc->Q.y = vfadd(acc->Q.y, vfmul(sw, q.y));
    acc->Q.z = vfadd(acc->Q.z, vfmul(sw, q.z));
    acc->Q.w = vfadd(acc->Q.w, vfmul(sw, q.w));
}

/*
 * A layer's weights for block j (tendon_layer_weight_f32): the call's one weight w_f, times
 * m = clamp(joint_weights[j], 0, 1) in float where the layer has per-joint weights. wn in memory
 * order, e expanded to the translations' and scales' layout, wq in the quaternion lane order.
 */
static inline void layers_weights(const tendon_blend_layer *l, float w_f, size_t j, vf *wn,
                                  vf e[3], vf *wq)
{
    if (!l->joint_weights) {
        *wn = *wq = e[0] = e[1] = e[2] = vfset1(w_f);
        return;
    }
    *wn = vfmul(vfset1(w_f), vfclamp01(vfload(l->joint_weights + j)));
    vfexpand3(*wn, &e[0], &e[1], &e[2]);
    *wq = vfqorder(*wn);
}

#ifndef TENDON_F32_LAYERS_STAGE
/* Blocks whose rotations are accumulated together: their chains (each layer's sign is fixed
   against the running sum, a dot product before every add) overlap. */
#define TENDON_F32_LAYERS_STAGE 4
#endif

/* The rotations' part of one blended layer for block j: Q = Q + (dot(Q, q) < 0 ? −w : w)·q. */
static inline vfquat layers_rotation(const tendon_blend_layer *l, float w_f, size_t j, vfquat Q)
{
    vf wq = vfset1(w_f);
    if (l->joint_weights)
        wq = vfqorder(vfmul(wq, vfclamp01(vfload(l->joint_weights + j))));
    const vfquat q = vfload_quat(l->pose->rotation + 4 * j);
    const vf sw = vfneg_where(vflt(vfdot4(Q, q), vfset1(0.0f)), wq);
    Q.x = vfadd(Q.x, vfmul(sw, q.x));
    Q.y = vfadd(Q.y, vfmul(sw, q.y));
    Q.z = vfadd(Q.z, vfmul(sw, q.z));
    Q.w = vfadd(Q.w, vfmul(sw, q.w));
    return Q;
}

/* The translations', scales' and weights' part of one blended layer for block j. */
static inline void layers_vectors(const tendon_pose *p, size_t j, vf wn, const vf e[3],
                                  layers_acc *acc)
{
    acc->W = vfadd(acc->W, wn);
    for (int k = 0; k < 3; ++k) {
        const size_t o = 3 * j + (size_t)k * TENDON_WF;
        acc->T[k] = vfadd(acc->T[k], vfmul(e[k], vfload(p->translation + o)));
        acc->S[k] = vfadd(acc->S[k], vfmul(e[k], vfload(p->scale + o)));
    }
}

/*
 * nb blocks from joint j: first every layer's rotations, the nb blocks side by side; then per
 * block the translations, scales and weights, the rest pose, the normalisation, the additive
 * layers and the stores. (The reference's per-joint order of operations is the same for each
 * accumulator: only accumulators that do not depend on each other are reordered.)
 */
static inline __attribute__((always_inline)) void layers_blocks(const tendon_blend_layers_job *job,
                                                                size_t j, int nb,
                                                                tendon_pose *out)
{
    const tendon_pose rest = *job->rest_pose;
    const vf theta = vfset1((float)job->threshold), zero = vfset1(0.0f), one = vfset1(1.0f);
    vfquat Qs[TENDON_F32_LAYERS_STAGE];
    for (int c = 0; c < nb; ++c)
        Qs[c] = (vfquat){zero, zero, zero, zero};
    for (size_t i = 0; i < job->layer_count; ++i) {
        const tendon_blend_layer *l = &job->layers[i];
        if (l->weight <= 0.0)
            continue;
        const float w_f = tendon_weight_to_f32(l->weight);
        for (int c = 0; c < nb; ++c)
            Qs[c] = layers_rotation(l, w_f, j + (size_t)c * TENDON_WF, Qs[c]);
    }
    for (int c = 0; c < nb; ++c) {
        const size_t jc = j + (size_t)c * TENDON_WF;
        layers_acc acc = {zero, {zero, zero, zero}, {zero, zero, zero}, Qs[c]};
        layers_acc *a = &acc;
        for (size_t i = 0; i < job->layer_count; ++i) {
            const tendon_blend_layer *l = &job->layers[i];
            if (l->weight <= 0.0)
                continue;
            vf wn, e[3], wq;
            layers_weights(l, tendon_weight_to_f32(l->weight), jc, &wn, e, &wq);
            layers_vectors(l->pose, jc, wn, e, a);
        }
        const vf W0 = a->W; /* the blended layers' sum, before the rest pose */
        /* the rest pose where W < θ: its lanes take the accumulation, the others keep theirs
           (each mask is the same comparison of the same values, in each layout) */
        const vf r = vfsub(theta, a->W);
        if (vfmask_any(vfgt(r, zero))) {
            layers_acc with = *a;
            vf er[3];
            vfexpand3(r, &er[0], &er[1], &er[2]);
            const vf rq = vfqorder(r);
            layers_accumulate(&rest, jc, r, er, rq, &with);
            a->W = vfsel(vfgt(r, zero), with.W, a->W);
            for (int k = 0; k < 3; ++k) {
                const vfmask m = vfgt(er[k], zero);
                a->T[k] = vfsel(m, with.T[k], a->T[k]);
                a->S[k] = vfsel(m, with.S[k], a->S[k]);
            }
            const vfmask mq = vfgt(rq, zero);
            a->Q.x = vfsel(mq, with.Q.x, a->Q.x);
            a->Q.y = vfsel(mq, with.Q.y, a->Q.y);
            a->Q.z = vfsel(mq, with.Q.z, a->Q.z);
            a->Q.w = vfsel(mq, with.Q.w, a->Q.w);
        }
        vf einv[3];
        vfexpand3(vfdiv(one, a->W), &einv[0], &einv[1], &einv[2]);
        for (int k = 0; k < 3; ++k) {
            a->T[k] = vfmul(a->T[k], einv[k]);
            a->S[k] = vfmul(a->S[k], einv[k]);
        }
        a->Q = vfnormalize(a->Q);
        if (vfmask_any(vfeq(W0, zero))) { /* W == 0: the rest pose, bit for bit */
            vf eW[3];
            vfexpand3(W0, &eW[0], &eW[1], &eW[2]);
            for (int k = 0; k < 3; ++k) {
                const size_t o = 3 * jc + (size_t)k * TENDON_WF;
                const vfmask m = vfeq(eW[k], zero);
                a->T[k] = vfsel(m, vfload(rest.translation + o), a->T[k]);
                a->S[k] = vfsel(m, vfload(rest.scale + o), a->S[k]);
            }
            const vfquat rq = vfload_quat(rest.rotation + 4 * jc);
            const vfmask mq = vfeq(vfqorder(W0), zero);
            a->Q.x = vfsel(mq, rq.x, a->Q.x);
            a->Q.y = vfsel(mq, rq.y, a->Q.y);
            a->Q.z = vfsel(mq, rq.z, a->Q.z);
            a->Q.w = vfsel(mq, rq.w, a->Q.w);
        }
        for (size_t i = 0; i < job->additive_count; ++i) {
            const tendon_blend_layer *l = &job->additive_layers[i];
            if (l->weight <= 0.0)
                continue;
            const tendon_pose *d = l->pose;
            vf wn, e[3], wq;
            layers_weights(l, tendon_weight_to_f32(l->weight), jc, &wn, e, &wq);
            for (int k = 0; k < 3; ++k) {
                const size_t o = 3 * jc + (size_t)k * TENDON_WF;
                a->T[k] = vfadd(a->T[k], vfmul(vfload(d->translation + o), e[k]));
                a->S[k] = vfmul(a->S[k], vfadd(one, vfmul(vfsub(vfload(d->scale + o), one), e[k])));
            }
            const vfquat dq = vfload_quat(d->rotation + 4 * jc);
            a->Q = vfmultiply(a->Q, vfslerp_from_identity(dq, vfsel(vfgt(wq, one), one, wq)));
        }
        for (int k = 0; k < 3; ++k) {
            const size_t o = 3 * jc + (size_t)k * TENDON_WF;
            vfstore(out->translation + o, a->T[k]);
            vfstore(out->scale + o, a->S[k]);
        }
        vfstore_quat(out->rotation + 4 * jc, a->Q);
    }
}

void TENDON_FN(pose_blend_layers_f32)(const tendon_blend_layers_job *job, size_t joint_count,
                                      tendon_pose *out_in)
{
    tendon_pose out = *out_in; /* a local copy: stores through float * cannot alias it */
    size_t j = 0;
    for (; j + TENDON_F32_LAYERS_STAGE * TENDON_WF <= joint_count;
         j += TENDON_F32_LAYERS_STAGE * TENDON_WF)
        layers_blocks(job, j, TENDON_F32_LAYERS_STAGE, &out);
    for (; j + TENDON_WF <= joint_count; j += TENDON_WF)
        layers_blocks(job, j, 1, &out);
    tendon_pose_blend_layers_f32_scalar_from(job, j, joint_count, out_in);
}

/*
 * The kernels with a weight per joint given (tendon_kernels.pose_blend_weighted, pose_add_weighted
 * and their float32 twins; what the spring rig blends every substep time of a pose with, at
 * once), and the additive layer's rotations alone (quat_add_weighted, _f32):
 *   - with weights[j] the joint weight the masked kernels compute from t and the mask, the same
 *     bits as pose_blend / pose_add (and _f32), on every ISA; quat_add_weighted(_f32) the same
 *     bits as pose_add_weighted(_f32)'s rotations;
 *   - with any weights (below 0, above 1, 0, 1, huge, NaN), every ISA equals the scalar table bit
 *     for bit (NaN by class), at every count 0 … 67 and 1003, misaligned, and in place.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernels_internal.h"
#include "support.h"

enum { N = 1003 };

typedef struct poses {
    tendon_pose a, b, out, ref;
    float mask[N + 1];
    double w[N + 1];
    float wf[N + 1];
} poses;

static void random_pose(test_rng *r, tendon_pose *p, int delta)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        rng_unit_quat(r, p->rotation + 4 * j);
        for (int c = 0; c < 3; ++c) {
            p->translation[3 * j + c] = (float)rng_range(r, -2, 2);
            p->scale[3 * j + c] = (float)rng_range(r, delta ? 0.5 : -1.5, 2);
        }
    }
}

static void make(test_rng *r, poses *p)
{
    ck_assert(tendon_pose_create(N + 1, &p->a) == TENDON_OK);
    ck_assert(tendon_pose_create(N + 1, &p->b) == TENDON_OK);
    ck_assert(tendon_pose_create(N + 1, &p->out) == TENDON_OK);
    ck_assert(tendon_pose_create(N + 1, &p->ref) == TENDON_OK);
    random_pose(r, &p->a, 0);
    random_pose(r, &p->b, 1);
    for (size_t j = 0; j <= N; ++j) {
        const double pick = rng_unit(r);
        p->mask[j] = pick < 0.2 ? 0.0f : pick < 0.3 ? 1.0f : pick < 0.35 ? 1.7f
                     : pick < 0.4 ? -0.3f : (float)rng_unit(r);
        if (j % 7 == 3) /* near-parallel pairs */
            for (int c = 0; c < 4; ++c)
                p->b.rotation[4 * j + c] = p->a.rotation[4 * j + c] + 1e-5f * (float)(c + 1);
    }
}

static void release(poses *p)
{
    tendon_pose_destroy(&p->a), tendon_pose_destroy(&p->b);
    tendon_pose_destroy(&p->out), tendon_pose_destroy(&p->ref);
}

static tendon_pose view(const tendon_pose *p, size_t first, size_t n)
{
    tendon_pose v = {p->translation + 3 * first, p->rotation + 4 * first, p->scale + 3 * first, n};
    return v;
}

/* The rotations alone: quat_add_weighted(_f32)'s output against a pose's. */
static void same_rotations(const float *x, const tendon_pose *y, size_t n, const char *what,
                           int isa, size_t count)
{
    const long r = first_float_diff(x, y->rotation, 4 * n);
    ck_assert_msg(r < 0, "%s on %s, %zu joints: rotation float %ld differs", what,
                  tendon_isa_name((tendon_isa)isa), count, r);
}

static void same(const tendon_pose *x, const tendon_pose *y, size_t n, const char *what, int isa,
                 size_t count)
{
    const long t = first_float_diff(x->translation, y->translation, 3 * n);
    const long r = first_float_diff(x->rotation, y->rotation, 4 * n);
    const long s = first_float_diff(x->scale, y->scale, 3 * n);
    ck_assert_msg(t < 0 && r < 0 && s < 0,
                  "%s on %s, %zu joints: translation %ld, rotation %ld, scale %ld differ", what,
                  tendon_isa_name((tendon_isa)isa), count, t, r, s);
}

START_TEST(weighted_equals_masked_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    test_rng r;
    rng_seed(&r, 0x3e1947u);
    poses p;
    make(&r, &p);
    static const double ts[7] = {0.0, 1.0, 0.375, -0.5, 1.75, 1e300, -INFINITY};
    for (int ti = 0; ti < 7; ++ti) {
        const double t = ts[ti];
        for (int masked = 0; masked < 2; ++masked) {
            const float *m = masked ? p.mask : NULL;
            for (size_t j = 0; j < N; ++j) {
                p.w[j] = tendon_blend_joint_weight(t, m, j);
                p.wf[j] = tendon_blend_weight_f32(t, m, j);
            }
            for (size_t n = 0; n <= N; n = n < 67 ? n + 1 : n < N ? N : N + 1) {
                k->pose_blend(&p.a, &p.b, t, m, n, &p.ref);
                k->pose_blend_weighted(&p.a, &p.b, p.w, n, &p.out);
                same(&p.out, &p.ref, n, "pose_blend_weighted", _i, n);
                k->pose_blend_f32(&p.a, &p.b, t, m, n, &p.ref);
                k->pose_blend_weighted_f32(&p.a, &p.b, p.wf, n, &p.out);
                same(&p.out, &p.ref, n, "pose_blend_weighted_f32", _i, n);
                k->pose_add(&p.a, &p.b, t, m, n, &p.ref);
                k->pose_add_weighted(&p.a, &p.b, p.w, n, &p.out);
                same(&p.out, &p.ref, n, "pose_add_weighted", _i, n);
                k->quat_add_weighted(p.a.rotation, p.b.rotation, p.w, n, p.out.rotation);
                same_rotations(p.out.rotation, &p.ref, n, "quat_add_weighted", _i, n);
                for (size_t j = 0; j < n; ++j)
                    p.wf[j] = tendon_add_weight_f32(t, m, j);
                k->pose_add_f32(&p.a, &p.b, t, m, n, &p.ref);
                k->pose_add_weighted_f32(&p.a, &p.b, p.wf, n, &p.out);
                same(&p.out, &p.ref, n, "pose_add_weighted_f32", _i, n);
                k->quat_add_weighted_f32(p.a.rotation, p.b.rotation, p.wf, n, p.out.rotation);
                same_rotations(p.out.rotation, &p.ref, n, "quat_add_weighted_f32", _i, n);
                for (size_t j = 0; j < n; ++j)
                    p.wf[j] = tendon_blend_weight_f32(t, m, j);
            }
        }
    }
    release(&p);
}
END_TEST

START_TEST(weighted_every_isa_equals_scalar)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *s = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0x77e19u + (uint64_t)_i);
    poses p;
    make(&r, &p);
    for (size_t j = 0; j <= N; ++j) {
        const double pick = rng_unit(&r);
        p.w[j] = pick < 0.1 ? 0.0 : pick < 0.2 ? 1.0 : pick < 0.25 ? -0.25
                 : pick < 0.3 ? 3.5 : pick < 0.32 ? 1e30 : pick < 0.33 ? NAN : rng_unit(&r);
        p.wf[j] = pick < 0.3 ? (float)p.w[j] : (float)rng_unit(&r);
    }
    for (size_t first = 0; first < 2; ++first) { /* aligned and one joint in */
        const size_t last = N - first;
        for (size_t n = 0; n <= last; n = n < 67 ? n + 1 : n < last ? last : last + 1) {
            const tendon_pose a = view(&p.a, first, n), b = view(&p.b, first, n);
            tendon_pose out = view(&p.out, first, n), ref = view(&p.ref, first, n);
            s->pose_blend_weighted(&a, &b, p.w + first, n, &ref);
            k->pose_blend_weighted(&a, &b, p.w + first, n, &out);
            same(&out, &ref, n, "pose_blend_weighted", _i, n);
            s->pose_add_weighted(&a, &b, p.w + first, n, &ref);
            k->pose_add_weighted(&a, &b, p.w + first, n, &out);
            same(&out, &ref, n, "pose_add_weighted", _i, n);
            s->pose_blend_weighted_f32(&a, &b, p.wf + first, n, &ref);
            k->pose_blend_weighted_f32(&a, &b, p.wf + first, n, &out);
            same(&out, &ref, n, "pose_blend_weighted_f32", _i, n);
            s->pose_add_weighted_f32(&a, &b, p.wf + first, n, &ref);
            k->pose_add_weighted_f32(&a, &b, p.wf + first, n, &out);
            same(&out, &ref, n, "pose_add_weighted_f32", _i, n);
            /* the rotations alone: the scalar's, and the scalar pose kernel's rotations */
            s->pose_add_weighted(&a, &b, p.w + first, n, &ref);
            s->quat_add_weighted(a.rotation, b.rotation, p.w + first, n, out.rotation);
            same_rotations(out.rotation, &ref, n, "scalar quat_add_weighted", _i, n);
            k->quat_add_weighted(a.rotation, b.rotation, p.w + first, n, out.rotation);
            same_rotations(out.rotation, &ref, n, "quat_add_weighted", _i, n);
            s->pose_add_weighted_f32(&a, &b, p.wf + first, n, &ref);
            s->quat_add_weighted_f32(a.rotation, b.rotation, p.wf + first, n, out.rotation);
            same_rotations(out.rotation, &ref, n, "scalar quat_add_weighted_f32", _i, n);
            k->quat_add_weighted_f32(a.rotation, b.rotation, p.wf + first, n, out.rotation);
            same_rotations(out.rotation, &ref, n, "quat_add_weighted_f32", _i, n);
        }
    }
    /* in place */
    tendon_pose_copy(&p.a, &p.out);
    s->pose_blend_weighted(&p.a, &p.b, p.w, N, &p.ref);
    k->pose_blend_weighted(&p.out, &p.b, p.w, N, &p.out);
    same(&p.out, &p.ref, N, "pose_blend_weighted in place", _i, N);
    tendon_pose_copy(&p.a, &p.out);
    s->pose_add_weighted_f32(&p.a, &p.b, p.wf, N, &p.ref);
    k->pose_add_weighted_f32(&p.out, &p.b, p.wf, N, &p.out);
    same(&p.out, &p.ref, N, "pose_add_weighted_f32 in place", _i, N);
    /* the rotations alone, in place over base (over = 0) and over delta (1), each tier */
    for (int f32 = 0; f32 < 2; ++f32)
        for (int over = 0; over < 2; ++over) {
            if (f32)
                s->pose_add_weighted_f32(&p.a, &p.b, p.wf, N, &p.ref);
            else
                s->pose_add_weighted(&p.a, &p.b, p.w, N, &p.ref);
            tendon_pose_copy(over ? &p.b : &p.a, &p.out);
            const float *base = over ? p.a.rotation : p.out.rotation;
            const float *delta = over ? p.out.rotation : p.b.rotation;
            if (f32)
                k->quat_add_weighted_f32(base, delta, p.wf, N, p.out.rotation);
            else
                k->quat_add_weighted(base, delta, p.w, N, p.out.rotation);
            static const char *const WHAT[2][2] = {
                {"quat_add_weighted in place (base)", "quat_add_weighted in place (delta)"},
                {"quat_add_weighted_f32 in place (base)", "quat_add_weighted_f32 in place (delta)"}};
            same_rotations(p.out.rotation, &p.ref, N, WHAT[f32][over], _i, N);
        }
    release(&p);
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("blend_weighted");
    TCase *tc = tcase_create("weighted");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, weighted_equals_masked_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, weighted_every_isa_equals_scalar, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

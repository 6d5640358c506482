/* Two-bone IK (tendon/ik.h): float32 geometry, clamped so full reach never takes a NaN. */
#include <float.h>

#include "common/detmath.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/quat_ref.h"

static float dot3(const float a[3], const float b[3])
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

static void sub3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static float absf(float x) { return x < 0.0f ? -x : x; }

/* |a|, the squares and their sum in double (no float32 square can underflow or overflow there,
 * and the sum is exact or nearly so), the root rounded once to float. */
static float len3(const float a[3])
{
    const double x = a[0], y = a[1], z = a[2];
    return (float)tendon_det_sqrt((x * x + y * y) + z * z);
}

/* a / |a| into o; 0 (o unchanged) when a is the zero vector. A vector shorter than 2^-100 is
 * scaled by 2^100 first (exact: a power of two, and no component can overflow): its length
 * rounded to a float32 subnormal has only a few significant bits, and dividing by it gave
 * "unit" vectors 1e-5 off length 1, enough to take a pole on the target line for a bend plane
 * (a subnormal chain then lost its upper bone). Longer vectors are divided as they are. */
static int unit3(const float a[3], float o[3])
{
    float l = len3(a);
    if (!(l > 0.0f))
        return 0;
    float s[3] = {a[0], a[1], a[2]};
    if (l < 0x1p-100f) {
        for (int c = 0; c < 3; ++c)
            s[c] = a[c] * 0x1p100f;
        l = len3(s);
    }
    o[0] = s[0] / l;
    o[1] = s[1] / l;
    o[2] = s[2] / l;
    return 1;
}

static void cross3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The part of the unit w perpendicular to the unit u, normalised into n; 0 when w lies (within
 * 1e-6) on u's line. */
static int perpendicular(const float w[3], const float u[3], float n[3])
{
    const float k = dot3(w, u);
    const float p[3] = {w[0] - u[0] * k, w[1] - u[1] * k, w[2] - u[2] * k};
    if (!(len3(p) > 1e-6f))
        return 0;
    return unit3(p, n);
}

/* Any unit vector perpendicular to the unit u: u × the axis least aligned with it. */
static void any_perpendicular(const float u[3], float n[3])
{
    const float ax = absf(u[0]), ay = absf(u[1]), az = absf(u[2]);
    const float e[3] = {ax <= ay && ax <= az ? 1.0f : 0.0f,
                        !(ax <= ay && ax <= az) && ay <= az ? 1.0f : 0.0f,
                        !(ax <= ay && ax <= az) && !(ay <= az) ? 1.0f : 0.0f};
    float c[3];
    cross3(u, e, c);
    unit3(c, n); /* |c| ≥ √(2/3): u is unit and e its least aligned axis */
}

/* The shortest-arc rotation taking the direction of f to the direction of g: with unit f, g:
 * q = (f × g, 1 + f·g) normalised; opposite directions: 180° about a perpendicular. f is a
 * bone (non-zero, checked). g is a solved bone, a difference of rounded positions, which is the
 * zero vector when the bone is shorter than half an ulp of the coordinates it is added to (a
 * 0.0625 m bone at y = 1e7 m, where the ulp is 1 m): then g_dir, the same bone's direction
 * before it was added to the root, gives the direction (without it the default +z turned the
 * bone about an arbitrary axis). */
static void arc(const float f_in[3], const float g_in[3], const float g_dir[3], float q[4])
{
    float f[3] = {0.0f, 0.0f, 1.0f}, g[3] = {0.0f, 0.0f, 1.0f}, c[3];
    unit3(f_in, f);
    if (!unit3(g_in, g))
        unit3(g_dir, g);
    cross3(f, g, c);
    const float w = 1.0f + dot3(f, g);
    if (!(w > 1e-6f)) {
        float n[3];
        any_perpendicular(f, n);
        q[0] = n[0];
        q[1] = n[1];
        q[2] = n[2];
        q[3] = 0.0f;
        return;
    }
    const float l = __builtin_sqrtf(((c[0] * c[0] + c[1] * c[1]) + c[2] * c[2]) + w * w);
    q[0] = c[0] / l;
    q[1] = c[1] / l;
    q[2] = c[2] / l;
    q[3] = w / l;
}

/* v rotated by the unit quaternion q: v + 2w(q×v) + 2 q×(q×v). */
static void rotate(const float q[4], const float v[3], float o[3])
{
    float t[3], u[3];
    cross3(q, v, t);
    t[0] = t[0] + t[0];
    t[1] = t[1] + t[1];
    t[2] = t[2] + t[2];
    cross3(q, t, u);
    o[0] = (v[0] + q[3] * t[0]) + u[0];
    o[1] = (v[1] + q[3] * t[1]) + u[1];
    o[2] = (v[2] + q[3] * t[2]) + u[2];
}

/* slerp(identity, q, w), w in [0, 1], in the pose kernels' double arithmetic. */
static void weighted(const float q[4], double w, float out[4])
{
    static const double id[4] = {0.0, 0.0, 0.0, 1.0};
    double a[4], r[4];
    tendon_ref_load4(q, a);
    tendon_ref_slerp(id, a, w, r);
    tendon_ref_store4(r, out);
}

static void qmul(const float a[4], const float b[4], float o[4])
{
    double da[4], db[4], r[4];
    tendon_ref_load4(a, da);
    tendon_ref_load4(b, db);
    tendon_ref_multiply(da, db, r);
    tendon_ref_store4(r, o);
}

/* Finite and within ±TENDON_IK_MAX_COORD_M, so that no square of a difference overflows. */
static int finite3(const float v[3])
{
    for (int c = 0; c < 3; ++c)
        if (!(v[c] >= -TENDON_IK_MAX_COORD_M && v[c] <= TENDON_IK_MAX_COORD_M))
            return 0;
    return 1;
}

tendon_status tendon_ik_two_bone(const float root[3], const float mid[3], const float end[3],
                                 const float target[3], const float pole[3], double weight,
                                 tendon_ik_two_bone_result *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_ik_two_bone";
    if (!root || !mid || !end || !target || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !root ? "root" : !mid ? "mid" : !end ? "end" : !target ? "target"
                                                                                  : "out");
    const char *bad = !finite3(root) ? "root" : !finite3(mid) ? "mid" : !finite3(end) ? "end"
                      : !finite3(target) ? "target" : pole && !finite3(pole) ? "pole" : NULL;
    if (bad)
        return tendon_fail(TENDON_ERR_VALUE, "%s: %s has a coordinate that is NaN, infinite or "
                           "beyond ±1e18 m; positions must be finite and within ±1e18 m (float32 "
                           "squares of larger distances overflow)", fn, bad);
    if (weight != weight)
        return tendon_fail(TENDON_ERR_VALUE, "%s: weight is NaN; it must be a number (clamped "
                           "to [0, 1])", fn);
    float upper[3], lower[3];
    sub3(mid, root, upper);
    sub3(end, mid, lower);
    const float l1 = len3(upper), l2 = len3(lower);
    if (!(l1 > 0.0f) || !(l2 > 0.0f))
        return tendon_fail(TENDON_ERR_VALUE, "%s: a bone has zero length (root→mid %g, mid→end "
                           "%g); a chain needs two bones of positive length", fn, (double)l1,
                           (double)l2);
    const double w = weight < 0.0 ? 0.0 : weight > 1.0 ? 1.0 : weight;

    /* The direction to the target (u) and its distance (d_m, metres). */
    float v[3], u[3];
    sub3(target, root, v);
    const float d_m = len3(v);
    if (!unit3(v, u)) {
        float ce[3];
        sub3(end, root, ce);
        if (!unit3(ce, u))
            unit3(upper, u);
    }
    const float reach_min_m = l1 > l2 ? l1 - l2 : l2 - l1, reach_max_m = l1 + l2;
    out->reachable = d_m >= reach_min_m && d_m <= reach_max_m;
    float n[3], wp[3], up_unit[3];
    int have_n = 0;
    if (pole) {
        float pr[3];
        sub3(pole, root, pr);
        if (unit3(pr, wp))
            have_n = perpendicular(wp, u, n);
    }
    if (!have_n && unit3(upper, up_unit))
        have_n = perpendicular(up_unit, u, n);
    if (!have_n)
        any_perpendicular(u, n);
    /* mid_s, end_s: the solved positions; up_dir, low_dir: the solved bones' directions as
     * computed before any addition to the root (arc's fallback when a solved bone rounds to
     * the zero vector). */
    float mid_s[3], end_s[3], up_dir[3], low_dir[3];
    if (d_m >= reach_max_m) {
        /* At or beyond full reach (compared in metres, as the caller's numbers are): straight
         * at the target, never the √ of a rounding error (bug case 16). */
        for (int c = 0; c < 3; ++c) {
            mid_s[c] = root[c] + u[c] * l1;
            end_s[c] = root[c] + u[c] * reach_max_m;
            up_dir[c] = low_dir[c] = u[c];
        }
    } else if (d_m <= reach_min_m) {
        /* Too near: folded flat, the end as close as the bones allow. */
        const float x_m = l1 >= l2 ? l1 : -l1;
        for (int c = 0; c < 3; ++c) {
            mid_s[c] = root[c] + u[c] * x_m;
            end_s[c] = root[c] + u[c] * reach_min_m;
            up_dir[c] = l1 >= l2 ? u[c] : -u[c];
            low_dir[c] = -up_dir[c];
        }
    } else {
        /* Inside: the elbow at x along u and h along n, solved in units of the chain's length
         * s = l1 + l2 (a = l1/s, b = l2/s) so that no square underflows or overflows whatever
         * the chain's size; the end on the target itself. */
        const float s_len = l1 + l2, a = l1 / s_len, b = l2 / s_len;
        const float lo = a > b ? a - b : b - a, hi = a + b;
        float dc = d_m / s_len;
        dc = dc > hi ? hi : dc < lo ? lo : dc;
        float x = 0.0f;
        if (dc > 0.0f)
            x = ((a * a - b * b) + dc * dc) / (dc + dc);
        x = x > a ? a : x < -a ? -a : x;
        const float h2 = (a - x) * (a + x);
        const float h = h2 > 0.0f ? __builtin_sqrtf(h2) : 0.0f;
        for (int c = 0; c < 3; ++c) {
            up_dir[c] = u[c] * x + n[c] * h;
            mid_s[c] = root[c] + up_dir[c] * s_len;
            end_s[c] = target[c];
            low_dir[c] = u[c] * dc - up_dir[c];
        }
    }

    /* The rotations: upper bone to its new direction, then the (carried) lower bone. */
    float up_new[3], low_new[3], low_carried[3];
    sub3(mid_s, root, up_new);
    sub3(end_s, mid_s, low_new);
    float q_up[4], q_low[4];
    arc(upper, up_new, up_dir, q_up);
    rotate(q_up, lower, low_carried);
    arc(low_carried, low_new, low_dir, q_low);

    if (w == 0.0) { /* the chain as it is, bit for bit: root + (mid − root) may round */
        static const float id[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        for (int c = 0; c < 4; ++c)
            out->upper_delta[c] = out->lower_delta[c] = id[c];
        for (int c = 0; c < 3; ++c) {
            out->mid[c] = mid[c];
            out->end[c] = end[c];
        }
        return TENDON_OK;
    }
    if (w == 1.0) {
        for (int c = 0; c < 4; ++c) {
            out->upper_delta[c] = q_up[c];
            out->lower_delta[c] = q_low[c];
        }
        for (int c = 0; c < 3; ++c) {
            out->mid[c] = mid_s[c];
            out->end[c] = end_s[c];
        }
        return TENDON_OK;
    }
    float qu[4], ql[4], both[4], r_up[3], r_low[3];
    weighted(q_up, w, qu);
    weighted(q_low, w, ql);
    qmul(ql, qu, both);
    rotate(qu, upper, r_up);
    rotate(both, lower, r_low);
    for (int c = 0; c < 4; ++c) {
        out->upper_delta[c] = qu[c];
        out->lower_delta[c] = ql[c];
    }
    for (int c = 0; c < 3; ++c) {
        out->mid[c] = root[c] + r_up[c];
        out->end[c] = out->mid[c] + r_low[c];
    }
    return TENDON_OK;
}

/* The rotation of a model matrix (column-major), its columns normalised: Shepperd's method,
 * in double. 0 when a column's length is 0, infinite or NaN (a zero or non-finite scale, or a
 * non-finite element): an infinite column normalised is ∞/∞, NaN in the pose.
 *
 * The rotation is only ever used to conjugate (W⁻¹ ⊗ Δ ⊗ W), so a mirrored matrix (a negative
 * scale on the joint or above it: normalised columns of determinant −1, which Shepperd's method
 * would turn into a wrong rotation) is negated first: −W is a rotation, and conjugating by it is
 * conjugating by W. `own_scale` (NULL, or the joint's own scale in the pose) removes the sign of
 * the joint's own scale from its columns first, so that W is the frame the joint's local rotation
 * is expressed in, times that rotation (L_u ⊗ (W⁻¹ ⊗ Δ ⊗ W) needs exactly that). Matrices
 * without a mirror come out as before, bit for bit. */
static int matrix_rotation(const float *m, const float *own_scale, double q[4])
{
    double r[3][3]; /* r[row][col] */
    for (int c = 0; c < 3; ++c) {
        const double x = m[4 * c], y = m[4 * c + 1], z = m[4 * c + 2];
        const double l = tendon_det_sqrt((x * x + y * y) + z * z);
        if (!(l > 0.0 && l <= DBL_MAX))
            return 0;
        const double sl = own_scale && own_scale[c] < 0.0f ? -l : l;
        r[0][c] = x / sl;
        r[1][c] = y / sl;
        r[2][c] = z / sl;
    }
    const double det = (r[0][0] * (r[1][1] * r[2][2] - r[2][1] * r[1][2]) -
                        r[0][1] * (r[1][0] * r[2][2] - r[2][0] * r[1][2])) +
                       r[0][2] * (r[1][0] * r[2][1] - r[2][0] * r[1][1]);
    if (det < 0.0)
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < 3; ++c)
                r[i][c] = -r[i][c];
    const double tr = (r[0][0] + r[1][1]) + r[2][2];
    if (tr > 0.0) {
        const double s = 2.0 * tendon_det_sqrt(tr + 1.0);
        q[3] = 0.25 * s;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        const double s = 2.0 * tendon_det_sqrt(((1.0 + r[0][0]) - r[1][1]) - r[2][2]);
        q[3] = (r[2][1] - r[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[0][1] + r[1][0]) / s;
        q[2] = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        const double s = 2.0 * tendon_det_sqrt(((1.0 + r[1][1]) - r[0][0]) - r[2][2]);
        q[3] = (r[0][2] - r[2][0]) / s;
        q[0] = (r[0][1] + r[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[1][2] + r[2][1]) / s;
    } else {
        const double s = 2.0 * tendon_det_sqrt(((1.0 + r[2][2]) - r[0][0]) - r[1][1]);
        q[3] = (r[1][0] - r[0][1]) / s;
        q[0] = (r[0][2] + r[2][0]) / s;
        q[1] = (r[1][2] + r[2][1]) / s;
        q[2] = 0.25 * s;
    }
    tendon_ref_normalize(q);
    return 1;
}

/* Whether joint j is a strict descendant of joint a (parents come before children). */
static int descends(const int32_t *parents, size_t j, size_t a)
{
    if (j <= a)
        return 0;
    while (parents[j] >= 0 && (size_t)parents[j] > a)
        j = (size_t)parents[j];
    return parents[j] == (int32_t)a;
}

static void conj4(const double q[4], double o[4])
{
    o[0] = -q[0];
    o[1] = -q[1];
    o[2] = -q[2];
    o[3] = q[3];
}

tendon_status tendon_ik_two_bone_pose(const tendon_skeleton *skeleton, const float *model,
                                      size_t upper, size_t mid, size_t end,
                                      const float target[3], const float pole[3], double weight,
                                      tendon_pose *pose, tendon_ik_two_bone_result *result)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_ik_two_bone_pose";
    if (!skeleton || !model)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, !skeleton ? "skeleton" : "model");
    tendon_status s = tendon_check_pose(fn, "pose", pose);
    if (s != TENDON_OK)
        return s;
    const size_t n = tendon_skeleton_joint_count(skeleton);
    if (pose->joint_count != n)
        return tendon_fail(TENDON_ERR_COUNT, "%s: the pose has %zu joints and the skeleton %zu; "
                           "they must be equal", fn, pose->joint_count, n);
    if (upper >= n || mid >= n || end >= n)
        return tendon_fail(TENDON_ERR_RANGE, "%s: joints upper %zu, mid %zu, end %zu: each must "
                           "be below the skeleton's %zu joints", fn, upper, mid, end, n);
    const int32_t *parents = tendon_skeleton_parents(skeleton);
    if (!descends(parents, mid, upper) || !descends(parents, end, mid))
        return tendon_fail(TENDON_ERR_RANGE, "%s: joints %zu → %zu → %zu are not a chain: each "
                           "must be a descendant of the one before (the parent of %zu is %d and "
                           "of %zu is %d)", fn, upper, mid, end, mid, (int)parents[mid], end,
                           (int)parents[end]);
    /* W: the upper joint's model rotation; P: that of the mid joint's parent (W itself when mid
     * is upper's child; a twist joint's between them otherwise). */
    double w_rot[4], p_rot[4];
    const size_t mid_parent = (size_t)parents[mid];
    const float *upper_scale = pose->scale + 3 * upper;
    if (!matrix_rotation(model + 16 * upper, upper_scale, w_rot) ||
        !matrix_rotation(model + 16 * mid_parent, NULL, p_rot))
        return tendon_fail(TENDON_ERR_VALUE, "%s: the model matrix of joint %zu has a column of "
                           "length 0, infinity or NaN (a zero or non-finite scale, or a "
                           "non-finite element); it has no rotation to solve in", fn,
                           matrix_rotation(model + 16 * upper, upper_scale, w_rot) ? mid_parent
                                                                                 : upper);
    tendon_ik_two_bone_result r;
    if ((s = tendon_ik_two_bone(model + 16 * upper + 12, model + 16 * mid + 12,
                                model + 16 * end + 12, target, pole, weight, &r)) != TENDON_OK)
        return s;
    double du[4], dl[4], w_inv[4], du_inv[4], t1[4], t2[4], t3[4], lu[4], lm[4], out_u[4],
        out_m[4];
    tendon_ref_load4(r.upper_delta, du);
    tendon_ref_load4(r.lower_delta, dl);
    tendon_ref_load4(pose->rotation + 4 * upper, lu);
    tendon_ref_load4(pose->rotation + 4 * mid, lm);
    conj4(w_rot, w_inv);
    conj4(du, du_inv);
    /* upper: L_u ⊗ (W⁻¹ ⊗ Δu ⊗ W) */
    tendon_ref_multiply(w_inv, du, t1);
    tendon_ref_multiply(t1, w_rot, t2);
    tendon_ref_multiply(lu, t2, out_u);
    tendon_ref_normalize(out_u);
    /* mid: (P⁻¹ ⊗ Δu⁻¹ ⊗ Δl ⊗ Δu ⊗ P) ⊗ L_m */
    double p_inv[4];
    conj4(p_rot, p_inv);
    tendon_ref_multiply(p_inv, du_inv, t1);
    tendon_ref_multiply(t1, dl, t2);
    tendon_ref_multiply(t2, du, t3);
    tendon_ref_multiply(t3, p_rot, t1);
    tendon_ref_multiply(t1, lm, out_m);
    tendon_ref_normalize(out_m);
    tendon_ref_store4(out_u, pose->rotation + 4 * upper);
    tendon_ref_store4(out_m, pose->rotation + 4 * mid);
    if (result)
        *result = r;
    return TENDON_OK;
}

/*
 * tendon digest: determinism hashes. A fixed, seeded workload runs through every kernel of every
 * ISA that can run here; the outputs (NaNs canonicalised) are hashed with SHA-256 per kernel per
 * ISA. Every ISA must give the scalar hash, and `--expect FILE` checks it against a golden file.
 *
 * Adding a kernel is one function (build its inputs with the helpers below from its own seed,
 * call the kernel, feed every output to the sink) and one entry in KERNELS[].
 *
 * Nothing here calls libm: the workload is built with + − × ÷ only (dg_sqrt is Newton's method),
 * so every machine and compiler builds the same inputs (with -ffp-contract=off).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

const char USAGE_DIGEST[] =
    "usage: tendon digest [--expect [FILE] [--summary] | --golden] [--fpenv MODE]\n"
    "\n"
    "Run a fixed, seeded workload (tail-exercising counts up to 1003, misaligned starts, aliased\n"
    "outputs, adversarial quaternions and weights: antipodal, near the 0.9995 threshold, zero,\n"
    "non-unit, ±0, NaN, ±inf, denormals) through every kernel on every ISA that can run here,\n"
    "emulated ones included, and print one line per kernel and ISA:\n"
    "  KERNEL ISA SHA256\n"
    "NaN outputs are hashed as one canonical NaN. ISAs that cannot run here are listed on\n"
    "`# not run:` lines. The exit status is 1 if any ISA's hash differs from scalar's.\n"
    "\n"
    "  --expect FILE  also compare every hash with FILE (lines `KERNEL SHA256`, `#` comments), and\n"
    "                 exit 1 listing each kernel and ISA that differs, or a kernel missing from\n"
    "                 either side. Without FILE: the golden.digest installed with tendon\n"
    "                 (share/tendon; $TENDON_DATA_DIR first)\n"
    "  --summary      with --expect: no table, one verdict line on stdout (every kernel x ISA\n"
    "                 matches, or how many differ; each difference is still named on stderr)\n"
    "  --golden       print the scalar hashes in the golden-file format instead (refused, exit 1,\n"
    "                 when the ISAs here disagree)\n"
    "  --fpenv MODE   set the tool's floating-point environment first: default, ftz, daz,\n"
    "                 ftz+daz, down, up or zero (round toward -inf, +inf, 0). The digest calls\n"
    "                 the raw kernel tables, which run in the caller's environment, so each\n"
    "                 kernel's workload runs between tendon_fpenv_enter and tendon_fpenv_leave\n"
    "                 (tendon/fpenv.h), and the mode is checked to be back after each: the\n"
    "                 hashes must still be the golden ones\n"
    "A line `# fp environment: ...` names the environment the command ran in (on stderr with\n"
    "--golden).\n";

/* ---- the sink: SHA-256 of the outputs, NaNs canonical, little-endian ---------------------- */

typedef struct dg_sink {
    struct sha256_ctx sha;
} dg_sink;

static void dg_hash_floats(dg_sink *s, const float *v, size_t n)
{
    uint8_t buf[1024];
    size_t used = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        if ((bits & 0x7fffffffu) > 0x7f800000u)
            bits = 0x7fc00000u; /* sign and payload of a NaN are not promised */
        buf[used++] = (uint8_t)bits;
        buf[used++] = (uint8_t)(bits >> 8);
        buf[used++] = (uint8_t)(bits >> 16);
        buf[used++] = (uint8_t)(bits >> 24);
        if (used == sizeof buf) {
            sha256_update(&s->sha, used, buf);
            used = 0;
        }
    }
    if (used)
        sha256_update(&s->sha, used, buf);
}

/* ---- the workload ------------------------------------------------------------------------- */

/* splitmix64: the workload's only source of randomness. */
typedef struct dg_rng {
    uint64_t state;
} dg_rng;

static uint64_t dg_next(dg_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double dg_unit(dg_rng *r) { return (double)(dg_next(r) >> 11) * 0x1.0p-53; }
static double dg_range(dg_rng *r, double lo, double hi) { return lo + (hi - lo) * dg_unit(r); }
static unsigned dg_below(dg_rng *r, unsigned n) { return (unsigned)(dg_next(r) % n); }

/* √s for s > 0 by Newton's method from a power-of-two guess: + − × ÷ only, the same bits on
 * every machine. Used to build (nearly) unit inputs, never to judge an output. */
static double dg_sqrt(double s)
{
    if (!(s > 0.0 && s < 1e300))
        return 1.0; /* never reached by the workload; keeps a bad call finite */
    double y = 1.0;
    while (y * y > 4.0 * s)
        y *= 0.5;
    while (y * y < 0.25 * s)
        y *= 2.0;
    for (int i = 0; i < 8; ++i)
        y = 0.5 * (y + s / y);
    return y;
}

static void dg_normalise(double q[4])
{
    const double len = dg_sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    for (int c = 0; c < 4; ++c)
        q[c] /= len;
}

static void dg_random_unit(dg_rng *r, double q[4])
{
    for (;;) {
        for (int c = 0; c < 4; ++c)
            q[c] = dg_range(r, -1.0, 1.0);
        const double s = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
        if (s > 1e-4 && s <= 1.0)
            break;
    }
    dg_normalise(q);
}

static void dg_store(const double q[4], float *out)
{
    for (int c = 0; c < 4; ++c)
        out[c] = (float)q[c];
}

static const float F_NAN = __builtin_nanf("");
static const float F_INF = __builtin_inff();

/* Unusual single values a component may take. */
static const float SPECIAL_FLOATS[] = {0.0f,   -0.0f,    1.0f,    -1.0f,  1e-40f, -1e-45f, 1e-38f,
                                       3e38f,  -3e38f,   1e-20f,  1e20f,  0.5f,   F_NAN,   F_INF,
                                       -F_INF, 0x1p-126f};

/*
 * Quaternion pairs (a[i], b[i]): half plain random unit pairs, half adversarial — antipodal,
 * identical, near the 0.9995 straight-blend threshold (both sides of it, and mirrored to the
 * other hemisphere), tiny angles, orthogonal and barely-negative dots, zero, non-unit, ±0,
 * NaN, ±inf, denormal and huge components.
 */
static void dg_quat_pairs(uint64_t seed, float *a, float *b, size_t n)
{
    dg_rng r = {seed};
    for (size_t i = 0; i < n; ++i) {
        double qa[4], qb[4], p[4];
        dg_random_unit(&r, qa);
        dg_random_unit(&r, qb);
        const unsigned kind = dg_below(&r, 28);
        switch (kind) {
        case 0: /* antipodal */
            for (int c = 0; c < 4; ++c)
                qb[c] = -qa[c];
            break;
        case 1: /* identical */
            memcpy(qb, qa, sizeof qb);
            break;
        case 2:
        case 3:
        case 4:
        case 5: { /* around dot 0.9995: b = normalise(a + e·p), p ⟂ a, dot = 1/√(1+e²) */
            dg_random_unit(&r, p);
            const double d = ((qa[0] * p[0] + qa[1] * p[1]) + qa[2] * p[2]) + qa[3] * p[3];
            for (int c = 0; c < 4; ++c)
                p[c] -= d * qa[c];
            dg_normalise(p);
            const double e = kind == 5 ? dg_range(&r, 0.0316, 0.03167)    /* ±1e-6 around it */
                                       : dg_range(&r, 0.0312, 0.0321);    /* ±1.5e-5 */
            for (int c = 0; c < 4; ++c)
                qb[c] = qa[c] + e * p[c];
            dg_normalise(qb);
            if (kind == 4) /* the same, across the hemisphere: the flip path */
                for (int c = 0; c < 4; ++c)
                    qb[c] = -qb[c];
            break;
        }
        case 6: /* a tiny angle */
            for (int c = 0; c < 4; ++c)
                qb[c] = qa[c] + dg_range(&r, -1e-6, 1e-6);
            break;
        case 7: /* orthogonal (dot exactly 0) and barely negative */
            qa[0] = 1.0, qa[1] = 0.0, qa[2] = 0.0, qa[3] = 0.0;
            qb[0] = dg_below(&r, 2) ? -0x1p-30 : 0.0, qb[1] = 0.0, qb[2] = 0.0, qb[3] = 1.0;
            break;
        case 8: /* zero */
            for (int c = 0; c < 4; ++c)
                qa[c] = dg_below(&r, 2) ? -0.0 : 0.0;
            if (dg_below(&r, 2))
                memcpy(qb, qa, sizeof qb);
            break;
        case 9: /* non-unit */
            for (int c = 0; c < 4; ++c) {
                qa[c] *= dg_range(&r, 0.001, 10.0);
                qb[c] *= dg_range(&r, 0.5, 1000.0);
            }
            break;
        case 10: /* signed zeros on the axes */
            for (int c = 0; c < 4; ++c) {
                qa[c] = dg_below(&r, 2) ? -0.0 : 0.0;
                qb[c] = dg_below(&r, 2) ? -0.0 : 0.0;
            }
            qa[dg_below(&r, 4)] = dg_below(&r, 2) ? -1.0 : 1.0;
            qb[dg_below(&r, 4)] = dg_below(&r, 2) ? -1.0 : 1.0;
            break;
        case 11: /* whole-denormal or tiny quaternions */
            for (int c = 0; c < 4; ++c) {
                qa[c] *= 1e-39;
                qb[c] *= dg_below(&r, 2) ? 1e-42 : 1.0;
            }
            break;
        case 12: /* huge components */
            for (int c = 0; c < 4; ++c)
                qa[c] *= 3e38;
            break;
        default:
            if (kind < 20) {
                /* one special component somewhere (NaN, ±inf, denormal, ±0, huge…) */
                dg_store(qa, a + 4 * i);
                dg_store(qb, b + 4 * i);
                float *q = dg_below(&r, 2) ? a + 4 * i : b + 4 * i;
                q[dg_below(&r, 4)] =
                    SPECIAL_FLOATS[dg_below(&r, sizeof SPECIAL_FLOATS / sizeof SPECIAL_FLOATS[0])];
                continue;
            }
            break; /* plain random unit pair */
        }
        dg_store(qa, a + 4 * i);
        dg_store(qb, b + 4 * i);
    }
}

/* Blend weights: mostly uniform in [0, 1], a quarter from the edge values. */
static const double SPECIAL_WEIGHTS[] = {
    0.0,    -0.0,  1.0,          0.5,      0.25,    1e-300, 0x1p-1074, 1.0 - 0x1p-53, 0x1p-53,
    -0.25,  1.25,  3.0,          -1e300,   1e300,   __builtin_nan(""), __builtin_inf(),
    -__builtin_inf(), 1.0 / 3.0, 0.9995,   2.0};
enum { SPECIAL_WEIGHT_COUNT = sizeof SPECIAL_WEIGHTS / sizeof SPECIAL_WEIGHTS[0] };

static void dg_weights(uint64_t seed, double *t, size_t n)
{
    dg_rng r = {seed};
    for (size_t i = 0; i < n; ++i)
        t[i] = dg_below(&r, 4) == 0 ? SPECIAL_WEIGHTS[dg_below(&r, SPECIAL_WEIGHT_COUNT)]
                                    : dg_unit(&r);
}

/* Per-joint weights of the masked forms: as dg_weights, as floats. */
static void dg_joint_weights(uint64_t seed, float *w, size_t n)
{
    dg_rng r = {seed};
    for (size_t i = 0; i < n; ++i)
        w[i] = (float)(dg_below(&r, 3) == 0 ? SPECIAL_WEIGHTS[dg_below(&r, SPECIAL_WEIGHT_COUNT)]
                                            : dg_unit(&r));
}

/* Translation- or scale-like vectors: random in [lo, hi], one in eight special. */
static void dg_vectors(dg_rng *r, float *v, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; ++i)
        v[i] = dg_below(r, 8) == 0
                   ? SPECIAL_FLOATS[dg_below(r, sizeof SPECIAL_FLOATS / sizeof SPECIAL_FLOATS[0])]
                   : (float)dg_range(r, lo, hi);
}

/* Room for the largest run: 1003 elements from offset 7. */
enum { DG_N = 1024 };

/* The calls each kernel makes: every tail length for W = 2, 4, 8 (and 16), odd starts (so the
 * arrays are misaligned), and 1003. */
static const struct dg_span {
    size_t count, offset;
} SPANS[] = {{0, 0},  {1, 0},  {1, 3},  {2, 1},  {3, 0},  {4, 2},  {5, 1},  {6, 0},
             {7, 0},  {8, 3},  {9, 5},  {10, 2}, {11, 1}, {15, 1}, {16, 0}, {17, 2},
             {23, 4}, {31, 3}, {32, 1}, {33, 0}, {63, 7}, {64, 4}, {65, 2}, {1003, 0},
             {1003, 5}};
enum { SPAN_COUNT = sizeof SPANS / sizeof SPANS[0] };

/* The weights a whole-pose call is made with (t of blend, weight of add). */
static const double POSE_WEIGHTS[] = {
    0.0,   -0.0,  1.0,   0.5,    0.25,  0.7853981633974483, 1e-300, 0x1p-1074, 1.0 - 0x1p-53,
    -0.5,  1.5,   2.0,   1e30,   -1e300, __builtin_nan(""), __builtin_inf(), -__builtin_inf()};
enum { POSE_WEIGHT_COUNT = sizeof POSE_WEIGHTS / sizeof POSE_WEIGHTS[0] };

/* The spans a whole-pose call covers for each weight (a subset of SPANS, to stay quick). */
static const struct dg_span POSE_SPANS[] = {{1, 3},  {2, 1},  {3, 0},  {5, 1},   {8, 3},
                                            {9, 5},  {17, 2}, {33, 0}, {1003, 0}, {1003, 5}};
enum { POSE_SPAN_COUNT = sizeof POSE_SPANS / sizeof POSE_SPANS[0] };

typedef void (*quat_t_fn)(const float *, const float *, const double *, size_t, float *);
typedef void (*quat_fn)(const float *, const float *, size_t, float *);

typedef void (*quat_tf_fn)(const float *, const float *, const float *, size_t, float *);

/*
 * A quaternion kernel over every span, then with out == a and out == b over 1003 elements: one
 * of with_t (t in double), with_tf (the float32 tier: the same t rounded to float, at an odd
 * offset so the kernel reads it unaligned) or without_t (the product).
 */
static int dg_quat_kernel_any(quat_t_fn with_t, quat_tf_fn with_tf, quat_fn without_t,
                              uint64_t seed, dg_sink *s)
{
    float *a = malloc(4 * DG_N * sizeof *a), *b = malloc(4 * DG_N * sizeof *b);
    float *out = malloc(4 * DG_N * sizeof *out);
    double *t = malloc(DG_N * sizeof *t);
    float *tf_block = malloc((DG_N + 1) * sizeof *tf_block);
    int rc = -1;
    if (!a || !b || !out || !t || !tf_block)
        goto done;
    float *tf = tf_block + 1;
    dg_quat_pairs(seed, a, b, DG_N);
    dg_weights(seed ^ 0x7777u, t, DG_N);
    for (size_t i = 0; i < DG_N; ++i)
        tf[i] = (float)t[i];
    for (int i = 0; i < SPAN_COUNT + 2; ++i) {
        /* the spans, then out exactly a (i = SPAN_COUNT) and exactly b (SPAN_COUNT + 1) */
        const int alias = i - SPAN_COUNT;
        const size_t n = alias < 0 ? SPANS[i].count : 1003, o = alias < 0 ? SPANS[i].offset : 1;
        if (alias < 0)
            memset(out, 0, 4 * DG_N * sizeof *out);
        else
            memcpy(out, alias == 0 ? a : b, 4 * DG_N * sizeof *out);
        const float *pa = alias == 0 ? out : a, *pb = alias == 1 ? out : b;
        if (with_t)
            with_t(pa + 4 * o, pb + 4 * o, t + o, n, out + 4 * o);
        else if (with_tf)
            with_tf(pa + 4 * o, pb + 4 * o, tf + o, n, out + 4 * o);
        else
            without_t(pa + 4 * o, pb + 4 * o, n, out + 4 * o);
        dg_hash_floats(s, out + 4 * o, 4 * n);
    }
    rc = 0;
done:
    free(a), free(b), free(out), free(t), free(tf_block);
    return rc;
}

static int dg_quat_kernel(quat_t_fn with_t, quat_fn without_t, uint64_t seed, dg_sink *s)
{
    return dg_quat_kernel_any(with_t, NULL, without_t, seed, s);
}

static int dg_quat_slerp(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel(k->quat_slerp, NULL, 0x51e4b0001u, s);
}

static int dg_quat_nlerp(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel(k->quat_nlerp, NULL, 0x4e1e4b0002u, s);
}

static int dg_quat_multiply(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel(NULL, k->quat_multiply, 0x3017b0003u, s);
}

/* ---- the float32 tier (docs/fast-tier.md) ---- */

static int dg_quat_slerp_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel_any(NULL, k->quat_slerp_f32, NULL, 0x51e4bf001u, s);
}

static int dg_quat_nlerp_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel_any(NULL, k->quat_nlerp_f32, NULL, 0x4e1e4bf002u, s);
}

static int dg_quat_multiply_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_quat_kernel_any(NULL, NULL, k->quat_multiply_f32, 0x3017bf003u, s);
}

/* Two poses of DG_N joints (translations, rotation pairs, scales with specials), a third for
 * the output, and per-joint weights. One allocation; free(w->block). */
typedef struct dg_poses {
    tendon_pose a, b, out;
    float *joint_weights;
    float *block;
} dg_poses;

static int dg_make_poses(uint64_t seed, dg_poses *w)
{
    const size_t n = DG_N;
    float *p = w->block = malloc((3 * (3 + 4 + 3) + 1) * n * sizeof *p);
    if (!p)
        return -1;
    tendon_pose *poses[3] = {&w->a, &w->b, &w->out};
    for (int i = 0; i < 3; ++i) {
        poses[i]->translation = p, p += 3 * n;
        poses[i]->rotation = p, p += 4 * n;
        poses[i]->scale = p, p += 3 * n;
        poses[i]->joint_count = n;
    }
    w->joint_weights = p;
    dg_rng r = {seed};
    dg_quat_pairs(seed ^ 0x1234u, w->a.rotation, w->b.rotation, n);
    dg_vectors(&r, w->a.translation, 3 * n, -10.0, 10.0);
    dg_vectors(&r, w->b.translation, 3 * n, -10.0, 10.0);
    dg_vectors(&r, w->a.scale, 3 * n, -3.0, 3.0);
    dg_vectors(&r, w->b.scale, 3 * n, 0.01, 3.0);
    dg_joint_weights(seed ^ 0x5678u, w->joint_weights, n);
    return 0;
}

/* A view of joints [o, o + n) of a pose. */
static tendon_pose dg_view(const tendon_pose *p, size_t o, size_t n)
{
    tendon_pose v = {p->translation + 3 * o, p->rotation + 4 * o, p->scale + 3 * o, n};
    return v;
}

static void dg_hash_pose(dg_sink *s, const tendon_pose *p)
{
    dg_hash_floats(s, p->translation, 3 * p->joint_count);
    dg_hash_floats(s, p->rotation, 4 * p->joint_count);
    dg_hash_floats(s, p->scale, 3 * p->joint_count);
}

typedef void (*pose_fn)(const tendon_pose *, const tendon_pose *, double, const float *, size_t,
                        tendon_pose *);

/* A pose kernel for every weight over POSE_SPANS, then with out == a and out == b. */
static int dg_pose_kernel(pose_fn fn, int masked, uint64_t seed, dg_sink *s)
{
    dg_poses w;
    if (dg_make_poses(seed, &w) != 0)
        return -1;
    for (int i = 0; i < POSE_WEIGHT_COUNT; ++i) {
        for (int j = 0; j < POSE_SPAN_COUNT; ++j) {
            const size_t n = POSE_SPANS[j].count, o = POSE_SPANS[j].offset;
            const tendon_pose a = dg_view(&w.a, o, n), b = dg_view(&w.b, o, n);
            tendon_pose out = dg_view(&w.out, o, n);
            fn(&a, &b, POSE_WEIGHTS[i], masked ? w.joint_weights + o : NULL, n, &out);
            dg_hash_pose(s, &out);
        }
    }
    for (int which = 0; which < 2; ++which) {
        const tendon_pose *src = which == 0 ? &w.a : &w.b;
        memcpy(w.out.translation, src->translation, 3 * DG_N * sizeof(float));
        memcpy(w.out.rotation, src->rotation, 4 * DG_N * sizeof(float));
        memcpy(w.out.scale, src->scale, 3 * DG_N * sizeof(float));
        tendon_pose out = dg_view(&w.out, 1, 1003);
        const tendon_pose a = which == 0 ? out : dg_view(&w.a, 1, 1003);
        const tendon_pose b = which == 1 ? out : dg_view(&w.b, 1, 1003);
        fn(&a, &b, 0.375, masked ? w.joint_weights + 1 : NULL, 1003, &out);
        dg_hash_pose(s, &out);
    }
    free(w.block);
    return 0;
}

/*
 * A kernel with a weight per joint given (pose_blend_weighted and its kin): for every weight of
 * POSE_WEIGHTS over POSE_SPANS, the weights are that weight times the workload's joint weights
 * in double (exact) or rounded to float (f32) — a weight of every magnitude, sign and zero —,
 * then in place (out == a).
 */
typedef void (*pose_w_fn)(const tendon_pose *, const tendon_pose *, const double *, size_t,
                          tendon_pose *);
typedef void (*pose_wf_fn)(const tendon_pose *, const tendon_pose *, const float *, size_t,
                           tendon_pose *);
/* the rotations alone (quat_add_weighted and its twin): only the rotations are hashed */
typedef void (*quat_w_fn)(const float *, const float *, const double *, size_t, float *);
typedef void (*quat_wf_fn)(const float *, const float *, const float *, size_t, float *);

/* One call of whichever of the four is given, and its output hashed. */
static void dg_weighted_call(pose_w_fn fn, pose_wf_fn fnf, quat_w_fn qfn, quat_wf_fn qfnf,
                             const tendon_pose *a, const tendon_pose *b, const double *wd,
                             const float *wf, size_t n, tendon_pose *out, dg_sink *s)
{
    if (fn)
        fn(a, b, wd, n, out);
    else if (fnf)
        fnf(a, b, wf, n, out);
    else if (qfn)
        qfn(a->rotation, b->rotation, wd, n, out->rotation);
    else
        qfnf(a->rotation, b->rotation, wf, n, out->rotation);
    if (fn || fnf)
        dg_hash_pose(s, out);
    else
        dg_hash_floats(s, out->rotation, 4 * n);
}

static int dg_pose_weighted(pose_w_fn fn, pose_wf_fn fnf, quat_w_fn qfn, quat_wf_fn qfnf,
                            uint64_t seed, dg_sink *s)
{
    dg_poses w;
    if (dg_make_poses(seed, &w) != 0)
        return -1;
    double *wd = malloc(DG_N * sizeof *wd);
    float *wf = malloc(DG_N * sizeof *wf);
    if (!wd || !wf) {
        free(wd), free(wf), free(w.block);
        return -1;
    }
    for (int i = 0; i < POSE_WEIGHT_COUNT; ++i) {
        for (size_t j = 0; j < DG_N; ++j) {
            wd[j] = POSE_WEIGHTS[i] * (double)w.joint_weights[j];
            wf[j] = (float)wd[j];
        }
        for (int j = 0; j < POSE_SPAN_COUNT; ++j) {
            const size_t n = POSE_SPANS[j].count, o = POSE_SPANS[j].offset;
            const tendon_pose a = dg_view(&w.a, o, n), b = dg_view(&w.b, o, n);
            tendon_pose out = dg_view(&w.out, o, n);
            dg_weighted_call(fn, fnf, qfn, qfnf, &a, &b, wd + o, wf + o, n, &out, s);
        }
    }
    memcpy(w.out.translation, w.a.translation, 3 * DG_N * sizeof(float));
    memcpy(w.out.rotation, w.a.rotation, 4 * DG_N * sizeof(float));
    memcpy(w.out.scale, w.a.scale, 3 * DG_N * sizeof(float));
    tendon_pose out = dg_view(&w.out, 1, 1003);
    const tendon_pose b = dg_view(&w.b, 1, 1003);
    dg_weighted_call(fn, fnf, qfn, qfnf, &out, &b, wd + 1, wf + 1, 1003, &out, s);
    free(wd), free(wf), free(w.block);
    return 0;
}

static int dg_pose_blend_weighted(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(k->pose_blend_weighted, NULL, NULL, NULL, 0xb1e4d0008u, s);
}

static int dg_pose_add_weighted(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(k->pose_add_weighted, NULL, NULL, NULL, 0xadd0009u, s);
}

static int dg_pose_blend_weighted_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(NULL, k->pose_blend_weighted_f32, NULL, NULL, 0xb1e4df008u, s);
}

static int dg_pose_add_weighted_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(NULL, k->pose_add_weighted_f32, NULL, NULL, 0xaddf009u, s);
}

static int dg_quat_add_weighted(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(NULL, NULL, k->quat_add_weighted, NULL, 0xadd000au, s);
}

static int dg_quat_add_weighted_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_weighted(NULL, NULL, NULL, k->quat_add_weighted_f32, 0xaddf00au, s);
}

static int dg_pose_blend(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend, 0, 0xb1e4d0004u, s);
}

static int dg_pose_blend_masked(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend, 1, 0xb1e4d0005u, s);
}

static int dg_pose_add(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_add, 0, 0xadd0006u, s);
}

static int dg_pose_add_masked(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_add, 1, 0xadd0007u, s);
}

static int dg_pose_blend_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend_f32, 0, 0xb1e4df004u, s);
}

static int dg_pose_blend_masked_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend_f32, 1, 0xb1e4df005u, s);
}

static int dg_pose_blend_nlerp_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend_nlerp_f32, 0, 0xb1e4df008u, s);
}

static int dg_pose_blend_nlerp_masked_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_blend_nlerp_f32, 1, 0xb1e4df009u, s);
}

static int dg_pose_add_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_add_f32, 0, 0xaddf006u, s);
}

static int dg_pose_add_masked_f32(const tendon_kernels *k, dg_sink *s)
{
    return dg_pose_kernel(k->pose_add_f32, 1, 0xaddf007u, s);
}

/*
 * N-layer blending: three blended layers (one with per-joint weights) and an additive one over
 * two pose sets, at several layer weights (some summing below the threshold, one NaN, one
 * huge) over POSE_SPANS, then with out exactly the first layer's pose.
 */
static int dg_pose_blend_layers_f32(const tendon_kernels *k, dg_sink *s)
{
    dg_poses w, v;
    if (dg_make_poses(0x1a7e4f00au, &w) != 0)
        return -1;
    if (dg_make_poses(0x1a7e4f00bu, &v) != 0) {
        free(w.block);
        return -1;
    }
    static const double SETS[][4] = {{0.5, 0.3, 0.2, 0.7},  {0.02, 0.01, 0.0, 1.0},
                                     {1.0, -1.0, 3.0, 2.5}, {__builtin_nan(""), 0.5, 0.5, 0.5},
                                     {1e300, 1.0, 0.25, 1e300}};
    for (size_t i = 0; i < sizeof SETS / sizeof SETS[0]; ++i) {
        for (int j = 0; j < POSE_SPAN_COUNT; ++j) {
            const size_t n = POSE_SPANS[j].count, o = POSE_SPANS[j].offset;
            const tendon_pose a = dg_view(&w.a, o, n), b = dg_view(&w.b, o, n);
            const tendon_pose c = dg_view(&v.a, o, n), d = dg_view(&v.b, o, n);
            const tendon_pose rest = dg_view(&v.out, o, n);
            tendon_pose out = dg_view(&w.out, o, n);
            const tendon_blend_layer layers[3] = {{&a, SETS[i][0], NULL},
                                                  {&b, SETS[i][1], w.joint_weights + o},
                                                  {&c, SETS[i][2], NULL}};
            const tendon_blend_layer add = {&d, SETS[i][3], v.joint_weights + o};
            const tendon_blend_layers_job job = {layers, 3, &add, 1, &rest, i == 2 ? 2.0 : 0.1};
            k->pose_blend_layers_f32(&job, n, &out);
            dg_hash_pose(s, &out);
        }
    }
    tendon_pose out = dg_view(&w.out, 1, 1003), b = dg_view(&w.b, 1, 1003);
    tendon_pose rest = dg_view(&v.out, 1, 1003);
    memcpy(w.out.translation, w.a.translation, 3 * DG_N * sizeof(float));
    memcpy(w.out.rotation, w.a.rotation, 4 * DG_N * sizeof(float));
    memcpy(w.out.scale, w.a.scale, 3 * DG_N * sizeof(float));
    const tendon_blend_layer layers[2] = {{&out, 0.6, NULL}, {&b, 0.4, w.joint_weights + 1}};
    const tendon_blend_layers_job job = {layers, 2, NULL, 0, &rest, 0.1};
    k->pose_blend_layers_f32(&job, 1003, &out);
    dg_hash_pose(s, &out);
    free(w.block);
    free(v.block);
    return 0;
}

/* ---- the matrix kernels: local / model matrices, palette, skinning, morph targets --------- */

/* Matrices with random elements in ±2, one element in eight special (dg_vectors). */
static float *dg_matrices(uint64_t seed, size_t count)
{
    float *m = malloc(16 * count * sizeof *m);
    if (m) {
        dg_rng r = {seed};
        dg_vectors(&r, m, 16 * count, -2.0, 2.0);
    }
    return m;
}

/* Random parents for n joints: −1 for joint 0 and ~1 in 10 others, else an earlier joint (a
 * chain link, parent j − 1, half the time: the path the SIMD model pass keeps in registers). */
static void dg_parents(dg_rng *r, int32_t *parents, size_t n)
{
    for (size_t j = 0; j < n; ++j)
        parents[j] = j == 0 || dg_below(r, 10) == 0 ? -1
                     : dg_below(r, 2)               ? (int32_t)(j - 1)
                                                    : (int32_t)dg_below(r, (unsigned)j);
}

/* Local matrices of DG_N joints' poses (special components included) over every span. */
static int dg_local_matrices(const tendon_kernels *k, dg_sink *s)
{
    dg_poses w;
    float *out = malloc(16 * DG_N * sizeof *out);
    if (!out || dg_make_poses(0x10ca10008u, &w) != 0) {
        free(out);
        return -1;
    }
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, 16 * DG_N * sizeof *out);
        k->local_matrices(w.a.translation + 3 * o, w.a.rotation + 4 * o, w.a.scale + 3 * o, n,
                          out + 16 * o);
        dg_hash_floats(s, out + 16 * o, 16 * n);
    }
    free(out);
    free(w.block);
    return 0;
}

/* The spring rig's matrices a time per lane over every span: no parent, one parent matrix, and
 * parent planes (rows 0-2 of random matrices); the model planes, then the local planes. */
static int dg_local_model_lanes(const tendon_kernels *k, dg_sink *s)
{
    dg_poses w;
    float *parent = dg_matrices(0x1a7e0000bu, DG_N); /* as planes: element e at [e·DG_N + i] */
    float *model = malloc(16 * DG_N * sizeof *model), *local = malloc(16 * DG_N * sizeof *local);
    if (!parent || !model || !local || dg_make_poses(0x1a7e0000cu, &w) != 0) {
        free(parent), free(model), free(local);
        return -1;
    }
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (int kind = 0; kind < 3; ++kind) {
            memset(model, 0, 16 * DG_N * sizeof *model);
            memset(local, 0, 16 * DG_N * sizeof *local);
            const float *pp = kind == 0 ? NULL : kind == 1 ? parent + 16 * o : parent + o;
            k->local_model_lanes(w.a.translation + 3 * o, w.a.rotation + 4 * o,
                                 w.a.scale + 3 * o, n, pp, kind == 2 ? DG_N : 0, local + o,
                                 model + o, DG_N);
            for (int e = 0; e < 16; ++e)
                if (e % 4 != 3)
                    dg_hash_floats(s, model + (size_t)e * DG_N + o, n);
            if (kind == 0)
                for (int e = 0; e < 16; ++e)
                    if (e % 4 != 3)
                        dg_hash_floats(s, local + (size_t)e * DG_N + o, n);
        }
    }
    free(parent), free(model), free(local), free(w.block);
    return 0;
}

/* Points through matrices a lane each over every span: matrix planes or one matrix, point planes
 * or one point, out of place, then in place (out = the point planes). */
static int dg_transform_points_lanes(const tendon_kernels *k, dg_sink *s)
{
    float *m = dg_matrices(0x7a9e0000du, DG_N); /* as planes: element e at [e·DG_N + i] */
    float *p = dg_matrices(0x7a9e0000eu, DG_N / 4), *out = malloc(3 * DG_N * sizeof *out);
    if (!m || !p || !out) {
        free(m), free(p), free(out);
        return -1;
    }
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (int form = 0; form < 4; ++form) {
            const int mp = form & 1, pp = form & 2;
            memset(out, 0, 3 * DG_N * sizeof *out);
            k->transform_points_lanes(mp ? m + o : m + 16 * o, mp ? DG_N : 0,
                                      pp ? p + o : p + 3 * o, pp ? DG_N : 0, n, out + o, DG_N);
            for (int c = 0; c < 3; ++c)
                dg_hash_floats(s, out + (size_t)c * DG_N + o, n);
        }
        memcpy(out, p, 3 * DG_N * sizeof *out);
        k->transform_points_lanes(m + o, DG_N, out + o, DG_N, n, out + o, DG_N);
        for (int c = 0; c < 3; ++c)
            dg_hash_floats(s, out + (size_t)c * DG_N + o, n);
    }
    free(m), free(p), free(out);
    return 0;
}

/* Model matrices over every span: no root, a plain root, a root with specials; then in place
 * and a partial update from the middle. */
static int dg_model_matrices(const tendon_kernels *k, dg_sink *s)
{
    float *local = dg_matrices(0x30de10009u, DG_N), *roots = dg_matrices(0x2007000au, 2);
    float *model = malloc(16 * DG_N * sizeof *model);
    int32_t *parents = malloc(DG_N * sizeof *parents);
    int rc = -1;
    if (!local || !roots || !model || !parents)
        goto done;
    static const float plain_root[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 3, -4, 5, 1};
    memcpy(roots, plain_root, sizeof plain_root);
    dg_rng r = {0x9a2e7000bu};
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        dg_parents(&r, parents, n);
        for (int root = 0; root < 3; ++root) {
            const float *rm = root == 0 ? NULL : roots + 16 * (root - 1);
            memset(model, 0, 16 * DG_N * sizeof *model);
            k->model_matrices(local + 16 * o, parents, rm, 0, n, model + 16 * o);
            dg_hash_floats(s, model + 16 * o, 16 * n);
            k->model_matrices(local + 16 * o, parents, rm, n / 2, n, model + 16 * o);
            dg_hash_floats(s, model + 16 * o, 16 * n);
            memcpy(model + 16 * o, local + 16 * o, 16 * n * sizeof *model);
            k->model_matrices(model + 16 * o, parents, rm, 0, n, model + 16 * o);
            dg_hash_floats(s, model + 16 * o, 16 * n);
        }
    }
    rc = 0;
done:
    free(local), free(roots), free(model), free(parents);
    return rc;
}

/* The ordered pass over every span, in the parents' level order (by depth, joint order within a
 * depth), with each root matrix, out of place and in place. */
static int dg_model_matrices_ordered(const tendon_kernels *k, dg_sink *s)
{
    float *local = dg_matrices(0x30de1000eu, DG_N), *model = malloc(16 * DG_N * sizeof *model);
    int32_t *parents = malloc(DG_N * sizeof *parents);
    uint32_t *order = malloc(DG_N * sizeof *order), *depth = malloc(DG_N * sizeof *depth);
    int rc = -1;
    if (!local || !model || !parents || !order || !depth)
        goto done;
    static const float root[16] = {0, 0, -1, 0, 0, 3, 0, 0, 1, 0, 0, 0, -2, 1, 0.5f, 1};
    dg_rng r = {0x9a2e7000fu};
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        dg_parents(&r, parents, n);
        size_t k_out = 0, max_depth = 0;
        for (size_t j = 0; j < n; ++j) {
            depth[j] = parents[j] < 0 ? 0 : depth[parents[j]] + 1;
            max_depth = depth[j] > max_depth ? depth[j] : max_depth;
        }
        for (size_t d = 0; d <= max_depth && n; ++d)
            for (size_t j = 0; j < n; ++j)
                if (depth[j] == d)
                    order[k_out++] = (uint32_t)j;
        for (int with_root = 0; with_root < 2; ++with_root) {
            const float *rm = with_root ? root : NULL;
            memset(model, 0, 16 * DG_N * sizeof *model);
            k->model_matrices_ordered(local + 16 * o, parents, rm, order, n, model + 16 * o);
            dg_hash_floats(s, model + 16 * o, 16 * n);
            memcpy(model + 16 * o, local + 16 * o, 16 * n * sizeof *model);
            k->model_matrices_ordered(model + 16 * o, parents, rm, order, n, model + 16 * o);
            dg_hash_floats(s, model + 16 * o, 16 * n);
        }
    }
    rc = 0;
done:
    free(local), free(model), free(parents), free(order), free(depth);
    return rc;
}

/* The palette over every span: random model and inverse bind matrices, random joint_of. */
static int dg_palette(const tendon_kernels *k, dg_sink *s)
{
    float *model = dg_matrices(0x9a1e7000cu, DG_N), *ibm = dg_matrices(0x1b3d000du, DG_N);
    float *out = malloc(16 * DG_N * sizeof *out);
    uint32_t *joint_of = malloc(DG_N * sizeof *joint_of);
    int rc = -1;
    if (!model || !ibm || !out || !joint_of)
        goto done;
    dg_rng r = {0x10f000eu};
    for (size_t i = 0; i < DG_N; ++i)
        joint_of[i] = dg_below(&r, DG_N);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, 16 * DG_N * sizeof *out);
        k->palette(model, joint_of + o, ibm + 16 * o, n, out + 16 * o);
        dg_hash_floats(s, out + 16 * o, 16 * n);
    }
    rc = 0;
done:
    free(model), free(ibm), free(out), free(joint_of);
    return rc;
}

/* The palette through the binding's splat table of the same inverse bind matrices (the
 * layout tendon_kernels.palette_splat documents): the palette line's products. */
static int dg_palette_splat(const tendon_kernels *k, dg_sink *s)
{
    float *model = dg_matrices(0x9a1e7000cu, DG_N), *ibm = dg_matrices(0x1b3d000du, DG_N);
    float *splat = malloc(64 * DG_N * sizeof *splat), *out = malloc(16 * DG_N * sizeof *out);
    uint32_t *joint_of = malloc(DG_N * sizeof *joint_of);
    int rc = -1;
    if (!model || !ibm || !splat || !out || !joint_of)
        goto done;
    dg_rng r = {0x10f0010u};
    for (size_t i = 0; i < DG_N; ++i)
        joint_of[i] = dg_below(&r, DG_N);
    for (size_t j = 0; j < DG_N; ++j)
        for (int e = 0; e < 4; ++e)
            for (int c = 0; c < 4; ++c)
                for (int l = 0; l < 4; ++l)
                    splat[64 * j + 16 * e + 4 * c + l] = ibm[16 * j + 4 * c + e];
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, 16 * DG_N * sizeof *out);
        k->palette_splat(model, joint_of + o, splat + 64 * o, n, out + 16 * o);
        dg_hash_floats(s, out + 16 * o, 16 * n);
    }
    rc = 0;
done:
    free(model), free(ibm), free(splat), free(out), free(joint_of);
    return rc;
}

/*
 * Skinning over every span × 1–4 influences × uint8/uint16 indices × normals or not × packed or
 * interleaved (one 56-byte input vertex, one 32-byte output vertex) buffers, then in place.
 * Palette, weights, positions and normals carry specials (NaN, ±inf, ±0, denormal, huge).
 */
enum { DG_PALETTE = 70, DG_ISTRIDE = 56, DG_OSTRIDE = 32 };

static int dg_skin(const tendon_kernels *k, dg_sink *s)
{
    float *palette = dg_matrices(0x5c1e000fu, DG_PALETTE);
    unsigned char *in = malloc((size_t)DG_N * DG_ISTRIDE);
    unsigned char *out = malloc((size_t)DG_N * DG_ISTRIDE);
    float *attrs = malloc(10 * DG_N * sizeof *attrs); /* 4 weights, 3 position, 3 normal */
    uint16_t *idx = malloc(4 * DG_N * sizeof *idx);
    int rc = -1;
    if (!palette || !in || !out || !attrs || !idx)
        goto done;
    dg_rng r = {0x5c1e0010u};
    dg_vectors(&r, attrs, 4 * DG_N, -0.25, 1.25);
    dg_vectors(&r, attrs + 4 * DG_N, 6 * DG_N, -2.0, 2.0);
    for (size_t i = 0; i < 4 * DG_N; ++i)
        idx[i] = (uint16_t)dg_below(&r, DG_PALETTE);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int u16 = 0; u16 < 2; ++u16) {
                for (int normals = 0; normals < 2; ++normals) {
                    for (int interleaved = 0; interleaved < 2; ++interleaved) {
                        const size_t isz = u16 ? 2 : 1;
                        tendon_skin_job j;
                        memset(&j, 0, sizeof j);
                        j.palette = palette, j.palette_count = DG_PALETTE;
                        j.vertex_count = n, j.influence_count = ni;
                        j.joint_index_type = u16 ? TENDON_JOINT_INDEX_U16 : TENDON_JOINT_INDEX_U8;
                        unsigned char *jp, *wp, *pp, *np;
                        float *op, *on;
                        size_t js, ws, ps, os;
                        if (interleaved) {
                            pp = in, np = in + 12, wp = in + 24, jp = in + 40;
                            js = ws = ps = DG_ISTRIDE, os = DG_OSTRIDE;
                            op = (float *)(void *)out, on = (float *)(void *)(out + 16);
                        } else {
                            jp = in, wp = in + 8 * DG_N, pp = in + 24 * DG_N, np = in + 36 * DG_N;
                            js = ni * isz, ws = 4 * ni, ps = os = 12;
                            op = (float *)(void *)out, on = (float *)(void *)(out + 12 * DG_N);
                        }
                        /* vertices [o, o + n) of the attribute arrays, laid out as asked */
                        for (size_t v = 0; v < n; ++v) {
                            for (size_t c = 0; c < ni; ++c) {
                                const uint16_t x = idx[4 * (o + v) + c];
                                if (u16)
                                    memcpy(jp + v * js + 2 * c, &x, 2);
                                else
                                    jp[v * js + c] = (unsigned char)x;
                            }
                            memcpy(wp + v * ws, attrs + 4 * (o + v), 4 * ni);
                            memcpy(pp + v * ps, attrs + 4 * DG_N + 3 * (o + v), 12);
                            memcpy(np + v * ps, attrs + 7 * DG_N + 3 * (o + v), 12);
                        }
                        j.joints = jp, j.joints_stride = js;
                        j.weights = (const float *)(void *)wp, j.weights_stride = ws;
                        j.positions = (const float *)(void *)pp, j.positions_stride = ps;
                        j.out_positions = op, j.out_positions_stride = os;
                        if (normals) {
                            j.normals = (const float *)(void *)np, j.normals_stride = ps;
                            j.out_normals = on, j.out_normals_stride = os;
                        }
                        memset(out, 0, (size_t)DG_N * DG_ISTRIDE);
                        k->skin(&j);
                        for (size_t v = 0; v < n; ++v) {
                            const char *po = (const char *)op + v * os;
                            const char *no = (const char *)on + v * os;
                            dg_hash_floats(s, (const float *)(const void *)po, 3);
                            if (normals)
                                dg_hash_floats(s, (const float *)(const void *)no, 3);
                        }
                        if (i == SPAN_COUNT - 1 && ni == 4 && normals && !interleaved) {
                            /* in place: outputs are exactly the inputs */
                            j.out_positions = (float *)(void *)pp;
                            j.out_normals = (float *)(void *)np;
                            k->skin(&j);
                            dg_hash_floats(s, (const float *)(const void *)pp, 3 * n);
                            dg_hash_floats(s, (const float *)(const void *)np, 3 * n);
                        }
                    }
                }
            }
        }
    }
    rc = 0;
done:
    free(palette), free(in), free(out), free(attrs), free(idx);
    return rc;
}

/*
 * Skinning with tangents (positions + normals + tangents) over every span × 1–4 influences ×
 * uint8/uint16 indices × packed or interleaved (one 72-byte input vertex, one 48-byte output
 * vertex), then in place. Palette, weights and every attribute carry specials; tangent w is
 * ±1, ±0, NaN or a value.
 */
enum { DG_TSTRIDE_IN = 72, DG_TSTRIDE_OUT = 48 };

static int dg_skin_tangents(const tendon_kernels *k, dg_sink *s)
{
    float *palette = dg_matrices(0x5c1e0012u, DG_PALETTE);
    unsigned char *in = malloc((size_t)DG_N * DG_TSTRIDE_IN);
    unsigned char *out = malloc((size_t)DG_N * DG_TSTRIDE_IN);
    float *attrs = malloc(14 * DG_N * sizeof *attrs); /* 4 weights, 3 position, 3 normal, 4 tangent */
    uint16_t *idx = malloc(4 * DG_N * sizeof *idx);
    int rc = -1;
    if (!palette || !in || !out || !attrs || !idx)
        goto done;
    dg_rng r = {0x5c1e0013u};
    dg_vectors(&r, attrs, 4 * DG_N, -0.25, 1.25);
    dg_vectors(&r, attrs + 4 * DG_N, 10 * DG_N, -2.0, 2.0);
    static const float tw[] = {1.0f, -1.0f, 1.0f, -1.0f, 0.0f, -0.0f, 0.5f, __builtin_nanf("")};
    for (size_t v = 0; v < DG_N; ++v)
        attrs[10 * DG_N + 4 * v + 3] = tw[dg_below(&r, 8)];
    for (size_t i = 0; i < 4 * DG_N; ++i)
        idx[i] = (uint16_t)dg_below(&r, DG_PALETTE);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int u16 = 0; u16 < 2; ++u16) {
                for (int interleaved = 0; interleaved < 2; ++interleaved) {
                    const size_t isz = u16 ? 2 : 1;
                    tendon_skin_job j;
                    memset(&j, 0, sizeof j);
                    j.palette = palette, j.palette_count = DG_PALETTE;
                    j.vertex_count = n, j.influence_count = ni;
                    j.joint_index_type = u16 ? TENDON_JOINT_INDEX_U16 : TENDON_JOINT_INDEX_U8;
                    unsigned char *jp, *wp, *pp, *np, *tp;
                    float *op, *on, *ot;
                    size_t js, ws, ps, ts, os, ots;
                    if (interleaved) {
                        pp = in, np = in + 12, tp = in + 24, wp = in + 40, jp = in + 56;
                        js = ws = ps = ts = DG_TSTRIDE_IN, os = ots = DG_TSTRIDE_OUT;
                        op = (float *)(void *)out, on = (float *)(void *)(out + 16);
                        ot = (float *)(void *)(out + 32);
                    } else {
                        jp = in, wp = in + 8 * DG_N, pp = in + 24 * DG_N, np = in + 36 * DG_N;
                        tp = in + 48 * DG_N;
                        js = ni * isz, ws = 4 * ni, ps = os = 12, ts = ots = 16;
                        op = (float *)(void *)out, on = (float *)(void *)(out + 12 * DG_N);
                        ot = (float *)(void *)(out + 24 * DG_N);
                    }
                    for (size_t v = 0; v < n; ++v) {
                        for (size_t c = 0; c < ni; ++c) {
                            const uint16_t x = idx[4 * (o + v) + c];
                            if (u16)
                                memcpy(jp + v * js + 2 * c, &x, 2);
                            else
                                jp[v * js + c] = (unsigned char)x;
                        }
                        memcpy(wp + v * ws, attrs + 4 * (o + v), 4 * ni);
                        memcpy(pp + v * ps, attrs + 4 * DG_N + 3 * (o + v), 12);
                        memcpy(np + v * ps, attrs + 7 * DG_N + 3 * (o + v), 12);
                        memcpy(tp + v * ts, attrs + 10 * DG_N + 4 * (o + v), 16);
                    }
                    j.joints = jp, j.joints_stride = js;
                    j.weights = (const float *)(void *)wp, j.weights_stride = ws;
                    j.positions = (const float *)(void *)pp, j.positions_stride = ps;
                    j.normals = (const float *)(void *)np, j.normals_stride = ps;
                    j.tangents = (const float *)(void *)tp, j.tangents_stride = ts;
                    j.out_positions = op, j.out_positions_stride = os;
                    j.out_normals = on, j.out_normals_stride = os;
                    j.out_tangents = ot, j.out_tangents_stride = ots;
                    memset(out, 0, (size_t)DG_N * DG_TSTRIDE_IN);
                    k->skin(&j);
                    for (size_t v = 0; v < n; ++v) {
                        dg_hash_floats(s, (const float *)(const void *)((const char *)op + v * os), 3);
                        dg_hash_floats(s, (const float *)(const void *)((const char *)on + v * os), 3);
                        dg_hash_floats(s, (const float *)(const void *)((const char *)ot + v * ots), 4);
                    }
                    if (i == SPAN_COUNT - 1 && ni == 4 && !interleaved) {
                        /* in place: outputs are exactly the inputs */
                        j.out_positions = (float *)(void *)pp;
                        j.out_normals = (float *)(void *)np;
                        j.out_tangents = (float *)(void *)tp;
                        k->skin(&j);
                        dg_hash_floats(s, (const float *)(const void *)pp, 3 * n);
                        dg_hash_floats(s, (const float *)(const void *)np, 3 * n);
                        dg_hash_floats(s, (const float *)(const void *)tp, 4 * n);
                    }
                }
            }
        }
    }
    rc = 0;
done:
    free(palette), free(in), free(out), free(attrs), free(idx);
    return rc;
}

/*
 * The prepared mesh: for each span × 1–4 influences × uint8/uint16 indices, a mesh with normals
 * and tangents made from that span's vertices (packed outputs, or 48-byte interleaved output
 * vertices), applied through the kernel table whole — positions only, + normals, + tangents,
 * normals alone — and split into ranges at three points. Weights are finite (a mesh refuses
 * NaN and ±∞); the palette and the attributes carry the other specials.
 */
static int dg_skin_mesh(const tendon_kernels *k, dg_sink *s)
{
    float *palette = dg_matrices(0x5c1e0014u, DG_PALETTE);
    float *attrs = malloc(14 * DG_N * sizeof *attrs); /* 4 weights, 3 position, 3 normal, 4 tangent */
    uint16_t *idx = malloc(4 * DG_N * sizeof *idx);
    uint8_t *idx8 = malloc(4 * DG_N);
    unsigned char *out = malloc((size_t)DG_N * DG_TSTRIDE_OUT);
    int rc = -1;
    if (!palette || !attrs || !idx || !idx8 || !out)
        goto done;
    dg_rng r = {0x5c1e0015u};
    dg_vectors(&r, attrs + 4 * DG_N, 10 * DG_N, -2.0, 2.0);
    for (size_t i = 0; i < 4 * DG_N; ++i) {
        static const float special_w[] = {0.0f, -0.0f, 1.0f, 1e-40f, -0.5f, 3e38f, 1.5f, 0.25f};
        attrs[i] = dg_below(&r, 8) == 0 ? special_w[dg_below(&r, 8)] : (float)dg_range(&r, -0.25, 1.25);
        idx[i] = (uint16_t)dg_below(&r, DG_PALETTE);
        idx8[i] = (uint8_t)idx[i];
    }
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int u16 = 0; u16 < 2; ++u16) {
                for (int interleaved = 0; interleaved < 2; ++interleaved) {
                    tendon_skin_job j;
                    memset(&j, 0, sizeof j);
                    j.palette_count = DG_PALETTE, j.vertex_count = n, j.influence_count = ni;
                    j.joint_index_type = u16 ? TENDON_JOINT_INDEX_U16 : TENDON_JOINT_INDEX_U8;
                    j.joints = u16 ? (const void *)(idx + 4 * o) : (const void *)(idx8 + 4 * o);
                    j.joints_stride = 4 * (u16 ? 2 : 1);
                    j.weights = attrs + 4 * o, j.weights_stride = 16;
                    j.positions = attrs + 4 * DG_N + 3 * o, j.positions_stride = 12;
                    j.normals = attrs + 7 * DG_N + 3 * o, j.normals_stride = 12;
                    j.tangents = attrs + 10 * DG_N + 4 * o, j.tangents_stride = 16;
                    float *op, *on, *ot;
                    if (interleaved) {
                        j.out_positions_stride = j.out_normals_stride = DG_TSTRIDE_OUT;
                        j.out_tangents_stride = DG_TSTRIDE_OUT;
                        op = (float *)(void *)out, on = (float *)(void *)(out + 16);
                        ot = (float *)(void *)(out + 32);
                    } else {
                        op = (float *)(void *)out, on = (float *)(void *)(out + 12 * DG_N);
                        ot = (float *)(void *)(out + 24 * DG_N);
                    }
                    const size_t os = interleaved ? DG_TSTRIDE_OUT : 12;
                    const size_t ots = interleaved ? DG_TSTRIDE_OUT : 16;
                    tendon_skin_mesh *m = NULL;
                    if (tendon_skin_mesh_create(&j, &m) != TENDON_OK)
                        goto done;
                    for (int want = 0; want < 5; ++want) {
                        float *wp = want == 3 ? NULL : op, *wn = want >= 1 ? on : NULL;
                        float *wt = want == 2 || want == 4 ? ot : NULL;
                        memset(out, 0, (size_t)DG_N * DG_TSTRIDE_OUT);
                        if (want < 4) {
                            k->skin_mesh(m, palette, 0, n, wp, wn, wt);
                        } else { /* ranges split at a third and two thirds, and one vertex */
                            const size_t a = n / 3, b = 2 * n / 3 + (n > 2);
                            k->skin_mesh(m, palette, 0, a, wp, wn, wt);
                            k->skin_mesh(m, palette, a, b - a, wp, wn, wt);
                            k->skin_mesh(m, palette, b, n - b, wp, wn, wt);
                        }
                        for (size_t v = 0; v < n; ++v) {
                            if (wp)
                                dg_hash_floats(s, (const float *)(const void *)((const char *)op + v * os), 3);
                            if (wn)
                                dg_hash_floats(s, (const float *)(const void *)((const char *)on + v * os), 3);
                            if (wt)
                                dg_hash_floats(s, (const float *)(const void *)((const char *)ot + v * ots), 4);
                        }
                    }
                    tendon_skin_mesh_destroy(m);
                }
            }
        }
    }
    rc = 0;
done:
    free(palette), free(attrs), free(idx), free(idx8), free(out);
    return rc;
}

/*
 * A random rigid transform with a uniform scale into m (column-major): a unit quaternion from
 * dg_random_unit, a translation in ±3, the scale 1 (one in three), within 2⁻²² of 1 (one in
 * six: snapped) or in [0.5, 2].
 */
static void dg_rigid(dg_rng *r, float *m)
{
    double q[4];
    dg_random_unit(r, q);
    const unsigned pick = dg_below(r, 6);
    const double s = pick < 2 ? 1.0 : pick == 2 ? 1.0 + 0x1p-22 : dg_range(r, 0.5, 2.0);
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; ++c) {
        for (int e = 0; e < 3; ++e)
            m[4 * c + e] = (float)(R[3 * c + e] * s);
        m[4 * c + 3] = 0.0f;
        m[12 + c] = (float)dg_range(r, -3.0, 3.0);
    }
    m[15] = 1.0f;
}

/* Palette → dual quaternions over every span (rigid matrices), in place for the last span,
 * and with one refused matrix (the index returned, hashed; nothing written). */
static int dg_palette_to_dual_quat(const tendon_kernels *k, dg_sink *s)
{
    float *pal = malloc(16 * DG_N * sizeof *pal), *out = malloc(16 * DG_N * sizeof *out);
    int rc = -1;
    if (!pal || !out)
        goto done;
    dg_rng r = {0xd0a10016u};
    for (size_t j = 0; j < DG_N; ++j)
        dg_rigid(&r, pal + 16 * j);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, 16 * DG_N * sizeof *out);
        const size_t got = k->palette_to_dual_quat(pal + 16 * o, n, out + 16 * o);
        const float fg = (float)got;
        dg_hash_floats(s, &fg, 1);
        dg_hash_floats(s, out + 16 * o, 16 * n);
    }
    float *bad = malloc(16 * 40 * sizeof *bad);
    if (!bad)
        goto done;
    memcpy(bad, pal, 16 * 40 * sizeof *bad);
    bad[16 * 29 + 5] *= 1.5f; /* a non-uniform scale at entry 29 */
    const float fb = (float)k->palette_to_dual_quat(bad, 40, out);
    dg_hash_floats(s, &fb, 1);
    free(bad);
    k->palette_to_dual_quat(pal, 1003, pal);
    dg_hash_floats(s, pal, 16 * 1003);
    rc = 0;
done:
    free(pal), free(out);
    return rc;
}

/* Dual-quaternion skinning of the skin_mesh workload's meshes (every span × 1–4 influences ×
 * u8/u16, packed and interleaved outputs, whole / + normals / + tangents / split in three), the
 * palette (pc entries, at most DG_PALETTE) a rigid one's dual quaternions: once with unit
 * scales, once with other scales. */
static int dg_skin_mesh_dq_with(const tendon_kernels *k, dg_sink *s, size_t pc, uint32_t seed)
{
    float *pal = malloc(16 * DG_PALETTE * sizeof *pal), *dq = malloc(32 * DG_PALETTE * sizeof *dq);
    float *attrs = malloc(14 * DG_N * sizeof *attrs);
    uint16_t *idx = malloc(4 * DG_N * sizeof *idx);
    unsigned char *out = malloc((size_t)DG_N * DG_TSTRIDE_OUT);
    int rc = -1;
    if (!pal || !dq || !attrs || !idx || !out)
        goto done;
    dg_rng r = {seed};
    for (int unit = 0; unit < 2; ++unit) {
        for (size_t j = 0; j < pc; ++j) {
            dg_rigid(&r, pal + 16 * j);
            if (unit) /* the rotation alone */
                for (int c = 0; c < 3; ++c) {
                    double l = 0;
                    for (int e = 0; e < 3; ++e)
                        l += (double)pal[16 * j + 4 * c + e] * pal[16 * j + 4 * c + e];
                    l = dg_sqrt(l);
                    for (int e = 0; e < 3; ++e)
                        pal[16 * j + 4 * c + e] = (float)(pal[16 * j + 4 * c + e] / l);
                }
        }
        if (k->palette_to_dual_quat(pal, pc, dq + 16 * pc * unit) != pc)
            memset(dq + 16 * pc * unit, 0, 16 * pc * sizeof *dq);
    }
    dg_vectors(&r, attrs + 4 * DG_N, 10 * DG_N, -2.0, 2.0);
    for (size_t i = 0; i < 4 * DG_N; ++i) {
        attrs[i] = (float)dg_range(&r, -0.25, 1.25);
        idx[i] = (uint16_t)dg_below(&r, (uint32_t)pc);
    }
    for (int i = 0; i < SPAN_COUNT; i += 2) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int interleaved = 0; interleaved < 2; ++interleaved) {
                tendon_skin_job j;
                memset(&j, 0, sizeof j);
                j.palette_count = pc, j.vertex_count = n, j.influence_count = ni;
                j.joint_index_type = TENDON_JOINT_INDEX_U16;
                j.joints = idx + 4 * o, j.joints_stride = 8;
                j.weights = attrs + 4 * o, j.weights_stride = 16;
                j.positions = attrs + 4 * DG_N + 3 * o;
                j.normals = attrs + 7 * DG_N + 3 * o;
                j.tangents = attrs + 10 * DG_N + 4 * o;
                float *op = (float *)(void *)out, *on, *ot;
                if (interleaved) {
                    j.out_positions_stride = j.out_normals_stride = DG_TSTRIDE_OUT;
                    j.out_tangents_stride = DG_TSTRIDE_OUT;
                    on = (float *)(void *)(out + 16), ot = (float *)(void *)(out + 32);
                } else {
                    on = (float *)(void *)(out + 12 * DG_N), ot = (float *)(void *)(out + 24 * DG_N);
                }
                const size_t os = interleaved ? DG_TSTRIDE_OUT : 12;
                const size_t ots = interleaved ? DG_TSTRIDE_OUT : 16;
                tendon_skin_mesh *m = NULL;
                if (tendon_skin_mesh_create(&j, &m) != TENDON_OK)
                    goto done;
                for (int unit = 0; unit < 2; ++unit) {
                    const float *d = dq + 16 * pc * unit;
                    for (int want = 0; want < 4; ++want) {
                        float *wn = want >= 1 ? on : NULL, *wt = want >= 2 ? ot : NULL;
                        memset(out, 0, (size_t)DG_N * DG_TSTRIDE_OUT);
                        if (want < 3) {
                            k->skin_mesh_dq(m, d, 0, n, op, wn, wt);
                        } else {
                            const size_t a = n / 3, b = 2 * n / 3 + (n > 2);
                            k->skin_mesh_dq(m, d, 0, a, op, wn, wt);
                            k->skin_mesh_dq(m, d, a, b - a, op, wn, wt);
                            k->skin_mesh_dq(m, d, b, n - b, op, wn, wt);
                        }
                        for (size_t v = 0; v < n; ++v) {
                            dg_hash_floats(s, (const float *)(const void *)((const char *)op + v * os), 3);
                            if (wn)
                                dg_hash_floats(s, (const float *)(const void *)((const char *)on + v * os), 3);
                            if (wt)
                                dg_hash_floats(s, (const float *)(const void *)((const char *)ot + v * ots), 4);
                        }
                    }
                }
                tendon_skin_mesh_destroy(m);
            }
        }
    }
    rc = 0;
done:
    free(pal), free(dq), free(attrs), free(idx), free(out);
    return rc;
}

static int dg_skin_mesh_dq(const tendon_kernels *k, dg_sink *s)
{
    return dg_skin_mesh_dq_with(k, s, DG_PALETTE, 0xd0a10017u);
}

/* The same with a 40-entry palette: the 1003-vertex spans take the 4- and 8-lane ISAs' row form
 * (at most 64 entries, at least 16 vertices an entry: src/simd/kernels/skin.inl.h), the short
 * ones and the split calls the lane form. */
static int dg_skin_mesh_dq_rows(const tendon_kernels *k, dg_sink *s)
{
    return dg_skin_mesh_dq_with(k, s, 40, 0xd0a10018u);
}

/* Morph targets over every span (×3 floats) with 0–5 targets; weights include ±0 (skipped),
 * NaN, ±inf and huge; deltas carry specials (an infinite delta under a zero weight stays out). */
static int dg_morph(const tendon_kernels *k, dg_sink *s)
{
    enum { T = 5, N = 3 * DG_N };
    float *base = malloc(N * sizeof *base), *out = malloc(N * sizeof *out);
    float *deltas = malloc((size_t)T * N * sizeof *deltas);
    int rc = -1;
    if (!base || !out || !deltas)
        goto done;
    dg_rng r = {0x30e70011u};
    dg_vectors(&r, base, N, -3.0, 3.0);
    dg_vectors(&r, deltas, (size_t)T * N, -1.0, 1.0);
    static const float weights[][T] = {{0.5f, -0.0f, 0.25f, 1.0f, 0.0f},
                                       {0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
                                       {1e-30f, -2.0f, 0.75f, 3e38f, 0.125f},
                                       {__builtin_nanf(""), 1.0f, 0.0f, -__builtin_inff(), 0.5f}};
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = 3 * SPANS[i].count, o = 3 * SPANS[i].offset;
        const float *d[T];
        for (int t = 0; t < T; ++t)
            d[t] = deltas + (size_t)t * N + o;
        for (size_t w = 0; w < sizeof weights / sizeof weights[0]; ++w) {
            for (size_t nt = 0; nt <= T; ++nt) {
                memset(out, 0, N * sizeof *out);
                k->morph(base + o, d, weights[w], nt, n, out + o);
                dg_hash_floats(s, out + o, n);
            }
        }
    }
    memcpy(out, base, N * sizeof *out); /* in place */
    const float *d[T] = {deltas, deltas + N, deltas + 2 * N, deltas + 3 * N, deltas + 4 * N};
    k->morph(out + 5, d, weights[2], T, 3 * 1003, out + 5);
    dg_hash_floats(s, out + 5, 3 * 1003);
    rc = 0;
done:
    free(base), free(out), free(deltas);
    return rc;
}

/* ---- springs (tendon/spring.h): the march kernels through the entry points ---------------- */

static void dg_hash_doubles(dg_sink *s, const double *v, size_t n)
{
    uint8_t buf[8];
    for (size_t i = 0; i < n; ++i) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        if ((bits & 0x7fffffffffffffffu) > 0x7ff0000000000000u)
            bits = 0x7ff8000000000000u; /* NaN sign and payload are not promised */
        for (int b = 0; b < 8; ++b)
            buf[b] = (uint8_t)(bits >> (8 * b));
        sha256_update(&s->sha, sizeof buf, buf);
    }
}

/*
 * One anchor of the spring workload, + − × ÷ only (no libm, so every machine builds the same
 * floats): base + velocity·t + bump·u/(1 + u²) with u = rate·(t − centre), and a step of `jump`
 * from time `at` (the seed's step anchor: t < at ? 0 : jump).
 */
typedef struct dg_anchor {
    double base[3], velocity[3], bump[3], jump[3];
    double rate, centre, at;
} dg_anchor;

static void dg_random_anchor(dg_rng *r, dg_anchor *a)
{
    for (int k = 0; k < 3; ++k) {
        a->base[k] = dg_range(r, -2.0, 2.0);
        a->velocity[k] = dg_below(r, 3) == 0 ? 0.0 : dg_range(r, -1.5, 1.5);
        a->bump[k] = dg_range(r, -1.0, 1.0);
        a->jump[k] = dg_below(r, 4) == 0 ? dg_range(r, -0.5, 0.5) : 0.0;
    }
    a->rate = dg_range(r, 0.2, 8.0);
    a->centre = dg_range(r, -1.0, 3.0);
    a->at = dg_range(r, -1.0, 3.0);
}

static void dg_anchor_at(const dg_anchor *a, double t, float *out)
{
    const double u = a->rate * (t - a->centre);
    const double bump = u / (1.0 + u * u);
    for (int k = 0; k < 3; ++k) {
        volatile float f = (float)((a->base[k] + a->velocity[k] * t + a->bump[k] * bump) +
                                   (t < a->at ? 0.0 : a->jump[k]));
        out[k] = f;
    }
}

/* A batch of anchors: spring (or chain) g at out[3g .. 3g+2]. */
typedef struct dg_anchors {
    const dg_anchor *a;
    size_t count;
} dg_anchors;

static void dg_anchor_one(void *user, double t, float *out) { dg_anchor_at(user, t, out); }

static void dg_anchor_many(void *user, double t, float *out)
{
    const dg_anchors *m = user;
    for (size_t g = 0; g < m->count; ++g)
        dg_anchor_at(&m->a[g], t, out + 3 * g);
}

/* Settings across every damping regime, with and without a limit, plus edge values. */
static void dg_spring_settings(dg_rng *r, tendon_spring_settings *s)
{
    s->frequency_hz = dg_range(r, 0.2, 15.0);
    switch (dg_below(r, 8)) {
    case 0: s->damping = 1.0; break;
    case 1: s->damping = dg_below(r, 2) ? 1.0 - 1e-13 : 1.0 + 1e-13; break;
    case 2: s->damping = dg_range(r, 1.0, 6.0); break;
    default: s->damping = dg_range(r, 0.03, 1.0); break;
    }
    s->max_offset_m = dg_below(r, 3) == 0 ? dg_range(r, 0.0, 0.4) : TENDON_SPRING_NO_LIMIT;
}

static void dg_spring_link(dg_rng *r, tendon_spring_link *l)
{
    tendon_spring_settings s;
    dg_spring_settings(r, &s);
    l->frequency_hz = s.frequency_hz;
    l->damping = s.damping;
    l->max_offset_m = s.max_offset_m;
    for (int k = 0; k < 3; ++k)
        l->rest_offset_m[k] = dg_range(r, -0.2, 0.2);
}

static const double DG_SPRING_TIMES[] = {-1.5, 0.0, 0.37, 2.0, 1e4};

/* Single springs: out and out64 for random settings at five times, and the edge settings. */
static int dg_spring_single(const tendon_kernels *k, dg_sink *s)
{
    static const tendon_spring_settings EDGES[] = {
        {__builtin_inf(), 0.35, TENDON_SPRING_NO_LIMIT}, /* no substep */
        {2.0, 1e6, TENDON_SPRING_NO_LIMIT},              /* one substep */
        {1e6, 0.5, 0.01},  {1e-6, 2.0, TENDON_SPRING_NO_LIMIT}, {2.0, 0.01, 0.2}, /* 3518 */
        {2.0, 0.35, 0.0},  {2.0, 0.35, __builtin_nan("")},  {3.0, 1.0, TENDON_SPRING_NO_LIMIT}};
    dg_rng r = {0x5191e0008u};
    for (int i = 0; i < 48; ++i) {
        tendon_spring_settings set;
        if (i < (int)(sizeof EDGES / sizeof EDGES[0]))
            set = EDGES[i];
        else
            dg_spring_settings(&r, &set);
        dg_anchor a;
        dg_random_anchor(&r, &a);
        for (size_t t = 0; t < sizeof DG_SPRING_TIMES / sizeof DG_SPRING_TIMES[0]; ++t) {
            float out[3];
            double out64[3];
            if (tendon_spring_sample_on(k, &set, dg_anchor_one, &a, DG_SPRING_TIMES[t], out) !=
                    TENDON_OK ||
                tendon_spring_sample_f64_on(k, &set, dg_anchor_one, &a, DG_SPRING_TIMES[t],
                                            out64) != TENDON_OK)
                return -1;
            dg_hash_floats(s, out, 3);
            dg_hash_doubles(s, out64, 3);
        }
    }
    return 0;
}

/* Batches of 0–100 springs (every tail for W = 2, 4, 8) in misaligned workspaces and outputs. */
static int dg_spring_batch(const tendon_kernels *k, dg_sink *s)
{
    static const size_t COUNTS[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 16, 17, 31, 33, 64, 67, 100};
    enum { MAX = 100 };
    dg_rng r = {0xba7c40009u};
    dg_anchor *a = malloc(MAX * sizeof *a);
    float *out = malloc((3 * MAX + 1) * sizeof *out);
    size_t bytes = 0;
    unsigned char *ws = NULL;
    int rc = -1;
    if (!a || !out || tendon_spring_batch_workspace_size(MAX, &bytes) != TENDON_OK ||
        !(ws = malloc(bytes + 8)))
        goto done;
    for (size_t g = 0; g < MAX; ++g)
        dg_random_anchor(&r, &a[g]);
    for (size_t i = 0; i < sizeof COUNTS / sizeof COUNTS[0]; ++i) {
        tendon_spring_settings set;
        dg_spring_settings(&r, &set);
        dg_anchors m = {a, COUNTS[i]};
        float *o = out + (i & 1); /* out misaligned on odd rounds */
        if (tendon_spring_sample_batch_on(k, &set, dg_anchor_many, &m, dg_range(&r, -1.0, 3.0),
                                          COUNTS[i], ws + i % 8, bytes, o) != TENDON_OK)
            goto done;
        dg_hash_floats(s, o, 3 * COUNTS[i]);
    }
    rc = 0;
done:
    free(a), free(out), free(ws);
    return rc;
}

/* Chains of 1–20 links (the longest past the stack limit), including a link so overdamped that
   the seed's arithmetic is 0·∞ (tendon's split form), at three times each. */
static int dg_spring_chain(const tendon_kernels *k, dg_sink *s)
{
    enum { MAX = 20 };
    dg_rng r = {0xc4a1e000au};
    tendon_spring_link links[MAX];
    size_t bytes = 0;
    void *ws = NULL;
    if (tendon_spring_chain_workspace_size(MAX, 1, &bytes) != TENDON_OK || !(ws = malloc(bytes)))
        return -1;
    for (size_t n = 1; n <= MAX; ++n) {
        for (size_t i = 0; i < n; ++i)
            dg_spring_link(&r, &links[i]);
        if (n == 7)
            links[3].damping = 2e4; /* ζω·step far past 700 */
        dg_anchor a;
        dg_random_anchor(&r, &a);
        for (int t = 0; t < 3; ++t) {
            float out[3 * MAX];
            if (tendon_spring_chain_sample_on(k, links, n, dg_anchor_one, &a, DG_SPRING_TIMES[t + 1],
                                              ws, bytes, out, 3 * n) != TENDON_OK) {
                free(ws);
                return -1;
            }
            dg_hash_floats(s, out, 3 * n);
        }
    }
    free(ws);
    return 0;
}

/* Batches of 1–9 chains of 1–5 links. */
static int dg_spring_chain_batch(const tendon_kernels *k, dg_sink *s)
{
    dg_rng r = {0xc4a1b000bu};
    dg_anchor a[9];
    for (int c = 0; c < 9; ++c)
        dg_random_anchor(&r, &a[c]);
    for (size_t chains = 1; chains <= 9; ++chains) {
        tendon_spring_link links[5];
        const size_t n = 1 + dg_below(&r, 5);
        for (size_t i = 0; i < n; ++i)
            dg_spring_link(&r, &links[i]);
        size_t bytes = 0;
        void *ws = NULL;
        float out[3 * 5 * 9];
        dg_anchors m = {a, chains};
        if (tendon_spring_chain_workspace_size(n, chains, &bytes) != TENDON_OK ||
            !(ws = malloc(bytes)))
            return -1;
        const tendon_status st =
            tendon_spring_chain_sample_batch_on(k, links, n, dg_anchor_many, &m, 0.75, chains, ws,
                                                bytes, out, 3 * n * chains);
        free(ws);
        if (st != TENDON_OK)
            return -1;
        dg_hash_floats(s, out, 3 * n * chains);
    }
    return 0;
}

/* ---- clips (tendon/clip.h): the interpolation kernel, and the whole sampler on the table ---- */

/* The samplers on a given table (src/clip.c; internal, linked from the static library). */
void tendon_clip_sample_table(const tendon_kernels *kt, const tendon_clip *clip, double time_sec,
                              tendon_pose *pose, float *packed);
void tendon_clip_sample_table_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                  double time_sec, tendon_pose *pose, float *packed);

static int dg_clip_lerp(const tendon_kernels *k, dg_sink *s)
{
    float *a = malloc(DG_N * sizeof *a), *b = malloc(DG_N * sizeof *b);
    float *out = malloc(DG_N * sizeof *out);
    double *u = malloc(DG_N * sizeof *u);
    int rc = -1;
    if (!a || !b || !out || !u)
        goto done;
    dg_rng r = {0xc11b0001u};
    dg_vectors(&r, a, DG_N, -100.0, 100.0);
    dg_vectors(&r, b, DG_N, -100.0, 100.0);
    for (size_t i = 0; i < DG_N; ++i) /* u in [0, 1], the ends and specials included */
        u[i] = i % 11 == 0 ? 0.0 : i % 11 == 1 ? 1.0 : i % 37 == 5 ? 0x1p-1074 : dg_unit(&r);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, DG_N * sizeof *out);
        k->clip_lerp(a + o, b + o, u + o, n, out + o);
        dg_hash_floats(s, out + o, n);
    }
    memcpy(out, a, DG_N * sizeof *out); /* out == a */
    k->clip_lerp(out + 3, b + 3, u + 3, 1003, out + 3);
    dg_hash_floats(s, out + 3, 1003);
    rc = 0;
done:
    free(a), free(b), free(out), free(u);
    return rc;
}

static int dg_clip_hermite(const tendon_kernels *k, dg_sink *s)
{
    float *v = malloc(4 * DG_N * sizeof *v);
    double *h = malloc(4 * DG_N * sizeof *h), *out = malloc(DG_N * sizeof *out);
    int rc = -1;
    if (!v || !h || !out)
        goto done;
    dg_rng r = {0xc11b0003u};
    dg_vectors(&r, v, 4 * DG_N, -50.0, 50.0);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        /* Hermite weights of random s and Δt, as the sampler makes them */
        for (size_t e = 0; e < n; ++e) {
            const double u = dg_unit(&r), td = dg_range(&r, 0.001, 3.0), u2 = u * u, u3 = u2 * u;
            h[e] = (2.0 * u3 - 3.0 * u2) + 1.0;
            h[n + e] = ((u3 - 2.0 * u2) + u) * td;
            h[2 * n + e] = 3.0 * u2 - 2.0 * u3;
            h[3 * n + e] = (u3 - u2) * td;
        }
        memset(out, 0, DG_N * sizeof *out);
        k->clip_hermite(v + o, v + DG_N + o, v + 2 * DG_N + o, v + 3 * DG_N + o, h, n, out);
        dg_hash_doubles(s, out, n);
    }
    rc = 0;
done:
    free(v), free(h), free(out);
    return rc;
}

/* A fixed clip of 67 tracks (STEP, LINEAR, CUBICSPLINE; T, R, S and weights; shared and own
   timelines; non-unit and adversarial quaternion keys), described in tr (its arrays in times
   and vals, the caller's). r continues to the sample times. */
enum { DG_CLIP_TRACKS = 67, DG_CLIP_MAXK = 40 };
static tendon_clip *dg_clip_build(dg_rng *r, float *times, float *vals, tendon_track_desc *tr)
{
    enum { TRACKS = DG_CLIP_TRACKS, MAXK = DG_CLIP_MAXK };
    for (size_t i = 0; i < TRACKS; ++i) {
        const size_t path = i % 4, keys = 1 + dg_below(r, MAXK);
        float *tm = times + i * MAXK;
        double at = dg_range(r, -0.5, 0.5);
        for (size_t j = 0; j < keys; ++j, at += dg_range(r, 0.01, 0.3))
            tm[j] = (float)at;
        tr[i].joint = (uint32_t)(i / 4);
        tr[i].path = (tendon_track_path)path;
        tr[i].interpolation = (tendon_interpolation)dg_below(r, 3);
        tr[i].width = path == 1 ? 4 : path == 3 ? 1 + dg_below(r, 5) : 3;
        tr[i].key_count = keys;
        tr[i].times = i > 0 && i % 5 == 0 ? tr[i - 1].times : tm; /* some share a timeline */
        if (tr[i].times != tm)
            tr[i].key_count = tr[i - 1].key_count;
        float *v = vals + i * MAXK * 12;
        const size_t per = tr[i].width * (tr[i].interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        for (size_t j = 0; j < tr[i].key_count * per; j += tr[i].width) {
            if (path == 1) {
                double q[4];
                dg_random_unit(r, q);
                dg_store(q, v + j);
                if (dg_below(r, 7) == 0) /* a non-unit key */
                    v[j + 3] *= 1.5f;
            } else {
                dg_vectors(r, v + j, tr[i].width, -4.0, 4.0);
            }
        }
        tr[i].values = v;
    }
    tendon_clip_desc d = {TRACKS / 4 + 1, TRACKS, tr};
    tendon_clip *clip = NULL;
    return tendon_clip_create(&d, &clip) == TENDON_OK ? clip : NULL;
}

/* Sample time i of 61: −∞, +∞, ten exactly on a key of track 5i, then random. */
static double dg_clip_time(dg_rng *r, const tendon_track_desc *tr, int i)
{
    double t = i == 0 ? -__builtin_inf() : i == 1 ? __builtin_inf() : dg_range(r, -1.0, 12.0);
    if (i >= 2 && i < 12) /* exactly on a key */
        t = (double)tr[(size_t)i * 5].times[dg_below(r, (unsigned)tr[(size_t)i * 5].key_count)];
    return t;
}

/* The fixed clip sampled at 61 times into the packed output (f32: the float32 tier, into the
   packed output and into a pose). */
static int dg_clip_sample_tier(const tendon_kernels *k, dg_sink *s, int f32)
{
    tendon_track_desc tr[DG_CLIP_TRACKS];
    float *times = malloc((size_t)DG_CLIP_TRACKS * DG_CLIP_MAXK * sizeof *times);
    float *vals = malloc((size_t)DG_CLIP_TRACKS * DG_CLIP_MAXK * 3 * 4 * sizeof *vals);
    float *packed = NULL;
    tendon_clip *clip = NULL;
    tendon_pose pose = {NULL, NULL, NULL, 0};
    int rc = -1;
    if (!times || !vals)
        goto done;
    dg_rng r = {0xc11b0002u};
    if (!(clip = dg_clip_build(&r, times, vals, tr)))
        goto done;
    const size_t vc = tendon_clip_value_count(clip);
    packed = malloc(vc * sizeof *packed);
    if (!packed || (f32 && tendon_pose_create(tendon_clip_joint_count(clip), &pose) != TENDON_OK))
        goto done;
    for (int i = 0; i < 61; ++i) {
        const double t = dg_clip_time(&r, tr, i);
        memset(packed, 0, vc * sizeof *packed);
        if (f32) {
            tendon_clip_sample_table_f32(k, clip, t, NULL, packed);
            dg_hash_floats(s, packed, vc);
            tendon_pose_set_identity(&pose);
            tendon_clip_sample_table_f32(k, clip, t, &pose, NULL);
            dg_hash_pose(s, &pose);
        } else {
            tendon_clip_sample_table(k, clip, t, NULL, packed);
            dg_hash_floats(s, packed, vc);
        }
    }
    rc = 0;
done:
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
    free(times), free(vals), free(packed);
    return rc;
}

static int dg_clip_sample(const tendon_kernels *k, dg_sink *s)
{
    return dg_clip_sample_tier(k, s, 0);
}

/* ---- clips, the float32 tier --------------------------------------------------------------- */

/* Factors u as the float tier gets them: mostly (float) of a double in [0, 1], its ends, a
   denormal, 1 − ulp; `wild`: also NaN, ±∞ and values outside [0, 1]. */
static float dg_u_f32(dg_rng *r, size_t i, int wild)
{
    static const float EDGE[] = {0.0f, 1.0f, 0x1p-149f, 0x1.fffffep-1f, 0.5f, -0.0f};
    static const float WILD[] = {-0.25f, 1.5f, 1e30f, -1e30f, __builtin_inff(), -__builtin_inff(),
                                 __builtin_nanf("")};
    if (wild && i % 5 == 3)
        return WILD[dg_below(r, sizeof WILD / sizeof WILD[0])];
    if (i % 4 == 1)
        return EDGE[dg_below(r, sizeof EDGE / sizeof EDGE[0])];
    return (float)dg_unit(r);
}

static int dg_clip_lerp_f32(const tendon_kernels *k, dg_sink *s)
{
    float *a = malloc(DG_N * sizeof *a), *b = malloc(DG_N * sizeof *b);
    float *out = malloc(DG_N * sizeof *out), *u = malloc(DG_N * sizeof *u);
    int rc = -1;
    if (!a || !b || !out || !u)
        goto done;
    dg_rng r = {0xc11bf3201u};
    dg_vectors(&r, a, DG_N, -100.0, 100.0);
    dg_vectors(&r, b, DG_N, -100.0, 100.0);
    for (size_t i = 0; i < DG_N; ++i)
        u[i] = dg_u_f32(&r, i, 1);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        memset(out, 0, DG_N * sizeof *out);
        k->clip_lerp_f32(a + o, b + o, u + o, n, out + o);
        dg_hash_floats(s, out + o, n);
    }
    for (int which = 0; which < 2; ++which) { /* out is exactly a, then exactly b */
        memcpy(out, which == 0 ? a : b, DG_N * sizeof *out);
        k->clip_lerp_f32(which == 0 ? out + 3 : a + 3, which == 0 ? b + 3 : out + 3, u + 3, 1003,
                         out + 3);
        dg_hash_floats(s, out + 3, 1003);
    }
    rc = 0;
done:
    free(a), free(b), free(out), free(u);
    return rc;
}

static int dg_clip_lerp_uniform_f32(const tendon_kernels *k, dg_sink *s)
{
    float *a = malloc(DG_N * sizeof *a), *b = malloc(DG_N * sizeof *b);
    float *out = malloc(DG_N * sizeof *out);
    int rc = -1;
    if (!a || !b || !out)
        goto done;
    dg_rng r = {0xc11bf3202u};
    dg_vectors(&r, a, DG_N, -100.0, 100.0);
    dg_vectors(&r, b, DG_N, -100.0, 100.0);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t j = 0; j < 3; ++j) { /* three factors per span */
            const float u = dg_u_f32(&r, (size_t)i * 3 + j, 1);
            memset(out, 0, DG_N * sizeof *out);
            k->clip_lerp_uniform_f32(a + o, b + o, u, n, out + o);
            dg_hash_floats(s, out + o, n);
        }
    }
    for (int which = 0; which < 2; ++which) {
        memcpy(out, which == 0 ? a : b, DG_N * sizeof *out);
        k->clip_lerp_uniform_f32(which == 0 ? out + 3 : a + 3, which == 0 ? b + 3 : out + 3,
                                 0.3125f, 1003, out + 3);
        dg_hash_floats(s, out + 3, 1003);
    }
    rc = 0;
done:
    free(a), free(b), free(out);
    return rc;
}

/* dg_quat_pairs, with every ninth pair moved to about the float tier's straight-blend
   threshold (dot ≈ 0.99988, both sides of it, either hemisphere). */
static void dg_quat_pairs_f32(uint64_t seed, float *a, float *b, size_t n)
{
    dg_quat_pairs(seed, a, b, n);
    dg_rng r = {seed ^ 0xf32f32u};
    for (size_t i = 4; i < n; i += 9) {
        double qa[4], qb[4], p[4];
        dg_random_unit(&r, qa);
        dg_random_unit(&r, p);
        const double d = ((qa[0] * p[0] + qa[1] * p[1]) + qa[2] * p[2]) + qa[3] * p[3];
        for (int c = 0; c < 4; ++c)
            p[c] -= d * qa[c];
        dg_normalise(p);
        const double e = dg_range(&r, 0.01545, 0.01553); /* dot = 1/√(1+e²) ≈ 0.99988 */
        for (int c = 0; c < 4; ++c)
            qb[c] = qa[c] + e * p[c];
        dg_normalise(qb);
        if (dg_below(&r, 2))
            for (int c = 0; c < 4; ++c)
                qb[c] = -qb[c];
        dg_store(qa, a + 4 * i);
        dg_store(qb, b + 4 * i);
    }
}

static int dg_clip_slerp_uniform_f32(const tendon_kernels *k, dg_sink *s)
{
    float *a = malloc(4 * DG_N * sizeof *a), *b = malloc(4 * DG_N * sizeof *b);
    float *out = malloc(4 * DG_N * sizeof *out);
    int rc = -1;
    if (!a || !b || !out)
        goto done;
    dg_rng r = {0xc11bf3203u};
    dg_quat_pairs_f32(0xc11bf3213u, a, b, DG_N);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        for (size_t j = 0; j < 3; ++j) {
            const float u = dg_u_f32(&r, (size_t)i * 3 + j, 1);
            memset(out, 0, 4 * DG_N * sizeof *out);
            k->clip_slerp_uniform_f32(a + 4 * o, b + 4 * o, u, n, out + 4 * o);
            dg_hash_floats(s, out + 4 * o, 4 * n);
        }
    }
    for (int which = 0; which < 2; ++which) {
        memcpy(out, which == 0 ? a : b, 4 * DG_N * sizeof *out);
        k->clip_slerp_uniform_f32(which == 0 ? out + 4 : a + 4, which == 0 ? b + 4 : out + 4,
                                  0.6875f, 1003, out + 4);
        dg_hash_floats(s, out + 4, 4 * 1003);
    }
    rc = 0;
done:
    free(a), free(b), free(out);
    return rc;
}

static int dg_clip_hermite_f32(const tendon_kernels *k, dg_sink *s)
{
    float *v = malloc(4 * DG_N * sizeof *v), *h = malloc(4 * DG_N * sizeof *h);
    float *out = malloc(DG_N * sizeof *out);
    int rc = -1;
    if (!v || !h || !out)
        goto done;
    dg_rng r = {0xc11bf3204u};
    dg_vectors(&r, v, 4 * DG_N, -50.0, 50.0);
    for (int i = 0; i < SPAN_COUNT; ++i) {
        const size_t n = SPANS[i].count, o = SPANS[i].offset;
        /* the weights as the sampler makes them: in double, each rounded once to float */
        for (size_t e = 0; e < n; ++e) {
            const double u = dg_unit(&r), td = dg_range(&r, 0.001, 3.0), u2 = u * u, u3 = u2 * u;
            h[e] = (float)((2.0 * u3 - 3.0 * u2) + 1.0);
            h[n + e] = (float)(((u3 - 2.0 * u2) + u) * td);
            h[2 * n + e] = (float)(3.0 * u2 - 2.0 * u3);
            h[3 * n + e] = (float)((u3 - u2) * td);
        }
        memset(out, 0, DG_N * sizeof *out);
        k->clip_hermite_f32(v + o, v + DG_N + o, v + 2 * DG_N + o, v + 3 * DG_N + o, h, n,
                            out + o);
        dg_hash_floats(s, out + o, n);
    }
    rc = 0;
done:
    free(v), free(h), free(out);
    return rc;
}

/*
 * A rig clip: T, R, S LINEAR of 67 joints (joint 9 without rotation, so a run breaks), 61 keys;
 * `per_track`: every track its own times array (0: one array; 1: equal copies, merged into one
 * timeline; 2: each jittered, a timeline per track).
 */
static tendon_clip *dg_rig_clip(dg_rng *r, int per_track, float *times, float *vals)
{
    enum { J = 67, KEYS = 61 };
    tendon_track_desc tr[3 * J];
    size_t n = 0;
    for (size_t j = 0; j < J; ++j)
        for (int p = 0; p < 3; ++p) {
            if (p == 1 && j == 9)
                continue;
            float *tm = times + (per_track ? n * KEYS : 0);
            if (per_track || n == 0)
                for (size_t k = 0; k < KEYS; ++k)
                    tm[k] = (float)((double)k / 30.0 +
                                    (per_track == 2 ? dg_range(r, 0.0, 0.01) : 0.0));
            float *v = vals + n * KEYS * 4;
            for (size_t k = 0; k < KEYS; ++k) {
                if (p == 1) {
                    double q[4];
                    dg_random_unit(r, q);
                    dg_store(q, v + 4 * k);
                } else {
                    dg_vectors(r, v + 3 * k, 3, -2.0, 2.0);
                }
            }
            tendon_track_desc *t = &tr[n++];
            t->joint = (uint32_t)j;
            t->path = (tendon_track_path)p;
            t->interpolation = TENDON_INTERP_LINEAR;
            t->width = p == 1 ? 4 : 3;
            t->key_count = KEYS;
            t->times = tm;
            t->values = v;
        }
    tendon_clip_desc d = {J, n, tr};
    tendon_clip *clip = NULL;
    return tendon_clip_create(&d, &clip) == TENDON_OK ? clip : NULL;
}

/* The fixed clip through the float32 tier (packed and pose), then three rig clips (one
   timeline, equal copies, a timeline per track) at 61 times each, into a pose. */
static int dg_clip_sample_f32(const tendon_kernels *k, dg_sink *s)
{
    if (dg_clip_sample_tier(k, s, 1) != 0)
        return -1;
    enum { J = 67, KEYS = 61 };
    float *times = malloc((size_t)3 * J * KEYS * sizeof *times);
    float *vals = malloc((size_t)3 * J * KEYS * 4 * sizeof *vals);
    tendon_pose pose = {NULL, NULL, NULL, 0};
    int rc = -1;
    if (!times || !vals || tendon_pose_create(J, &pose) != TENDON_OK)
        goto done;
    dg_rng r = {0xc11bf3205u};
    for (int per_track = 0; per_track < 3; ++per_track) {
        tendon_clip *clip = dg_rig_clip(&r, per_track, times, vals);
        if (!clip)
            goto done;
        for (int i = 0; i < 61; ++i) {
            const double t = i == 0 ? -0.5 : i == 1 ? 2.5 : i < 6 ? (double)(i - 2) / 30.0
                                                            : dg_range(&r, 0.0, 2.0);
            tendon_pose_set_identity(&pose);
            tendon_clip_sample_table_f32(k, clip, t, &pose, NULL);
            dg_hash_pose(s, &pose);
        }
        tendon_clip_destroy(clip);
    }
    rc = 0;
done:
    tendon_pose_destroy(&pose);
    free(times), free(vals);
    return rc;
}

/* Every kernel the digest covers. A golden file has one line per entry. */
static const struct dg_kernel {
    const char *name;
    int (*run)(const tendon_kernels *k, dg_sink *s); /* 0, or -1 when out of memory */
} KERNELS[] = {
    {"quat_slerp", dg_quat_slerp},
    {"quat_nlerp", dg_quat_nlerp},
    {"quat_multiply", dg_quat_multiply},
    {"pose_blend", dg_pose_blend},
    {"pose_blend_masked", dg_pose_blend_masked},
    {"pose_add", dg_pose_add},
    {"pose_add_masked", dg_pose_add_masked},
    {"quat_slerp_f32", dg_quat_slerp_f32},
    {"quat_nlerp_f32", dg_quat_nlerp_f32},
    {"quat_multiply_f32", dg_quat_multiply_f32},
    {"pose_blend_f32", dg_pose_blend_f32},
    {"pose_blend_masked_f32", dg_pose_blend_masked_f32},
    {"pose_blend_nlerp_f32", dg_pose_blend_nlerp_f32},
    {"pose_blend_nlerp_masked_f32", dg_pose_blend_nlerp_masked_f32},
    {"pose_add_f32", dg_pose_add_f32},
    {"pose_add_masked_f32", dg_pose_add_masked_f32},
    {"pose_blend_layers_f32", dg_pose_blend_layers_f32},
    {"local_matrices", dg_local_matrices},
    {"model_matrices", dg_model_matrices},
    {"model_matrices_ordered", dg_model_matrices_ordered},
    {"palette", dg_palette},
    {"skin", dg_skin},
    {"morph", dg_morph},
    {"spring", dg_spring_single},
    {"spring_batch", dg_spring_batch},
    {"spring_chain", dg_spring_chain},
    {"spring_chain_batch", dg_spring_chain_batch},
    {"clip_lerp", dg_clip_lerp},
    {"clip_sample", dg_clip_sample},
    {"clip_hermite", dg_clip_hermite},
    {"clip_lerp_f32", dg_clip_lerp_f32},
    {"clip_lerp_uniform_f32", dg_clip_lerp_uniform_f32},
    {"clip_slerp_uniform_f32", dg_clip_slerp_uniform_f32},
    {"clip_hermite_f32", dg_clip_hermite_f32},
    {"clip_sample_f32", dg_clip_sample_f32},
    {"skin_tangents", dg_skin_tangents},
    {"skin_mesh", dg_skin_mesh},
    {"palette_splat", dg_palette_splat},
    {"palette_to_dual_quat", dg_palette_to_dual_quat},
    {"skin_mesh_dq", dg_skin_mesh_dq},
    {"skin_mesh_dq_rows", dg_skin_mesh_dq_rows},
    {"pose_blend_weighted", dg_pose_blend_weighted},
    {"pose_add_weighted", dg_pose_add_weighted},
    {"pose_blend_weighted_f32", dg_pose_blend_weighted_f32},
    {"pose_add_weighted_f32", dg_pose_add_weighted_f32},
    {"local_model_lanes", dg_local_model_lanes},
    {"transform_points_lanes", dg_transform_points_lanes},
    {"quat_add_weighted", dg_quat_add_weighted},
    {"quat_add_weighted_f32", dg_quat_add_weighted_f32},
};
enum { KERNEL_COUNT = sizeof KERNELS / sizeof KERNELS[0] };

/* ---- the golden file ---------------------------------------------------------------------- */

typedef struct golden_entry {
    char kernel[64];
    char hex[65];
    int used;
} golden_entry;

static int is_hex64(const char *s)
{
    for (int i = 0; i < 64; ++i)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return s[64] == '\0';
}

/*
 * Read FILE: `KERNEL SHA256` lines, blank lines and `#` comments. Returns the entry count, or -1
 * after saying why: a file that cannot be read ("cannot read FILE: <reason>": missing, a
 * directory, no permission, an I/O error) or a malformed line.
 */
static int read_golden(const char *path, golden_entry *entries, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("digest", "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int count = 0, lineno = 0, rc = 0;
    for (;;) {
        errno = 0;
        if (!fgets(line, sizeof line, f)) {
            /* fopen opens a directory for reading; the first read fails with EISDIR. */
            if (ferror(f)) {
                cli_error("digest", "cannot read %s: %s", path, strerror(errno ? errno : EIO));
                rc = -1;
            }
            break;
        }
        ++lineno;
        /* a line longer than line[]: its rest is not a line of its own (a long comment) */
        const int whole = strchr(line, '\n') != NULL || feof(f);
        for (int ch = 0; !whole && ch != '\n' && ch != EOF;)
            ch = fgetc(f);
        char kernel[128], hex[128], extra[2];
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        if (!whole || sscanf(p, "%127s %127s %1s", kernel, hex, extra) != 2 || !is_hex64(hex) ||
            strlen(kernel) >= sizeof entries[0].kernel) {
            cli_error("digest", "%s:%d: expected `KERNEL SHA256` (64 lowercase hex digits)", path,
                      lineno);
            rc = -1;
            break;
        }
        if (count == max) {
            cli_error("digest", "%s: more than %d entries", path, max);
            rc = -1;
            break;
        }
        for (int i = 0; i < count; ++i) {
            if (strcmp(entries[i].kernel, kernel) == 0) {
                cli_error("digest", "%s:%d: kernel %s is listed twice", path, lineno, kernel);
                rc = -1;
            }
        }
        if (rc)
            break;
        memcpy(entries[count].kernel, kernel, strlen(kernel) + 1); /* length checked above */
        memcpy(entries[count].hex, hex, 65);
        entries[count].used = 0;
        ++count;
    }
    fclose(f);
    return rc ? -1 : count;
}

/* ---- the command -------------------------------------------------------------------------- */

int cmd_digest(int argc, char **argv)
{
    const char *expect = NULL, *fpenv_mode = NULL;
    int golden_out = 0, summary = 0, expect_default = 0;
    for (int i = 1; i < argc; ++i) {
        const char *value;
        int m;
        if (cli_is_help(argv[i])) {
            fputs(USAGE_DIGEST, stdout);
            char found[PATH_MAX + 64];
            if (cli_data_file("golden.digest", found, sizeof found) == 0) {
                printf("\nThe installed golden file (--expect without FILE): %s\n", found);
            } else {
                printf("\nThe installed golden file (--expect without FILE): none: ");
                cli_data_missing(stdout, "golden.digest");
                putchar('\n');
            }
            return CLI_OK;
        }
        if ((m = cli_opt_value(argc, argv, &i, "--expect", &value)) != 0) {
            if (m > 0 && value == argv[i] && strncmp(value, "--", 2) == 0) {
                --i; /* `--expect --summary`: the next argument is an option, not a FILE */
                m = -1;
            }
            expect = m > 0 ? value : NULL;
            expect_default = m < 0;
        } else if (strcmp(argv[i], "--golden") == 0) {
            golden_out = 1;
        } else if ((m = cli_opt_value(argc, argv, &i, "--fpenv", &value)) != 0) {
            if (m < 0)
                return cli_usage_error("digest", USAGE_DIGEST, "--fpenv needs a MODE (%s)",
                                       CLI_FPENV_MODES);
            fpenv_mode = value;
        } else if (strcmp(argv[i], "--summary") == 0) {
            summary = 1;
        } else {
            return cli_usage_error("digest", USAGE_DIGEST, "unknown argument \"%s\"", argv[i]);
        }
    }
    if ((expect || expect_default) && golden_out)
        return cli_usage_error("digest", USAGE_DIGEST, "--expect and --golden exclude each other");
    if (summary && !expect && !expect_default)
        return cli_usage_error("digest", USAGE_DIGEST, "--summary is a verdict on --expect");
    cli_isa_env_warn("digest", "digest runs every ISA's kernel table, not dispatch");
    static char default_golden[PATH_MAX + 64];
    if (expect_default) {
        if (cli_data_file("golden.digest", default_golden, sizeof default_golden) != 0) {
            fputs("tendon digest: --expect without FILE: ", stderr);
            cli_data_missing(stderr, "golden.digest");
            const char *env = getenv("TENDON_DATA_DIR");
            fputs(env && *env ? " (or name the FILE)\n"
                              : " (install tendon, set TENDON_DATA_DIR, or name the FILE)\n",
                  stderr);
            return CLI_USAGE;
        }
        expect = default_golden;
    }

    enum { MAX_GOLDEN = 256 };
    static golden_entry golden[MAX_GOLDEN];
    int golden_count = 0;
    if (expect && (golden_count = read_golden(expect, golden, MAX_GOLDEN)) < 0)
        return CLI_USAGE;
    if (expect && golden_count == 0) { /* empty, or only comments: not a golden file */
        cli_error("digest",
                  "%s holds no hashes: a golden file has a `KERNEL SHA256` line per kernel "
                  "(`tendon digest --golden` writes one)",
                  expect);
        return CLI_USAGE;
    }
    if (fpenv_mode && cli_fpenv_set(fpenv_mode) != 0)
        return cli_usage_error("digest", USAGE_DIGEST, "--fpenv: \"%s\" is not one of %s",
                               fpenv_mode, CLI_FPENV_MODES);
    const uint64_t caller_env = tendon_fpenv_read();
    cli_fpenv_line(golden_out ? stderr : stdout, "# ");

    static char hex[KERNEL_COUNT][TENDON_ISA_COUNT][65];
    const tendon_kernels *tables[TENDON_ISA_COUNT];
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa)
        tables[isa] = tendon_kernels_for((tendon_isa)isa);

    for (int kn = 0; kn < KERNEL_COUNT; ++kn) {
        for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
            if (!tables[isa])
                continue;
            dg_sink s;
            uint8_t digest[SHA256_DIGEST_SIZE];
            sha256_init(&s.sha);
            tendon_fpenv saved = {0, 0};
            if (fpenv_mode)
                tendon_fpenv_enter(&saved);
            const int ran = KERNELS[kn].run(tables[isa], &s);
            if (fpenv_mode) {
                tendon_fpenv_leave(&saved);
                if (((tendon_fpenv_read() ^ caller_env) & ~(uint64_t)0x3f) != 0) {
                    cli_error("digest", "%s on %s: the control register is 0x%llx after "
                              "tendon_fpenv_leave, 0x%llx before", KERNELS[kn].name,
                              tendon_isa_name((tendon_isa)isa),
                              (unsigned long long)tendon_fpenv_read(),
                              (unsigned long long)caller_env);
                    return CLI_FAIL;
                }
            }
            if (ran != 0) {
                cli_error("digest", "%s: out of memory", KERNELS[kn].name);
                return CLI_USAGE;
            }
            sha256_digest(&s.sha, sizeof digest, digest);
            for (int b = 0; b < SHA256_DIGEST_SIZE; ++b)
                snprintf(hex[kn][isa] + 2 * b, 3, "%02x", digest[b]);
        }
    }

    int failed = 0;
    for (int kn = 0; kn < KERNEL_COUNT; ++kn) {
        for (int isa = 1; isa < TENDON_ISA_COUNT; ++isa) {
            if (tables[isa] && strcmp(hex[kn][isa], hex[kn][0]) != 0) {
                cli_error("digest", "%s: %s differs from scalar", KERNELS[kn].name,
                          tendon_isa_name((tendon_isa)isa));
                failed = 1;
            }
        }
    }

    if (golden_out) {
        if (failed) {
            cli_error("digest", "not writing a golden file while the ISAs disagree");
            return CLI_FAIL;
        }
        printf("# tendon golden digest: `KERNEL SHA256` of the scalar reference's outputs on the\n"
               "# fixed workload of `tendon digest` (tools/tendon/digest.c). Every ISA must\n"
               "# reproduce it. Regenerate (`tendon digest --golden`) only when a kernel's defined\n"
               "# arithmetic or the workload changes, and say why in the commit.\n");
        for (int kn = 0; kn < KERNEL_COUNT; ++kn)
            printf("%s %s\n", KERNELS[kn].name, hex[kn][0]);
        return CLI_OK;
    }

    if (!summary)
        for (int kn = 0; kn < KERNEL_COUNT; ++kn)
            for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa)
                if (tables[isa])
                    printf("%-18s %-7s %s\n", KERNELS[kn].name, tendon_isa_name((tendon_isa)isa),
                           hex[kn][isa]);
    int not_run = 0, ran = 0;
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        if (tables[isa]) {
            ++ran;
            continue;
        }
        ++not_run;
        if (!summary)
            printf("# not run: %s (%s)\n", tendon_isa_name((tendon_isa)isa),
                   tendon_isa_compiled((tendon_isa)isa) == TENDON_ISA_ABSENT
                       ? "not compiled into this build"
                       : "not supported by this CPU");
    }

    if (expect) {
        int mismatches = 0;
        for (int kn = 0; kn < KERNEL_COUNT; ++kn) {
            golden_entry *g = NULL;
            for (int i = 0; i < golden_count; ++i)
                if (strcmp(golden[i].kernel, KERNELS[kn].name) == 0)
                    g = &golden[i];
            if (!g) {
                cli_error("digest", "%s: no hash in %s", KERNELS[kn].name, expect);
                ++mismatches;
                continue;
            }
            g->used = 1;
            for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
                if (tables[isa] && strcmp(hex[kn][isa], g->hex) != 0) {
                    cli_error("digest", "MISMATCH %s %s: %s, golden %s", KERNELS[kn].name,
                              tendon_isa_name((tendon_isa)isa), hex[kn][isa], g->hex);
                    ++mismatches;
                }
            }
        }
        for (int i = 0; i < golden_count; ++i) {
            if (!golden[i].used) {
                cli_error("digest", "%s lists kernel %s, which this tendon does not digest",
                          expect, golden[i].kernel);
                ++mismatches;
            }
        }
        if (summary) {
            /* the verdict, then which ISAs ran (emulated ones marked) and which did not */
            if (mismatches)
                printf("digest: %d difference%s from %s (named above): a determinism bug\n",
                       mismatches, mismatches == 1 ? "" : "s", expect);
            else
                printf("digest: all %d kernels x %d ISAs match %s\n", KERNEL_COUNT, ran, expect);
            printf("digest: ran");
            for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa)
                if (tables[isa])
                    printf(" %s%s", tendon_isa_name((tendon_isa)isa),
                           tendon_isa_compiled((tendon_isa)isa) == TENDON_ISA_EMULATED
                               ? " (emulated)"
                               : "");
            if (not_run) {
                printf("; not run:");
                for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa)
                    if (!tables[isa])
                        printf(" %s", tendon_isa_name((tendon_isa)isa));
            }
            printf(". `tendon digest` prints every hash\n");
            failed = failed || mismatches;
        } else if (mismatches) {
            failed = 1;
        } else {
            fprintf(stderr, "tendon digest: %d kernels on every ISA run here match %s", KERNEL_COUNT,
                    expect);
            if (not_run)
                fprintf(stderr, " (%d ISA%s not run, listed above)", not_run,
                        not_run == 1 ? "" : "s");
            fputc('\n', stderr);
        }
    }
    return failed ? CLI_FAIL : CLI_OK;
}

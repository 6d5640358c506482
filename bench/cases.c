/*
 * tendon benchmarks — the cases (see cases.h). Inputs are seeded and random:
 *   rotations     pairs of independent unit quaternions, uniform on the 3-sphere, so the
 *                 near-parallel straight blend (dot > 0.9995) almost never happens and the
 *                 slerp path is what gets measured;
 *   translations  each component uniform in [-5, 5] m;
 *   scales        each component uniform in [0.5, 2];
 *   t / weights   per-quaternion t and per-joint weights uniform in [0, 1].
 * Everything is allocated 64-byte aligned (a speed hint only; the kernels require none).
 */
#include "cases.h"
#include "skin_cases.h"
#include "clip_cases.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/blend.h>
#include <tendon/fpenv.h>
#include <tendon/pose.h>
#include <tendon/spring.h>

/* ---- seeded random numbers (splitmix64) -------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/** Uniform in [0, 1). */
static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/** Uniform in [lo, hi). */
static double rng_range(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

/** A unit quaternion uniform on the 3-sphere: rejection sampling in the 4-ball, normalised. */
static void rng_quat(rng *r, float *q)
{
    double v[4], s;
    do {
        s = 0.0;
        for (int c = 0; c < 4; ++c) {
            v[c] = rng_range(r, -1.0, 1.0);
            s += v[c] * v[c];
        }
    } while (s > 1.0 || s < 1e-4);
    const double inv = 1.0 / sqrt(s);
    for (int c = 0; c < 4; ++c)
        q[c] = (float)(v[c] * inv);
}

uint64_t tendon_bench_seed(const char *kernel, size_t count)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)kernel; *p; ++p)
        h = (h ^ *p) * 0x100000001b3ull;
    return h ^ ((uint64_t)count * 0x9e3779b97f4a7c15ull);
}

/* ---- allocation ------------------------------------------------------------------------- */

/** 64-byte-aligned block of n elements of `size` bytes (n > 0), or NULL. */
static void *alloc_aligned(size_t n, size_t size)
{
    if (n == 0 || n > (SIZE_MAX - 63) / size)
        return NULL;
    size_t bytes = (n * size + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
    if (bytes > PTRDIFF_MAX)
        return NULL;
    return aligned_alloc(64, bytes);
}

static void random_pose(rng *r, tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c)
            p->translation[3 * j + c] = (float)rng_range(r, -5.0, 5.0);
        rng_quat(r, &p->rotation[4 * j]);
        for (int c = 0; c < 3; ++c)
            p->scale[3 * j + c] = (float)rng_range(r, 0.5, 2.0);
    }
}

/* ---- quaternion batches: slerp, nlerp, multiply ------------------------------------------ */

typedef struct quat_data {
    float *a, *b, *out; /* [4*count] x y z w */
    double *t;          /* [count] in [0, 1] */
    float *tf;          /* the same t as floats (the float32 tier) */
} quat_data;

static int quat_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    quat_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = fx->count;
    d->a = alloc_aligned(4 * n, sizeof(float));
    d->b = alloc_aligned(4 * n, sizeof(float));
    d->out = alloc_aligned(4 * n, sizeof(float));
    d->t = alloc_aligned(n, sizeof(double));
    d->tf = alloc_aligned(n, sizeof(float));
    if (!d->a || !d->b || !d->out || !d->t || !d->tf)
        return 1;
    rng r = {seed};
    for (size_t i = 0; i < n; ++i) {
        rng_quat(&r, &d->a[4 * i]);
        rng_quat(&r, &d->b[4 * i]);
        d->t[i] = rng_unit(&r);
        d->tf[i] = (float)d->t[i];
    }
    memset(d->out, 0, 4 * n * sizeof(float));
    fx->out = d->out;
    return 0;
}

static void quat_teardown(tendon_bench_fixture *fx)
{
    quat_data *d = fx->data;
    if (d) {
        free(d->a);
        free(d->b);
        free(d->out);
        free(d->t);
        free(d->tf);
        free(d);
    }
    fx->data = fx->out = NULL;
}

static void run_quat_slerp_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_slerp_f32(d->a, d->b, d->tf, fx->count, d->out);
}

static void run_quat_nlerp_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_nlerp_f32(d->a, d->b, d->tf, fx->count, d->out);
}

static void run_quat_multiply_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_multiply_f32(d->a, d->b, fx->count, d->out);
}

static void run_quat_slerp(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_slerp(d->a, d->b, d->t, fx->count, d->out);
}

static void run_quat_nlerp(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_nlerp(d->a, d->b, d->t, fx->count, d->out);
}

static void run_quat_multiply(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const quat_data *d = fx->data;
    k->quat_multiply(d->a, d->b, fx->count, d->out);
}

/* ---- poses: blend, additive layer, and their masked forms -------------------------------- */

/* A blend factor and an additive weight strictly inside (0, 1): no clamp short-cuts, and the
 * additive rotation really slerps from identity (its weight is capped at 1). */
#define BENCH_BLEND_T 0.375
#define BENCH_ADD_WEIGHT 0.625

typedef struct pose_data {
    tendon_pose a, b, out;
    float *joint_weights; /* [joint_count] in [0, 1] */
    tendon_pose c, d, rest;   /* the N-layer case's other layers and its rest pose */
    float *layer_weights[4];  /* its per-joint weights, [joint_count] each in [0, 1] */
} pose_data;

static int pose_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    pose_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = fx->count;
    if (tendon_pose_create(n, &d->a) != TENDON_OK || tendon_pose_create(n, &d->b) != TENDON_OK ||
        tendon_pose_create(n, &d->out) != TENDON_OK)
        return 1;
    d->joint_weights = alloc_aligned(n, sizeof(float));
    if (!d->joint_weights)
        return 1;
    if (tendon_pose_create(n, &d->c) != TENDON_OK || tendon_pose_create(n, &d->d) != TENDON_OK ||
        tendon_pose_create(n, &d->rest) != TENDON_OK)
        return 1;
    for (int l = 0; l < 4; ++l)
        if (!(d->layer_weights[l] = alloc_aligned(n, sizeof(float))))
            return 1;
    rng r = {seed};
    random_pose(&r, &d->a);
    random_pose(&r, &d->b);
    for (size_t j = 0; j < n; ++j)
        d->joint_weights[j] = (float)rng_unit(&r);
    random_pose(&r, &d->c);
    random_pose(&r, &d->d);
    random_pose(&r, &d->rest);
    for (int l = 0; l < 4; ++l)
        for (size_t j = 0; j < n; ++j)
            d->layer_weights[l][j] = (float)rng_unit(&r);
    fx->out = &d->out;
    return 0;
}

static void pose_teardown(tendon_bench_fixture *fx)
{
    pose_data *d = fx->data;
    if (d) {
        tendon_pose_destroy(&d->a);
        tendon_pose_destroy(&d->b);
        tendon_pose_destroy(&d->out);
        free(d->joint_weights);
        tendon_pose_destroy(&d->c);
        tendon_pose_destroy(&d->d);
        tendon_pose_destroy(&d->rest);
        for (int l = 0; l < 4; ++l)
            free(d->layer_weights[l]);
        free(d);
    }
    fx->data = fx->out = NULL;
}

static void run_pose_blend(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_blend(&d->a, &d->b, BENCH_BLEND_T, NULL, fx->count, &d->out);
}

static void run_pose_blend_masked(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_blend(&d->a, &d->b, BENCH_BLEND_T, d->joint_weights, fx->count, &d->out);
}

static void run_pose_add(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_add(&d->a, &d->b, BENCH_ADD_WEIGHT, NULL, fx->count, &d->out);
}

static void run_pose_add_masked(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_add(&d->a, &d->b, BENCH_ADD_WEIGHT, d->joint_weights, fx->count, &d->out);
}

/* ---- the float32 tier (docs/fast-tier.md) ---- */

static void run_pose_blend_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_blend_f32(&d->a, &d->b, BENCH_BLEND_T, NULL, fx->count, &d->out);
}

static void run_pose_blend_nlerp_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_blend_nlerp_f32(&d->a, &d->b, BENCH_BLEND_T, NULL, fx->count, &d->out);
}

static void run_pose_blend_masked_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_blend_f32(&d->a, &d->b, BENCH_BLEND_T, d->joint_weights, fx->count, &d->out);
}

static void run_pose_add_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_add_f32(&d->a, &d->b, BENCH_ADD_WEIGHT, NULL, fx->count, &d->out);
}

static void run_pose_add_masked_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    k->pose_add_f32(&d->a, &d->b, BENCH_ADD_WEIGHT, d->joint_weights, fx->count, &d->out);
}

/* ---- the floating-point environment guard (issue 14; docs/determinism.md) ----
 * api_*: the public tendon_pose_blend_f32 (validation, dispatch to the active table, the
 * guard) registered under the active ISA only; _ftzdaz: the same with FTZ and DAZ set on the
 * thread for the whole run (set in setup, restored in teardown), so every call takes the
 * save / set / restore path. raw_enter_leave_*: the raw kernel between tendon_fpenv_enter and
 * tendon_fpenv_leave per call (the guard's work as a library call, without the validation). */

static int api_usable(tendon_isa isa, const tendon_kernels *k)
{
    (void)k;
    tendon_isa active;
    return tendon_isa_active(&active) == TENDON_OK && isa == active;
}

static void set_ftz_daz(int on)
{
#if defined(__x86_64__)
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    csr = on ? (csr | 0x8040u) : (csr & ~0x8040u);
    __asm__ volatile("ldmxcsr %0" ::"m"(csr));
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = on ? (fpcr | (1ull << 24)) : (fpcr & ~(1ull << 24));
    __asm__ volatile("msr fpcr, %0" ::"r"(fpcr));
#else
    (void)on;
#endif
}

static int pose_setup_ftzdaz(tendon_bench_fixture *fx, uint64_t seed);
static void pose_teardown_ftzdaz(tendon_bench_fixture *fx);

static void run_api_pose_blend_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    (void)k;
    pose_data *d = fx->data;
    tendon_pose_blend_f32(&d->a, &d->b, BENCH_BLEND_T, &d->out);
}

static void run_raw_enter_leave_pose_blend_f32(const tendon_bench_fixture *fx,
                                               const tendon_kernels *k)
{
    pose_data *d = fx->data;
    tendon_fpenv saved;
    tendon_fpenv_enter(&saved);
    k->pose_blend_f32(&d->a, &d->b, BENCH_BLEND_T, NULL, fx->count, &d->out);
    tendon_fpenv_leave(&saved);
}

static const size_t FPENV_COUNTS[] = {1, 64, 0};

/* Four blended layers (weights 0.4 0.3 0.2 0.1), each with per-joint weights: ozz's
   BlendingJob case of the peers harness. */
static void run_pose_blend_layers4_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    const tendon_blend_layer layers[4] = {{&d->a, 0.4, d->layer_weights[0]},
                                          {&d->b, 0.3, d->layer_weights[1]},
                                          {&d->c, 0.2, d->layer_weights[2]},
                                          {&d->d, 0.1, d->layer_weights[3]}};
    const tendon_blend_layers_job job = {layers, 4, NULL, 0, &d->rest,
                                         TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD};
    k->pose_blend_layers_f32(&job, fx->count, &d->out);
}

/* The memory floor under a pose blend: a plain float lerp over the same bytes (two poses'
   10 floats a joint read, one pose's written), at the table's native width. */
static int floor_lerp_usable(tendon_isa isa, const tendon_kernels *k)
{
    (void)k;
    switch (isa) {
    case TENDON_ISA_SCALAR: return 1;
#ifdef TENDON_BENCH_FLOOR_SSE2
    case TENDON_ISA_SSE2: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX2
    case TENDON_ISA_AVX2: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX512
    case TENDON_ISA_AVX512: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_NEON
    case TENDON_ISA_NEON: return 1;
#endif
    default: return 0;
    }
}

static void floor_lerp(tendon_isa isa, const float *a, const float *b, size_t n, float *out)
{
    switch (isa) {
#ifdef TENDON_BENCH_FLOOR_SSE2
    case TENDON_ISA_SSE2: tendon_bench_floor_lerp_sse2(a, b, 0.375f, n, out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX2
    case TENDON_ISA_AVX2: tendon_bench_floor_lerp_avx2(a, b, 0.375f, n, out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX512
    case TENDON_ISA_AVX512: tendon_bench_floor_lerp_avx512(a, b, 0.375f, n, out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_NEON
    case TENDON_ISA_NEON: tendon_bench_floor_lerp_neon(a, b, 0.375f, n, out); break;
#endif
    default: tendon_bench_floor_lerp_scalar(a, b, 0.375f, n, out); break;
    }
}

static void run_floor_lerp(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    pose_data *d = fx->data;
    const size_t n = fx->count; /* JOINT_COUNTS are multiples of 16: whole vectors */
    floor_lerp(k->isa, d->a.translation, d->b.translation, 3 * n, d->out.translation);
    floor_lerp(k->isa, d->a.rotation, d->b.rotation, 4 * n, d->out.rotation);
    floor_lerp(k->isa, d->a.scale, d->b.scale, 3 * n, d->out.scale);
}

/* ---- the division / sqrt floor ------------------------------------------------------------
 * What one correctly rounded double division or square root costs per element at each vector
 * width, on independent elements: the floor under any kernel that divides or takes a root per
 * element (docs/detmath.md weighs it against a Newton 1/√s built from + − ×). Only
 * native widths: an emulated floor would measure SIMDe, not the divider. */

typedef struct floor_data {
    double *a, *b, *out; /* [count]; a, b in [1, 2) */
} floor_data;

static int floor_usable(tendon_isa isa, const tendon_kernels *k)
{
    (void)k;
    if (isa == TENDON_ISA_SCALAR)
        return 1;
    if (!tendon_isa_supported(isa)) /* also false for emulated variants */
        return 0;
    switch (isa) {
#ifdef TENDON_BENCH_FLOOR_SSE2
    case TENDON_ISA_SSE2: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX2
    case TENDON_ISA_AVX2: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX512
    case TENDON_ISA_AVX512: return 1;
#endif
#ifdef TENDON_BENCH_FLOOR_NEON
    case TENDON_ISA_NEON: return 1;
#endif
    default: return 0;
    }
}

static int floor_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    floor_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = fx->count;
    if (n % 8 != 0)
        return 1;
    d->a = alloc_aligned(n, sizeof(double));
    d->b = alloc_aligned(n, sizeof(double));
    d->out = alloc_aligned(n, sizeof(double));
    if (!d->a || !d->b || !d->out)
        return 1;
    rng r = {seed};
    for (size_t i = 0; i < n; ++i) {
        d->a[i] = rng_range(&r, 1.0, 2.0);
        d->b[i] = rng_range(&r, 1.0, 2.0);
        d->out[i] = 0.0;
    }
    fx->out = d->out;
    return 0;
}

static void floor_teardown(tendon_bench_fixture *fx)
{
    floor_data *d = fx->data;
    if (d) {
        free(d->a);
        free(d->b);
        free(d->out);
        free(d);
    }
    fx->data = fx->out = NULL;
}

static void run_floor_div(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const floor_data *d = fx->data;
    switch (k->isa) {
#ifdef TENDON_BENCH_FLOOR_SSE2
    case TENDON_ISA_SSE2: tendon_bench_floor_div_sse2(d->a, d->b, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX2
    case TENDON_ISA_AVX2: tendon_bench_floor_div_avx2(d->a, d->b, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX512
    case TENDON_ISA_AVX512: tendon_bench_floor_div_avx512(d->a, d->b, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_NEON
    case TENDON_ISA_NEON: tendon_bench_floor_div_neon(d->a, d->b, fx->count, d->out); break;
#endif
    default: tendon_bench_floor_div_scalar(d->a, d->b, fx->count, d->out); break;
    }
}

static void run_floor_sqrt(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const floor_data *d = fx->data;
    switch (k->isa) {
#ifdef TENDON_BENCH_FLOOR_SSE2
    case TENDON_ISA_SSE2: tendon_bench_floor_sqrt_sse2(d->a, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX2
    case TENDON_ISA_AVX2: tendon_bench_floor_sqrt_avx2(d->a, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_AVX512
    case TENDON_ISA_AVX512: tendon_bench_floor_sqrt_avx512(d->a, fx->count, d->out); break;
#endif
#ifdef TENDON_BENCH_FLOOR_NEON
    case TENDON_ISA_NEON: tendon_bench_floor_sqrt_neon(d->a, fx->count, d->out); break;
#endif
    default: tendon_bench_floor_sqrt_scalar(d->a, fx->count, d->out); break;
    }
}

/* ---- springs (tendon/spring.h) -----------------------------------------------------------
 * spring_single: one spring at 2 Hz / ζ 0.35 (101 substeps), a sine anchor (one libm sin per
 * call, the seed cases' sine: center + amplitude·sin(2π·1 Hz·t + phase)); item = one sample.
 * spring_chain4: four such links (191 substeps), the same anchor at the root; item = one chain.
 * spring_batch: N springs sharing those settings, one anchor call per substep writing all N
 * anchors (one sin, then base + amplitude·sin per component); item = one spring.
 * The *_f32_sine forms use the same sine evaluated at the precision of the anchor's float32
 * output: the phase reduced to whole cycles in double (exact), then sinf — about 5 ns a call
 * here against libm sin's 8.5 (docs/springs.md, "Benchmark anchors").
 * The *_noop_anchor forms pass an anchor that writes nothing (a constant anchor at 0): the
 * library's own cost, without the caller's. Each run samples the next frame time (1/60 s on).
 */
typedef struct spring_data {
    tendon_spring_settings settings;
    tendon_spring_link links[4];
    float *out, *base; /* [3*count] */
    void *workspace;
    size_t workspace_bytes;
    size_t count;
    double time;
} spring_data;

static void sine_anchor(void *user, double t, float *out)
{
    (void)user;
    const double s = sin((2.0 * 3.141592653589793) * t + 0.3);
    out[0] = (float)(0.3 * s);
    out[1] = (float)(1.5 + 0.1 * s);
    out[2] = (float)(-0.2 * s);
}

/*
 * The same sine at float32 precision: t − trunc(t) is exact, so the phase 2π·(t − k) + 0.3 loses
 * nothing to a large t, and rounding it to float moves it by at most 2.4e-7 rad — below the
 * output's own float rounding at these amplitudes. sinf is within 1 float ulp.
 */
static void sine_anchor_f32(void *user, double t, float *out)
{
    (void)user;
    const double cycles = t - (double)(int64_t)t;
    const float s = sinf((float)((2.0 * 3.141592653589793) * cycles + 0.3));
    out[0] = 0.3f * s;
    out[1] = 1.5f + 0.1f * s;
    out[2] = -0.2f * s;
}

static void sine_batch_anchor(void *user, double t, float *out)
{
    const spring_data *d = user;
    const float s = (float)sin((2.0 * 3.141592653589793) * t + 0.3);
    const size_t n = 3 * d->count;
    for (size_t i = 0; i < n; ++i)
        out[i] = d->base[i] + 0.25f * s;
}

static void noop_anchor(void *user, double t, float *out)
{
    (void)user;
    (void)t;
    (void)out;
}

static int spring_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    spring_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    d->count = fx->count;
    d->settings = (tendon_spring_settings){2.0, 0.35, TENDON_SPRING_NO_LIMIT};
    for (int i = 0; i < 4; ++i)
        d->links[i] = (tendon_spring_link){2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0.0, -0.1, 0.0}};
    d->out = alloc_aligned(3 * d->count, sizeof(float));
    d->base = alloc_aligned(3 * d->count, sizeof(float));
    if (!d->out || !d->base)
        return 1;
    rng r = {seed};
    for (size_t i = 0; i < 3 * d->count; ++i)
        d->base[i] = (float)rng_range(&r, -1.0, 1.0);
    if (tendon_spring_batch_workspace_size(d->count, &d->workspace_bytes) != TENDON_OK ||
        !(d->workspace = malloc(d->workspace_bytes)))
        return 1;
    d->time = 1.0;
    fx->out = d->out;
    return 0;
}

static void spring_teardown(tendon_bench_fixture *fx)
{
    spring_data *d = fx->data;
    if (d) {
        free(d->out);
        free(d->base);
        free(d->workspace);
        free(d);
    }
    fx->data = fx->out = NULL;
}

static double next_frame(spring_data *d)
{
    d->time += 1.0 / 60.0;
    if (d->time > 100.0)
        d->time = 1.0;
    return d->time;
}

static void spring_run_single(const tendon_bench_fixture *fx, const tendon_kernels *k,
                              tendon_spring_anchor_fn anchor)
{
    spring_data *d = fx->data;
    tendon_spring_sample_on(k, &d->settings, anchor, d, next_frame(d), d->out);
}

static void spring_run_chain(const tendon_bench_fixture *fx, const tendon_kernels *k,
                             tendon_spring_anchor_fn anchor)
{
    spring_data *d = fx->data;
    tendon_spring_chain_sample_on(k, d->links, 4, anchor, d, next_frame(d), NULL, 0, d->out, 12);
}

static void spring_run_batch(const tendon_bench_fixture *fx, const tendon_kernels *k,
                             tendon_spring_anchor_fn anchor)
{
    spring_data *d = fx->data;
    tendon_spring_sample_batch_on(k, &d->settings, anchor, d, next_frame(d), d->count,
                                  d->workspace, d->workspace_bytes, d->out);
}

static void run_spring_single(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_single(fx, k, sine_anchor);
}
static void run_spring_single_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_single(fx, k, sine_anchor_f32);
}
static void run_spring_single_noop(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_single(fx, k, noop_anchor);
}
static void run_spring_chain4(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_chain(fx, k, sine_anchor);
}
static void run_spring_chain4_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_chain(fx, k, sine_anchor_f32);
}
static void run_spring_chain4_noop(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_chain(fx, k, noop_anchor);
}
static void run_spring_batch(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_batch(fx, k, sine_batch_anchor);
}
static void run_spring_batch_noop(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    spring_run_batch(fx, k, noop_anchor);
}

/* ---- the table -------------------------------------------------------------------------- */

static const size_t JOINT_COUNTS[] = {16, 64, 256, 1024, 0};
static const size_t FLOOR_COUNTS[] = {1024, 0};
static const size_t CLIP_COUNTS[] = {64, 1024, 0};
static const size_t RIG_COUNTS[] = {19, 64, 256, 0};
static const size_t VERTEX_COUNTS[] = {10000, 100000, 0};
static const size_t ONE[] = {1, 0};
static const size_t DQ_PALETTE_COUNT[] = {64, 0}; /* the skin cases' palette; 64 vertices set up */
static const size_t SPRING_COUNTS[] = {16, 256, 0};

const tendon_bench_case tendon_bench_cases[] = {
    {"quat_slerp", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_slerp, quat_teardown},
    {"quat_nlerp", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_nlerp, quat_teardown},
    {"quat_multiply", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_multiply, quat_teardown},
    {"pose_blend", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_blend, pose_teardown},
    {"pose_add", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_add, pose_teardown},
    {"pose_blend_masked", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_blend_masked,
     pose_teardown},
    {"pose_add_masked", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_add_masked,
     pose_teardown},
    {"quat_slerp_f32", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_slerp_f32, quat_teardown},
    {"quat_nlerp_f32", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_nlerp_f32, quat_teardown},
    {"quat_multiply_f32", "quat", JOINT_COUNTS, NULL, quat_setup, run_quat_multiply_f32,
     quat_teardown},
    {"pose_blend_f32", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_blend_f32, pose_teardown},
    {"pose_blend_nlerp_f32", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_blend_nlerp_f32,
     pose_teardown},
    {"pose_add_f32", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_add_f32, pose_teardown},
    {"pose_blend_masked_f32", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_blend_masked_f32,
     pose_teardown},
    {"pose_add_masked_f32", "joint", JOINT_COUNTS, NULL, pose_setup, run_pose_add_masked_f32,
     pose_teardown},
    {"pose_blend_layers4_f32", "joint", JOINT_COUNTS, NULL, pose_setup,
     run_pose_blend_layers4_f32, pose_teardown},
    {"floor_lerp_f32", "joint", JOINT_COUNTS, floor_lerp_usable, pose_setup, run_floor_lerp,
     pose_teardown},
    {"local_matrices", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_local_matrices, tendon_bench_rig_teardown},
    {"model_matrices", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_model_matrices, tendon_bench_rig_teardown},
    {"model_matrices_level", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_model_matrices_level, tendon_bench_rig_teardown},
    {"model_matrices_dfs", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_model_matrices_dfs, tendon_bench_rig_teardown},
    {"palette", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup, tendon_bench_run_palette,
     tendon_bench_rig_teardown},
    {"palette_splat", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_palette_splat, tendon_bench_rig_teardown},
    {"pose_palette", "joint", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_pose_palette, tendon_bench_rig_teardown},
    {"local_model_lanes", "lane", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_local_model_lanes, tendon_bench_rig_teardown},
    {"transform_points_lanes", "lane", RIG_COUNTS, NULL, tendon_bench_rig_setup,
     tendon_bench_run_transform_points_lanes, tendon_bench_rig_teardown},
    {"skin_positions", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_positions, tendon_bench_skin_teardown},
    {"skin_normals", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_normals, tendon_bench_skin_teardown},
    {"skin_tangents", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_tangents, tendon_bench_skin_teardown},
    {"skin_mesh_positions", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_mesh_positions, tendon_bench_skin_teardown},
    {"skin_mesh_normals", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_mesh_normals, tendon_bench_skin_teardown},
    {"skin_mesh_tangents", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_mesh_tangents, tendon_bench_skin_teardown},
    {"skin_mesh_dq", "vertex", VERTEX_COUNTS, NULL, tendon_bench_skin_setup,
     tendon_bench_run_skin_mesh_dq, tendon_bench_skin_teardown},
    {"palette_to_dual_quat", "joint", DQ_PALETTE_COUNT, NULL, tendon_bench_skin_setup,
     tendon_bench_run_palette_to_dual_quat, tendon_bench_skin_teardown},
    {"morph", "vertex", VERTEX_COUNTS, NULL, tendon_bench_morph_setup, tendon_bench_run_morph,
     tendon_bench_morph_teardown},
    {"spring_single", "spring", ONE, NULL, spring_setup, run_spring_single, spring_teardown},
    {"spring_single_f32_sine", "spring", ONE, NULL, spring_setup, run_spring_single_f32,
     spring_teardown},
    {"spring_single_noop_anchor", "spring", ONE, NULL, spring_setup, run_spring_single_noop,
     spring_teardown},
    {"spring_chain4", "chain", ONE, NULL, spring_setup, run_spring_chain4, spring_teardown},
    {"spring_chain4_f32_sine", "chain", ONE, NULL, spring_setup, run_spring_chain4_f32,
     spring_teardown},
    {"spring_chain4_noop_anchor", "chain", ONE, NULL, spring_setup, run_spring_chain4_noop,
     spring_teardown},
    {"spring_batch", "spring", SPRING_COUNTS, NULL, spring_setup, run_spring_batch,
     spring_teardown},
    {"spring_batch_noop_anchor", "spring", SPRING_COUNTS, NULL, spring_setup,
     run_spring_batch_noop, spring_teardown},
    {"clip_sample", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup,
     tendon_bench_run_clip_sample, tendon_bench_clip_teardown},
    {"clip_sample_distinct", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup_distinct,
     tendon_bench_run_clip_sample, tendon_bench_clip_teardown},
    {"clip_forward_distinct", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup_distinct,
     tendon_bench_run_clip_forward, tendon_bench_clip_teardown},
    {"clip_forward", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup,
     tendon_bench_run_clip_forward, tendon_bench_clip_teardown},
    {"clip_sample_f32", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup,
     tendon_bench_run_clip_sample_f32, tendon_bench_clip_teardown},
    {"clip_sample_f32_distinct", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup_distinct,
     tendon_bench_run_clip_sample_f32, tendon_bench_clip_teardown},
    {"clip_forward_f32", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup,
     tendon_bench_run_clip_forward_f32, tendon_bench_clip_teardown},
    {"clip_forward_f32_distinct", "track", CLIP_COUNTS, NULL, tendon_bench_clip_setup_distinct,
     tendon_bench_run_clip_forward_f32, tendon_bench_clip_teardown},
    {"floor_divpd", "element", FLOOR_COUNTS, floor_usable, floor_setup, run_floor_div,
     floor_teardown},
    {"floor_sqrtpd", "element", FLOOR_COUNTS, floor_usable, floor_setup, run_floor_sqrt,
     floor_teardown},
    {"api_pose_blend_f32", "joint", FPENV_COUNTS, api_usable, pose_setup, run_api_pose_blend_f32,
     pose_teardown},
    {"api_pose_blend_f32_ftzdaz", "joint", FPENV_COUNTS, api_usable, pose_setup_ftzdaz,
     run_api_pose_blend_f32, pose_teardown_ftzdaz},
    {"raw_enter_leave_pose_blend_f32", "joint", FPENV_COUNTS, api_usable, pose_setup,
     run_raw_enter_leave_pose_blend_f32, pose_teardown},
    {"raw_enter_leave_pose_blend_f32_ftzdaz", "joint", FPENV_COUNTS, api_usable,
     pose_setup_ftzdaz, run_raw_enter_leave_pose_blend_f32, pose_teardown_ftzdaz},
};

static int pose_setup_ftzdaz(tendon_bench_fixture *fx, uint64_t seed)
{
    const int rc = pose_setup(fx, seed);
    set_ftz_daz(1);
    return rc;
}

static void pose_teardown_ftzdaz(tendon_bench_fixture *fx)
{
    set_ftz_daz(0);
    pose_teardown(fx);
}

const size_t tendon_bench_case_count = sizeof tendon_bench_cases / sizeof tendon_bench_cases[0];

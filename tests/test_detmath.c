/*
 * The project's own transcendentals (src/common/detmath.h) against MPFR at 200 bits, over their
 * whole documented domains:
 *
 *   tendon_det_acos       [−1, 1]            mpfr_acos       NaN outside and for NaN
 *   tendon_det_acos_pos   [0, 1]             mpfr_acos       NaN for NaN (outside: unspecified)
 *   tendon_det_asin_core  [0, 1/2] (odd)     mpfr_asin       (outside: unspecified)
 *   tendon_det_sin        [−π, π]            mpfr_sin        NaN outside and for NaN
 *   tendon_det_sin_core   [−π/2, π/2]        mpfr_sin        (outside: unspecified)
 *   tendon_det_rsqrt      positive normals   mpfr_rec_sqrt   (outside: unspecified)
 *
 * Each sweep is dense and uniform over the domain, plus seeded random points, plus a
 * logarithmic walk towards the ends (every power of two down to the subnormals towards 0, and
 * 1 − 2^−k towards 1), plus the named points: ±0, the endpoints and their neighbours, the
 * neighbours of 0.5 (acos's branch), 0.9995 (slerp's straight-blend threshold), 1, π/2 (sin's
 * reduction), subnormal inputs where the domain has them; rsqrt runs over every exponent.
 *
 * Errors are measured in MPFR: |got − exact| in ulps of the exact result (the double spacing at
 * the exact value), and relative |got − exact| / |exact|. An exact result of 0 (sin(±0),
 * acos(1)) must be returned as exactly 0 with MPFR's sign. The bounds below are set a little
 * above what was measured (docs/detmath.md quotes the same numbers); the target was 1e-13
 * relative or better, and every function is about a hundred times inside it.
 *
 * The float32 tier's own acos and sin (src/common/detmath_f32.h) are measured the same way in
 * float32 ulps (the float spacing at the exact value), over every float of a dense grid of
 * their domains (every 256th float of [0, 1] for acos, every 256th of [0, π/2] for sin) and
 * every float of the last 2^14 below 1 for acos); there the oracle is libm's acos and sin in double
 * (within an ulp of double, 2^-29 of a float ulp: MPFR on 200 million points took minutes and
 * found the same maxima).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mpfr.h>

#include "common/detmath.h"
#include "common/detmath_f32.h"
#include "support.h"

#define PREC 200

/*
 * Bounds, set a little above the largest error measured (x86-64, gcc 12, the code of commit
 * 64f1b63: Estrin-order polynomials, correctly rounded √ inside acos). "suite" is what the sweeps
 * below find; "deep" is a one-off search with 1.5–10 million random points in the worst
 * sub-interval (asin_core [0.4, 0.5], acos [0.5, 0.6], sin [1.3, 1.9], rsqrt [1, 4)).
 *
 *              suite                    deep                     bound
 *   acos       8.07 ulp, 1.016e-15 rel  8.16 ulp, 1.024e-15 rel  10 ulp,  1.2e-15
 *   acos_pos   8.07 ulp, 1.016e-15 rel  (acos's positive half)   10 ulp,  1.2e-15
 *   asin_core  7.57 ulp, 9.73e-16 rel   7.70 ulp, 9.76e-16 rel   9 ulp,   1.1e-15
 *   sin        8.37 ulp, 9.29e-16 rel   8.75 ulp, 9.72e-16 rel   10 ulp,  1.1e-15
 *   sin_core   8.19 ulp, 9.09e-16 rel   8.79 ulp, 9.76e-16 rel   10 ulp,  1.1e-15
 *   rsqrt      2.13 ulp, 2.72e-16 rel   2.19 ulp, 2.72e-16 rel   2.5 ulp, 3.2e-16
 *
 * The polynomial fits themselves account for nearly all of it: P_asin is within 3.65e-15 of its
 * target, which reaches asin as up to y·3.65e-15 ≤ 9.1e-16 relative at u = 1/2; P_sin's 1.86e-16
 * reaches sin as up to x³·1.86e-16 ≈ 7.2e-16 at π/2. Near 1 the spacing of doubles is 1.1e-16,
 * hence the ~8 ulp. (The Horner order of commit 313ac48 measured the same within 1.5 ulp.)
 */
typedef struct bound {
    double ulps;
    double rel;
} bound;
static const bound BOUND_ACOS = {10.0, 1.2e-15};
static const bound BOUND_ACOS_POS = {10.0, 1.2e-15};
static const bound BOUND_ASIN_CORE = {9.0, 1.1e-15};
static const bound BOUND_SIN = {10.0, 1.1e-15};
static const bound BOUND_SIN_CORE = {10.0, 1.1e-15};
static const bound BOUND_RSQRT = {2.5, 3.2e-16};

typedef double (*det_fn)(double);
typedef int (*mp_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

typedef struct errstat {
    const char *name;
    det_fn f;
    mp_fn g;
    size_t points;
    double max_ulp, x_ulp; /* worst error in ulps of the exact result, and where */
    double max_rel, x_rel; /* worst relative error (exact ≠ 0), and where */
    double max_abs, x_abs; /* worst absolute error, and where */
    size_t zeros;          /* points whose exact result is 0 */
    size_t zero_value_bad; /* exact 0 but got ≠ 0: a failure */
    size_t zero_sign_bad;  /* exact ±0, got ∓0 */
    double x_zero_bad;
    size_t nonfinite_bad; /* got NaN or ∞ inside the domain */
    double x_nonfinite;
    mpfr_t ex, gt, d;
} errstat;

static void stat_init(errstat *e, const char *name, det_fn f, mp_fn g)
{
    memset(e, 0, sizeof *e);
    e->name = name;
    e->f = f;
    e->g = g;
    mpfr_inits2(PREC, e->ex, e->gt, e->d, (mpfr_ptr)0);
}

static void stat_clear(errstat *e) { mpfr_clears(e->ex, e->gt, e->d, (mpfr_ptr)0); }

/* Evaluate f(x) and the MPFR oracle at x, and fold the error into e. */
static void probe(errstat *e, double x)
{
    const double got = e->f(x);
    mpfr_set_d(e->gt, x, MPFR_RNDN); /* exact: PREC ≥ 53 */
    e->g(e->ex, e->gt, MPFR_RNDN);
    e->points++;
    if (!isfinite(got)) {
        if (!e->nonfinite_bad)
            e->x_nonfinite = x;
        e->nonfinite_bad++;
        return;
    }
    if (mpfr_zero_p(e->ex)) {
        e->zeros++;
        if (got != 0.0) {
            if (!e->zero_value_bad)
                e->x_zero_bad = x;
            e->zero_value_bad++;
        } else if (!!signbit(got) != !!mpfr_signbit(e->ex)) {
            if (!e->zero_sign_bad && !e->zero_value_bad)
                e->x_zero_bad = x;
            e->zero_sign_bad++;
        }
        const double a = fabs(got);
        if (a > e->max_abs) {
            e->max_abs = a;
            e->x_abs = x;
        }
        return;
    }
    mpfr_set_d(e->gt, got, MPFR_RNDN);
    mpfr_sub(e->d, e->gt, e->ex, MPFR_RNDN); /* exact enough: PREC bits, the error is tiny */
    mpfr_abs(e->d, e->d, MPFR_RNDN);
    const double abs_err = mpfr_get_d(e->d, MPFR_RNDU);
    if (abs_err > e->max_abs) {
        e->max_abs = abs_err;
        e->x_abs = x;
    }
    /* ulp of the exact value: 2^(E−53) for |exact| in [2^(E−1), 2^E), never below 2^−1074. */
    long ex_exp = mpfr_get_exp(e->ex);
    if (ex_exp - 53 < -1074)
        ex_exp = -1074 + 53;
    mpfr_t t;
    mpfr_init2(t, PREC);
    mpfr_mul_2si(t, e->d, -(ex_exp - 53), MPFR_RNDN);
    const double ulps = mpfr_get_d(t, MPFR_RNDU);
    mpfr_div(t, e->d, e->ex, MPFR_RNDN);
    const double rel = fabs(mpfr_get_d(t, MPFR_RNDU));
    mpfr_clear(t);
    if (ulps > e->max_ulp) {
        e->max_ulp = ulps;
        e->x_ulp = x;
    }
    if (rel > e->max_rel) {
        e->max_rel = rel;
        e->x_rel = x;
    }
}

/* Every double x with lo ≤ x ≤ hi on a uniform grid of n intervals, endpoints included. */
static void sweep_uniform(errstat *e, double lo, double hi, size_t n)
{
    n /= TENDON_TEST_THIN;
    for (size_t i = 0; i <= n; ++i) {
        double x = lo + (hi - lo) * ((double)i / (double)n);
        if (x > hi)
            x = hi;
        probe(e, x);
    }
}

static void sweep_random(errstat *e, double lo, double hi, size_t n, uint64_t seed)
{
    n /= TENDON_TEST_THIN;
    test_rng r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < n; ++i)
        probe(e, rng_range(&r, lo, hi));
}

/* x and its k nearest doubles on each side, kept within [lo, hi]. */
static void probe_around(errstat *e, double x, int k, double lo, double hi)
{
    double up = x, down = x;
    if (x >= lo && x <= hi)
        probe(e, x);
    for (int i = 0; i < k; ++i) {
        up = nextafter(up, INFINITY);
        down = nextafter(down, -INFINITY);
        if (up >= lo && up <= hi)
            probe(e, up);
        if (down >= lo && down <= hi)
            probe(e, down);
    }
}

/* ±2^−k·(1 + random) for every k from 1 to 1074 (to the smallest subnormal), within [lo, hi]. */
static void sweep_towards_zero(errstat *e, double lo, double hi, int per_binade, uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    for (int k = 1; k <= 1074; ++k) {
        for (int i = 0; i < per_binade; ++i) {
            const double m = i == 0 ? 1.0 : 1.0 + rng_unit(&r);
            const double x = ldexp(m, -k);
            if (x >= lo && x <= hi)
                probe(e, x);
            if (-x >= lo && -x <= hi)
                probe(e, -x);
        }
    }
    probe(e, 0.0);
    probe(e, -0.0);
}

/* Subnormal inputs: the smallest, the largest, a spread between; both signs, within [lo, hi]. */
static void probe_subnormals(errstat *e, double lo, double hi)
{
    const double sub[] = {DBL_TRUE_MIN, 2 * DBL_TRUE_MIN, 3 * DBL_TRUE_MIN, 0x1p-1060,
                          0x1.8p-1040, 0x1.fffffffffffffp-1023, nextafter(DBL_MIN, 0.0),
                          DBL_MIN};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; ++i) {
        if (sub[i] >= lo && sub[i] <= hi)
            probe(e, sub[i]);
        if (-sub[i] >= lo && -sub[i] <= hi)
            probe(e, -sub[i]);
    }
}

/* 1 − 2^−k·m and −1 + 2^−k·m for k = 1..53: the approach to ±1 (acos's √ branch). */
static void sweep_towards_one(errstat *e, double lo, double hi, int per_binade, uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    for (int k = 1; k <= 53; ++k) {
        for (int i = 0; i < per_binade; ++i) {
            const double m = i == 0 ? 1.0 : 1.0 + rng_unit(&r);
            const double x = 1.0 - ldexp(m, -k); /* exact for k ≤ 53 up to the rounding of m */
            if (x >= lo && x <= hi)
                probe(e, x);
            if (-x >= lo && -x <= hi)
                probe(e, -x);
        }
    }
}

static void report(const errstat *e, bound b)
{
    printf("measured %-9s %8zu points: max %.3f ulp (x = %a), max rel %.3e (x = %a)", e->name,
           e->points, e->max_ulp, e->x_ulp, e->max_rel, e->x_rel);
    if (e->f != tendon_det_rsqrt) /* results near 0 exist: the absolute error says more there */
        printf(", max abs %.3e (x = %a)", e->max_abs, e->x_abs);
    printf("; bound %.2f ulp, %.1e rel; %zu exact zeros (%zu of the wrong sign)\n", b.ulps, b.rel,
           e->zeros, e->zero_sign_bad);
    fflush(stdout);
}

/* The sweep's assertions; the sign of an exact zero is checked by test_signed_zeros. */
static void assert_within(const errstat *e, bound b)
{
    report(e, b);
    ck_assert_msg(e->nonfinite_bad == 0, "%s: %zu non-finite results inside the domain, first at %a",
                  e->name, e->nonfinite_bad, e->x_nonfinite);
    ck_assert_msg(e->zero_value_bad == 0, "%s: exact result 0 but got non-zero at %a", e->name,
                  e->x_zero_bad);
    ck_assert_msg(e->max_ulp <= b.ulps, "%s: %.3f ulp at x = %a exceeds the bound %.2f ulp",
                  e->name, e->max_ulp, e->x_ulp, b.ulps);
    ck_assert_msg(e->max_rel <= b.rel, "%s: relative error %.3e at x = %a exceeds %.1e", e->name,
                  e->max_rel, e->x_rel, b.rel);
}

/* The named points of acos's domain [lo, hi] ⊆ [−1, 1] (both signs where they fit). */
static void acos_named_points(errstat *e, double lo, double hi)
{
    static const double named[] = {0.0, 0.5, 0.9995, 1.0, 0.25, 0.75, 0.70710678118654757,
                                   0.86602540378443860, 1e-300, 1e-20, 1e-8};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; ++i) {
        probe_around(e, named[i], 16, lo, hi);
        probe_around(e, -named[i], 16, lo, hi);
    }
    probe_subnormals(e, lo, hi);
}

START_TEST(test_acos)
{
    errstat e;
    stat_init(&e, "acos", tendon_det_acos, mpfr_acos);
    sweep_uniform(&e, -1.0, 1.0, 200000);
    sweep_random(&e, -1.0, 1.0, 60000, 0xAC05);
    sweep_towards_zero(&e, -1.0, 1.0, 2, 0xAC06);
    sweep_towards_one(&e, -1.0, 1.0, 64, 0xAC07);
    acos_named_points(&e, -1.0, 1.0);
    assert_within(&e, BOUND_ACOS);
    stat_clear(&e);
}
END_TEST

START_TEST(test_acos_pos)
{
    errstat e;
    stat_init(&e, "acos_pos", tendon_det_acos_pos, mpfr_acos);
    sweep_uniform(&e, 0.0, 1.0, 100000);
    sweep_random(&e, 0.0, 1.0, 30000, 0xAC15);
    sweep_towards_zero(&e, 0.0, 1.0, 2, 0xAC16);
    sweep_towards_one(&e, 0.0, 1.0, 64, 0xAC17);
    acos_named_points(&e, 0.0, 1.0);
    assert_within(&e, BOUND_ACOS_POS);
    stat_clear(&e);
}
END_TEST

START_TEST(test_asin_core)
{
    errstat e;
    stat_init(&e, "asin_core", tendon_det_asin_core, mpfr_asin);
    sweep_uniform(&e, 0.0, 0.5, 100000);
    sweep_random(&e, 0.0, 0.5, 30000, 0xA5);
    sweep_towards_zero(&e, 0.0, 0.5, 4, 0xA6);
    probe_around(&e, 0.5, 32, 0.0, 0.5);
    probe_around(&e, 0.25, 16, 0.0, 0.5);
    probe_subnormals(&e, 0.0, 0.5);
    assert_within(&e, BOUND_ASIN_CORE);
    stat_clear(&e);

    /* Odd: asin_core(−u) is −asin_core(u), bit for bit (the doc extends it to [−1/2, 0]). */
    test_rng r;
    rng_seed(&r, 0xA7);
    for (int i = 0; i < (int)(100000 / TENDON_TEST_THIN); ++i) {
        const double u = i == 0 ? 0.5 : i == 1 ? DBL_TRUE_MIN : rng_range(&r, 0.0, 0.5);
        const double p = tendon_det_asin_core(u), m = tendon_det_asin_core(-u);
        ck_assert_msg(tendon_det_bits(m) == tendon_det_bits(-p),
                      "asin_core(-%a) = %a is not -asin_core(%a) = -%a", u, m, u, p);
    }
}
END_TEST

/* The named points of sin's domain [lo, hi] (both signs where they fit). */
static void sin_named_points(errstat *e, double lo, double hi)
{
    const double named[] = {0.0, TENDON_PIO2, TENDON_PI_HI, 0.5, 1.0, 2.0, 3.0, 0.78539816339744828,
                            1e-300, 1e-20, 1e-8};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; ++i) {
        probe_around(e, named[i], 16, lo, hi);
        probe_around(e, -named[i], 16, lo, hi);
    }
    probe_subnormals(e, lo, hi);
}

START_TEST(test_sin)
{
    errstat e;
    stat_init(&e, "sin", tendon_det_sin, mpfr_sin);
    sweep_uniform(&e, -TENDON_PI_HI, TENDON_PI_HI, 300000);
    sweep_random(&e, -TENDON_PI_HI, TENDON_PI_HI, 100000, 0x5135);
    sweep_towards_zero(&e, -TENDON_PI_HI, TENDON_PI_HI, 4, 0x5136);
    /* The approach to ±π: π_hi − 2^−k·m, where the reduction (π_hi − |x|) + π_lo matters. */
    test_rng r;
    rng_seed(&r, 0x5137);
    for (int k = 1; k <= 60; ++k)
        for (int i = 0; i < 32; ++i) {
            const double x = TENDON_PI_HI - ldexp(1.0 + rng_unit(&r), -k);
            probe(&e, x);
            probe(&e, -x);
        }
    sin_named_points(&e, -TENDON_PI_HI, TENDON_PI_HI);
    assert_within(&e, BOUND_SIN);
    stat_clear(&e);
}
END_TEST

START_TEST(test_sin_core)
{
    errstat e;
    stat_init(&e, "sin_core", tendon_det_sin_core, mpfr_sin);
    sweep_uniform(&e, -TENDON_PIO2, TENDON_PIO2, 200000);
    sweep_random(&e, -TENDON_PIO2, TENDON_PIO2, 60000, 0x5C05);
    sweep_towards_zero(&e, -TENDON_PIO2, TENDON_PIO2, 4, 0x5C06);
    sin_named_points(&e, -TENDON_PIO2, TENDON_PIO2);
    assert_within(&e, BOUND_SIN_CORE);
    stat_clear(&e);
}
END_TEST

START_TEST(test_rsqrt)
{
    errstat e;
    stat_init(&e, "rsqrt", tendon_det_rsqrt, mpfr_rec_sqrt);
    /* Dense over one period of the seed's error, [1, 4) (the seed's bits repeat every 4×). */
    sweep_uniform(&e, 1.0, 4.0, 400000);
    /* Every exponent of the normal range, 256 mantissas each: the ends of the binade and random. */
    test_rng r;
    rng_seed(&r, 0x125);
    for (int ex = -1022; ex <= 1023; ++ex) {
        probe(&e, ldexp(1.0, ex));
        probe(&e, ldexp(nextafter(2.0, 0.0), ex));
        probe(&e, ldexp(1.5, ex));
        for (int i = 0; i < 253; ++i)
            probe(&e, ldexp(1.0 + rng_unit(&r), ex));
    }
    /* The ends of the domain and their neighbours; 4^k and its neighbours (where the seed's
       integer subtraction borrows across the exponent). */
    probe_around(&e, DBL_MIN, 64, DBL_MIN, DBL_MAX);
    probe_around(&e, 2 * DBL_MIN, 16, DBL_MIN, DBL_MAX);
    probe_around(&e, DBL_MAX, 64, DBL_MIN, DBL_MAX);
    for (int ex = -1022; ex <= 1022; ex += 2)
        probe_around(&e, ldexp(1.0, ex), 4, DBL_MIN, DBL_MAX);
    /* The slerp's normalisation sees s near 1: a dense walk over 1 ± 2^−20. */
    sweep_uniform(&e, 1.0 - 0x1p-20, 1.0 + 0x1p-20, 100000);
    assert_within(&e, BOUND_RSQRT);
    stat_clear(&e);
}
END_TEST

/*
 * Signed zeros: sin(±0) = ±0 and sin_core(±0) = ±0 (MPFR, IEEE 754 and the seed's Math.sin all
 * keep the sign), acos(1) = +0, asin_core(±0) = ±0. The seed's slerp computes sin(t·θ) with
 * t = −0 when a blend is asked for weight −0 (−0 is not < 0, so it passes the clamp); its
 * weights then carry the −0 into the quaternion.
 */
START_TEST(test_signed_zeros)
{
    struct {
        const char *name;
        det_fn f;
        double x, want;
    } c[] = {
        {"sin", tendon_det_sin, 0.0, 0.0},
        {"sin", tendon_det_sin, -0.0, -0.0},
        {"sin_core", tendon_det_sin_core, 0.0, 0.0},
        {"sin_core", tendon_det_sin_core, -0.0, -0.0},
        {"asin_core", tendon_det_asin_core, 0.0, 0.0},
        {"asin_core", tendon_det_asin_core, -0.0, -0.0},
        {"acos", tendon_det_acos, 1.0, 0.0},
        {"acos_pos", tendon_det_acos_pos, 1.0, 0.0},
    };
    int bad = 0;
    char first[160] = "";
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
        const double got = c[i].f(c[i].x);
        const int ok = got == 0.0 && !!signbit(got) == !!signbit(c[i].want);
        char arg[16];
        snprintf(arg, sizeof arg, "%s%g", c[i].x == 0.0 && !signbit(c[i].x) ? "+" : "", c[i].x);
        printf("signed zero: %s(%s) = %s%a (want %s0)%s\n", c[i].name, arg,
               got == 0.0 && !signbit(got) ? "+" : "", got, signbit(c[i].want) ? "-" : "+",
               ok ? "" : "  ** WRONG **");
        if (!ok && !bad++)
            snprintf(first, sizeof first, "%s(%s) = %a, IEEE/MPFR/the seed give %s0", c[i].name,
                     arg, got, signbit(c[i].want) ? "-" : "+");
    }
    fflush(stdout);
    ck_assert_msg(bad == 0, "%d signed-zero results wrong; first: %s", bad, first);
}
END_TEST

/* NaN in → NaN out; acos and sin return NaN outside their domains (detmath.h). */
START_TEST(test_nan_and_outside)
{
    const double nan_in[] = {NAN, -NAN};
    for (size_t i = 0; i < 2; ++i) {
        ck_assert_msg(isnan(tendon_det_acos(nan_in[i])), "acos(NaN) = %a", tendon_det_acos(nan_in[i]));
        ck_assert_msg(isnan(tendon_det_acos_pos(nan_in[i])), "acos_pos(NaN) = %a",
                      tendon_det_acos_pos(nan_in[i]));
        ck_assert_msg(isnan(tendon_det_sin(nan_in[i])), "sin(NaN) = %a", tendon_det_sin(nan_in[i]));
    }
    const double acos_out[] = {nextafter(1.0, 2.0), nextafter(-1.0, -2.0), 1.5, -1.5, 2.0, -2.0,
                               1e300, -1e300, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof acos_out / sizeof acos_out[0]; ++i)
        ck_assert_msg(isnan(tendon_det_acos(acos_out[i])), "acos(%a) = %a, not NaN", acos_out[i],
                      tendon_det_acos(acos_out[i]));
    const double sin_out[] = {nextafter(TENDON_PI_HI, 4.0), -nextafter(TENDON_PI_HI, 4.0), 3.5, -3.5,
                              4.0, -4.0, 1e300, -1e300, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof sin_out / sizeof sin_out[0]; ++i)
        ck_assert_msg(isnan(tendon_det_sin(sin_out[i])), "sin(%a) = %a, not NaN", sin_out[i],
                      tendon_det_sin(sin_out[i]));
    /* The last doubles inside stay finite (π_hi < π: π_hi itself is in the domain). */
    ck_assert(isfinite(tendon_det_acos(1.0)) && isfinite(tendon_det_acos(-1.0)));
    ck_assert(isfinite(tendon_det_sin(TENDON_PI_HI)) && isfinite(tendon_det_sin(-TENDON_PI_HI)));
}
END_TEST

/* acos(−x) = π − acos(x) is how the negative half is built: check it against MPFR's π. */
START_TEST(test_acos_endpoints_exact)
{
    mpfr_t pi;
    mpfr_init2(pi, PREC);
    mpfr_const_pi(pi, MPFR_RNDN);
    /* acos(−1) = π: the nearest double is π_hi; acos(0) = π/2: the nearest double is PIO2. */
    ck_assert_msg(tendon_det_acos(-1.0) == mpfr_get_d(pi, MPFR_RNDN), "acos(-1) = %a",
                  tendon_det_acos(-1.0));
    mpfr_div_2ui(pi, pi, 1, MPFR_RNDN);
    ck_assert_msg(tendon_det_acos(0.0) == mpfr_get_d(pi, MPFR_RNDN), "acos(0) = %a",
                  tendon_det_acos(0.0));
    ck_assert_msg(tendon_det_acos(-0.0) == mpfr_get_d(pi, MPFR_RNDN), "acos(-0) = %a",
                  tendon_det_acos(-0.0));
    mpfr_clear(pi);
}
END_TEST

/* ---- the float32 tier ---------------------------------------------------------------------- */

/* Bounds a little above what was measured (docs/detmath.md, "The float32 tier"). */
#define F32_ACOS_BOUND_ULP 5.0
#define F32_SIN_BOUND_ULP 3.0

typedef struct f32_err {
    double ulp, rel;
    float at;
    size_t points;
} f32_err;

/* |got − exact| in ulps of float at the exact value; exact from libm in double (fn: 0 acos,
   1 sin). */
static void f32_measure(int fn, float x, float got, f32_err *e)
{
    const double exact = fn == 0 ? acos((double)x) : sin((double)x);
    e->points++;
    if (exact == 0.0) {
        ck_assert_msg(got == 0.0f, "f32 %s(%a) = %a, exact 0", fn ? "sin" : "acos", (double)x,
                      (double)got);
        return;
    }
    int ex;
    frexp(exact, &ex);
    const double spacing = ldexp(1.0, ex - 24 < -149 ? -149 : ex - 24);
    const double err = fabs((double)got - exact);
    if (err / spacing > e->ulp) {
        e->ulp = err / spacing;
        e->at = x;
    }
    if (err / fabs(exact) > e->rel)
        e->rel = err / fabs(exact);
}

START_TEST(test_f32_acos_pos)
{
    f32_err e = {0, 0, 0, 0};
    /* every 256th float by bit pattern (every 2048th under an emulator: TENDON_TEST_THIN) (0 … 1), then every float of the last 2^14 below 1 */
    const uint32_t one = 0x3f800000u;
    for (uint32_t bits = 0; bits <= one; bits += 256u * TENDON_TEST_THIN) {
        float x;
        memcpy(&x, &bits, sizeof x);
        f32_measure(0, x, tendon_detf_acos_pos(x), &e);
    }
    for (uint32_t bits = one - (1u << 14); bits < one; ++bits) {
        float x;
        memcpy(&x, &bits, sizeof x);
        f32_measure(0, x, tendon_detf_acos_pos(x), &e);
    }
    printf("measured f32 acos_pos: %zu points, max %.3g ulp (x = %a), max rel %.3g\n", e.points,
           e.ulp, (double)e.at, e.rel);
    ck_assert(tendon_detf_acos_pos(1.0f) == 0.0f);
    ck_assert(isnan(tendon_detf_acos_pos(NAN)));
    ck_assert_msg(e.ulp <= F32_ACOS_BOUND_ULP, "f32 acos: %.3g ulp", e.ulp);
}
END_TEST

START_TEST(test_f32_sin_core)
{
    f32_err e = {0, 0, 0, 0};
    const float top = 1.57079637f; /* the float above π/2 */
    uint32_t top_bits;
    memcpy(&top_bits, &top, sizeof top_bits);
    for (uint32_t bits = 0; bits <= top_bits; bits += bits + 256u * TENDON_TEST_THIN > top_bits && bits < top_bits ? top_bits - bits : 256u * TENDON_TEST_THIN) {
        float x;
        memcpy(&x, &bits, sizeof x);
        f32_measure(1, x, tendon_detf_sin_core(x), &e);
        f32_measure(1, -x, tendon_detf_sin_core(-x), &e);
        if (bits == top_bits)
            break;
    }
    printf("measured f32 sin_core: %zu points, max %.3g ulp (x = %a), max rel %.3g\n", e.points,
           e.ulp, (double)e.at, e.rel);
    ck_assert_msg(e.ulp <= F32_SIN_BOUND_ULP, "f32 sin: %.3g ulp", e.ulp);
}
END_TEST

static Suite *detmath_suite(void)
{
    Suite *s = suite_create("detmath");
    TCase *tc = tcase_create("mpfr");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_acos);
    tcase_add_test(tc, test_acos_pos);
    tcase_add_test(tc, test_asin_core);
    tcase_add_test(tc, test_sin);
    tcase_add_test(tc, test_sin_core);
    tcase_add_test(tc, test_rsqrt);
    tcase_add_test(tc, test_signed_zeros);
    tcase_add_test(tc, test_nan_and_outside);
    tcase_add_test(tc, test_acos_endpoints_exact);
    suite_add_tcase(s, tc);
    tc = tcase_create("f32");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_f32_acos_pos);
    tcase_add_test(tc, test_f32_sin_core);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (env_isa_unusable())
        return 77;
    return run_suite(detmath_suite());
}

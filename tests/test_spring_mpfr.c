/*
 * The spring's numerics against MPFR (the independent oracle):
 *   - tendon's own exp, sin/cos, sinh, cosh (src/common/detmath_exp.h): error in ulps of the
 *     correctly rounded result over their domains and over the spring's, with the special
 *     values; the measured maxima are printed (docs/springs.md quotes them);
 *   - −ln(1e-3), the constant every lookback divides;
 *   - the cascade root behind tendon_spring_chain_settle_sec, 1 to 2000 links, against a
 *     320-bit bisection of e^(−x)·Σ x^k/k! = 1e-3 — including the 640+ links where the seed's
 *     own evaluation underflows;
 *   - the per-link substep coefficients, against the closed form evaluated at 256 bits on the
 *     same double inputs, in every damping regime and in the split overdamped form the seed
 *     cannot evaluate (its decay·cosh is 0·∞ there).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mpfr.h>

#include "common/detmath_exp.h"
#include "common/spring_internal.h"
#include "support.h"

#define BITS 256

/* |got − ref| in ulps of ref rounded to double (subnormal ulps below 2^−1022). */
static double ulp_error(double got, const mpfr_t ref)
{
    const double r = mpfr_get_d(ref, MPFR_RNDN);
    if (isinf(r))
        return isinf(got) && (got > 0) == (r > 0) ? 0.0 : 1e300;
    int e;
    frexp(r == 0.0 ? 0x1p-1022 : r, &e);
    const double ulp = ldexp(1.0, e - 53 < -1074 ? -1074 : e - 53);
    mpfr_t d;
    mpfr_init2(d, BITS);
    mpfr_set_d(d, got, MPFR_RNDN);
    mpfr_sub(d, d, ref, MPFR_RNDN);
    mpfr_div_d(d, d, ulp, MPFR_RNDN); /* before converting: the difference may be subnormal */
    const double err = fabs(mpfr_get_d(d, MPFR_RNDN));
    mpfr_clear(d);
    return err;
}

enum { F_EXP, F_SIN, F_COS, F_SINH, F_COSH };
static const char *const NAMES[] = {"exp", "sin", "cos", "sinh", "cosh"};

static double ours(int f, double x)
{
    switch (f) {
    case F_EXP: return tendon_det_exp(x);
    case F_SIN: return tendon_det_sin_any(x);
    case F_COS: return tendon_det_cos_any(x);
    case F_SINH: return tendon_det_sinh(x);
    default: return tendon_det_cosh(x);
    }
}

static void theirs(int f, mpfr_t y, const mpfr_t x)
{
    switch (f) {
    case F_EXP: mpfr_exp(y, x, MPFR_RNDN); break;
    case F_SIN: mpfr_sin(y, x, MPFR_RNDN); break;
    case F_COS: mpfr_cos(y, x, MPFR_RNDN); break;
    case F_SINH: mpfr_sinh(y, x, MPFR_RNDN); break;
    default: mpfr_cosh(y, x, MPFR_RNDN); break;
    }
}

typedef struct range {
    int f;
    double lo, hi, bound; /* max ulp allowed */
    const char *what;
} range;

static const range RANGES[] = {
    {F_EXP, -708.0, 709.78, 1.0, "normal results"},
    {F_EXP, -745.1, -708.4, 1.0, "subnormal results (ulp of the subnormal grid)"},
    {F_EXP, -7.0, 0.0, 1.0, "the spring's decay, ζω·step ≤ ln 1000"},
    {F_SIN, -0x1p20, 0x1p20, 1.0, "|x| ≤ 2^20"},
    {F_SIN, -4.0, 4.0, 1.0, "|x| ≤ 4"},
    {F_SIN, 0.0, 0.2, 1.0, "the spring's ρ·step ≤ π/16"},
    {F_COS, -0x1p20, 0x1p20, 1.0, "|x| ≤ 2^20"},
    {F_COS, -4.0, 4.0, 1.0, "|x| ≤ 4"},
    {F_COS, 0.0, 0.2, 1.0, "the spring's ρ·step ≤ π/16"},
    {F_SINH, -710.4, 710.4, 1.0, "|x| ≤ 710.4"},
    {F_SINH, 0.0, 7.0, 1.0, "the spring's ρ·step ≤ ln 1000"},
    {F_COSH, -710.4, 710.4, 1.0, "|x| ≤ 710.4"},
    {F_COSH, 0.0, 7.0, 1.0, "the spring's ρ·step ≤ ln 1000"},
};

START_TEST(transcendentals_within_bounds)
{
    const range *rg = &RANGES[_i];
    test_rng r;
    rng_seed(&r, 0xD37A0000u + (uint64_t)_i);
    mpfr_t x, y;
    mpfr_inits2(BITS, x, y, (mpfr_ptr)0);
    double worst = 0.0, at = 0.0;
    /* an eighth of the points under an emulator (TENDON_TEST_THIN): the same scalar C */
    for (int n = 0; n < (int)(150000 / TENDON_TEST_THIN); ++n) {
        const double v = rng_range(&r, rg->lo, rg->hi);
        mpfr_set_d(x, v, MPFR_RNDN);
        theirs(rg->f, y, x);
        const double e = ulp_error(ours(rg->f, v), y);
        if (e > worst) {
            worst = e;
            at = v;
        }
    }
    mpfr_clears(x, y, (mpfr_ptr)0);
    printf("%-4s on [%g, %g] (%s): max error %.4f ulp at %.17g\n", NAMES[rg->f], rg->lo, rg->hi,
           rg->what, worst, at);
    ck_assert_msg(worst <= rg->bound, "%s: %.3f ulp at %.17g, more than %.1f", NAMES[rg->f], worst,
                  at, rg->bound);
}
END_TEST

START_TEST(special_values)
{
    ck_assert(tendon_det_exp(0.0) == 1.0 && tendon_det_exp(-0.0) == 1.0);
    ck_assert(tendon_det_exp(-INFINITY) == 0.0 && tendon_det_exp(INFINITY) == INFINITY);
    ck_assert(isnan(tendon_det_exp(NAN)));
    ck_assert(tendon_det_exp(709.79) == INFINITY && tendon_det_exp(-745.2) == 0.0);
    ck_assert(tendon_det_exp(-745.13) > 0.0); /* the smallest subnormal, not 0 */
    double s, c;
    tendon_det_sincos(0.0, &s, &c);
    ck_assert(s == 0.0 && !signbit(s) && c == 1.0);
    tendon_det_sincos(-0.0, &s, &c);
    ck_assert(s == 0.0 && signbit(s) && c == 1.0);
    tendon_det_sincos(NAN, &s, &c);
    ck_assert(isnan(s) && isnan(c));
    tendon_det_sincos(INFINITY, &s, &c);
    ck_assert(isnan(s) && isnan(c));
    tendon_det_sincos(0x1p21, &s, &c); /* outside the documented domain */
    ck_assert(isnan(s) && isnan(c));
    ck_assert(tendon_det_sinh(0.0) == 0.0 && !signbit(tendon_det_sinh(0.0)));
    ck_assert(tendon_det_sinh(-0.0) == 0.0 && signbit(tendon_det_sinh(-0.0)));
    ck_assert(tendon_det_cosh(0.0) == 1.0 && tendon_det_cosh(-0.0) == 1.0);
    ck_assert(tendon_det_cosh(710.0) < INFINITY && tendon_det_cosh(710.5) == INFINITY);
    ck_assert(tendon_det_sinh(-710.0) > -INFINITY && tendon_det_sinh(-710.5) == -INFINITY);
    ck_assert(isnan(tendon_det_sinh(NAN)) && isnan(tendon_det_cosh(NAN)));
    ck_assert(tendon_det_cosh(-INFINITY) == INFINITY && tendon_det_sinh(-INFINITY) == -INFINITY);
}
END_TEST

START_TEST(log_of_the_tolerance)
{
    mpfr_t x;
    mpfr_init2(x, BITS);
    mpfr_set_d(x, 1e-3, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    mpfr_neg(x, x, MPFR_RNDN);
    const double want = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    ck_assert_msg(TENDON_NEG_LN_SPRING_EPS == want, "−ln(1e-3) is %.17g, MPFR says %.17g",
                  TENDON_NEG_LN_SPRING_EPS, want);
    ck_assert(TENDON_NEG_LN_SPRING_EPS == 6.907755278982137); /* the seed's −Math.log(1e-3) */
}
END_TEST

/* ---- the cascade root ---------------------------------------------------------------------- */

static int survives(const mpfr_t x, size_t n)
{
    mpfr_t term, sum, eps;
    mpfr_inits2(320, term, sum, eps, (mpfr_ptr)0);
    mpfr_neg(term, x, MPFR_RNDN);
    mpfr_exp(term, term, MPFR_RNDN);
    mpfr_set(sum, term, MPFR_RNDN);
    for (size_t k = 1; k < n; ++k) {
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_div_ui(term, term, (unsigned long)k, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_set_d(eps, 1e-3, MPFR_RNDN);
    const int r = mpfr_greater_p(sum, eps);
    mpfr_clears(term, sum, eps, (mpfr_ptr)0);
    return r;
}

static double true_root(size_t n)
{
    mpfr_t lo, hi, mid;
    mpfr_inits2(320, lo, hi, mid, (mpfr_ptr)0);
    mpfr_set_ui(lo, 0, MPFR_RNDN);
    mpfr_set_d(hi, 10.0 + 2.0 * (double)n, MPFR_RNDN);
    while (survives(hi, n))
        mpfr_mul_ui(hi, hi, 2, MPFR_RNDN);
    for (int i = 0; i < 120; ++i) {
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_ui(mid, mid, 2, MPFR_RNDN);
        if (survives(mid, n))
            mpfr_set(lo, mid, MPFR_RNDN);
        else
            mpfr_set(hi, mid, MPFR_RNDN);
    }
    const double r = mpfr_get_d(hi, MPFR_RNDN);
    mpfr_clears(lo, hi, mid, (mpfr_ptr)0);
    return r;
}

START_TEST(cascade_root_is_the_true_root)
{
    static const size_t counts[] = {1, 2, 3, 4, 5, 8, 12, 32, 100, 500, 639, 640, 650,
                                    660, 700, 1000, 2000};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        const size_t n = counts[i];
        const double got = tendon_spring_cascade_root(n), want = true_root(n);
        const double rel = fabs(got - want) / want;
        worst = rel > worst ? rel : worst;
        ck_assert_msg(rel <= 1e-13, "%zu links: root %.17g, MPFR %.17g (%.3g relative)", n, got,
                      want, rel);
    }
    printf("cascade root, 1 to 2000 links: within %.3g relative of MPFR's\n", worst);
    /* the chain settle is that root over the slowest σ = ((ζ·2)·π)·f */
    const tendon_spring_link links[3] = {{2.0, 0.35, -1, {0, 0, 0}},
                                         {1.0, 0.5, -1, {0, 0, 0}},
                                         {3.0, 0.2, -1, {0, 0, 0}}};
    double settle;
    ck_assert(tendon_spring_chain_settle_sec(links, 3, &settle) == TENDON_OK);
    const double slowest = ((0.35 * 2.0) * 3.141592653589793) * 2.0 <
                                   ((0.2 * 2.0) * 3.141592653589793) * 3.0
                               ? ((0.35 * 2.0) * 3.141592653589793) * 2.0
                               : ((0.2 * 2.0) * 3.141592653589793) * 3.0;
    ck_assert(settle == tendon_spring_cascade_root(3) / fmin(slowest,
                                                             ((0.5 * 2.0) * 3.141592653589793)));
}
END_TEST

/* ---- the substep coefficients --------------------------------------------------------------- */

/*
 * The closed form at 256 bits for double inputs f, ζ, step: ω = 2π·f, d = ζ² − 1,
 *   rings: ρ = ω√−d, C = cos ρh, S = sin(ρh)/ρ;  sags: ρ = ω√d, C = cosh ρh, S = sinh(ρh)/ρ;
 *   critical (|d| ≤ 1e-12 in double, as tendon decides): C = 1, S = h
 *   c0 = e^(−ζωh)(C + ζωS), c1 = e^(−ζωh)S, c2 = −e^(−ζωh)ω²S, c3 = e^(−ζωh)(C − ζωS)
 */
static void exact_coeffs(double f, double zeta, double h, double out[4])
{
    mpfr_t omega, zw, decay, d, rho, C, S, t, u;
    mpfr_inits2(BITS, omega, zw, decay, d, rho, C, S, t, u, (mpfr_ptr)0);
    mpfr_const_pi(omega, MPFR_RNDN);
    mpfr_mul_ui(omega, omega, 2, MPFR_RNDN);
    mpfr_mul_d(omega, omega, f, MPFR_RNDN);
    mpfr_mul_d(zw, omega, zeta, MPFR_RNDN);
    mpfr_mul_d(decay, zw, -h, MPFR_RNDN);
    mpfr_exp(decay, decay, MPFR_RNDN);
    const double dd = zeta * zeta - 1.0; /* the branch as the double arithmetic takes it */
    mpfr_set_d(d, zeta, MPFR_RNDN);
    mpfr_sqr(d, d, MPFR_RNDN);
    mpfr_sub_ui(d, d, 1, MPFR_RNDN);
    if (dd < -1e-12 || dd > 1e-12) {
        mpfr_abs(rho, d, MPFR_RNDN);
        mpfr_sqrt(rho, rho, MPFR_RNDN);
        mpfr_mul(rho, rho, omega, MPFR_RNDN);
        mpfr_mul_d(t, rho, h, MPFR_RNDN);
        if (dd < 0) {
            mpfr_cos(C, t, MPFR_RNDN);
            mpfr_sin(S, t, MPFR_RNDN);
        } else {
            mpfr_cosh(C, t, MPFR_RNDN);
            mpfr_sinh(S, t, MPFR_RNDN);
        }
        mpfr_div(S, S, rho, MPFR_RNDN);
    } else {
        mpfr_set_ui(C, 1, MPFR_RNDN);
        mpfr_set_d(S, h, MPFR_RNDN);
    }
    mpfr_mul(u, zw, S, MPFR_RNDN);
    mpfr_add(t, C, u, MPFR_RNDN);
    mpfr_mul(t, t, decay, MPFR_RNDN);
    out[0] = mpfr_get_d(t, MPFR_RNDN);
    mpfr_mul(t, decay, S, MPFR_RNDN);
    out[1] = mpfr_get_d(t, MPFR_RNDN);
    mpfr_sqr(t, omega, MPFR_RNDN);
    mpfr_mul(t, t, S, MPFR_RNDN);
    mpfr_mul(t, t, decay, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    out[2] = mpfr_get_d(t, MPFR_RNDN);
    mpfr_sub(t, C, u, MPFR_RNDN);
    mpfr_mul(t, t, decay, MPFR_RNDN);
    out[3] = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(omega, zw, decay, d, rho, C, S, t, u, (mpfr_ptr)0);
}

/*
 * Error of tendon's coefficients on their natural scales: c0 and c3 against 1 (they multiply an
 * offset), c1 against h, c2 against ω²·h (they turn a velocity into an offset and back), so a
 * coefficient is good when it moves a substep's result by a few ulp at most.
 */
static double coeff_error(double f, double h, const double exact[4],
                          const tendon_spring_coeffs *c)
{
    const double omega = 2.0 * 3.141592653589793 * f;
    const double got[4] = {c->c0, c->c1, c->c2, c->c3};
    const double scale[4] = {1.0, h, omega * omega * h, 1.0};
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) {
        const double e = fabs(got[k] - exact[k]) / scale[k];
        worst = e > worst ? e : worst;
    }
    return worst;
}

START_TEST(coefficients_against_mpfr)
{
    test_rng r;
    rng_seed(&r, 0xC0EFu);
    double worst[4] = {0, 0, 0, 0};
    static const char *const regime[4] = {"ringing", "critical", "sagging", "split (seed 0·∞)"};
    for (int n = 0; n < (int)(4000 / TENDON_TEST_THIN); ++n) {
        const int kind = n % 4;
        double f = rng_range(&r, 0.05, 20.0), zeta, h;
        if (kind == 0)
            zeta = rng_range(&r, 0.01, 0.999);
        else if (kind == 1)
            zeta = 1.0;
        else
            zeta = rng_range(&r, 1.001, 50.0);
        /* the step a single spring would use: lookback / ceil(lookback·f·32) */
        const double lookback = TENDON_NEG_LN_SPRING_EPS / (zeta * (2.0 * 3.141592653589793 * f));
        h = lookback / ceil(lookback * f * 32.0);
        if (kind == 3) {
            /* a chain link far stiffer than the chain's fastest period: ζω·h > 700 */
            zeta = rng_range(&r, 4000.0, 1e7);
            h = 1.0 / (32.0 * f);
        }
        tendon_spring_coeffs c;
        tendon_spring_transition(f, zeta, h, &c);
        double exact[4];
        exact_coeffs(f, zeta, h, exact);
        const double e = coeff_error(f, h, exact, &c);
        ck_assert_msg(isfinite(c.c0) && isfinite(c.c1) && isfinite(c.c2) && isfinite(c.c3),
                      "%s f %.17g ζ %.17g h %.17g: not finite", regime[kind], f, zeta, h);
        ck_assert_msg(e <= 1e-14, "%s f %.17g ζ %.17g h %.17g: error %.3g", regime[kind], f,
                      zeta, h, e);
        worst[kind] = e > worst[kind] ? e : worst[kind];
        const double trail = (-2.0 * zeta) / (2.0 * 3.141592653589793 * f);
        ck_assert(c.trail == trail);
    }
    for (int k = 0; k < 4; ++k)
        printf("substep coefficients, %s: max error %.3g (on their natural scales)\n", regime[k],
               worst[k]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spring_mpfr");
    TCase *tc = tcase_create("mpfr");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, transcendentals_within_bounds, 0,
                        (int)(sizeof RANGES / sizeof RANGES[0]));
    tcase_add_test(tc, special_values);
    tcase_add_test(tc, log_of_the_tolerance);
    tcase_add_test(tc, cascade_root_is_the_true_root);
    tcase_add_test(tc, coefficients_against_mpfr);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

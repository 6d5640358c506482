/*
 * Public entry points of tendon/spring.h (seed 001 spring.ts): validation in the seed's order,
 * the lookbacks, the per-link coefficients (the project's own exp/sin/cos/sinh/cosh), the march
 * plan and its initial state, one call through the active kernel table for the march, and the
 * clamp at the end. Everything here is per call and scalar, shared by every ISA; only the march
 * is a kernel. No state, no allocation: workspaces are the caller's or on the stack.
 */
#include <inttypes.h>
#include <math.h> /* INFINITY only: no libm call */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/detmath.h"
#include "common/detmath_exp.h"
#include "common/detmath_v8.h"
#include "common/fpenv.h"
#include "common/spring_anchor_table.h"
#include "common/spring_seed_roots.h"
#include "common/kernels_internal.h"
#include "common/spring_internal.h"

/* 2π as the seed's `2 * Math.PI`: exact doubling of π rounded to double. */
#define SPRING_TWO_PI (2.0 * TENDON_PI_HI)
/* How close to 1 ζ² must be to count as critically damped (seed CRITICAL_BAND). */
#define SPRING_CRITICAL_BAND 1e-12
/* Past this ζω·step an overdamped link's decay·cosh is 0·∞ in the seed's form (docs/springs.md). */
#define SPRING_SPLIT_OVERDAMPED 700.0
/* Every plan buffer row is a multiple of this many lanes (the widest vector, AVX-512's 8). */
#define SPRING_LANE_ALIGN 8
/* The rest pattern of a chain link: 24 = lcm(3, 8) lanes, so every W in {2, 4, 8} divides it. */
#define SPRING_REST_PERIOD 24

/* ---- numbers in messages, as JavaScript prints them (the seed's messages) ------------------ */

/* The shortest %g that reads back to v; NaN, ±Infinity and −0 ("0") as JavaScript's String(). */
static const char *js_number(double v, char buf[40])
{
    if (v != v)
        return "NaN";
    if (v == (double)INFINITY)
        return "Infinity";
    if (v == -(double)INFINITY)
        return "-Infinity";
    if (v == 0.0)
        return "0";
    for (int precision = 1; precision <= 17; ++precision) {
        snprintf(buf, 40, "%.*g", precision, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* ---- validation (seed validateSettings) ----------------------------------------------------- */

/*
 * The seed's three refusals, in its order, with its messages (field names as C spells them).
 * `where` names the function and, for a chain, the link.
 */
static tendon_status validate(double frequency_hz, double damping, const char *where)
{
    char num[40];
    if (!(frequency_hz > 0.0))
        return tendon_fail(TENDON_ERR_VALUE,
                           "spring: frequency_hz is %s, and a spring needs a frequency above zero. "
                           "It is the rate the spring would ring at undamped, in hertz. [%s]",
                           js_number(frequency_hz, num), where);
    if (!(damping >= 0.0))
        return tendon_fail(TENDON_ERR_VALUE,
                           "spring: damping is %s, and a damping ratio is not negative. [%s]",
                           js_number(damping, num), where);
    if (damping == 0.0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "spring: damping is 0, which never settles \xE2\x80\x94 an undamped "
                           "spring rings forever, so no lookback is long enough to sample it "
                           "purely and there is no honest answer to give. Anything above zero "
                           "forgets; 1 is critical damping, which never overshoots. [%s]",
                           where);
    return TENDON_OK;
}

static tendon_status validate_links(const char *fn, const tendon_spring_link *links,
                                    size_t link_count)
{
    for (size_t i = 0; i < link_count; ++i) {
        /* validate's own conditions, so the message's place is formatted only for a link it
           refuses (formatting it for every link of every sample was a tenth of a chain sample
           in WebAssembly) */
        if (links[i].frequency_hz > 0.0 && links[i].damping > 0.0)
            continue;
        char where[96];
        snprintf(where, sizeof where, "%s: links[%zu] of %zu", fn, i, link_count);
        return validate(links[i].frequency_hz, links[i].damping, where);
    }
    return TENDON_OK;
}

/* ---- lookbacks ------------------------------------------------------------------------------ */

/*
 * Seed springSettleSec: −ln(EPSILON)/(ζ·ω), ω = (2π)·f — the e^(−ζωt) envelope, which is how a
 * spring forgets only below critical damping; too short at ζ ≥ 1, kept because the seed's cases
 * pin it (docs/springs.md, "Known limitation inherited from the seed").
 */
static double settle_sec(double frequency_hz, double damping)
{
    const double omega = SPRING_TWO_PI * frequency_hz;
    return TENDON_NEG_LN_SPRING_EPS / (damping * omega);
}

static double cascade_root(size_t count);

/*
 * The slow-pole lookback of one spring with ζ ≥ 1 − band (TENDON_SPRING_LOOKBACK_SLOW_POLE), for
 * validated settings: in the critical band the root of (1 + ωt)·e^(−ωt) = 1e-3 (the cascade
 * root of a double pole, ωt = 9.2334); above it the larger of that and −ln(1e-3)/p_s with the
 * slow pole p_s = ω/(ζ + √(ζ² − 1)) (written so, not ω(ζ − √(ζ² − 1)), to avoid the
 * cancellation). Near ζ = 1 the two poles are close and the response is nearly the critical
 * one, which the slow pole alone underestimates (at ζ = 1.001: 7.2/ω against 9.2/ω); far above
 * it the slow pole is the whole story (ζ = 3: 33.98/ω).
 */
static double slow_pole_settle_sec(double frequency_hz, double damping)
{
    const double omega = SPRING_TWO_PI * frequency_hz;
    const double critical = cascade_root(2) / omega;
    const double discriminant = damping * damping - 1.0;
    if (!(discriminant > SPRING_CRITICAL_BAND))
        return critical;
    const double slow = TENDON_NEG_LN_SPRING_EPS * (damping + tendon_det_sqrt(discriminant)) / omega;
    return slow > critical ? slow : critical;
}

/* Whether a link takes the slow-pole rule under `lookback` (else the seed's formula, bit for bit). */
static int uses_slow_pole(tendon_spring_lookback lookback, double damping)
{
    return lookback == TENDON_SPRING_LOOKBACK_SLOW_POLE &&
           !(damping * damping - 1.0 < -SPRING_CRITICAL_BAND);
}

/* One spring's lookback under `lookback` (validated settings). */
static double settle_with(double frequency_hz, double damping, tendon_spring_lookback lookback)
{
    if (uses_slow_pole(lookback, damping))
        return slow_pole_settle_sec(frequency_hz, damping);
    return settle_sec(frequency_hz, damping);
}

static tendon_status check_lookback(const char *fn, tendon_spring_lookback lookback)
{
    if (lookback != TENDON_SPRING_LOOKBACK_SEED && lookback != TENDON_SPRING_LOOKBACK_SLOW_POLE &&
        lookback != TENDON_SPRING_LOOKBACK_CORRECTED_ROOT)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: lookback is %d, not a tendon_spring_lookback "
                           "(TENDON_SPRING_LOOKBACK_SEED = 0, TENDON_SPRING_LOOKBACK_SLOW_POLE = 1, "
                           "TENDON_SPRING_LOOKBACK_CORRECTED_ROOT = 2)",
                           fn, (int)lookback);
    return TENDON_OK;
}

/*
 * Seed cascadeSurvival, operation for operation: term = e^(−x) (V8's Math.exp), then
 * term ← term·(x/k), sum ← sum + term for k = 1 … count − 1. Once e^(−x) or a term has
 * underflowed to 0 every later term is 0 and the sum no longer changes, so the loop stops there
 * (the same bits: only the work is bounded, ~3x iterations instead of count for a long chain).
 * Past x ≈ 708 e^(−x) goes subnormal and the seed's sum loses its precision (docs/springs.md).
 */
static double seed_cascade_survival(double x, size_t count)
{
    double term = tendon_v8_exp(-x), sum = term;
    for (size_t k = 1; k < count && term != 0.0; ++k) {
        term *= x / (double)k;
        sum += term;
    }
    return sum;
}

/*
 * Seed springChainSettleSec's root (TENDON_SPRING_LOOKBACK_SEED): the bracket [0, high],
 * high = −ln(1e-3) + count doubled while the survival at it is still above 1e-3, then exactly
 * 64 halvings, `middle = (low + high)/2`, keeping `low` where the survival is above 1e-3; the
 * root is `high`. The seed's arithmetic to the bit, including its answer past ~650 links, where
 * its survival underflows and the root comes out short (the corrected solver, cascade_root, is
 * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT). Terminates for every count: at x > 746 the survival
 * is 0, and a NaN is not > 1e-3.
 */
double tendon_spring_seed_cascade_root_bisect(size_t count)
{
    double high = TENDON_NEG_LN_SPRING_EPS + (double)count;
    while (seed_cascade_survival(high, count) > TENDON_SPRING_EPSILON)
        high *= 2.0;
    double low = 0.0;
    for (int n = 0; n < 64; ++n) {
        const double middle = (low + high) / 2.0;
        if (seed_cascade_survival(middle, count) > TENDON_SPRING_EPSILON)
            low = middle;
        else
            high = middle;
    }
    return high;
}

/*
 * The seed's root for a chain of `count` links: the bisection's value, read from
 * tendon_spring_seed_roots (src/common/spring_seed_roots.h, made by the bisection itself, checked
 * entry by entry by test_spring_lookback) for counts up to TENDON_SPRING_SEED_ROOTS — the same
 * bits without the 64 survival evaluations per call — and bisected above it.
 */
static double seed_cascade_root(size_t count)
{
    if (count >= 1 && count <= TENDON_SPRING_SEED_ROOTS)
        return tendon_spring_seed_roots[count - 1];
    return tendon_spring_seed_cascade_root_bisect(count);
}

/*
 * e^(−x)·Σ_{k<count} x^k/k! (the cascade's survival) and its last term e^(−x)·x^(count−1)/
 * (count−1)! (minus the derivative), for x ≥ 0: the corrected solver's evaluation.
 *
 * Up to x = 700 this is the seed's evaluation: e^(−x), multiplied up term by term. Past it e^(−x)
 * would approach the subnormals (the seed's loss of precision from ~650 links), so the sum is
 * carried as sum·2^−debt: it starts from e^(−x + K·ln 2) ≈ e^−600 with debt K, and whenever a
 * term passes 2^600 both are scaled down by 2^600 and the debt shrinks by 600.
 */
static double cascade_survival(double x, size_t count, double *last_term)
{
    if (x <= 700.0) {
        double term = tendon_v8_exp(-x), sum = term;
        for (size_t k = 1; k < count; ++k) {
            term *= x / (double)k;
            sum += term;
        }
        *last_term = term;
        return sum;
    }
    if (!(x < 0x1p50)) { /* beyond any chain that fits in memory: the bound is 0 or 1 */
        *last_term = 0.0;
        return (double)count > x ? 1.0 : 0.0;
    }
    const double kd = ((x - 600.0) * TENDON_INV_LN2 + TENDON_ROUND_MAGIC) - TENDON_ROUND_MAGIC;
    double term = tendon_det_exp((kd * TENDON_LN2_HI - x) + kd * TENDON_LN2_LO);
    double sum = term;
    double debt = kd; /* true value = sum · 2^(−debt) */
    for (size_t k = 1; k < count; ++k) {
        term *= x / (double)k;
        sum += term;
        if (term > 0x1p600) {
            term *= 0x1p-600;
            sum *= 0x1p-600;
            debt -= 600.0;
        }
    }
    while (debt > 1000.0) {
        sum *= 0x1p-1000;
        term *= 0x1p-1000;
        debt -= 1000.0;
    }
    while (debt < -1000.0) {
        sum *= 0x1p1000;
        term *= 0x1p1000;
        debt += 1000.0;
    }
    *last_term = tendon_det_scale2(term, -(int)debt);
    return tendon_det_scale2(sum, -(int)debt);
}

/*
 * The root x of cascade_survival(x, count) = EPSILON (seed springChainSettleSec's bisection),
 * by Newton's method from x0 = count − 1: the survival S is decreasing and convex on
 * [count − 1, ∞) and S(count − 1) > 1/2 > EPSILON, so the iterates rise monotonically to the
 * root. It stops when an iterate no longer rises (the root reached to rounding) or after 400
 * steps. One fixed sequence of operations: the same bits everywhere. Agrees with the seed's 64
 * bisections (seed_cascade_root) to ~1e-15 below 640 links; above, the seed's value is wrong and
 * this is not (docs/springs.md; tests check it against MPFR). The root of
 * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT and TENDON_SPRING_LOOKBACK_SLOW_POLE.
 */
static double cascade_root(size_t count)
{
    double x = (double)(count - 1);
    for (int iteration = 0; iteration < 400; ++iteration) {
        double last;
        const double s = cascade_survival(x, count, &last);
        if (!(last > 0.0))
            break;
        const double next = x + (s - TENDON_SPRING_EPSILON) / last;
        if (!(next > x))
            break;
        x = next;
    }
    return x;
}

/*
 * Seed springChainSettleSec after validation: root / slowest σ, σ = ((ζ·2)·π)·f, the root the
 * seed's 64 bisections under TENDON_SPRING_LOOKBACK_SEED and the corrected Newton solver under
 * the other two settings. Under
 * TENDON_SPRING_LOOKBACK_SLOW_POLE a link with ζ ≥ 1 − band decays at σ = −ln(1e-3)/L, L its own
 * slow-pole lookback (slow_pole_settle_sec); links below critical keep the seed's σ, bit for
 * bit, so a chain of them has the seed's lookback under either setting.
 */
static double chain_settle_with(const tendon_spring_link *links, size_t link_count,
                                tendon_spring_lookback lookback)
{
    double slowest = (double)INFINITY;
    for (size_t i = 0; i < link_count; ++i) {
        const double sigma =
            uses_slow_pole(lookback, links[i].damping)
                ? TENDON_NEG_LN_SPRING_EPS /
                      slow_pole_settle_sec(links[i].frequency_hz, links[i].damping)
                : ((links[i].damping * 2.0) * TENDON_PI_HI) * links[i].frequency_hz;
        if (sigma < slowest)
            slowest = sigma;
    }
    const double root = lookback == TENDON_SPRING_LOOKBACK_SEED ? seed_cascade_root(link_count)
                                                                : cascade_root(link_count);
    return root / slowest;
}

static double chain_settle_sec(const tendon_spring_link *links, size_t link_count)
{
    return chain_settle_with(links, link_count, TENDON_SPRING_LOOKBACK_SEED);
}

/* ---- the substep grid and the coefficients -------------------------------------------------- */

/*
 * Seed: steps = max(1, ceil(lookback·f·32)), step = lookback/steps. A NaN count (lookback 0
 * times an infinite frequency) runs no substep, as the seed's `n <= NaN` loop does. More than
 * TENDON_SPRING_MAX_SUBSTEPS is refused.
 */
static tendon_status substep_grid(const char *fn, double lookback, double frequency_hz,
                                  const char *what, size_t *steps_out)
{
    const double wanted = (lookback * frequency_hz) * (double)TENDON_SPRING_STEPS_PER_PERIOD;
    if (wanted != wanted) {
        *steps_out = 0;
        return TENDON_OK;
    }
    if (!(wanted <= (double)TENDON_SPRING_MAX_SUBSTEPS)) {
        char a[40], b[40], c[40];
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: a lookback of %s s at %s Hz (%s) needs %s substeps, more than "
                           "TENDON_SPRING_MAX_SUBSTEPS (%zu): substeps are about 35.18/damping "
                           "per spring, so damping this light (or a chain mixing frequencies "
                           "this far apart) is refused rather than marched for that long",
                           fn, js_number(lookback, a), js_number(frequency_hz, b), what,
                           js_number(wanted, c), TENDON_SPRING_MAX_SUBSTEPS);
    }
    size_t steps = (size_t)wanted;
    if ((double)steps < wanted)
        ++steps;
    *steps_out = steps < 1 ? 1 : steps;
    return TENDON_OK;
}

/*
 * Seed transitionOver + trailPerUnitSpeed, for one link and one step:
 *   decay = e^(((−ζ)·ω)·step),  d = ζ² − 1
 *   d < −1e-12 (rings):  ρ = ω·√(−d), cosine = cos(ρ·step), sine = sin(ρ·step)/ρ
 *   d >  1e-12 (sags):   ρ = ω·√d,    cosine = cosh(ρ·step), sine = sinh(ρ·step)/ρ
 *   otherwise:           cosine = 1, sine = step
 *   c0 = decay·(cosine + (ζ·ω)·sine)   c1 = decay·sine
 *   c2 = ((−decay·ω)·ω)·sine           c3 = decay·(cosine − (ζ·ω)·sine)
 *   trail = (−2ζ)/ω
 *
 * One deviation, where the seed's form is 0·∞ (an overdamped chain link so stiff that
 * ζω·step > 700; a single spring never gets there, ζω·step ≤ ln 1000): decay·cosh and
 * decay·sinh are formed as (E− ± E+)/2 with E± = e^(−(ζω ± ρ)·step) and ζω − ρ = ω/(ζ + √d),
 * which are finite — the seed returns NaN positions there (docs/springs.md).
 */
static void transition(double frequency_hz, double damping, double step,
                       tendon_spring_coeffs *out)
{
    const double zeta = damping;
    const double omega = SPRING_TWO_PI * frequency_hz;
    const double zeta_omega = zeta * omega;
    const double decay_rate = -zeta * omega;
    const double discriminant = zeta * zeta - 1.0;

    if (discriminant > SPRING_CRITICAL_BAND && zeta_omega * step > SPRING_SPLIT_OVERDAMPED) {
        const double root = tendon_det_sqrt(discriminant);
        const double sagging = omega * root;
        const double slow = tendon_v8_exp(-(omega / (zeta + root)) * step);
        const double fast = tendon_v8_exp(-(zeta_omega + sagging) * step);
        const double decay_cosh = 0.5 * (slow + fast);
        const double decay_sine = (0.5 * (slow - fast)) / sagging;
        out->c0 = decay_cosh + zeta_omega * decay_sine;
        out->c1 = decay_sine;
        out->c2 = (-omega * omega) * decay_sine;
        out->c3 = decay_cosh - zeta_omega * decay_sine;
        out->trail = (-2.0 * zeta) / omega;
        return;
    }

    const double decay = tendon_v8_exp(decay_rate * step);
    double cosine, sine;
    if (discriminant < -SPRING_CRITICAL_BAND) {
        const double ringing = omega * tendon_det_sqrt(-discriminant);
        cosine = tendon_v8_cos(ringing * step);
        sine = tendon_v8_sin(ringing * step) / ringing;
    } else if (discriminant > SPRING_CRITICAL_BAND) {
        const double sagging = omega * tendon_det_sqrt(discriminant);
        cosine = tendon_v8_cosh(sagging * step);
        sine = tendon_v8_sinh(sagging * step) / sagging;
    } else {
        cosine = 1.0;
        sine = step;
    }
    out->c0 = decay * (cosine + zeta_omega * sine);
    out->c1 = decay * sine;
    out->c2 = ((-decay * omega) * omega) * sine;
    out->c3 = decay * (cosine - zeta_omega * sine);
    out->trail = (-2.0 * zeta) / omega;
}

void tendon_spring_transition(double frequency_hz, double damping, double step,
                              tendon_spring_coeffs *out)
{
    transition(frequency_hz, damping, step, out);
}

double tendon_spring_cascade_root(size_t link_count) { return cascade_root(link_count); }

/* ---- the clamp at the end (seed writeClamped) ----------------------------------------------- */

/*
 * out = anchor + (position − anchor)·scale, scale = limit/lag when a limit ≥ 0 is exceeded
 * (negative or NaN limit: none). In double; the caller rounds.
 */
static void write_clamped(double limit, const double position[3], const double anchor[3],
                          double out[3])
{
    const double dx = position[0] - anchor[0];
    const double dy = position[1] - anchor[1];
    const double dz = position[2] - anchor[2];
    double scale = 1.0;
    if (limit >= 0.0) {
        const double lag = tendon_v8_hypot3(dx, dy, dz); /* the seed's Math.hypot, as V8 */
        if (lag > limit)
            scale = limit / lag;
    }
    out[0] = anchor[0] + dx * scale;
    out[1] = anchor[1] + dy * scale;
    out[2] = anchor[2] + dz * scale;
}

/*
 * x rounded to float32 and widened back, through a volatile so that the rounding happens.
 * GCC 12.2 (Debian 12.2.0-14) at -O2 miscompiles the plain `f = (float)x; … (double)f` when its
 * SLP vectoriser packs the three axes: it widens the *unrounded* vector back (the GIMPLE keeps
 * `(vector(2) double)` of the double source), so the chain's clamp walked down unrounded
 * positions in lanes x and y. docs/springs.md has the reproducer; tests/test_spring_props.c
 * checks the walk.
 */
static float store_f32(double x)
{
    volatile float f = (float)x;
    return f;
}

/* ---- plans and workspaces ------------------------------------------------------------------- */

typedef struct spring_layout {
    size_t lanes, stride;
    size_t coeffs, rest, position, velocity, previous, anchor_a, anchor_b; /* byte offsets */
    size_t bytes; /* including 63 bytes of alignment slack */
} spring_layout;

static int add_ok(size_t *acc, size_t a)
{
    if (a > SIZE_MAX - *acc)
        return 0;
    *acc += a;
    return 1;
}

static int mul_ok(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return 0;
    *out = a * b;
    return 1;
}

/* Round up to a multiple of 64 bytes (the parts stay 64-byte aligned). */
static int round64_ok(size_t *v)
{
    if (*v > SIZE_MAX - 63)
        return 0;
    *v = (*v + 63) & ~(size_t)63;
    return 1;
}

/* A plan's buffers for link_count links over 3·group_count lanes (chain: rest rows too). */
static int layout_for(size_t link_count, size_t group_count, int chain, spring_layout *l)
{
    size_t lanes, stride, part, at = 0;
    if (!mul_ok(group_count, 3, &lanes) || lanes > SIZE_MAX - SPRING_LANE_ALIGN)
        return 0;
    stride = (lanes + SPRING_LANE_ALIGN - 1) / SPRING_LANE_ALIGN * SPRING_LANE_ALIGN;
    l->lanes = lanes;
    l->stride = stride;
    l->coeffs = at;
    if (!mul_ok(link_count, sizeof(tendon_spring_coeffs), &part) || !round64_ok(&part) ||
        !add_ok(&at, part))
        return 0;
    l->rest = at;
    if (chain) {
        if (!mul_ok(link_count, SPRING_REST_PERIOD * sizeof(double), &part) ||
            !add_ok(&at, part))
            return 0;
    }
    size_t row;
    if (!mul_ok(stride, sizeof(double), &row) || !mul_ok(row, link_count, &part))
        return 0;
    l->position = at;
    if (!add_ok(&at, part))
        return 0;
    l->velocity = at;
    if (!add_ok(&at, part))
        return 0;
    l->previous = at;
    if (chain && !add_ok(&at, part))
        return 0;
    if (!mul_ok(stride, sizeof(float), &part))
        return 0;
    l->anchor_a = at;
    if (!add_ok(&at, part))
        return 0;
    l->anchor_b = at;
    if (!add_ok(&at, part) || !add_ok(&at, 63))
        return 0;
    l->bytes = at;
    return 1;
}

/* The base of a workspace, aligned up to 64 bytes. */
static unsigned char *align64(void *workspace)
{
    const uintptr_t p = (uintptr_t)workspace;
    return (unsigned char *)workspace + ((64 - (p & 63)) & 63);
}

static void plan_buffers(const spring_layout *l, void *workspace, size_t link_count,
                         tendon_spring_march_plan *p, tendon_spring_coeffs **coeffs,
                         double **rest)
{
    unsigned char *base = align64(workspace);
    *coeffs = (tendon_spring_coeffs *)(void *)(base + l->coeffs);
    *rest = (double *)(void *)(base + l->rest);
    p->lanes = l->lanes;
    p->lane_stride = l->stride;
    p->link_count = link_count;
    p->links = *coeffs;
    p->position = (double *)(void *)(base + l->position);
    p->velocity = (double *)(void *)(base + l->velocity);
    p->anchor_a = (float *)(void *)(base + l->anchor_a);
    p->anchor_b = (float *)(void *)(base + l->anchor_b);
    p->previous = l->previous != l->anchor_a ? (double *)(void *)(base + l->previous) : NULL;
}

static tendon_status check_workspace(const char *fn, const void *workspace, size_t have,
                                     size_t need, const char *size_fn)
{
    if (!workspace)
        return tendon_fail(TENDON_ERR_NULL,
                           "%s: workspace is NULL; it needs %zu bytes (%s)", fn, need, size_fn);
    if (have < need)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: workspace_bytes is %zu and this call needs %zu (%s)", fn, have,
                           need, size_fn);
    return TENDON_OK;
}

/* Output arrays must be aligned to their element type, as C requires (docs/errors.md). */
static tendon_status check_out_aligned(const char *fn, const void *out, size_t align)
{
    if ((uintptr_t)out % align != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: out at %p is not aligned to its element type: its address must be "
                           "a multiple of %zu bytes",
                           fn, out, align);
    return TENDON_OK;
}
/* A typed `out` only: through a void pointer the element's alignment would read as 1 (GNU C's
   _Alignof(void)) and nothing would ever be refused — spring_sample, whose out is a float or a
   double array, passes the alignment itself. */
#define TENDON_CHECK_OUT_ALIGNED(fn, out)                                                          \
    do {                                                                                           \
        _Static_assert(!_Generic((out), void *: 1, const void *: 1, default: 0),                   \
                       "TENDON_CHECK_OUT_ALIGNED needs a typed pointer");                          \
        const tendon_status aligned_ = check_out_aligned((fn), (out), _Alignof(__typeof__(*(out))));\
        if (aligned_ != TENDON_OK)                                                                 \
            return aligned_;                                                                       \
    } while (0)

static tendon_status check_out_alias(const char *fn, const void *out, size_t out_bytes,
                                     const void *workspace, size_t workspace_bytes)
{
    if (workspace && tendon_ranges_overlap(out, out_bytes, workspace, workspace_bytes))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps the workspace", fn);
    return TENDON_OK;
}

/* The table to march with: the one given (tests, benchmarks), else the active one. */
static tendon_status resolve_kernels(const tendon_kernels *given, const tendon_kernels **out)
{
    if (given) {
        *out = given;
        return TENDON_OK;
    }
    return tendon_active_kernels(out);
}

/* ---- status-returning anchors (the _status entry points) ------------------------------------ */

/*
 * A tendon_spring_anchor_status_fn behind the kernels' void anchor: the first failure is kept
 * and every later call returns at once without calling the anchor (the march runs out on the
 * values it has, and its result is dropped: nothing is written).
 */
typedef struct status_anchor {
    tendon_spring_anchor_status_fn fn;
    void *user;
    tendon_status status;
    double failed_at;
    size_t calls;
    const tendon_fpenv *env; /* the entry point's guard: fn runs in the caller's environment */
} status_anchor;

static void status_anchor_call(void *user, double time_sec, float *out)
{
    status_anchor *a = user;
    if (a->status != TENDON_OK)
        return;
    ++a->calls;
    tendon_fpenv_to_caller(a->env);
    const tendon_status st = a->fn(a->user, time_sec, out);
    tendon_fpenv_from_caller(a->env);
    if (st != TENDON_OK) {
        a->status = st;
        a->failed_at = time_sec;
    }
}

/* The anchor's failure as the sample's: its status, and a message naming the call. */
static tendon_status status_anchor_failure(const char *fn, const status_anchor *a)
{
    char before[400];
    snprintf(before, sizeof before, "%s", tendon_error_message());
    return tendon_fail(a->status,
                       "%s: the anchor returned %s at time_sec %.17g (call %zu of the sample), so "
                       "the sample stopped and nothing was written; the last tendon message on "
                       "this thread: \"%s\"",
                       fn, tendon_status_name(a->status), a->failed_at, a->calls, before);
}

/* ---- the caller's anchors in the caller's floating-point environment ------------------------ */

/*
 * A plain anchor behind the kernels' anchor when the entry point's guard changed the control
 * register (src/common/fpenv.h): each call switches to the caller's environment and back. In
 * the default environment the anchor is passed to the kernels as it is: nothing is added.
 */
typedef struct caller_anchor {
    tendon_spring_anchor_fn fn;
    void *user;
    const tendon_fpenv *env;
} caller_anchor;

static void caller_anchor_call(void *user, double time_sec, float *out)
{
    const caller_anchor *a = user;
    tendon_fpenv_to_caller(a->env);
    a->fn(a->user, time_sec, out);
    tendon_fpenv_from_caller(a->env);
}

/* The anchor the plan calls: `sa` (a status anchor, switching itself) or the plain one, wrapped
   in `ca` only when the environment was changed. */
static void caller_anchor_wrap(const tendon_fpenv *env, status_anchor *sa, caller_anchor *ca,
                               tendon_spring_anchor_fn *anchor, void **user)
{
    if (sa) {
        sa->env = env;
        *anchor = status_anchor_call;
        *user = sa;
    } else if (tendon_fpenv_switched(env)) {
        ca->fn = *anchor;
        ca->user = *user;
        ca->env = env;
        *anchor = caller_anchor_call;
        *user = ca;
    }
}

/* ---- single springs and batches ------------------------------------------------------------- */

/* Everything of a spring sample that does not depend on the lanes: validated settings. */
typedef struct spring_setup {
    tendon_spring_settings settings;
    double lookback;
    size_t steps;
    double step;
} spring_setup;

static tendon_status spring_setup_for(const char *fn, const tendon_spring_settings *settings,
                                      tendon_spring_lookback lookback, spring_setup *s)
{
    s->settings = *settings;
    s->steps = 0;
    s->lookback = 0.0;
    s->step = 0.0;
    tendon_status st = validate(s->settings.frequency_hz, s->settings.damping, fn);
    if (st != TENDON_OK)
        return st;
    s->lookback = settle_with(s->settings.frequency_hz, s->settings.damping, lookback);
    st = substep_grid(fn, s->lookback, s->settings.frequency_hz, "the spring's frequency",
                      &s->steps);
    if (st != TENDON_OK)
        return st;
    s->step = s->lookback / (double)s->steps;
    return TENDON_OK;
}

/*
 * Run one spring plan whose buffers are set: the initial anchor, the march, the final anchor.
 * Leaves the final anchor in plan->anchor_a and the marched state in plan->position.
 */
static void spring_run(const tendon_kernels *k, const spring_setup *s, double time_sec,
                       tendon_spring_anchor_fn anchor, void *user, tendon_spring_march_plan *p,
                       tendon_spring_coeffs *coeffs)
{
    const double start = time_sec - s->lookback;
    transition(s->settings.frequency_hz, s->settings.damping, s->step, coeffs);
    p->start_sec = start;
    p->step_sec = s->step;
    p->steps = s->steps;
    p->rest_lanes = NULL;
    p->anchor = anchor;
    p->user = user;
    memset(p->anchor_a, 0, p->lane_stride * sizeof(float));
    memset(p->anchor_b, 0, p->lane_stride * sizeof(float));
    /* At rest on the anchor rather than at the origin (seed sampleSpring). */
    anchor(user, start, p->anchor_a);
    for (size_t j = 0; j < p->lane_stride; ++j) {
        p->position[j] = (double)p->anchor_a[j];
        p->velocity[j] = 0.0;
    }
    k->spring_march(p);
    anchor(user, time_sec, p->anchor_a);
}

/* The clamp of spring g of a finished plan, into out64[3]. */
static void spring_finish(const tendon_spring_march_plan *p, double limit, size_t g,
                          double out64[3])
{
    const double anchor[3] = {(double)p->anchor_a[3 * g], (double)p->anchor_a[3 * g + 1],
                              (double)p->anchor_a[3 * g + 2]};
    write_clamped(limit, &p->position[3 * g], anchor, out64);
}

/*
 * `sa` non-NULL: the anchor is sa->fn (a status anchor) behind status_anchor_call, and `anchor`
 * and `user` are ignored; a failure it reports is returned and nothing is written.
 */
static tendon_status spring_sample(const char *fn, const tendon_kernels *given,
                                   const tendon_spring_settings *settings,
                                   tendon_spring_lookback lookback,
                                   tendon_spring_anchor_fn anchor, void *user, status_anchor *sa,
                                   double time_sec, const void *out, size_t out_align,
                                   double out64[3], const tendon_fpenv *env)
{
    if (!settings)
        return tendon_fail(TENDON_ERR_NULL, "%s: settings is NULL", fn);
    if (sa ? !sa->fn : !anchor)
        return tendon_fail(TENDON_ERR_NULL, "%s: anchor is NULL", fn);
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    tendon_status st = check_out_aligned(fn, out, out_align);
    if (st != TENDON_OK)
        return st;
    st = check_lookback(fn, lookback);
    if (st != TENDON_OK)
        return st;
    caller_anchor ca;
    caller_anchor_wrap(env, sa, &ca, &anchor, &user);
    spring_setup s;
    st = spring_setup_for(fn, settings, lookback, &s);
    const tendon_kernels *k;
    if (st != TENDON_OK || (st = resolve_kernels(given, &k)) != TENDON_OK)
        return st;

    /* One spring: 3 lanes padded to 8, on the stack. */
    double position[SPRING_LANE_ALIGN], velocity[SPRING_LANE_ALIGN];
    float anchor_a[SPRING_LANE_ALIGN], anchor_b[SPRING_LANE_ALIGN];
    tendon_spring_coeffs coeffs;
    tendon_spring_march_plan p;
    p.lanes = 3;
    p.lane_stride = SPRING_LANE_ALIGN;
    p.previous = NULL;
    p.link_count = 1;
    p.links = &coeffs;
    p.position = position;
    p.velocity = velocity;
    p.anchor_a = anchor_a;
    p.anchor_b = anchor_b;
    spring_run(k, &s, time_sec, anchor, user, &p, &coeffs);
    if (sa && sa->status != TENDON_OK)
        return status_anchor_failure(fn, sa);
    spring_finish(&p, s.settings.max_offset_m, 0, out64);
    return TENDON_OK;
}

tendon_status tendon_spring_settle_sec(const tendon_spring_settings *settings, double *out_sec)
{
    TENDON_FPENV_GUARD();
    if (!settings)
        return tendon_fail(TENDON_ERR_NULL, "tendon_spring_settle_sec: settings is NULL");
    if (!out_sec)
        return tendon_fail(TENDON_ERR_NULL, "tendon_spring_settle_sec: out_sec is NULL");
    *out_sec = settle_sec(settings->frequency_hz, settings->damping);
    return TENDON_OK;
}

tendon_status tendon_spring_sample_f64_on(const tendon_kernels *k,
                                          const tendon_spring_settings *settings,
                                          tendon_spring_anchor_fn anchor, void *user,
                                          double time_sec, double out64[3])
{
    TENDON_FPENV_GUARD();
    double result[3];
    const tendon_status st = spring_sample("tendon_spring_sample_f64", k, settings,
                                           TENDON_SPRING_LOOKBACK_SEED, anchor, user, NULL,
                                           time_sec, out64, _Alignof(double), result,
                                           TENDON_FPENV_HERE);
    if (st == TENDON_OK)
        memcpy(out64, result, sizeof result);
    return st;
}

tendon_status tendon_spring_sample_f64(const tendon_spring_settings *settings,
                                       tendon_spring_anchor_fn anchor, void *user,
                                       double time_sec, double out64[3])
{
    return tendon_spring_sample_f64_on(NULL, settings, anchor, user, time_sec, out64);
}

tendon_status tendon_spring_sample_on(const tendon_kernels *k,
                                      const tendon_spring_settings *settings,
                                      tendon_spring_anchor_fn anchor, void *user, double time_sec,
                                      float out[3])
{
    TENDON_FPENV_GUARD();
    double result[3];
    const tendon_status st =
        spring_sample("tendon_spring_sample", k, settings, TENDON_SPRING_LOOKBACK_SEED, anchor,
                      user, NULL, time_sec, out, _Alignof(float), result, TENDON_FPENV_HERE);
    if (st == TENDON_OK) {
        out[0] = (float)result[0];
        out[1] = (float)result[1];
        out[2] = (float)result[2];
    }
    return st;
}

/* ---- an anchor given as a table (common/spring_anchor_table.h) ---- */

void tendon_spring_table_anchor(void *table, double time_sec, float *out)
{
    tendon_spring_anchor_table *tb = table;
    size_t i = tb->cursor;
    for (size_t k = 0; k < tb->count; ++k) {
        if (tb->times[i] == time_sec) {
            memcpy(out, tb->values + tb->width * i, tb->width * sizeof(float));
            tb->cursor = i + 1 < tb->count ? i + 1 : 0;
            return;
        }
        i = i + 1 < tb->count ? i + 1 : 0;
    }
    ++tb->misses;
    tb->miss(tb->miss_user, time_sec, out);
}

tendon_status tendon_spring_sample(const tendon_spring_settings *settings,
                                   tendon_spring_anchor_fn anchor, void *user, double time_sec,
                                   float out[3])
{
    return tendon_spring_sample_on(NULL, settings, anchor, user, time_sec, out);
}

tendon_status tendon_spring_batch_workspace_size(size_t spring_count, size_t *out_bytes)
{
    if (!out_bytes)
        return tendon_fail(TENDON_ERR_NULL, "tendon_spring_batch_workspace_size: out_bytes is NULL");
    spring_layout l;
    if (!layout_for(1, spring_count, 0, &l))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "tendon_spring_batch_workspace_size: %zu springs need more bytes than "
                           "size_t can count",
                           spring_count);
    *out_bytes = l.bytes;
    return TENDON_OK;
}

static tendon_status spring_batch(const char *fn, const tendon_kernels *given,
                                  const tendon_spring_settings *settings,
                                  tendon_spring_lookback lookback, tendon_spring_anchor_fn anchor,
                                  void *user, status_anchor *sa, double time_sec,
                                  size_t spring_count, void *workspace, size_t workspace_bytes,
                                  float *out, const tendon_fpenv *env)
{
    if (spring_count == 0)
        return TENDON_OK;
    if (!settings)
        return tendon_fail(TENDON_ERR_NULL, "%s: settings is NULL", fn);
    if (sa ? !sa->fn : !anchor)
        return tendon_fail(TENDON_ERR_NULL, "%s: anchor is NULL", fn);
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL with a count of %zu", fn,
                           spring_count);
    TENDON_CHECK_OUT_ALIGNED(fn, out);
    tendon_status st = check_lookback(fn, lookback);
    if (st != TENDON_OK)
        return st;
    caller_anchor ca;
    caller_anchor_wrap(env, sa, &ca, &anchor, &user);
    spring_setup s;
    st = spring_setup_for(fn, settings, lookback, &s);
    if (st != TENDON_OK)
        return st;
    spring_layout l;
    if (!layout_for(1, spring_count, 0, &l))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %zu springs need more bytes than size_t can count", fn,
                           spring_count);
    if ((st = check_workspace(fn, workspace, workspace_bytes, l.bytes,
                              "tendon_spring_batch_workspace_size")) != TENDON_OK ||
        (st = check_out_alias(fn, out, l.lanes * sizeof(float), workspace, workspace_bytes)) !=
            TENDON_OK)
        return st;
    const tendon_kernels *k;
    if ((st = resolve_kernels(given, &k)) != TENDON_OK)
        return st;

    tendon_spring_march_plan p;
    tendon_spring_coeffs *coeffs;
    double *rest;
    plan_buffers(&l, workspace, 1, &p, &coeffs, &rest);
    spring_run(k, &s, time_sec, anchor, user, &p, coeffs);
    if (sa && sa->status != TENDON_OK)
        return status_anchor_failure(fn, sa);
    for (size_t g = 0; g < spring_count; ++g) {
        double result[3];
        spring_finish(&p, s.settings.max_offset_m, g, result);
        out[3 * g] = (float)result[0];
        out[3 * g + 1] = (float)result[1];
        out[3 * g + 2] = (float)result[2];
    }
    return TENDON_OK;
}

tendon_status tendon_spring_sample_batch_on(const tendon_kernels *given,
                                            const tendon_spring_settings *settings,
                                            tendon_spring_anchor_fn anchor, void *user,
                                            double time_sec, size_t spring_count, void *workspace,
                                            size_t workspace_bytes, float *out)
{
    TENDON_FPENV_GUARD();
    return spring_batch("tendon_spring_sample_batch", given, settings,
                        TENDON_SPRING_LOOKBACK_SEED, anchor, user, NULL, time_sec, spring_count,
                        workspace, workspace_bytes, out, TENDON_FPENV_HERE);
}

tendon_status tendon_spring_sample_batch(const tendon_spring_settings *settings,
                                         tendon_spring_anchor_fn anchor, void *user,
                                         double time_sec, size_t spring_count, void *workspace,
                                         size_t workspace_bytes, float *out)
{
    return tendon_spring_sample_batch_on(NULL, settings, anchor, user, time_sec, spring_count,
                                         workspace, workspace_bytes, out);
}

/* ---- chains --------------------------------------------------------------------------------- */

tendon_status tendon_spring_chain_settle_sec(const tendon_spring_link *links, size_t link_count,
                                             double *out_sec)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_chain_settle_sec";
    if (!out_sec)
        return tendon_fail(TENDON_ERR_NULL, "%s: out_sec is NULL", fn);
    if (link_count == 0) {
        *out_sec = 0.0;
        return TENDON_OK;
    }
    if (!links)
        return tendon_fail(TENDON_ERR_NULL, "%s: links is NULL with a count of %zu", fn,
                           link_count);
    const tendon_status st = validate_links(fn, links, link_count);
    if (st != TENDON_OK)
        return st;
    *out_sec = chain_settle_sec(links, link_count);
    return TENDON_OK;
}

tendon_status tendon_spring_chain_workspace_size(size_t link_count, size_t chain_count,
                                                 size_t *out_bytes)
{
    if (!out_bytes)
        return tendon_fail(TENDON_ERR_NULL, "tendon_spring_chain_workspace_size: out_bytes is NULL");
    spring_layout l;
    if (!layout_for(link_count, chain_count, 1, &l))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "tendon_spring_chain_workspace_size: %zu links × %zu chains need more "
                           "bytes than size_t can count",
                           link_count, chain_count);
    *out_bytes = l.bytes;
    return TENDON_OK;
}

/*
 * The work budget of a chain call, in link-substeps: every link of every chain advanced one
 * substep. `steps` is the planned substep count, or 0 before the plan (then the bound is the
 * least any plan costs: one substep — the clamp walks every link even when none runs).
 * `callers_budget`: max_work came from a _budget entry point (else it is the default).
 */
static tendon_status check_chain_work(const char *fn, size_t steps, int planned,
                                      size_t link_count, size_t chain_count, uint64_t max_work,
                                      int callers_budget)
{
    const uint64_t per_step = (uint64_t)link_count * (uint64_t)chain_count; /* ≥ 1, no overflow:
                                                          3·link_count·chain_count fits size_t */
    const uint64_t s = steps < 1 ? 1 : (uint64_t)steps;
    if (per_step <= max_work && s <= max_work / per_step)
        return TENDON_OK;
    const int overflows = per_step > UINT64_MAX / s;
    const uint64_t cost = overflows ? UINT64_MAX : per_step * s;
    const char *budget_name = callers_budget ? "max_work" : "TENDON_SPRING_MAX_WORK";
    const char *hint = callers_budget ? ""
                                      : "; to allow more, pass your own max_work to "
                                        "tendon_spring_chain_sample_budget / _batch_budget";
    if (!planned)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %zu links × %zu %s cost at least %" PRIu64 " link-substeps "
                           "(one substep each), more than the work budget %s = %" PRIu64
                           "%s",
                           fn, link_count, chain_count, chain_count == 1 ? "chain" : "chains",
                           cost, budget_name, max_work, hint);
    return tendon_fail(TENDON_ERR_VALUE,
                       "%s: %zu links × %zu %s × %zu substeps cost %s%" PRIu64
                       " link-substeps, more than the work budget %s = %" PRIu64 "; a "
                       "chain's work grows as links² (docs/springs.md, \"Long chains\"): use "
                       "shorter chains, or the batch path for more strands%s",
                       fn, link_count, chain_count, chain_count == 1 ? "chain" : "chains", steps,
                       overflows ? "more than " : "", cost, budget_name, max_work, hint);
}

/* Stack storage of a single chain of up to TENDON_SPRING_CHAIN_STACK_LINKS links (6,911 bytes). */
#define SPRING_CHAIN_STACK_BYTES 7168

static tendon_status chain_sample(const char *fn, const tendon_kernels *given,
                                  const tendon_spring_link *links, size_t link_count,
                                  tendon_spring_lookback lookback, tendon_spring_anchor_fn root,
                                  void *user, status_anchor *sa, double time_sec,
                                  size_t chain_count, void *workspace, size_t workspace_bytes,
                                  float *out, size_t out_count, int stack_allowed,
                                  uint64_t max_work, int callers_budget, const tendon_fpenv *env)
{
    if (link_count == 0 || chain_count == 0)
        return TENDON_OK; /* the seed's empty chain returns at once */
    if (!links)
        return tendon_fail(TENDON_ERR_NULL, "%s: links is NULL with a count of %zu", fn,
                           link_count);
    if (sa ? !sa->fn : !root)
        return tendon_fail(TENDON_ERR_NULL, "%s: root is NULL", fn);
    caller_anchor ca;
    caller_anchor_wrap(env, sa, &ca, &root, &user);
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    TENDON_CHECK_OUT_ALIGNED(fn, out);
    size_t per_chain, need;
    if (!mul_ok(link_count, 3, &per_chain) || !mul_ok(per_chain, chain_count, &need) ||
        need > SIZE_MAX / sizeof(float))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %zu links × %zu chains need more floats than size_t can count",
                           fn, link_count, chain_count);
    if (out_count < need) {
        if (chain_count == 1)
            return tendon_fail(TENDON_ERR_COUNT,
                               "spring chain: out holds %zu floats and this chain needs %zu, "
                               "three per link for %zu links. [%s]",
                               out_count, need, link_count, fn);
        return tendon_fail(TENDON_ERR_COUNT,
                           "spring chain: out holds %zu floats and these %zu chains need %zu, "
                           "three per link for %zu links each. [%s]",
                           out_count, chain_count, need, link_count, fn);
    }
    tendon_status st = check_lookback(fn, lookback);
    if (st != TENDON_OK || (st = validate_links(fn, links, link_count)) != TENDON_OK)
        return st;
    /* Before the lookback (O(links) per root step): a chain too long for any plan. */
    if ((st = check_chain_work(fn, 0, 0, link_count, chain_count, max_work, callers_budget)) !=
        TENDON_OK)
        return st;
    const double lookback_sec = chain_settle_with(links, link_count, lookback);
    double fastest = 0.0;
    for (size_t i = 0; i < link_count; ++i)
        if (links[i].frequency_hz > fastest)
            fastest = links[i].frequency_hz;
    size_t steps = 0;
    if ((st = substep_grid(fn, lookback_sec, fastest, "the chain's fastest link", &steps)) !=
        TENDON_OK ||
        (st = check_chain_work(fn, steps, 1, link_count, chain_count, max_work, callers_budget)) !=
            TENDON_OK)
        return st;

    spring_layout l;
    if (!layout_for(link_count, chain_count, 1, &l))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %zu links × %zu chains need more bytes than size_t can count", fn,
                           link_count, chain_count);
    _Alignas(64) unsigned char stack[SPRING_CHAIN_STACK_BYTES];
    if (!workspace && stack_allowed && link_count <= TENDON_SPRING_CHAIN_STACK_LINKS &&
        l.bytes <= sizeof stack) {
        workspace = stack;
        workspace_bytes = sizeof stack;
    } else {
        if ((st = check_workspace(fn, workspace, workspace_bytes, l.bytes,
                                  "tendon_spring_chain_workspace_size")) != TENDON_OK ||
            (st = check_out_alias(fn, out, need * sizeof(float), workspace, workspace_bytes)) !=
                TENDON_OK)
            return st;
        if (tendon_ranges_overlap(links, link_count * sizeof *links, workspace, workspace_bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: links overlaps the workspace", fn);
    }
    if (tendon_ranges_overlap(links, link_count * sizeof *links, out, need * sizeof(float)))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps links", fn);
    const tendon_kernels *k;
    if ((st = resolve_kernels(given, &k)) != TENDON_OK)
        return st;

    tendon_spring_march_plan p;
    tendon_spring_coeffs *coeffs;
    double *rest;
    plan_buffers(&l, workspace, link_count, &p, &coeffs, &rest);
    const double step = lookback_sec / (double)steps;
    const double start = time_sec - lookback_sec;
    for (size_t i = 0; i < link_count; ++i) {
        transition(links[i].frequency_hz, links[i].damping, step, &coeffs[i]);
        for (size_t j = 0; j < SPRING_REST_PERIOD; ++j)
            rest[SPRING_REST_PERIOD * i + j] = links[i].rest_offset_m[j % 3];
    }
    p.start_sec = start;
    p.step_sec = step;
    p.steps = steps;
    p.rest_lanes = rest;
    p.anchor = root;
    p.user = user;
    const size_t stride = p.lane_stride;
    memset(p.anchor_a, 0, stride * sizeof(float));
    memset(p.anchor_b, 0, stride * sizeof(float));

    /* At rest, hanging: each link on its own rest offset below the one above (seed). */
    root(user, start, p.anchor_a);
    for (size_t i = 0; i < link_count; ++i) {
        for (size_t j = 0; j < stride; ++j) {
            const double above =
                i == 0 ? (double)p.anchor_a[j] : p.position[(i - 1) * stride + j];
            p.position[i * stride + j] = above + rest[SPRING_REST_PERIOD * i + j % SPRING_REST_PERIOD];
            p.velocity[i * stride + j] = 0.0;
        }
    }
    k->spring_chain_march(&p);

    /* The clamp walks down the finished chain, along the already-rounded outputs (seed). */
    root(user, time_sec, p.anchor_a);
    if (sa && sa->status != TENDON_OK)
        return status_anchor_failure(fn, sa);
    for (size_t c = 0; c < chain_count; ++c) {
        double above[3] = {(double)p.anchor_a[3 * c], (double)p.anchor_a[3 * c + 1],
                           (double)p.anchor_a[3 * c + 2]};
        float *chain_out = out + 3 * link_count * c;
        for (size_t i = 0; i < link_count; ++i) {
            const double anchor[3] = {above[0] + links[i].rest_offset_m[0],
                                      above[1] + links[i].rest_offset_m[1],
                                      above[2] + links[i].rest_offset_m[2]};
            const double position[3] = {p.position[i * stride + 3 * c],
                                        p.position[i * stride + 3 * c + 1],
                                        p.position[i * stride + 3 * c + 2]};
            double result[3];
            write_clamped(links[i].max_offset_m, position, anchor, result);
            for (int a = 0; a < 3; ++a) {
                const float rounded = store_f32(result[a]);
                chain_out[3 * i + a] = rounded;
                above[a] = (double)rounded;
            }
        }
    }
    return TENDON_OK;
}

tendon_status tendon_spring_chain_sample_on(const tendon_kernels *k,
                                            const tendon_spring_link *links, size_t link_count,
                                            tendon_spring_anchor_fn root, void *user,
                                            double time_sec, void *workspace,
                                            size_t workspace_bytes, float *out, size_t out_count)
{
    TENDON_FPENV_GUARD();
    return chain_sample("tendon_spring_chain_sample", k, links, link_count,
                        TENDON_SPRING_LOOKBACK_SEED, root, user, NULL, time_sec, 1, workspace,
                        workspace_bytes, out, out_count, 1, TENDON_SPRING_MAX_WORK, 0,
                        TENDON_FPENV_HERE);
}

tendon_status tendon_spring_chain_sample_batch_on(const tendon_kernels *k,
                                                  const tendon_spring_link *links,
                                                  size_t link_count, tendon_spring_anchor_fn root,
                                                  void *user, double time_sec, size_t chain_count,
                                                  void *workspace, size_t workspace_bytes,
                                                  float *out, size_t out_count)
{
    TENDON_FPENV_GUARD();
    return chain_sample("tendon_spring_chain_sample_batch", k, links, link_count,
                        TENDON_SPRING_LOOKBACK_SEED, root, user, NULL, time_sec, chain_count,
                        workspace, workspace_bytes, out, out_count, 0, TENDON_SPRING_MAX_WORK, 0,
                        TENDON_FPENV_HERE);
}

tendon_status tendon_spring_chain_sample(const tendon_spring_link *links, size_t link_count,
                                         tendon_spring_anchor_fn root, void *user,
                                         double time_sec, void *workspace, size_t workspace_bytes,
                                         float *out, size_t out_count)
{
    return tendon_spring_chain_sample_on(NULL, links, link_count, root, user, time_sec,
                                         workspace, workspace_bytes, out, out_count);
}

tendon_status tendon_spring_chain_sample_batch(const tendon_spring_link *links, size_t link_count,
                                               tendon_spring_anchor_fn root, void *user,
                                               double time_sec, size_t chain_count,
                                               void *workspace, size_t workspace_bytes,
                                               float *out, size_t out_count)
{
    return tendon_spring_chain_sample_batch_on(NULL, links, link_count, root, user, time_sec,
                                               chain_count, workspace, workspace_bytes, out,
                                               out_count);
}

tendon_status tendon_spring_chain_sample_budget(const tendon_spring_link *links,
                                                size_t link_count, tendon_spring_anchor_fn root,
                                                void *user, double time_sec, uint64_t max_work,
                                                void *workspace, size_t workspace_bytes,
                                                float *out, size_t out_count)
{
    TENDON_FPENV_GUARD();
    return chain_sample("tendon_spring_chain_sample_budget", NULL, links, link_count,
                        TENDON_SPRING_LOOKBACK_SEED, root, user, NULL, time_sec, 1, workspace,
                        workspace_bytes, out, out_count, 1, max_work, 1, TENDON_FPENV_HERE);
}

tendon_status tendon_spring_chain_sample_batch_budget(const tendon_spring_link *links,
                                                      size_t link_count,
                                                      tendon_spring_anchor_fn root, void *user,
                                                      double time_sec, uint64_t max_work,
                                                      size_t chain_count, void *workspace,
                                                      size_t workspace_bytes, float *out,
                                                      size_t out_count)
{
    TENDON_FPENV_GUARD();
    return chain_sample("tendon_spring_chain_sample_batch_budget", NULL, links, link_count,
                        TENDON_SPRING_LOOKBACK_SEED, root, user, NULL, time_sec, chain_count,
                        workspace, workspace_bytes, out, out_count, 0, max_work, 1,
                        TENDON_FPENV_HERE);
}

/* ---- the lookback setting and status-returning anchors ------------------------------------- */

tendon_status tendon_spring_settle_sec_lookback(const tendon_spring_settings *settings,
                                                tendon_spring_lookback lookback, double *out_sec)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_settle_sec_lookback";
    if (!settings)
        return tendon_fail(TENDON_ERR_NULL, "%s: settings is NULL", fn);
    if (!out_sec)
        return tendon_fail(TENDON_ERR_NULL, "%s: out_sec is NULL", fn);
    tendon_status st = check_lookback(fn, lookback);
    if (st != TENDON_OK)
        return st;
    if (lookback != TENDON_SPRING_LOOKBACK_SLOW_POLE) { /* the seed's, refusing nothing */
        *out_sec = settle_sec(settings->frequency_hz, settings->damping);
        return TENDON_OK;
    }
    if ((st = validate(settings->frequency_hz, settings->damping, fn)) != TENDON_OK)
        return st;
    *out_sec = settle_with(settings->frequency_hz, settings->damping, lookback);
    return TENDON_OK;
}

tendon_status tendon_spring_chain_settle_sec_lookback(const tendon_spring_link *links,
                                                      size_t link_count,
                                                      tendon_spring_lookback lookback,
                                                      double *out_sec)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_spring_chain_settle_sec_lookback";
    if (!out_sec)
        return tendon_fail(TENDON_ERR_NULL, "%s: out_sec is NULL", fn);
    tendon_status st = check_lookback(fn, lookback);
    if (st != TENDON_OK)
        return st;
    if (link_count == 0) {
        *out_sec = 0.0;
        return TENDON_OK;
    }
    if (!links)
        return tendon_fail(TENDON_ERR_NULL, "%s: links is NULL with a count of %zu", fn,
                           link_count);
    if ((st = validate_links(fn, links, link_count)) != TENDON_OK)
        return st;
    *out_sec = chain_settle_with(links, link_count, lookback);
    return TENDON_OK;
}

tendon_status tendon_spring_sample_status_on(const tendon_kernels *k,
                                             const tendon_spring_settings *settings,
                                             tendon_spring_lookback lookback,
                                             tendon_spring_anchor_status_fn anchor, void *user,
                                             double time_sec, float out[3])
{
    TENDON_FPENV_GUARD();
    status_anchor sa = {anchor, user, TENDON_OK, 0.0, 0, NULL};
    double result[3];
    const tendon_status st = spring_sample("tendon_spring_sample_status", k, settings, lookback,
                                           NULL, NULL, &sa, time_sec, out, _Alignof(float),
                                           result, TENDON_FPENV_HERE);
    if (st == TENDON_OK) {
        out[0] = (float)result[0];
        out[1] = (float)result[1];
        out[2] = (float)result[2];
    }
    return st;
}

tendon_status tendon_spring_sample_status(const tendon_spring_settings *settings,
                                          tendon_spring_lookback lookback,
                                          tendon_spring_anchor_status_fn anchor, void *user,
                                          double time_sec, float out[3])
{
    return tendon_spring_sample_status_on(NULL, settings, lookback, anchor, user, time_sec, out);
}

tendon_status tendon_spring_sample_batch_status_on(
    const tendon_kernels *k, const tendon_spring_settings *settings,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn anchor, void *user,
    double time_sec, size_t spring_count, void *workspace, size_t workspace_bytes, float *out)
{
    TENDON_FPENV_GUARD();
    status_anchor sa = {anchor, user, TENDON_OK, 0.0, 0, NULL};
    return spring_batch("tendon_spring_sample_batch_status", k, settings, lookback, NULL, NULL,
                        &sa, time_sec, spring_count, workspace, workspace_bytes, out,
                        TENDON_FPENV_HERE);
}

tendon_status tendon_spring_sample_batch_status(const tendon_spring_settings *settings,
                                                tendon_spring_lookback lookback,
                                                tendon_spring_anchor_status_fn anchor, void *user,
                                                double time_sec, size_t spring_count,
                                                void *workspace, size_t workspace_bytes,
                                                float *out)
{
    return tendon_spring_sample_batch_status_on(NULL, settings, lookback, anchor, user, time_sec,
                                                spring_count, workspace, workspace_bytes, out);
}

tendon_status tendon_spring_chain_sample_status_on(
    const tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn root, void *user,
    double time_sec, uint64_t max_work, void *workspace, size_t workspace_bytes, float *out,
    size_t out_count)
{
    TENDON_FPENV_GUARD();
    status_anchor sa = {root, user, TENDON_OK, 0.0, 0, NULL};
    return chain_sample("tendon_spring_chain_sample_status", k, links, link_count, lookback, NULL,
                        NULL, &sa, time_sec, 1, workspace, workspace_bytes, out, out_count, 1,
                        max_work, 1, TENDON_FPENV_HERE);
}

tendon_status tendon_spring_chain_sample_status(const tendon_spring_link *links,
                                                size_t link_count,
                                                tendon_spring_lookback lookback,
                                                tendon_spring_anchor_status_fn root, void *user,
                                                double time_sec, uint64_t max_work,
                                                void *workspace, size_t workspace_bytes,
                                                float *out, size_t out_count)
{
    return tendon_spring_chain_sample_status_on(NULL, links, link_count, lookback, root, user,
                                                time_sec, max_work, workspace, workspace_bytes,
                                                out, out_count);
}

tendon_status tendon_spring_chain_sample_batch_status_on(
    const tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_lookback lookback, tendon_spring_anchor_status_fn root, void *user,
    double time_sec, uint64_t max_work, size_t chain_count, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count)
{
    TENDON_FPENV_GUARD();
    status_anchor sa = {root, user, TENDON_OK, 0.0, 0, NULL};
    return chain_sample("tendon_spring_chain_sample_batch_status", k, links, link_count, lookback,
                        NULL, NULL, &sa, time_sec, chain_count, workspace, workspace_bytes, out,
                        out_count, 0, max_work, 1, TENDON_FPENV_HERE);
}

tendon_status tendon_spring_chain_sample_batch_status(
    const tendon_spring_link *links, size_t link_count, tendon_spring_lookback lookback,
    tendon_spring_anchor_status_fn root, void *user, double time_sec, uint64_t max_work,
    size_t chain_count, void *workspace, size_t workspace_bytes, float *out, size_t out_count)
{
    return tendon_spring_chain_sample_batch_status_on(NULL, links, link_count, lookback, root,
                                                      user, time_sec, max_work, chain_count,
                                                      workspace, workspace_bytes, out, out_count);
}

/* ---- for the spring rig (src/spring_rig.c; spring_internal.h) ------------------------------- */

tendon_status tendon_spring_chain_grid(const char *fn, const tendon_spring_link *links,
                                       size_t link_count, tendon_spring_lookback lookback,
                                       size_t chain_count, uint64_t max_work,
                                       tendon_spring_grid *out)
{
    tendon_status st = check_lookback(fn, lookback);
    if (st != TENDON_OK || (st = validate_links(fn, links, link_count)) != TENDON_OK ||
        (st = check_chain_work(fn, 0, 0, link_count, chain_count, max_work, 1)) != TENDON_OK)
        return st;
    const double lookback_sec = chain_settle_with(links, link_count, lookback);
    double fastest = 0.0;
    for (size_t i = 0; i < link_count; ++i)
        if (links[i].frequency_hz > fastest)
            fastest = links[i].frequency_hz;
    size_t steps = 0;
    if ((st = substep_grid(fn, lookback_sec, fastest, "the chain's fastest link", &steps)) !=
            TENDON_OK ||
        (st = check_chain_work(fn, steps, 1, link_count, chain_count, max_work, 1)) != TENDON_OK)
        return st;
    out->lookback_sec = lookback_sec;
    out->steps = steps;
    out->step_sec = lookback_sec / (double)steps;
    return TENDON_OK;
}

tendon_status tendon_spring_chain_sample_plain(const char *fn, const tendon_kernels *k,
                                               const tendon_spring_link *links,
                                               size_t link_count, tendon_spring_lookback lookback,
                                               tendon_spring_anchor_fn root, void *user,
                                               double time_sec, uint64_t max_work,
                                               size_t chain_count, void *workspace,
                                               size_t workspace_bytes, float *out,
                                               size_t out_count)
{
    return chain_sample(fn, k, links, link_count, lookback, root, user, NULL, time_sec,
                        chain_count, workspace, workspace_bytes, out, out_count, 0, max_work, 1,
                        NULL);
}

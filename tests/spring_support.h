/*
 * Shared by the spring suites (test_spring_*.c): the seed cases' declarative anchors with call
 * recording, and an oracle — the seed's own spring.ts arithmetic transcribed to C with libm's
 * exp/sin/cos/sinh/cosh and the seed's per-substep division — that the suites measure tendon's
 * double results against.
 *
 * The anchors are the *test's* functions: their sine is the seed's Math.sin as node 20.20.2 /
 * V8 11.3 computes it (src/common/detmath_v8.h), so the anchors are the seed's to the bit; the
 * oracle keeps glibc. Nothing here is linked into the library.
 */
#ifndef TENDON_TEST_SPRING_SUPPORT_H
#define TENDON_TEST_SPRING_SUPPORT_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include <tendon/spring.h>

#include "common/detmath_v8.h"

/* x rounded to float, through a volatile: GCC 12.2's SLP vectoriser drops a plain
   (double)(float)x round trip in loops like the ones below (docs/springs.md). */
static inline float test_f32(double x)
{
    volatile float f = (float)x;
    return f;
}

/* π as a double (the seed's Math.PI); M_PI is not in strict C11. */
#define TEST_PI 3.141592653589793238462643383279502884

enum { ANCHOR_CONSTANT, ANCHOR_SINE, ANCHOR_STEP, ANCHOR_LINEAR, ANCHOR_KEYS };

#define ANCHOR_MAX_KEYS 64

/* One declarative anchor (tests/data/CASES-README.md), evaluated in double, rounded once. */
typedef struct test_anchor {
    int kind;
    double value[3];                        /* constant */
    double amplitude[3], center[3];         /* sine: center + amplitude·sin(((2π)·f)·t + phase) */
    double frequency_hz, phase;
    double at, from[3], to[3];              /* step: t < at ? from : to */
    double origin[3], velocity[3];          /* linear: origin + velocity·t */
    size_t key_count;                       /* keys: piecewise linear, clamped */
    double times[ANCHOR_MAX_KEYS], values[ANCHOR_MAX_KEYS][3];
} test_anchor;

static inline void test_anchor_eval(const test_anchor *a, double t, double out[3])
{
    switch (a->kind) {
    case ANCHOR_CONSTANT:
        for (int k = 0; k < 3; ++k)
            out[k] = a->value[k];
        break;
    case ANCHOR_SINE: {
        const double s = tendon_v8_sin(((2.0 * TEST_PI) * a->frequency_hz) * t + a->phase);
        for (int k = 0; k < 3; ++k)
            out[k] = a->center[k] + a->amplitude[k] * s;
        break;
    }
    case ANCHOR_STEP:
        for (int k = 0; k < 3; ++k)
            out[k] = t < a->at ? a->from[k] : a->to[k];
        break;
    case ANCHOR_LINEAR:
        for (int k = 0; k < 3; ++k)
            out[k] = a->origin[k] + a->velocity[k] * t;
        break;
    default: {
        const size_t n = a->key_count;
        if (n == 0) {
            out[0] = out[1] = out[2] = 0.0;
            break;
        }
        if (!(t > a->times[0])) {
            memcpy(out, a->values[0], 3 * sizeof(double));
            break;
        }
        if (t >= a->times[n - 1]) {
            memcpy(out, a->values[n - 1], 3 * sizeof(double));
            break;
        }
        size_t j = 0;
        while (j + 1 < n && a->times[j + 1] <= t)
            ++j;
        const double u = (t - a->times[j]) / (a->times[j + 1] - a->times[j]);
        for (int k = 0; k < 3; ++k)
            out[k] = a->values[j][k] + (a->values[j + 1][k] - a->values[j][k]) * u;
        break;
    }
    }
}

/* The anchor as a tendon callback, recording how it was called. */
typedef struct anchor_log {
    const test_anchor *anchor;
    size_t count;
    double first, second, last;
    int decreasing; /* set if a call's time was below the previous one */
} anchor_log;

static inline void anchor_log_reset(anchor_log *log, const test_anchor *a)
{
    memset(log, 0, sizeof *log);
    log->anchor = a;
}

static inline void test_anchor_cb(void *user, double t, float *out)
{
    anchor_log *log = (anchor_log *)user;
    if (log->count == 0)
        log->first = t;
    else if (log->count == 1)
        log->second = t;
    if (log->count > 0 && t < log->last)
        log->decreasing = 1;
    log->last = t;
    log->count++;
    double v[3];
    test_anchor_eval(log->anchor, t, v);
    for (int k = 0; k < 3; ++k)
        out[k] = test_f32(v[k]);
}

/* ---- the oracle: spring.ts in C, with libm and the seed's division ------------------------ */

static inline void oracle_transition(double f, double zeta, double step, double c[4])
{
    const double omega = 2 * TEST_PI * f;
    const double decay = exp(-zeta * omega * step);
    const double disc = zeta * zeta - 1;
    double cosine, sine;
    if (disc < -1e-12) {
        const double ringing = omega * sqrt(-disc);
        cosine = cos(ringing * step);
        sine = sin(ringing * step) / ringing;
    } else if (disc > 1e-12) {
        const double sagging = omega * sqrt(disc);
        cosine = cosh(sagging * step);
        sine = sinh(sagging * step) / sagging;
    } else {
        cosine = 1;
        sine = step;
    }
    c[0] = decay * (cosine + zeta * omega * sine);
    c[1] = decay * sine;
    c[2] = -decay * omega * omega * sine;
    c[3] = decay * (cosine - zeta * omega * sine);
}

static inline void oracle_advance(const double c[4], double trail, double step, double *pos,
                                  double *vel, double a0, double a1)
{
    const double speed = (a1 - a0) / step;
    const double rest = trail * speed;
    const double offset = *pos - a0 - rest;
    const double relative = *vel - speed;
    *pos = c[0] * offset + c[1] * relative + rest + a1;
    *vel = c[2] * offset + c[3] * relative + speed;
}

static inline void oracle_clamp(double limit, const double pos[3], const double anchor[3],
                                double out[3])
{
    const double d[3] = {pos[0] - anchor[0], pos[1] - anchor[1], pos[2] - anchor[2]};
    double scale = 1;
    if (limit >= 0) {
        const double lag = tendon_v8_hypot3(d[0], d[1], d[2]); /* Math.hypot, as V8 */
        if (lag > limit)
            scale = limit / lag;
    }
    for (int k = 0; k < 3; ++k)
        out[k] = anchor[k] + d[k] * scale;
}

/*
 * Seed sampleSpring, double result before the float32 store. With `coeffs` NULL the transition
 * uses libm (the oracle proper); given tendon's coefficients it is tendon's arithmetic.
 */
static inline void oracle_sample_spring_with(const tendon_spring_settings *s, const test_anchor *a,
                                             double time, const tendon_spring_coeffs *coeffs,
                                             double out64[3])
{
    const double omega = 2 * TEST_PI * s->frequency_hz;
    const double lookback = -log(1e-3) / (s->damping * omega);
    const double start = time - lookback;
    double v[3];
    float prev[3], cur[3];
    double pos[3], vel[3] = {0, 0, 0};
    test_anchor_eval(a, start, v);
    for (int k = 0; k < 3; ++k) {
        prev[k] = test_f32(v[k]);
        pos[k] = prev[k];
    }
    const double wanted = ceil(lookback * s->frequency_hz * 32);
    const double steps = wanted != wanted ? NAN : (wanted < 1 ? 1 : wanted);
    const double step = lookback / steps;
    const double trail = (-2 * s->damping) / (2 * TEST_PI * s->frequency_hz);
    double c[4];
    oracle_transition(s->frequency_hz, s->damping, step, c);
    if (coeffs) {
        c[0] = coeffs->c0;
        c[1] = coeffs->c1;
        c[2] = coeffs->c2;
        c[3] = coeffs->c3;
    }
    for (double n = 1; n <= steps; n += 1) {
        test_anchor_eval(a, start + n * step, v);
        for (int k = 0; k < 3; ++k) {
            cur[k] = test_f32(v[k]);
            oracle_advance(c, trail, step, &pos[k], &vel[k], prev[k], cur[k]);
            prev[k] = cur[k];
        }
    }
    test_anchor_eval(a, time, v);
    const double anchor[3] = {test_f32(v[0]), test_f32(v[1]), test_f32(v[2])};
    oracle_clamp(s->max_offset_m, pos, anchor, out64);
}

static inline void oracle_sample_spring(const tendon_spring_settings *s, const test_anchor *a,
                                        double time, double out64[3])
{
    oracle_sample_spring_with(s, a, time, NULL, out64);
}

/*
 * Seed sampleSpringChain into out[3·n] with a given lookback and per-link coefficients and the
 * reciprocal of the step (the arithmetic tendon documents): the same algorithm written out
 * plainly, so tendon's march, its initial state and its clamp walk can be checked bit for bit.
 */
static inline void reference_sample_chain(const tendon_spring_link *links, size_t n,
                                          const test_anchor *a, double time, double lookback,
                                          size_t steps, const tendon_spring_coeffs *coeffs,
                                          float *out)
{
    double pos[64][3], vel[64][3];
    float prev[3], cur[3];
    double v[3];
    const double start = time - lookback;
    const double step = lookback / (double)steps;
    const double inv_step = 1.0 / step;
    test_anchor_eval(a, start, v);
    for (int k = 0; k < 3; ++k)
        prev[k] = test_f32(v[k]);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            pos[i][k] = (i == 0 ? (double)prev[k] : pos[i - 1][k]) + links[i].rest_offset_m[k];
            vel[i][k] = 0.0;
        }
    for (size_t s = 1; s <= steps; ++s) {
        test_anchor_eval(a, start + (double)s * step, v);
        for (int k = 0; k < 3; ++k) {
            cur[k] = test_f32(v[k]);
            double above_previous = prev[k], above_now = cur[k];
            for (size_t i = 0; i < n; ++i) {
                const tendon_spring_coeffs *c = &coeffs[i];
                const double rest = links[i].rest_offset_m[k];
                const double a0 = above_previous + rest, a1 = above_now + rest;
                const double mine = pos[i][k];
                const double speed = (a1 - a0) * inv_step;
                const double r = c->trail * speed;
                const double offset = (pos[i][k] - a0) - r;
                const double relative = vel[i][k] - speed;
                pos[i][k] = ((c->c0 * offset + c->c1 * relative) + r) + a1;
                vel[i][k] = (c->c2 * offset + c->c3 * relative) + speed;
                above_previous = mine;
                above_now = pos[i][k];
            }
            prev[k] = cur[k];
        }
    }
    test_anchor_eval(a, time, v);
    double above[3] = {test_f32(v[0]), test_f32(v[1]), test_f32(v[2])};
    for (size_t i = 0; i < n; ++i) {
        const double anchor[3] = {above[0] + links[i].rest_offset_m[0],
                                  above[1] + links[i].rest_offset_m[1],
                                  above[2] + links[i].rest_offset_m[2]};
        double r[3];
        oracle_clamp(links[i].max_offset_m, pos[i], anchor, r);
        for (int k = 0; k < 3; ++k) {
            out[3 * i + k] = test_f32(r[k]);
            above[k] = out[3 * i + k];
        }
    }
}

/* |got − want| ≤ max(2 float32 ulp of want, 1e-6): the seed cases' spring tolerance. */
static inline int within_spring_tolerance(float got, double want)
{
    if (want != want)
        return got != got;
    const float w = (float)want;
    const float up = nextafterf(fabsf(w), INFINITY);
    const double ulp = (double)up - (double)fabsf(w);
    const double tol = 2.0 * ulp > 1e-6 ? 2.0 * ulp : 1e-6;
    return fabs((double)got - want) <= tol;
}

#endif

/*
 * tendon/spring.h: anchors that can fail (the `_status` entry points) and the lookback setting
 * (tendon_spring_lookback).
 *   - with an anchor that never fails, every `_status` call gives its namesake's bits under
 *     TENDON_SPRING_LOOKBACK_SEED, on every ISA (single spring, batch, chain, chain batch);
 *   - a failing anchor: its status is returned, nothing is written, the anchor is not called
 *     again after the failure, the message names the status and the time;
 *   - TENDON_SPRING_LOOKBACK_SLOW_POLE: the seed's lookback bit for bit below critical damping
 *     (springs and chains); the double pole's root in the critical band; the slow pole above it;
 *     a step leaving the window jumps by at most ~1e-3 where the seed's jumps by 0.0086–0.97;
 *   - an unknown setting is refused by name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernels_internal.h" /* tendon_fail: the test anchor sets its own message */
#include "spring_support.h"
#include "support.h"

/* A sine anchor in double, rounded once; counts its calls; fails at call `fail_at` (0: never). */
typedef struct sine_anchor {
    size_t chains;
    size_t calls, fail_at;
    tendon_status fail_with;
    double last_time;
} sine_anchor;

static void sine_write(const sine_anchor *a, double t, float *out)
{
    for (size_t c = 0; c < a->chains; ++c) {
        const double s = sin((2.0 * TEST_PI) * (1.3 + 0.1 * (double)c) * t + 0.2 * (double)c);
        out[3 * c] = test_f32(0.4 * s + (double)c);
        out[3 * c + 1] = test_f32(1.0 - 0.25 * s);
        out[3 * c + 2] = test_f32(0.1 * t);
    }
}

static void plain_cb(void *user, double t, float *out)
{
    sine_anchor *a = user;
    ++a->calls;
    a->last_time = t;
    sine_write(a, t, out);
}

static tendon_status status_cb(void *user, double t, float *out)
{
    sine_anchor *a = user;
    ++a->calls;
    a->last_time = t;
    if (a->fail_at && a->calls == a->fail_at)
        return tendon_fail(a->fail_with, "test anchor: no pose at %g s", t);
    sine_write(a, t, out);
    return TENDON_OK;
}

static const tendon_spring_link LINKS[4] = {{2.2, 0.45, 0.12, {0, -0.06, 0}},
                                            {2.2, 0.45, 0.12, {0, -0.06, 0.01}},
                                            {1.9, 0.5, TENDON_SPRING_NO_LIMIT, {0.01, -0.06, 0}},
                                            {2.4, 0.4, 0.05, {0, -0.05, 0}}};

START_TEST(status_forms_equal_plain_forms)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_spring_settings s = {2.0, 0.35, 0.3};
    static const double times[3] = {0.0, 1.37, -4.5};
    for (int ti = 0; ti < 3; ++ti) {
        const double t = times[ti];
        float a[3], b[3];
        sine_anchor x = {1, 0, 0, TENDON_OK, 0}, y = x;
        ck_assert(tendon_spring_sample_on(k, &s, plain_cb, &x, t, a) == TENDON_OK);
        ck_assert(tendon_spring_sample_status_on(k, &s, TENDON_SPRING_LOOKBACK_SEED, status_cb, &y,
                                                 t, b) == TENDON_OK);
        ck_assert_int_eq(first_float_diff(a, b, 3), -1);
        ck_assert_uint_eq(x.calls, y.calls);

        enum { N = 5 };
        size_t bytes;
        ck_assert(tendon_spring_batch_workspace_size(N, &bytes) == TENDON_OK);
        void *ws = malloc(bytes);
        float ba[3 * N], bb[3 * N];
        sine_anchor bx = {N, 0, 0, TENDON_OK, 0}, by = bx;
        ck_assert(tendon_spring_sample_batch_on(k, &s, plain_cb, &bx, t, N, ws, bytes, ba) ==
                  TENDON_OK);
        ck_assert(tendon_spring_sample_batch_status_on(k, &s, TENDON_SPRING_LOOKBACK_SEED,
                                                       status_cb, &by, t, N, ws, bytes,
                                                       bb) == TENDON_OK);
        ck_assert_int_eq(first_float_diff(ba, bb, 3 * N), -1);
        free(ws);

        enum { C = 3 };
        ck_assert(tendon_spring_chain_workspace_size(4, C, &bytes) == TENDON_OK);
        ws = malloc(bytes);
        float ca[12], cb[12], cc[12 * C], cd[12 * C];
        sine_anchor cx = {1, 0, 0, TENDON_OK, 0}, cy = cx;
        ck_assert(tendon_spring_chain_sample_on(k, LINKS, 4, plain_cb, &cx, t, NULL, 0, ca, 12) ==
                  TENDON_OK);
        ck_assert(tendon_spring_chain_sample_status_on(k, LINKS, 4, TENDON_SPRING_LOOKBACK_SEED,
                                                       status_cb, &cy, t, TENDON_SPRING_MAX_WORK,
                                                       NULL, 0, cb, 12) == TENDON_OK);
        ck_assert_int_eq(first_float_diff(ca, cb, 12), -1);
        ck_assert_uint_eq(cx.calls, cy.calls);
        sine_anchor dx = {C, 0, 0, TENDON_OK, 0}, dy = dx;
        ck_assert(tendon_spring_chain_sample_batch_on(k, LINKS, 4, plain_cb, &dx, t, C, ws, bytes,
                                                      cc, 12 * C) == TENDON_OK);
        ck_assert(tendon_spring_chain_sample_batch_status_on(
                      k, LINKS, 4, TENDON_SPRING_LOOKBACK_SEED, status_cb, &dy, t,
                      TENDON_SPRING_MAX_WORK, C, ws, bytes, cd, 12 * C) == TENDON_OK);
        ck_assert_int_eq(first_float_diff(cc, cd, 12 * C), -1);
        free(ws);
    }
}
END_TEST

/* A failing anchor at its first, a middle and its last call: the status comes back, nothing is
   written, the anchor is not called again. */
START_TEST(failing_anchor_stops_the_sample)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_spring_settings s = {2.0, 0.35, TENDON_SPRING_NO_LIMIT};
    sine_anchor probe = {1, 0, 0, TENDON_OK, 0};
    float ok[3];
    ck_assert(tendon_spring_sample_status_on(k, &s, TENDON_SPRING_LOOKBACK_SEED, status_cb, &probe,
                                             0.5, ok) == TENDON_OK);
    const size_t calls = probe.calls; /* substeps + 2 */
    sine_anchor cprobe = {1, 0, 0, TENDON_OK, 0};
    float cok[12];
    ck_assert(tendon_spring_chain_sample_status_on(k, LINKS, 4, TENDON_SPRING_LOOKBACK_SEED,
                                                   status_cb, &cprobe, 0.5, TENDON_SPRING_MAX_WORK,
                                                   NULL, 0, cok, 12) == TENDON_OK);
    const size_t ccalls = cprobe.calls;
    const size_t at[3] = {1, 40, 0};
    for (int i = 0; i < 3; ++i) {
        float out[12];
        for (int j = 0; j < 12; ++j)
            out[j] = 1234.5f;
        sine_anchor a = {1, 0, at[i] ? at[i] : calls, TENDON_ERR_NOT_FOUND, 0};
        tendon_status st = tendon_spring_sample_status_on(k, &s, TENDON_SPRING_LOOKBACK_SEED,
                                                          status_cb, &a, 0.5, out);
        ck_assert_int_eq(st, TENDON_ERR_NOT_FOUND);
        ck_assert_uint_eq(a.calls, a.fail_at);
        for (int j = 0; j < 3; ++j)
            ck_assert(out[j] == 1234.5f);
        ck_assert_msg(strstr(tendon_error_message(), "TENDON_ERR_NOT_FOUND") &&
                          strstr(tendon_error_message(), "no pose at"),
                      "%s", tendon_error_message());

        sine_anchor c = {1, 0, at[i] ? at[i] : ccalls, TENDON_ERR_VALUE, 0};
        st = tendon_spring_chain_sample_status_on(k, LINKS, 4, TENDON_SPRING_LOOKBACK_SEED,
                                                  status_cb, &c, 0.5, TENDON_SPRING_MAX_WORK,
                                                  NULL, 0, out, 12);
        ck_assert_int_eq(st, TENDON_ERR_VALUE);
        ck_assert_uint_eq(c.calls, c.fail_at);
        for (int j = 0; j < 12; ++j)
            ck_assert(out[j] == 1234.5f);

        enum { N = 4 };
        size_t bytes;
        ck_assert(tendon_spring_chain_workspace_size(4, N, &bytes) == TENDON_OK);
        void *ws = malloc(bytes);
        float bout[12 * N];
        for (int j = 0; j < 12 * N; ++j)
            bout[j] = -7.0f;
        sine_anchor b = {N, 0, at[i] ? at[i] : ccalls, TENDON_ERR_RANGE, 0};
        st = tendon_spring_chain_sample_batch_status_on(k, LINKS, 4, TENDON_SPRING_LOOKBACK_SEED,
                                                        status_cb, &b, 0.5, TENDON_SPRING_MAX_WORK,
                                                        N, ws, bytes, bout, 12 * N);
        ck_assert_int_eq(st, TENDON_ERR_RANGE);
        ck_assert_uint_eq(b.calls, b.fail_at);
        for (int j = 0; j < 12 * N; ++j)
            ck_assert(bout[j] == -7.0f);
        free(ws);

        ck_assert(tendon_spring_batch_workspace_size(N, &bytes) == TENDON_OK);
        ws = malloc(bytes);
        sine_anchor sb = {N, 0, at[i] ? at[i] : calls, TENDON_ERR_COUNT, 0};
        st = tendon_spring_sample_batch_status_on(k, &s, TENDON_SPRING_LOOKBACK_SEED, status_cb,
                                                  &sb, 0.5, N, ws, bytes, bout);
        ck_assert_int_eq(st, TENDON_ERR_COUNT);
        ck_assert_uint_eq(sb.calls, sb.fail_at);
        for (int j = 0; j < 12 * N; ++j)
            ck_assert(bout[j] == -7.0f);
        free(ws);
    }
}
END_TEST

/* x steps from 0 to 1 at t = 0; y and z hold still. */
static tendon_status step_cb(void *user, double t, float *out)
{
    (void)user;
    out[0] = t < 0.0 ? 0.0f : 1.0f;
    out[1] = 0.5f;
    out[2] = -0.25f;
    return TENDON_OK;
}

START_TEST(slow_pole_lookback)
{
    const double f = 2.0, omega = (2.0 * TEST_PI) * f;
    /* below critical: the seed's, bit for bit */
    static const double under[4] = {1e-3, 0.35, 0.7, 0.999};
    for (int i = 0; i < 4; ++i) {
        const tendon_spring_settings s = {f, under[i], TENDON_SPRING_NO_LIMIT};
        double a, b;
        ck_assert(tendon_spring_settle_sec(&s, &a) == TENDON_OK);
        ck_assert(tendon_spring_settle_sec_lookback(&s, TENDON_SPRING_LOOKBACK_SLOW_POLE, &b) ==
                  TENDON_OK);
        ck_assert_msg(a == b, "damping %g: %.17g against the seed's %.17g", under[i], b, a);
        ck_assert(tendon_spring_settle_sec_lookback(&s, TENDON_SPRING_LOOKBACK_SEED, &b) ==
                  TENDON_OK);
        ck_assert(a == b);
    }
    /* the critical band: (1 + x)·e^(−x) = 1e-3 at x = 9.23341 */
    const tendon_spring_settings crit = {f, 1.0, TENDON_SPRING_NO_LIMIT};
    double l;
    ck_assert(tendon_spring_settle_sec_lookback(&crit, TENDON_SPRING_LOOKBACK_SLOW_POLE, &l) ==
              TENDON_OK);
    const double x = l * omega;
    ck_assert_msg(fabs((1.0 + x) * exp(-x) - 1e-3) < 1e-15, "ωL = %.17g", x);
    /* just above critical the double pole's root still holds; far above it the slow pole */
    const tendon_spring_settings near = {f, 1.001, TENDON_SPRING_NO_LIMIT};
    ck_assert(tendon_spring_settle_sec_lookback(&near, TENDON_SPRING_LOOKBACK_SLOW_POLE, &l) ==
              TENDON_OK);
    ck_assert_msg(fabs(l * omega - x) < 1e-12, "ζ = 1.001: ωL = %.17g", l * omega);
    static const double over[3] = {1.5, 3.0, 10.0};
    for (int i = 0; i < 3; ++i) {
        const double z = over[i];
        const tendon_spring_settings s = {f, z, TENDON_SPRING_NO_LIMIT};
        ck_assert(tendon_spring_settle_sec_lookback(&s, TENDON_SPRING_LOOKBACK_SLOW_POLE, &l) ==
                  TENDON_OK);
        const double slow = omega * (z - sqrt(z * z - 1.0));
        ck_assert_msg(fabs(l * slow / 6.907755278982137 - 1.0) < 1e-12, "ζ = %g: L = %.17g", z, l);
    }
    /* a step leaving the window: the sample just before and just after the lookback differ by
       about the tolerance, not by 0.0086 … 0.97 as with the seed's (test_spring_props.c) */
    static const double zetas[4] = {1.0, 1.5, 3.0, 10.0};
    for (int i = 0; i < 4; ++i) {
        const tendon_spring_settings s = {f, zetas[i], TENDON_SPRING_NO_LIMIT};
        ck_assert(tendon_spring_settle_sec_lookback(&s, TENDON_SPRING_LOOKBACK_SLOW_POLE, &l) ==
                  TENDON_OK);
        float fb[3], fa[3];
        ck_assert(tendon_spring_sample_status(&s, TENDON_SPRING_LOOKBACK_SLOW_POLE, step_cb, NULL,
                                              l * (1.0 - 1e-9), fb) == TENDON_OK);
        ck_assert(tendon_spring_sample_status(&s, TENDON_SPRING_LOOKBACK_SLOW_POLE, step_cb, NULL,
                                              l * (1.0 + 1e-9), fa) == TENDON_OK);
        const double jump = (double)fa[0] - (double)fb[0];
        if (getenv("TENDON_TEST_VERBOSE"))
            printf("slow pole, damping %g: L = %.6g s, jump %.3g\n", zetas[i], l, jump);
        ck_assert_msg(fa[0] == 1.0f && jump >= 0.0 && jump < 1.5e-3, "ζ = %g: jump %g", zetas[i],
                      jump);
    }
    /* chains: links all below critical keep the corrected root's lookback bit for bit; an
       overdamped link makes it longer */
    double a, b;
    ck_assert(tendon_spring_chain_settle_sec_lookback(LINKS, 4, TENDON_SPRING_LOOKBACK_CORRECTED_ROOT,
                                                      &a) == TENDON_OK);
    ck_assert(tendon_spring_chain_settle_sec_lookback(LINKS, 4, TENDON_SPRING_LOOKBACK_SLOW_POLE,
                                                      &b) == TENDON_OK);
    ck_assert(a == b);
    tendon_spring_link heavy[4];
    memcpy(heavy, LINKS, sizeof heavy);
    heavy[2].damping = 3.0;
    ck_assert(tendon_spring_chain_settle_sec_lookback(heavy, 4, TENDON_SPRING_LOOKBACK_SEED, &a) ==
              TENDON_OK);
    ck_assert(tendon_spring_chain_settle_sec_lookback(heavy, 4, TENDON_SPRING_LOOKBACK_SLOW_POLE,
                                                      &b) == TENDON_OK);
    /* the ζ = 3 link (1.9 Hz) now decays at its slow pole 2.05/s, below the others' ~6/s */
    ck_assert_msg(b > 2.5 * a && b < 3.5 * a, "seed %g, slow pole %g", a, b);
    /* an unknown setting, refused by name before anything else */
    const tendon_spring_settings s = {f, 0.35, TENDON_SPRING_NO_LIMIT};
    float out[3];
    ck_assert_int_eq(tendon_spring_settle_sec_lookback(&s, (tendon_spring_lookback)7, &a),
                     TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "lookback is 7"));
    ck_assert_int_eq(tendon_spring_sample_status(&s, (tendon_spring_lookback)3, step_cb, NULL, 0.0,
                                                 out),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_spring_chain_sample_status(LINKS, 4, (tendon_spring_lookback)-1,
                                                       step_cb, NULL, 0.0, TENDON_SPRING_MAX_WORK,
                                                       NULL, 0, out, 3),
                     TENDON_ERR_COUNT); /* out too small comes first, as in the seed's order */
    float cout[12];
    ck_assert_int_eq(tendon_spring_chain_sample_status(LINKS, 4, (tendon_spring_lookback)-1,
                                                       step_cb, NULL, 0.0, TENDON_SPRING_MAX_WORK,
                                                       NULL, 0, cout, 12),
                     TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "not a tendon_spring_lookback"));
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("spring_status");
    TCase *tc = tcase_create("status");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_forms_equal_plain_forms, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, failing_anchor_stops_the_sample, 0, TENDON_ISA_COUNT);
    tcase_add_test(tc, slow_pole_lookback);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/*
 * A guard against a compiler defect, not a test of tendon's code: GCC 12.2 (Debian 12.2.0-14) at
 * -O2 miscompiles `f = (float)x; … (double)f` when its SLP vectoriser packs a three-element loop
 * into a vector: the widened value is the *unrounded* double. Every scalar reference in tendon
 * rounds to float and back in exactly such loops (the seed's float32 scratch, the chain clamp),
 * so the project builds with -fno-tree-slp-vectorize under GCC (CMakeLists.txt). This suite is
 * compiled with the project's flags: if those flags stop protecting it, it fails.
 * (Found while porting the spring chain clamp: docs/springs.md has the original reproducer.)
 */
#include "support.h"

__attribute__((noinline)) static void sample_anchor(double t, double out[3])
{
    out[0] = 0.1 * t;
    out[1] = 0.2 * t;
    out[2] = 0.3 * t;
}

/* The pattern: positions accumulated from float-rounded anchor samples, axis by axis. */
__attribute__((noinline)) static void accumulate(double result[3])
{
    double v[3], pos[3];
    float prev[3];
    sample_anchor(1.0, v);
    for (int k = 0; k < 3; ++k) {
        prev[k] = (float)v[k];
        pos[k] = prev[k];
    }
    for (int n = 0; n < 3; ++n) {
        sample_anchor(2.0, v);
        for (int k = 0; k < 3; ++k) {
            const float cur = (float)v[k];
            pos[k] = pos[k] + (cur - prev[k]);
            prev[k] = cur;
        }
    }
    for (int k = 0; k < 3; ++k)
        result[k] = pos[k];
}

START_TEST(test_float_round_trip_survives_optimisation)
{
    double got[3];
    accumulate(got);
    /* The same arithmetic with every rounding forced through a volatile float: */
    static const double scale[3] = {0.1, 0.2, 0.3};
    for (int k = 0; k < 3; ++k) {
        const volatile float at1 = (float)(scale[k] * 1.0), at2 = (float)(scale[k] * 2.0);
        double pos = (double)at1;
        float prev = at1;
        for (int n = 0; n < 3; ++n) {
            const float cur = at2;
            pos = pos + (double)(cur - prev);
            prev = cur;
        }
        ck_assert_msg(got[k] == pos,
                      "axis %d: the optimised loop gives %.17g, the float-rounded arithmetic %.17g "
                      "(a compiler dropped a (double)(float) rounding: check -fno-tree-slp-vectorize)",
                      k, got[k], pos);
    }
    /* and by hand: (double)(float)0.2 = 0.20000000298023224, the first step's value */
    ck_assert_msg(got[0] == (double)0.20000000298023224f, "axis 0: %.17g", got[0]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compiler_guard");
    TCase *tc = tcase_create("rounding");
    tcase_add_test(tc, test_float_round_trip_survives_optimisation);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

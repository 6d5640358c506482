/*
 * The seed's chain roots read from a table (src/common/spring_seed_roots.h): the lookback of a
 * chain of up to TENDON_SPRING_SEED_ROOTS links under TENDON_SPRING_LOOKBACK_SEED takes the
 * seed's root from the table instead of bisecting 64 times per call. The table is the
 * bisection's own output, so:
 *
 * - every entry equals tendon_spring_seed_cascade_root_bisect(count) bit for bit (the function
 *   the table replaces, still used above the table's last count);
 * - the public lookback (tendon_spring_chain_settle_sec, and the chain sample's own, through
 *   its anchor times) equals root / σ with the bisected root, below, at and above the table's
 *   end;
 * - the seed's own values for the counts its corpus has are checked by test_spring_seed
 *   (tests/data/seed/settle.json, computed by node: an independent oracle for the entries).
 *
 * `test_spring_seed_roots --print-table` prints the header from the bisection (how it is made:
 * `build/tests/test_spring_seed_roots --print-table > src/common/spring_seed_roots.h`).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <tendon/tendon.h>

#include "common/spring_internal.h"
#include "common/spring_seed_roots.h"
#include "support.h"

#define PRINT_COUNT 128 /* the table the header holds */

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

START_TEST(every_entry_is_the_bisection)
{
    ck_assert_int_eq(TENDON_SPRING_SEED_ROOTS, PRINT_COUNT);
    for (size_t n = 1; n <= TENDON_SPRING_SEED_ROOTS; ++n) {
        const double want = tendon_spring_seed_cascade_root_bisect(n);
        ck_assert_msg(bits_of(tendon_spring_seed_roots[n - 1]) == bits_of(want),
                      "%zu links: table %a, bisection %a (regenerate the header: "
                      "test_spring_seed_roots --print-table)",
                      n, tendon_spring_seed_roots[n - 1], want);
    }
    /* not vacuous: the roots grow with the count (one more stage of the cascade to decay) */
    for (size_t n = 2; n <= TENDON_SPRING_SEED_ROOTS; ++n)
        ck_assert(tendon_spring_seed_roots[n - 1] > tendon_spring_seed_roots[n - 2]);
    /* one link: the survival is e^(−x), its root −ln(1e-3) = 6.9077552789821368 to ~1e-15 */
    ck_assert(fabs(tendon_spring_seed_roots[0] - 6.9077552789821368) < 1e-14);
}
END_TEST

/* The public lookback of n links at ζ 0.5, 1 Hz (σ = ((0.5·2)·π)·1 = π): root / π, with the
   bisected root, inside the table, at its end and past it. */
START_TEST(the_lookback_uses_the_seed_root)
{
    static const size_t counts[] = {1, 2, 3, 4, 7, 16, 17, 64, 127, 128, 129, 200};
    tendon_spring_link links[200];
    for (size_t i = 0; i < 200; ++i)
        links[i] = (tendon_spring_link){.frequency_hz = 1.0, .damping = 0.5, .max_offset_m = 1.0, .rest_offset_m = {0, 0, 0}};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const size_t n = counts[c];
        double got = 0.0;
        ck_assert_int_eq(tendon_spring_chain_settle_sec(links, n, &got), TENDON_OK);
        const double want = tendon_spring_seed_cascade_root_bisect(n) / 3.141592653589793;
        ck_assert_msg(bits_of(got) == bits_of(want), "%zu links: lookback %a, want %a", n, got,
                      want);
        double seed_setting = 0.0;
        ck_assert_int_eq(tendon_spring_chain_settle_sec_lookback(links, n,
                                                                 TENDON_SPRING_LOOKBACK_SEED,
                                                                 &seed_setting),
                         TENDON_OK);
        ck_assert(bits_of(seed_setting) == bits_of(want));
    }
}
END_TEST

/* The chain sample asks its anchor first at time − lookback: the table's root reaches the march. */
typedef struct first_time {
    int calls;
    double first;
} first_time;

static void record_first(void *user, double time_sec, float *out)
{
    first_time *f = user;
    if (f->calls++ == 0)
        f->first = time_sec;
    out[0] = out[1] = out[2] = 0.0f;
}

START_TEST(the_chain_sample_marches_from_the_seed_lookback)
{
    tendon_spring_link links[5];
    for (size_t i = 0; i < 5; ++i)
        links[i] = (tendon_spring_link){.frequency_hz = 2.0, .damping = 0.5, .max_offset_m = 1.0, .rest_offset_m = {0, -0.1, 0}};
    float out[15];
    first_time f = {0, 0.0};
    const double time_sec = 3.0;
    ck_assert_int_eq(tendon_spring_chain_sample(links, 5, record_first, &f, time_sec, NULL, 0,
                                                out, 15),
                     TENDON_OK);
    /* σ = ((0.5·2)·π)·2 = 2π */
    const double lookback = tendon_spring_seed_cascade_root_bisect(5) / (3.141592653589793 * 2.0);
    ck_assert_msg(bits_of(f.first) == bits_of(time_sec - lookback), "first anchor time %a, want %a",
                  f.first, time_sec - lookback);
}
END_TEST

static int print_table(void)
{
    printf("/*\n"
           " * The seed's chain roots, TENDON_SPRING_LOOKBACK_SEED (src/spring.c, seed_cascade_root):\n"
           " * entry n − 1 is the root x of e^(−x)·Σ_{k<n} x^k/k! = 1e-3 for a chain of n links as the\n"
           " * seed's 64 bisections find it, bit for bit. Made by the bisection itself:\n"
           " *   build/tests/test_spring_seed_roots --print-table > src/common/spring_seed_roots.h\n"
           " * and checked entry by entry by that suite. Do not edit by hand.\n"
           " */\n"
           "#ifndef TENDON_SPRING_SEED_ROOTS_H\n"
           "#define TENDON_SPRING_SEED_ROOTS_H\n\n"
           "#define TENDON_SPRING_SEED_ROOTS %d\n\n"
           "static const double tendon_spring_seed_roots[TENDON_SPRING_SEED_ROOTS] = {\n",
           PRINT_COUNT);
    for (size_t n = 1; n <= PRINT_COUNT; ++n)
        printf("    %a, /* %zu */\n", tendon_spring_seed_cascade_root_bisect(n), n);
    printf("};\n\n#endif\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-table") == 0)
        return print_table();
    Suite *s = suite_create("spring_seed_roots");
    TCase *tc = tcase_create("roots");
    tcase_add_test(tc, every_entry_is_the_bisection);
    tcase_add_test(tc, the_lookback_uses_the_seed_root);
    tcase_add_test(tc, the_chain_sample_marches_from_the_seed_lookback);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

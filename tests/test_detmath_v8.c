/*
 * src/common/detmath_v8.h against node 20.20.2 (V8 11.3) itself, bit for bit: the table
 * tests/data/v8_math.txt, written by tools/v8-math-table.js under that node, holds
 *   - edge inputs one by one (±0, ±∞, NaN, subnormals, the branch thresholds of every function,
 *     multiples of π/2, huge arguments, each with its neighbours one ulp either side), and
 *   - hashes of the results of COUNT inputs per distribution (any bit pattern, log-uniform over
 *     binades, uniform ranges, subnormals, k·π/2 ± 8 ulps for k < 2^20 and < 2^50, huge
 *     arguments up to DBL_MAX; triples for hypot), drawn here by the same splitmix64 generator.
 * Any differing result fails: an edge line names its input; a hash line names its distribution,
 * and the first input of it where tendon's result differs from tendon's own… cannot be named
 * without node, so the test prints the distribution and how to regenerate (see the tool).
 * NaN results are compared as NaN (sign and payload are not promised: docs/determinism.md).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/detmath_v8.h"
#include "support.h"

static uint64_t bits_of(double x) { return tendon_v8_bits(x); }
static double from(uint64_t b) { return tendon_v8_from_bits(b); }

typedef struct { uint64_t s; } rng_t;
static uint64_t rng_next(rng_t *r)
{
    r->s += UINT64_C(0x9E3779B97F4A7C15);
    uint64_t z = r->s;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The distributions of tools/v8-math-table.js, by name. */
static int draw(const char *dist, uint64_t r, double *out)
{
    int lo, hi;
    double a, b;
    unsigned kb;
    if (strcmp(dist, "bits") == 0) {
        *out = from(r);
    } else if (strcmp(dist, "subnormal") == 0) {
        *out = from(r & UINT64_C(0x800FFFFFFFFFFFFF));
    } else if (sscanf(dist, "log%d_%d", &lo, &hi) == 2) {
        const int64_t e = lo + (int64_t)((r >> 52) % (uint64_t)(hi - lo + 1));
        *out = from((r & (UINT64_C(1) << 63)) | ((uint64_t)(e + 1023) << 52) |
                    (r & UINT64_C(0xFFFFFFFFFFFFF)));
    } else if (sscanf(dist, "u%lf_%lf", &a, &b) == 2) {
        *out = a + (b - a) * ((double)(r >> 11) * 0x1p-53);
    } else if (sscanf(dist, "pio2k%u", &kb) == 1) {
        const double k = (double)((r >> 8) & ((UINT64_C(1) << kb) - 1)) + 1.0;
        const int64_t d = (int64_t)(r & 15) - 8;
        const double x = k * (0x1.921fb54442d18p+1 / 2.0);
        *out = from((uint64_t)((int64_t)bits_of(x) + d)) * ((r >> 63) ? -1.0 : 1.0);
    } else {
        return 0;
    }
    return 1;
}

static double call1(const char *f, double x)
{
    if (strcmp(f, "exp") == 0) return tendon_v8_exp(x);
    if (strcmp(f, "sin") == 0) return tendon_v8_sin(x);
    if (strcmp(f, "cos") == 0) return tendon_v8_cos(x);
    if (strcmp(f, "sinh") == 0) return tendon_v8_sinh(x);
    if (strcmp(f, "cosh") == 0) return tendon_v8_cosh(x);
    ck_abort_msg("v8_math.txt: unknown function %s", f);
    return 0.0;
}

static uint64_t fnv(uint64_t h, double x)
{
    uint64_t b = x != x ? UINT64_C(0x7FF8000000000000) : bits_of(x);
    for (int i = 0; i < 8; ++i) {
        h ^= b & 0xFF;
        h *= UINT64_C(0x100000001B3);
        b >>= 8;
    }
    return h;
}

static int same(double got, double want)
{
    return (got != got && want != want) || bits_of(got) == bits_of(want);
}

START_TEST(matches_node_bit_for_bit)
{
    size_t size;
    char *text = read_test_file("v8_math.txt", &size);
    size_t edges = 0, drawn = 0, hashes = 0, failures = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char f[16], dist[32];
        uint64_t a, b, c, d, count, seed, want;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "edge hypot %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64, &a, &b, &c,
                   &d) == 4) {
            const double got = tendon_v8_hypot3(from(a), from(b), from(c));
            ++edges;
            if (!same(got, from(d))) {
                ++failures;
                printf("hypot(%a, %a, %a) = %a, node %a\n", from(a), from(b), from(c), got,
                       from(d));
            }
        } else if (sscanf(line, "edge %15s %" SCNx64 " %" SCNx64, f, &a, &b) == 3) {
            const double got = call1(f, from(a));
            ++edges;
            if (!same(got, from(b))) {
                ++failures;
                printf("%s(%a) = %a, node %a\n", f, from(a), got, from(b));
            }
        } else if (sscanf(line, "hash %15s %31s %" SCNu64 " %" SCNu64 " %" SCNx64, f, dist,
                          &count, &seed, &want) == 5) {
            rng_t r = {seed};
            uint64_t h = UINT64_C(0xCBF29CE484222325);
            for (uint64_t i = 0; i < count; ++i) {
                double x[3];
                if (strcmp(f, "hypot") == 0) {
                    for (int k = 0; k < 3; ++k)
                        ck_assert(draw(dist, rng_next(&r), &x[k]));
                    const unsigned sel = (unsigned)(rng_next(&r) & 7);
                    h = fnv(h, tendon_v8_hypot3(sel == 1 ? 0.0 : x[0], sel == 2 ? -0.0 : x[1],
                                                sel == 3 ? 0.0 : x[2]));
                } else {
                    ck_assert_msg(draw(dist, rng_next(&r), &x[0]), "unknown distribution %s",
                                  dist);
                    h = fnv(h, call1(f, x[0]));
                }
            }
            ++hashes;
            drawn += count;
            if (h != want) {
                ++failures;
                printf("%s over %s (%" PRIu64 " inputs, seed %" PRIu64 "): hash %016" PRIx64
                       ", node %016" PRIx64 "\n",
                       f, dist, count, seed, h, want);
            }
        } else {
            ck_abort_msg("v8_math.txt: unreadable line: %s", line);
        }
    }
    free(text);
    printf("measured: %zu edge inputs one by one, %zu hashed draws over %zu distributions; "
           "%zu differ from node 20.20.2\n",
           edges, drawn, hashes, failures);
    ck_assert_uint_eq(failures, 0);
    ck_assert_uint_ge(edges, 600);
    ck_assert_uint_ge(drawn, 1000000);
}
END_TEST

/* The table must be able to fail: one ulp off in one result changes its hash. */
START_TEST(one_ulp_changes_the_hash)
{
    uint64_t h1 = UINT64_C(0xCBF29CE484222325), h2 = h1;
    h1 = fnv(h1, tendon_v8_sin(1.0));
    h2 = fnv(h2, from(bits_of(tendon_v8_sin(1.0)) + 1));
    ck_assert(h1 != h2);
}
END_TEST

/* Values fixed by IEEE or by V8's documented special cases, independent of the table. */
START_TEST(special_values)
{
    ck_assert(tendon_v8_exp(1.0) == 0x1.5bf0a8b145769p+1);
    ck_assert(tendon_v8_exp(0.0) == 1.0 && tendon_v8_exp(-INFINITY) == 0.0);
    ck_assert(isinf(tendon_v8_exp(710.0)) && tendon_v8_exp(-746.0) == 0.0);
    ck_assert(signbit(tendon_v8_sin(-0.0)) && tendon_v8_sin(-0.0) == 0.0);
    ck_assert(signbit(tendon_v8_sinh(-0.0)) && tendon_v8_cos(-0.0) == 1.0);
    ck_assert(isnan(tendon_v8_sin(INFINITY)) && isnan(tendon_v8_cos(-INFINITY)));
    ck_assert(isnan(tendon_v8_sinh(NAN)) && isnan(tendon_v8_cosh(NAN)));
    ck_assert(tendon_v8_cosh(-INFINITY) == INFINITY && tendon_v8_sinh(-INFINITY) == -INFINITY);
    ck_assert(tendon_v8_hypot3(3.0, 4.0, 0.0) == 5.0);
    ck_assert(tendon_v8_hypot3(NAN, INFINITY, 0.0) == INFINITY);
    ck_assert(isnan(tendon_v8_hypot3(NAN, 1.0, 0.0)));
    ck_assert(tendon_v8_hypot3(0x1p1000, 0x1p1000, 0.0) == 0x1.6a09e667f3bcdp+1000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("detmath_v8");
    TCase *tc = tcase_create("node");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, matches_node_bit_for_bit);
    tcase_add_test(tc, one_ulp_changes_the_hash);
    tcase_add_test(tc, special_values);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

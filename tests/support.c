#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

void rng_seed(test_rng *r, uint64_t seed) { r->state = seed ? seed : 0x9E3779B97F4A7C15ull; }

uint64_t rng_u64(test_rng *r)
{
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

double rng_unit(test_rng *r) { return (double)(rng_u64(r) >> 11) * (1.0 / 9007199254740992.0); }

double rng_range(test_rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

void rng_unit_quat(test_rng *r, float q[4])
{
    double v[4], len2;
    do {
        len2 = 0.0;
        for (int c = 0; c < 4; ++c) {
            v[c] = rng_range(r, -1.0, 1.0);
            len2 += v[c] * v[c];
        }
    } while (len2 > 1.0 || len2 < 1e-4);
    const double len = sqrt(len2);
    for (int c = 0; c < 4; ++c)
        q[c] = (float)(v[c] / len);
}

uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

void expect_misaligned(tendon_status st, const char *call, const char *name)
{
    ck_assert_msg(st == TENDON_ERR_VALUE, "%s with a misaligned %s returned %s (%s)", call, name,
                  tendon_status_name(st), tendon_error_message());
    ck_assert_msg(strstr(tendon_error_message(), call) && strstr(tendon_error_message(), name) &&
                      strstr(tendon_error_message(), "aligned"),
                  "%s: the message \"%s\" does not name %s and the alignment", call,
                  tendon_error_message(), name);
}

int64_t float_ulp_distance(float a, float b)
{
    const uint32_t ua = float_bits(a), ub = float_bits(b);
    if (ua == ub)
        return 0;
    if (!isfinite(a) || !isfinite(b) || (ua >> 31) != (ub >> 31))
        return -1;
    return ua > ub ? (int64_t)(ua - ub) : (int64_t)(ub - ua);
}

int same_float(float a, float b)
{
    if (a != a || b != b)
        return a != a && b != b;
    return float_bits(a) == float_bits(b);
}

long first_float_diff(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!same_float(a[i], b[i]))
            return (long)i;
    return -1;
}

const tendon_kernels *isa_table_or_skip(int isa)
{
    const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
    if (!k)
        fprintf(stderr, "  [skip] ISA %s cannot run here (%s)\n", tendon_isa_name((tendon_isa)isa),
                tendon_isa_compiled((tendon_isa)isa) == TENDON_ISA_ABSENT ? "not compiled"
                                                                          : "not supported by this CPU");
    return k;
}

char *read_test_file(const char *relative, size_t *size_out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TENDON_TEST_DATA_DIR, relative);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open test data %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    buf[size] = '\0';
    fclose(f);
    if (size_out)
        *size_out = (size_t)size;
    return buf;
}

int env_isa_unusable(void)
{
    const char *env = getenv("TENDON_ISA");
    tendon_isa isa;
    if (!env || !*env)
        return 0;
    if (tendon_isa_from_name(env, &isa) != TENDON_OK)
        return 0; /* an unknown name is the suite's own business to test */
    if (!tendon_isa_supported(isa)) {
        fprintf(stderr, "TENDON_ISA=%s cannot run on this machine: skipping\n", env);
        return 1;
    }
    return 0;
}

int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

json_t *test_bug_case(const char *id)
{
    static json_t *bugs; /* each suite process reads it once; Check forks after that is fine */
    if (!bugs) {
        char *text = read_test_file("bugs/bugs.json", NULL);
        json_error_t err;
        bugs = json_loads(text, JSON_DECODE_INT_AS_REAL, &err);
        free(text);
        ck_assert_msg(bugs != NULL, "bugs.json: %s at line %d", err.text, err.line);
    }
    size_t i;
    json_t *c;
    json_array_foreach (bugs, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
            return c;
    }
    ck_abort_msg("bug case %s not found in bugs.json", id);
    return NULL;
}

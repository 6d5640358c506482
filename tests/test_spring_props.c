/*
 * Properties of tendon/spring.h beyond the seed's cases:
 *   - every ISA (emulated ones included) bitwise equal to the scalar table for single springs,
 *     chains, spring batches of 0–67 springs and chain batches, with unaligned workspaces and
 *     outputs; batch results bitwise equal to the single-spring / single-chain calls;
 *   - the whole pipeline bitwise equal to the seed's algorithm written out plainly with tendon's
 *     coefficients (tests/spring_support.h), and within tolerance of the seed's arithmetic with
 *     libm (the oracle);
 *   - purity: forward, backward and shuffled sampling orders, interleaved with other springs,
 *     give identical bits; two threads sampling at once give identical bits;
 *   - frame-rate independence: 24, 30, 60 and 144 fps timelines agree exactly at shared times;
 *   - extreme settings: damping 1e-4 (351,810 substeps, counted), damping too light to march
 *     (refused), frequencies 1e-6 and 1e6 Hz, time 1e7 s, an infinite frequency, a chain link
 *     stiff enough that the seed's arithmetic is 0·∞;
 *   - argument errors (NULL, workspace size, aliasing, empty batches).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/spring_internal.h"
#include "spring_support.h"
#include "support.h"

/* ---- random springs, anchors, chains -------------------------------------------------------- */

static void random_anchor(test_rng *r, test_anchor *a)
{
    memset(a, 0, sizeof *a);
    const double pick = rng_unit(r);
    if (pick < 0.6) {
        a->kind = ANCHOR_SINE;
        for (int k = 0; k < 3; ++k) {
            a->amplitude[k] = rng_range(r, -1.0, 1.0);
            a->center[k] = rng_range(r, -2.0, 2.0);
        }
        a->frequency_hz = rng_range(r, 0.1, 6.0);
        a->phase = rng_range(r, -3.0, 3.0);
    } else if (pick < 0.8) {
        a->kind = ANCHOR_LINEAR;
        for (int k = 0; k < 3; ++k) {
            a->origin[k] = rng_range(r, -2.0, 2.0);
            a->velocity[k] = rng_range(r, -3.0, 3.0);
        }
    } else {
        a->kind = ANCHOR_STEP;
        a->at = rng_range(r, -1.0, 3.0);
        for (int k = 0; k < 3; ++k) {
            a->from[k] = rng_range(r, -1.0, 1.0);
            a->to[k] = rng_range(r, -1.0, 1.0);
        }
    }
}

static void random_settings(test_rng *r, tendon_spring_settings *s)
{
    s->frequency_hz = rng_range(r, 0.3, 12.0);
    const double pick = rng_unit(r);
    s->damping = pick < 0.1 ? 1.0 : pick < 0.15 ? 1.0 + 1e-13 : rng_range(r, 0.05, 3.0);
    s->max_offset_m = rng_unit(r) < 0.3 ? rng_range(r, 0.0, 0.3) : TENDON_SPRING_NO_LIMIT;
}

static void random_link(test_rng *r, tendon_spring_link *l)
{
    tendon_spring_settings s;
    random_settings(r, &s);
    l->frequency_hz = s.frequency_hz;
    l->damping = s.damping;
    l->max_offset_m = s.max_offset_m;
    for (int k = 0; k < 3; ++k)
        l->rest_offset_m[k] = rng_range(r, -0.2, 0.2);
}

/* A batch of anchors, one test_anchor per spring (or chain root). */
typedef struct batch_anchor {
    const test_anchor *anchors;
    size_t count;
    size_t calls;
} batch_anchor;

static void batch_anchor_cb(void *user, double t, float *out)
{
    batch_anchor *b = (batch_anchor *)user;
    b->calls++;
    for (size_t g = 0; g < b->count; ++g) {
        double v[3];
        test_anchor_eval(&b->anchors[g], t, v);
        for (int k = 0; k < 3; ++k)
            out[3 * g + k] = test_f32(v[k]);
    }
}

static void one_anchor_cb(void *user, double t, float *out)
{
    double v[3];
    test_anchor_eval((const test_anchor *)user, t, v);
    for (int k = 0; k < 3; ++k)
        out[k] = test_f32(v[k]);
}

static void expect_same(const float *a, const float *b, size_t n, const char *what, int isa,
                        uint64_t seed)
{
    const long d = first_float_diff(a, b, n);
    ck_assert_msg(d < 0, "%s on %s (seed %llu): [%ld] 0x%08x vs scalar 0x%08x", what,
                  tendon_isa_name((tendon_isa)isa), (unsigned long long)seed, d,
                  d >= 0 ? float_bits(a[d]) : 0u, d >= 0 ? float_bits(b[d]) : 0u);
}

/* ---- every ISA against scalar --------------------------------------------------------------- */

START_TEST(single_and_chain_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *scalar = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    const uint64_t seed = 0x5EED0001u + (uint64_t)_i;
    rng_seed(&r, seed);
    for (int trial = 0; trial < 60; ++trial) {
        tendon_spring_settings s;
        random_settings(&r, &s);
        test_anchor a;
        random_anchor(&r, &a);
        const double t = rng_range(&r, -3.0, 10.0);
        float mine[3], ref[3];
        ck_assert(tendon_spring_sample_on(k, &s, one_anchor_cb, &a, t, mine) == TENDON_OK);
        ck_assert(tendon_spring_sample_on(scalar, &s, one_anchor_cb, &a, t, ref) == TENDON_OK);
        expect_same(mine, ref, 3, "single spring", _i, seed);

        tendon_spring_link links[9];
        const size_t n = 1 + (size_t)(rng_u64(&r) % 9);
        for (size_t i = 0; i < n; ++i)
            random_link(&r, &links[i]);
        float cm[27], cr[27];
        ck_assert(tendon_spring_chain_sample_on(k, links, n, one_anchor_cb, &a, t, NULL, 0, cm,
                                                27) == TENDON_OK);
        ck_assert(tendon_spring_chain_sample_on(scalar, links, n, one_anchor_cb, &a, t, NULL, 0,
                                                cr, 27) == TENDON_OK);
        expect_same(cm, cr, 3 * n, "chain", _i, seed);
    }
}
END_TEST

/* Batches of 0–67 springs on every ISA: equal to one scalar single-spring call per spring. */
START_TEST(spring_batches_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *scalar = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    const uint64_t seed = 0xBA7C0000u + (uint64_t)_i;
    rng_seed(&r, seed);
    enum { MAX = 67 };
    test_anchor anchors[MAX];
    for (size_t g = 0; g < MAX; ++g)
        random_anchor(&r, &anchors[g]);
    size_t bytes;
    ck_assert(tendon_spring_batch_workspace_size(MAX, &bytes) == TENDON_OK);
    unsigned char *space = malloc(bytes + 64);
    float *out_space = malloc((3 * MAX + 2) * sizeof(float));
    ck_assert(space && out_space);
    for (size_t count = 0; count <= MAX; ++count) {
        tendon_spring_settings s;
        random_settings(&r, &s);
        const double t = rng_range(&r, -2.0, 6.0);
        size_t need;
        ck_assert(tendon_spring_batch_workspace_size(count, &need) == TENDON_OK);
        /* unaligned on purpose: the workspace at an odd byte, out one float past alignment */
        void *ws = space + 1 + count % 7;
        float *out = out_space + 1;
        memset(ws, 0xA5, need);
        for (size_t i = 0; i < 3 * MAX + 1; ++i)
            out[i] = -99.0f;
        batch_anchor b = {anchors, count, 0};
        ck_assert_msg(tendon_spring_sample_batch_on(k, &s, batch_anchor_cb, &b, t, count, ws, need,
                                                    out) == TENDON_OK,
                      "%s", tendon_error_message());
        for (size_t g = 0; g < count; ++g) {
            float one[3];
            ck_assert(tendon_spring_sample_on(scalar, &s, one_anchor_cb, (void *)&anchors[g], t,
                                              one) == TENDON_OK);
            char what[64];
            snprintf(what, sizeof what, "batch of %zu, spring %zu", count, g);
            expect_same(&out[3 * g], one, 3, what, _i, seed);
        }
        ck_assert_msg(out[3 * count] == -99.0f, "batch of %zu wrote past out", count);
        double settle;
        ck_assert(tendon_spring_settle_sec(&s, &settle) == TENDON_OK);
        if (count > 0) {
            const double steps = ceil((settle * s.frequency_hz) * 32.0);
            ck_assert_msg(b.calls == (size_t)steps + 2, "batch of %zu: %zu anchor calls, not %g",
                          count, b.calls, steps + 2);
        } else {
            ck_assert_uint_eq(b.calls, 0);
        }
    }
    free(space);
    free(out_space);
}
END_TEST

/* Chain batches (1–13 chains of 1–6 links) on every ISA: equal to scalar single chains. */
START_TEST(chain_batches_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *scalar = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    const uint64_t seed = 0xC4A10000u + (uint64_t)_i;
    rng_seed(&r, seed);
    test_anchor anchors[13];
    for (size_t c = 0; c < 13; ++c)
        random_anchor(&r, &anchors[c]);
    for (size_t chains = 1; chains <= 13; ++chains) {
        tendon_spring_link links[6];
        const size_t n = 1 + (size_t)(rng_u64(&r) % 6);
        for (size_t i = 0; i < n; ++i)
            random_link(&r, &links[i]);
        const double t = rng_range(&r, -2.0, 6.0);
        size_t need;
        ck_assert(tendon_spring_chain_workspace_size(n, chains, &need) == TENDON_OK);
        unsigned char *space = malloc(need + 8);
        float *out = malloc(3 * n * chains * sizeof(float) + 4);
        ck_assert(space && out);
        batch_anchor b = {anchors, chains, 0};
        ck_assert_msg(tendon_spring_chain_sample_batch_on(k, links, n, batch_anchor_cb, &b, t,
                                                          chains, space + 3, need,
                                                          out, 3 * n * chains) == TENDON_OK,
                      "%s", tendon_error_message());
        for (size_t c = 0; c < chains; ++c) {
            float one[18];
            ck_assert(tendon_spring_chain_sample_on(scalar, links, n, one_anchor_cb,
                                                    (void *)&anchors[c], t, NULL, 0, one,
                                                    18) == TENDON_OK);
            char what[64];
            snprintf(what, sizeof what, "%zu chains of %zu links, chain %zu", chains, n, c);
            expect_same(&out[3 * n * c], one, 3 * n, what, _i, seed);
        }
        free(space);
        free(out);
    }
}
END_TEST

/* ---- against the seed's algorithm ----------------------------------------------------------- */

/* The seed's sampleSpring with tendon's coefficients and 1/step: tendon's bits exactly. */
static void reference_sample_spring(const tendon_spring_settings *s, const test_anchor *a,
                                    double time, double out64[3])
{
    double lookback;
    ck_assert(tendon_spring_settle_sec(s, &lookback) == TENDON_OK);
    const double wanted = ceil((lookback * s->frequency_hz) * 32.0);
    const size_t steps = wanted < 1 ? 1 : (size_t)wanted;
    const double step = lookback / (double)steps, inv_step = 1.0 / step;
    tendon_spring_coeffs c;
    tendon_spring_transition(s->frequency_hz, s->damping, step, &c);
    const double start = time - lookback;
    double v[3], pos[3], vel[3] = {0, 0, 0};
    float prev[3], cur[3];
    test_anchor_eval(a, start, v);
    for (int k = 0; k < 3; ++k) {
        prev[k] = test_f32(v[k]);
        pos[k] = prev[k];
    }
    for (size_t n = 1; n <= steps; ++n) {
        test_anchor_eval(a, start + (double)n * step, v);
        for (int k = 0; k < 3; ++k) {
            cur[k] = test_f32(v[k]);
            const double speed = ((double)cur[k] - (double)prev[k]) * inv_step;
            const double r = c.trail * speed;
            const double offset = (pos[k] - prev[k]) - r;
            const double relative = vel[k] - speed;
            pos[k] = ((c.c0 * offset + c.c1 * relative) + r) + cur[k];
            vel[k] = (c.c2 * offset + c.c3 * relative) + speed;
            prev[k] = cur[k];
        }
    }
    test_anchor_eval(a, time, v);
    const double anchor[3] = {test_f32(v[0]), test_f32(v[1]), test_f32(v[2])};
    oracle_clamp(s->max_offset_m, pos, anchor, out64);
}

START_TEST(matches_the_seed_algorithm)
{
    test_rng r;
    rng_seed(&r, 0xA1607u);
    int exact_vs_oracle = 0, total = 0;
    for (int trial = 0; trial < 200; ++trial) {
        tendon_spring_settings s;
        random_settings(&r, &s);
        test_anchor a;
        random_anchor(&r, &a);
        const double t = rng_range(&r, -3.0, 10.0);
        double got[3], want[3], oracle[3];
        ck_assert(tendon_spring_sample_f64(&s, one_anchor_cb, &a, t, got) == TENDON_OK);
        reference_sample_spring(&s, &a, t, want);
        oracle_sample_spring(&s, &a, t, oracle);
        for (int k = 0; k < 3; ++k) {
            ck_assert_msg(got[k] == want[k],
                          "trial %d: out64[%d] %.17g, the seed's algorithm %.17g", trial, k,
                          got[k], want[k]);
            ck_assert_msg(within_spring_tolerance((float)got[k], oracle[k]),
                          "trial %d: %.9g vs the libm oracle %.17g", trial, got[k], oracle[k]);
            exact_vs_oracle += (float)got[k] == (float)oracle[k];
            ++total;
        }

        tendon_spring_link links[8];
        const size_t n = 1 + (size_t)(rng_u64(&r) % 8);
        for (size_t i = 0; i < n; ++i)
            random_link(&r, &links[i]);
        double lookback;
        ck_assert(tendon_spring_chain_settle_sec(links, n, &lookback) == TENDON_OK);
        double fastest = 0;
        for (size_t i = 0; i < n; ++i)
            fastest = links[i].frequency_hz > fastest ? links[i].frequency_hz : fastest;
        const double wanted = ceil((lookback * fastest) * 32.0);
        const size_t steps = wanted < 1 ? 1 : (size_t)wanted;
        tendon_spring_coeffs coeffs[8];
        for (size_t i = 0; i < n; ++i)
            tendon_spring_transition(links[i].frequency_hz, links[i].damping,
                                     lookback / (double)steps, &coeffs[i]);
        float chain[24], ref[24];
        ck_assert(tendon_spring_chain_sample(links, n, one_anchor_cb, &a, t, NULL, 0, chain, 24) ==
                  TENDON_OK);
        reference_sample_chain(links, n, &a, t, lookback, steps, coeffs, ref);
        ck_assert_msg(first_float_diff(chain, ref, 3 * n) < 0,
                      "trial %d: the chain differs from the seed's algorithm", trial);
    }
    printf("single springs: %d of %d float outputs bit-equal to the libm oracle, all within "
           "2 ulp / 1e-6\n",
           exact_vs_oracle, total);
}
END_TEST

/* ---- purity --------------------------------------------------------------------------------- */

enum { PURITY_TIMES = 48 };

static void sample_all(const double *times, const size_t *order, float out[PURITY_TIMES][12])
{
    static const tendon_spring_settings s = {2.0, 0.35, 0.25};
    static const tendon_spring_link links[3] = {
        {3.0, 0.3, TENDON_SPRING_NO_LIMIT, {0.0, -0.1, 0.0}},
        {2.0, 0.5, 0.2, {0.0, -0.1, 0.05}},
        {1.5, 1.2, TENDON_SPRING_NO_LIMIT, {0.02, -0.1, 0.0}}};
    test_anchor a;
    memset(&a, 0, sizeof a);
    a.kind = ANCHOR_SINE;
    a.amplitude[0] = 0.3;
    a.amplitude[1] = 0.1;
    a.amplitude[2] = -0.2;
    a.center[1] = 1.5;
    a.frequency_hz = 1.3;
    a.phase = 0.4;
    for (size_t n = 0; n < PURITY_TIMES; ++n) {
        const size_t i = order[n];
        ck_assert(tendon_spring_sample(&s, one_anchor_cb, &a, times[i], out[i]) == TENDON_OK);
        ck_assert(tendon_spring_chain_sample(links, 3, one_anchor_cb, &a, times[i], NULL, 0,
                                             out[i] + 3, 9) == TENDON_OK);
    }
}

START_TEST(purity_any_order)
{
    double times[PURITY_TIMES];
    size_t forward[PURITY_TIMES], backward[PURITY_TIMES], shuffled[PURITY_TIMES];
    for (size_t i = 0; i < PURITY_TIMES; ++i) {
        times[i] = -1.0 + 0.173 * (double)i;
        forward[i] = i;
        backward[i] = PURITY_TIMES - 1 - i;
        shuffled[i] = i;
    }
    test_rng r;
    rng_seed(&r, 77);
    for (size_t i = PURITY_TIMES - 1; i > 0; --i) {
        const size_t j = (size_t)(rng_u64(&r) % (i + 1));
        const size_t tmp = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = tmp;
    }
    static float a[PURITY_TIMES][12], b[PURITY_TIMES][12], c[PURITY_TIMES][12];
    sample_all(times, forward, a);
    sample_all(times, backward, b);
    sample_all(times, shuffled, c);
    ck_assert(first_float_diff(&a[0][0], &b[0][0], PURITY_TIMES * 12) < 0);
    ck_assert(first_float_diff(&a[0][0], &c[0][0], PURITY_TIMES * 12) < 0);
    /* and the values move: a test of purity that sampled a constant would prove nothing */
    ck_assert(a[0][0] != a[PURITY_TIMES / 2][0] && a[0][4] != a[PURITY_TIMES / 2][4]);
}
END_TEST

typedef struct thread_job {
    const double *times;
    const size_t *order;
    float (*out)[12];
    size_t batch_count;
    float *batch_out;
} thread_job;

static const test_anchor *g_batch_anchors;

static void *thread_main(void *arg)
{
    thread_job *job = (thread_job *)arg;
    for (int round = 0; round < 3; ++round)
        sample_all(job->times, job->order, job->out);
    /* a batch with a workspace of its own */
    size_t need;
    tendon_spring_batch_workspace_size(job->batch_count, &need);
    void *ws = malloc(need);
    static const tendon_spring_settings s = {2.5, 0.4, TENDON_SPRING_NO_LIMIT};
    batch_anchor b = {g_batch_anchors, job->batch_count, 0};
    tendon_spring_sample_batch(&s, batch_anchor_cb, &b, 1.7, job->batch_count, ws, need,
                               job->batch_out);
    free(ws);
    return NULL;
}

START_TEST(purity_two_threads)
{
    double times[PURITY_TIMES];
    size_t forward[PURITY_TIMES], backward[PURITY_TIMES];
    for (size_t i = 0; i < PURITY_TIMES; ++i) {
        times[i] = 0.05 * (double)i;
        forward[i] = i;
        backward[i] = PURITY_TIMES - 1 - i;
    }
    test_anchor anchors[40];
    test_rng r;
    rng_seed(&r, 99);
    for (int g = 0; g < 40; ++g)
        random_anchor(&r, &anchors[g]);
    g_batch_anchors = anchors;
    static float alone[PURITY_TIMES][12], t1[PURITY_TIMES][12], t2[PURITY_TIMES][12];
    static float batch_alone[120], batch1[120], batch2[120];
    thread_job solo = {times, forward, alone, 40, batch_alone};
    thread_main(&solo);
    thread_job j1 = {times, forward, t1, 40, batch1}, j2 = {times, backward, t2, 40, batch2};
    pthread_t a, b;
    ck_assert_int_eq(pthread_create(&a, NULL, thread_main, &j1), 0);
    ck_assert_int_eq(pthread_create(&b, NULL, thread_main, &j2), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ck_assert(first_float_diff(&alone[0][0], &t1[0][0], PURITY_TIMES * 12) < 0);
    ck_assert(first_float_diff(&alone[0][0], &t2[0][0], PURITY_TIMES * 12) < 0);
    ck_assert(first_float_diff(batch_alone, batch1, 120) < 0);
    ck_assert(first_float_diff(batch_alone, batch2, 120) < 0);
}
END_TEST

/* ---- frame-rate independence ---------------------------------------------------------------- */

START_TEST(frame_rate_independent)
{
    /* 24, 30, 60 and 144 fps over 3 s share every sixth of a second: frame f at fps F is the time
       f/F, correctly rounded, so equal rationals are equal doubles. */
    static const int fps[4] = {24, 30, 60, 144};
    static const tendon_spring_settings s = {2.0, 0.35, TENDON_SPRING_NO_LIMIT};
    static const tendon_spring_link links[4] = {
        {2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}},
        {2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}},
        {2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}},
        {2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}}};
    test_anchor a;
    memset(&a, 0, sizeof a);
    a.kind = ANCHOR_SINE;
    a.amplitude[0] = 0.3;
    a.amplitude[1] = 0.1;
    a.center[1] = 1.5;
    a.frequency_hz = 1.0;
    enum { SHARED = 18 }; /* sixths of a second in 3 s */
    float shared[4][SHARED + 1][15];
    for (int r = 0; r < 4; ++r) {
        const int frames = 3 * fps[r];
        const int per_sixth = fps[r] / 6;
        for (int f = 0; f <= frames; ++f) {
            const double t = (double)f / (double)fps[r];
            float out[15];
            ck_assert(tendon_spring_sample(&s, one_anchor_cb, &a, t, out) == TENDON_OK);
            ck_assert(tendon_spring_chain_sample(links, 4, one_anchor_cb, &a, t, NULL, 0, out + 3,
                                                 12) == TENDON_OK);
            if (f % per_sixth == 0)
                memcpy(shared[r][f / per_sixth], out, sizeof out);
        }
    }
    for (int r = 1; r < 4; ++r)
        for (int k = 0; k <= SHARED; ++k)
            ck_assert_msg(first_float_diff(shared[0][k], shared[r][k], 15) < 0,
                          "%d fps and 24 fps disagree at t = %d/6 s", fps[r], k);
}
END_TEST

/* ---- extreme settings ----------------------------------------------------------------------- */

static void check_against_oracle(const tendon_spring_settings *s, const test_anchor *a, double t,
                                 const char *what)
{
    float out[3];
    double oracle[3];
    ck_assert_msg(tendon_spring_sample(s, one_anchor_cb, (void *)a, t, out) == TENDON_OK, "%s: %s",
                  what, tendon_error_message());
    oracle_sample_spring(s, a, t, oracle);
    for (int k = 0; k < 3; ++k)
        ck_assert_msg(isfinite(out[k]) && within_spring_tolerance(out[k], oracle[k]),
                      "%s: out[%d] %.9g, the seed's arithmetic %.17g", what, k, (double)out[k],
                      oracle[k]);
}

START_TEST(extreme_settings)
{
    test_anchor a;
    memset(&a, 0, sizeof a);
    a.kind = ANCHOR_SINE;
    a.amplitude[0] = 0.3;
    a.amplitude[1] = 0.1;
    a.amplitude[2] = 0.2;
    a.frequency_hz = 1.0;
    a.phase = 0.3;

    /* damping 1e-4: 351,810 substeps, every one an anchor call; bounded and counted */
    tendon_spring_settings light = {2.0, 1e-4, TENDON_SPRING_NO_LIMIT};
    anchor_log log;
    anchor_log_reset(&log, &a);
    float out[3];
    ck_assert(tendon_spring_sample(&light, test_anchor_cb, &log, 3.0, out) == TENDON_OK);
    double settle;
    ck_assert(tendon_spring_settle_sec(&light, &settle) == TENDON_OK);
    const double steps = ceil((settle * 2.0) * 32.0);
    ck_assert_msg(steps == 351810.0, "damping 1e-4 needs %.0f substeps", steps);
    ck_assert_uint_eq(log.count, 351810 + 2);
    check_against_oracle(&light, &a, 3.0, "damping 1e-4");

    /* damping 1e-7 would need 3.5e8 substeps: refused, anchor never called */
    tendon_spring_settings too_light = {2.0, 1e-7, TENDON_SPRING_NO_LIMIT};
    anchor_log_reset(&log, &a);
    ck_assert_int_eq(tendon_spring_sample(&too_light, test_anchor_cb, &log, 3.0, out),
                     TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "TENDON_SPRING_MAX_SUBSTEPS"));
    ck_assert_uint_eq(log.count, 0);

    /* frequencies 1e-6 and 1e6 Hz in every damping regime, and time 1e7 s */
    static const double dampings[3] = {0.35, 1.0, 2.0};
    for (int d = 0; d < 3; ++d) {
        char what[64];
        tendon_spring_settings slow = {1e-6, dampings[d], TENDON_SPRING_NO_LIMIT};
        snprintf(what, sizeof what, "1e-6 Hz, damping %g", dampings[d]);
        check_against_oracle(&slow, &a, 1.0, what);
        tendon_spring_settings fast = {1e6, dampings[d], TENDON_SPRING_NO_LIMIT};
        snprintf(what, sizeof what, "1e6 Hz, damping %g", dampings[d]);
        check_against_oracle(&fast, &a, 1.0, what);
        tendon_spring_settings hair = {2.0, dampings[d], 0.1};
        snprintf(what, sizeof what, "t = 1e7 s, damping %g", dampings[d]);
        check_against_oracle(&hair, &a, 1e7, what);
    }
    /* damping 1e6 (one substep): the seed's arithmetic is ill-conditioned there — the trail
       −2ζ/ω reaches 3e11 s at 1e-6 Hz and the substep cancels it against c0·offset, so an ulp
       of a coefficient moves the answer by ~1e-5 m (tendon and glibc differ by 1.5e-5 m: see
       docs/springs.md). Finite, near the anchor, and equal on every ISA is what holds. */
    static const double frequencies[3] = {1e-6, 2.0, 1e6};
    for (int f = 0; f < 3; ++f) {
        tendon_spring_settings stiff = {frequencies[f], 1e6, TENDON_SPRING_NO_LIMIT};
        float ref[3];
        ck_assert(tendon_spring_sample_on(tendon_kernels_for(TENDON_ISA_SCALAR), &stiff,
                                          one_anchor_cb, &a, 1.0, ref) == TENDON_OK);
        for (int k = 0; k < 3; ++k)
            ck_assert(isfinite(ref[k]) && fabs(ref[k]) < 1.0);
        for (int isa = 1; isa < TENDON_ISA_COUNT; ++isa) {
            const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
            if (!k)
                continue;
            ck_assert(tendon_spring_sample_on(k, &stiff, one_anchor_cb, &a, 1.0, out) ==
                      TENDON_OK);
            expect_same(out, ref, 3, "damping 1e6", isa, 0);
        }
    }
    /* 101 substeps at ζ = 0.35 whatever the frequency */
    tendon_spring_settings slow = {1e-6, 0.35, TENDON_SPRING_NO_LIMIT};
    anchor_log_reset(&log, &a);
    ck_assert(tendon_spring_sample(&slow, test_anchor_cb, &log, 1.0, out) == TENDON_OK);
    ck_assert_uint_eq(log.count, 103);

    /* an infinite frequency: no substep (the seed's NaN count); the answer is the anchor */
    tendon_spring_settings inf = {INFINITY, 0.35, TENDON_SPRING_NO_LIMIT};
    anchor_log_reset(&log, &a);
    ck_assert(tendon_spring_sample(&inf, test_anchor_cb, &log, 1.0, out) == TENDON_OK);
    ck_assert_uint_eq(log.count, 2);
    double v[3];
    test_anchor_eval(&a, 1.0, v);
    for (int k = 0; k < 3; ++k)
        ck_assert(same_float(out[k], (float)v[k]));
}
END_TEST

START_TEST(stiff_overdamped_chain_link)
{
    /* ζ = 1e5 at 50 Hz under a 1 Hz link: ζω·step ≈ 6e3, where the seed's decay·cosh is 0·∞
       (NaN). tendon's split form is finite (its coefficients are checked against MPFR in
       test_spring_mpfr.c); every ISA agrees with scalar, and the chain with the seed's
       algorithm on those coefficients. A link this overdamped is sluggish, not stiff: its slow
       pole is ω/(2ζ) ≈ 1.6e-3 /s, so over the chain's 2.9 s lookback it barely leaves the rest
       point it started on (its anchor then, link 0's start + rest). */
    const tendon_spring_link links[2] = {{1.0, 0.5, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}},
                                         {50.0, 1e5, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}}};
    test_anchor a;
    memset(&a, 0, sizeof a);
    a.kind = ANCHOR_SINE;
    a.amplitude[0] = 0.3;
    a.frequency_hz = 0.5;
    float out[6], ref[6];
    double lookback;
    ck_assert(tendon_spring_chain_settle_sec(links, 2, &lookback) == TENDON_OK);
    ck_assert(tendon_spring_chain_sample_on(tendon_kernels_for(TENDON_ISA_SCALAR), links, 2,
                                            one_anchor_cb, &a, 2.0, NULL, 0, ref, 6) == TENDON_OK);
    for (int i = 0; i < 6; ++i)
        ck_assert_msg(isfinite(ref[i]), "out[%d] is not finite", i);
    double start[3];
    test_anchor_eval(&a, 2.0 - lookback, start);
    ck_assert_msg(fabs(ref[3] - (float)start[0]) < 0.01 && fabs(ref[4] - (-0.2)) < 1e-3,
                  "the sluggish link moved: x %.9g from %.9g", (double)ref[3], start[0]);
    for (int isa = 1; isa < TENDON_ISA_COUNT; ++isa) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
        if (!k)
            continue;
        ck_assert(tendon_spring_chain_sample_on(k, links, 2, one_anchor_cb, &a, 2.0, NULL, 0, out,
                                                6) == TENDON_OK);
        expect_same(out, ref, 6, "stiff overdamped chain", isa, 0);
    }
    const double wanted = ceil((lookback * 50.0) * 32.0);
    tendon_spring_coeffs coeffs[2];
    for (int i = 0; i < 2; ++i)
        tendon_spring_transition(links[i].frequency_hz, links[i].damping, lookback / wanted,
                                 &coeffs[i]);
    reference_sample_chain(links, 2, &a, 2.0, lookback, (size_t)wanted, coeffs, out);
    expect_same(out, ref, 6, "stiff overdamped chain against the seed's algorithm", 0, 0);
}
END_TEST

/* ---- argument errors ------------------------------------------------------------------------ */

static void never_called(void *user, double t, float *out)
{
    (void)t;
    (void)out;
    ++*(int *)user;
}

START_TEST(argument_errors)
{
    int calls = 0;
    const tendon_spring_settings s = {2.0, 0.35, TENDON_SPRING_NO_LIMIT};
    float out[64];
    double d;
    ck_assert_int_eq(tendon_spring_sample(NULL, never_called, &calls, 0, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_sample(&s, NULL, &calls, 0, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_sample(&s, never_called, &calls, 0, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_settle_sec(&s, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_settle_sec(NULL, &d), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_chain_settle_sec(NULL, 3, &d), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_chain_settle_sec(NULL, 0, &d), TENDON_OK);
    ck_assert(d == 0.0);

    /* batches: empty returns at once; workspace missing, short, overlapping out */
    ck_assert_int_eq(tendon_spring_sample_batch(NULL, NULL, NULL, 0, 0, NULL, 0, NULL), TENDON_OK);
    size_t need;
    ck_assert(tendon_spring_batch_workspace_size(5, &need) == TENDON_OK);
    unsigned char *ws = malloc(need + 64);
    ck_assert_int_eq(tendon_spring_sample_batch(&s, never_called, &calls, 0, 5, NULL, 0, out),
                     TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_sample_batch(&s, never_called, &calls, 0, 5, ws, need - 1, out),
                     TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_spring_sample_batch(&s, never_called, &calls, 0, 5, ws, need,
                                                (float *)(void *)(ws + 16)),
                     TENDON_ERR_ALIAS);
    const tendon_spring_settings bad = {2.0, 0.0, TENDON_SPRING_NO_LIMIT};
    ck_assert_int_eq(tendon_spring_sample_batch(&bad, never_called, &calls, 0, 5, ws, need, out),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_spring_batch_workspace_size((size_t)-1 / 2, &need),
                     TENDON_ERR_OVERFLOW);
    ck_assert_int_eq(tendon_spring_batch_workspace_size(1, NULL), TENDON_ERR_NULL);

    /* chains: > 16 links need a workspace; overlaps; counts */
    tendon_spring_link links[17];
    for (int i = 0; i < 17; ++i)
        links[i] = (tendon_spring_link){2.0, 0.35, TENDON_SPRING_NO_LIMIT, {0, -0.1, 0}};
    ck_assert_int_eq(tendon_spring_chain_sample(links, 17, never_called, &calls, 0, NULL, 0, out,
                                                64),
                     TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "workspace"));
    ck_assert_int_eq(tendon_spring_chain_sample(links, 2, never_called, &calls, 0, NULL, 0,
                                                (float *)(void *)&links[1], 6),
                     TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_spring_chain_sample(links, 2, NULL, &calls, 0, NULL, 0, out, 6),
                     TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_chain_sample(links, 0, NULL, NULL, 0, NULL, 0, NULL, 0),
                     TENDON_OK);
    ck_assert_int_eq(tendon_spring_chain_sample_batch(links, 2, never_called, &calls, 0, 3, NULL,
                                                      0, out, 18),
                     TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_chain_sample_batch(links, 2, never_called, &calls, 0, 3, ws,
                                                      need, out, 17),
                     TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_spring_chain_workspace_size((size_t)-1 / 8, 2, &need),
                     TENDON_ERR_OVERFLOW);
    /* a chain mixing frequencies 1e4 apart at light damping needs too many substeps */
    tendon_spring_link wide[2] = {{1e-2, 0.01, TENDON_SPRING_NO_LIMIT, {0, 0, 0}},
                                  {1e3, 0.5, TENDON_SPRING_NO_LIMIT, {0, 0, 0}}};
    ck_assert_int_eq(tendon_spring_chain_sample(wide, 2, never_called, &calls, 0, NULL, 0, out, 6),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(calls, 0);
    free(ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spring_props");
    TCase *isa = tcase_create("every_isa");
    tcase_set_timeout(isa, 120);
    tcase_add_loop_test(isa, single_and_chain_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, spring_batches_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, chain_batches_every_isa, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, isa);
    TCase *props = tcase_create("properties");
    tcase_set_timeout(props, 120);
    tcase_add_test(props, matches_the_seed_algorithm);
    tcase_add_test(props, purity_any_order);
    tcase_add_test(props, purity_two_threads);
    tcase_add_test(props, frame_rate_independent);
    tcase_add_test(props, extreme_settings);
    tcase_add_test(props, stiff_overdamped_chain_link);
    tcase_add_test(props, argument_errors);
    suite_add_tcase(s, props);
    return run_suite(s);
}

/*
 * test_api — the public API and dispatch: ISA names, detection, TENDON_ISA, tendon_isa_force,
 * tendon_kernels_for, the thread-local error message, and every public function's error paths
 * (NULL arrays and poses, joint counts that differ, overflowing counts, partial overlaps refused
 * and exact aliasing allowed, out-of-range joints) with "nothing written on error" checked on a
 * sentinel-filled output each time; pose create / destroy / identity / copy / set_joint.
 *
 * ctest runs this suite once plainly and once per ISA with TENDON_ISA=<isa>; the first test
 * checks that the active ISA is the requested one (exit 77 first when that ISA cannot run here).
 * The TENDON_ISA error paths run in a child process (this executable re-executed with
 * --env-probe), because the choice is made once per process.
 */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENTINEL 0xDEADBEEFu

/* ck_assert_msg writes to Check's pipe on every pass; loops use this instead. */
#define EXPECT(expr, ...)                                                                          \
    do {                                                                                           \
        if (!(expr))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

static const char *g_self = "/proc/self/exe";

/* A failure with this status whose message contains every one of the given strings. */
static void expect_fail_(const char *call, tendon_status got, tendon_status want,
                         const char *const *needles)
{
    EXPECT(got == want, "%s returned %s, expected %s (message: %s)", call, tendon_status_name(got),
           tendon_status_name(want), tendon_error_message());
    for (; *needles; ++needles)
        EXPECT(strstr(tendon_error_message(), *needles) != NULL,
               "%s: the message \"%s\" does not mention \"%s\"", call, tendon_error_message(),
               *needles);
}
#define EXPECT_FAIL(call, want, ...)                                                               \
    do {                                                                                           \
        const char *const needles_[] = {__VA_ARGS__, NULL};                                        \
        expect_fail_(#call, (call), (want), needles_);                                             \
    } while (0)
#define EXPECT_OK(call)                                                                            \
    do {                                                                                           \
        const tendon_status st_ = (call);                                                          \
        EXPECT(st_ == TENDON_OK, "%s returned %s: %s", #call, tendon_status_name(st_),             \
               tendon_error_message());                                                            \
    } while (0)

static void fill_sentinel(float *p, size_t n)
{
    const uint32_t s = SENTINEL;
    for (size_t i = 0; i < n; ++i)
        memcpy(p + i, &s, sizeof s);
}

static int untouched(const float *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (float_bits(p[i]) != SENTINEL)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------------------------- */

static tendon_isa best_supported(void)
{
    tendon_isa best = TENDON_ISA_SCALAR;
    for (int i = 0; i < TENDON_ISA_COUNT; ++i)
        if (tendon_isa_supported((tendon_isa)i))
            best = (tendon_isa)i;
    return best;
}

/* First: under TENDON_ISA=<isa>, that ISA is the active one; without it, the best supported. */
START_TEST(test_active_isa_is_requested)
{
    const char *env = getenv("TENDON_ISA");
    tendon_isa active = TENDON_ISA_COUNT, requested;
    if (env && *env) {
        if (tendon_isa_from_name(env, &requested) != TENDON_OK) {
            /* an unknown name: every dispatched call refuses, naming it */
            EXPECT_FAIL(tendon_isa_active(&active), TENDON_ERR_ISA, env);
            return;
        }
        EXPECT_OK(tendon_isa_active(&active));
        ck_assert_msg(active == requested, "TENDON_ISA=%s but the active ISA is %s", env,
                      tendon_isa_name(active));
    } else {
        EXPECT_OK(tendon_isa_active(&active));
        ck_assert_msg(active == best_supported(), "active ISA %s, best supported %s",
                      tendon_isa_name(active), tendon_isa_name(best_supported()));
    }
    ck_assert(tendon_isa_supported(active));
    const tendon_kernels *k = tendon_kernels_for(active);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(k->isa, active);
    printf("active ISA: %s (TENDON_ISA=%s), CPU: %s\n", tendon_isa_name(active), env ? env : "",
           tendon_cpu_name());
}
END_TEST

START_TEST(test_isa_names)
{
    static const char *const NAMES[TENDON_ISA_COUNT] = {"scalar", "sse2", "sse41",  "avx2",
                                                        "avx512", "neon", "simd128"};
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        const char *name = tendon_isa_name((tendon_isa)i);
        ck_assert_ptr_nonnull(name);
        ck_assert_str_eq(name, NAMES[i]);
        tendon_isa back = TENDON_ISA_COUNT;
        EXPECT_OK(tendon_isa_from_name(name, &back));
        ck_assert_int_eq(back, i);
    }
    ck_assert_ptr_null(tendon_isa_name(TENDON_ISA_COUNT));
    ck_assert_ptr_null(tendon_isa_name((tendon_isa)-1));
    ck_assert_ptr_null(tendon_isa_name((tendon_isa)1000));

    static const char *const BAD[] = {"SSE2",   "",        "avx",    "sse2 ", " neon",
                                      "neon\n", "avx-512", "sse4.1", "Scalar", "SIMD128", "wasm"};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; ++i) {
        tendon_isa out = (tendon_isa)77;
        char quoted[32];
        snprintf(quoted, sizeof quoted, "\"%s\"", BAD[i]);
        EXPECT_FAIL(tendon_isa_from_name(BAD[i], &out), TENDON_ERR_ISA, quoted, "scalar", "avx512");
        ck_assert_int_eq(out, 77); /* untouched */
    }
    /* A long name is cut in the message, never overflowing it. */
    char long_name[600];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    tendon_isa out = (tendon_isa)77;
    EXPECT_FAIL(tendon_isa_from_name(long_name, &out), TENDON_ERR_ISA, "xxxxxxxxxxxxxxxx");
    ck_assert_int_eq(out, 77);
    ck_assert(strlen(tendon_error_message()) < 512);

    EXPECT_FAIL(tendon_isa_from_name(NULL, &out), TENDON_ERR_NULL, "name");
    EXPECT_FAIL(tendon_isa_from_name("sse2", NULL), TENDON_ERR_NULL, "out");
    EXPECT_FAIL(tendon_isa_active(NULL), TENDON_ERR_NULL, "out");
}
END_TEST

/* compiled / supported / kernels_for agree with each other and with the architecture. */
START_TEST(test_isa_tables)
{
    ck_assert_int_eq(tendon_isa_compiled(TENDON_ISA_SCALAR), TENDON_ISA_NATIVE);
    ck_assert(tendon_isa_supported(TENDON_ISA_SCALAR));
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        const tendon_isa isa = (tendon_isa)i;
        const tendon_isa_build build = tendon_isa_compiled(isa);
        const int supported = tendon_isa_supported(isa);
        const tendon_kernels *k = tendon_kernels_for(isa);
        ck_assert(build == TENDON_ISA_ABSENT || build == TENDON_ISA_NATIVE ||
                  build == TENDON_ISA_EMULATED);
        ck_assert_msg(!supported || build == TENDON_ISA_NATIVE,
                      "%s is supported but not compiled natively", tendon_isa_name(isa));
        /* NULL exactly when absent, or native and not supported by this CPU */
        const int should_be_null =
            build == TENDON_ISA_ABSENT || (build == TENDON_ISA_NATIVE && !supported);
        ck_assert_msg((k == NULL) == should_be_null, "tendon_kernels_for(%s) is %s",
                      tendon_isa_name(isa), k ? "a table" : "NULL");
        if (k) {
            ck_assert_int_eq(k->isa, isa);
            ck_assert(k->quat_slerp && k->quat_nlerp && k->quat_multiply && k->pose_blend &&
                      k->pose_add);
        }
        printf("%-7s %-8s %s\n", tendon_isa_name(isa),
               build == TENDON_ISA_ABSENT     ? "absent"
               : build == TENDON_ISA_EMULATED ? "emulated"
                                              : "native",
               supported ? "supported" : "not supported");
    }
#if defined(__x86_64__)
    if (tendon_isa_compiled(TENDON_ISA_SSE2) != TENDON_ISA_ABSENT)
        ck_assert(tendon_isa_supported(TENDON_ISA_SSE2)); /* the x86-64 baseline */
    if (tendon_isa_compiled(TENDON_ISA_NEON) != TENDON_ISA_ABSENT)
        ck_assert_int_eq(tendon_isa_compiled(TENDON_ISA_NEON), TENDON_ISA_EMULATED);
    for (int i = TENDON_ISA_SSE2; i <= TENDON_ISA_AVX512; ++i)
        ck_assert(tendon_isa_compiled((tendon_isa)i) != TENDON_ISA_EMULATED);
#elif defined(__aarch64__)
    if (tendon_isa_compiled(TENDON_ISA_NEON) != TENDON_ISA_ABSENT)
        ck_assert(tendon_isa_supported(TENDON_ISA_NEON));
    for (int i = TENDON_ISA_SSE2; i <= TENDON_ISA_AVX512; ++i)
        ck_assert(!tendon_isa_supported((tendon_isa)i));
#endif
    /* outside the enum */
    const tendon_isa outside[] = {TENDON_ISA_COUNT, (tendon_isa)-1, (tendon_isa)99};
    for (size_t i = 0; i < 3; ++i) {
        ck_assert_int_eq(tendon_isa_compiled(outside[i]), TENDON_ISA_ABSENT);
        ck_assert(!tendon_isa_supported(outside[i]));
        ck_assert_ptr_null(tendon_kernels_for(outside[i]));
    }
    ck_assert(strlen(tendon_cpu_name()) > 0);
}
END_TEST

/*
 * The kernel table's layout is ABI (tendon_kernels_for hands it to programs built against an
 * older header): fields are only ever appended. Their offsets must rise in the order they were
 * added — a field inserted in the middle moves every later one and breaks those programs.
 */
START_TEST(test_kernel_table_append_only)
{
    static const size_t in_order_added[] = {
        offsetof(tendon_kernels, isa),
        offsetof(tendon_kernels, quat_slerp),
        offsetof(tendon_kernels, quat_nlerp),
        offsetof(tendon_kernels, quat_multiply),
        offsetof(tendon_kernels, pose_blend),
        offsetof(tendon_kernels, pose_add),
        offsetof(tendon_kernels, local_matrices),
        offsetof(tendon_kernels, model_matrices),
        offsetof(tendon_kernels, palette),
        offsetof(tendon_kernels, skin),
        offsetof(tendon_kernels, morph),
        offsetof(tendon_kernels, spring_march),
        offsetof(tendon_kernels, spring_chain_march),
        offsetof(tendon_kernels, clip_lerp),
        offsetof(tendon_kernels, clip_hermite),
        offsetof(tendon_kernels, model_matrices_ordered),
        offsetof(tendon_kernels, model_pass_level_order),
        offsetof(tendon_kernels, quat_slerp_f32),
        offsetof(tendon_kernels, quat_nlerp_f32),
        offsetof(tendon_kernels, quat_multiply_f32),
        offsetof(tendon_kernels, pose_blend_f32),
        offsetof(tendon_kernels, pose_blend_nlerp_f32),
        offsetof(tendon_kernels, pose_add_f32),
        offsetof(tendon_kernels, pose_blend_layers_f32),
        offsetof(tendon_kernels, clip_lerp_f32),
        offsetof(tendon_kernels, clip_lerp_uniform_f32),
        offsetof(tendon_kernels, clip_slerp_uniform_f32),
        offsetof(tendon_kernels, clip_hermite_f32),
        /* issue 12 (skin-mesh): keep this block contiguous when merging */
        offsetof(tendon_kernels, skin_mesh),
        offsetof(tendon_kernels, palette_splat),
        offsetof(tendon_kernels, palette_to_dual_quat),
        offsetof(tendon_kernels, skin_mesh_dq),
        offsetof(tendon_kernels, palette_splat_pays),
        offsetof(tendon_kernels, pose_blend_weighted),
        offsetof(tendon_kernels, pose_add_weighted),
        offsetof(tendon_kernels, pose_blend_weighted_f32),
        offsetof(tendon_kernels, pose_add_weighted_f32),
        offsetof(tendon_kernels, palette_splat_max),
        offsetof(tendon_kernels, local_model_lanes),
        offsetof(tendon_kernels, transform_points_lanes),
        offsetof(tendon_kernels, quat_add_weighted),
        offsetof(tendon_kernels, quat_add_weighted_f32),
    };
    const size_t n = sizeof in_order_added / sizeof in_order_added[0];
    for (size_t i = 1; i < n; ++i)
        ck_assert_msg(in_order_added[i] > in_order_added[i - 1],
                      "tendon_kernels field %zu (in the order added) is not after field %zu", i,
                      i - 1);
    /* and the newest is the last: nothing after it but padding */
    ck_assert_uint_ge(in_order_added[n - 1] + sizeof(void (*)(void)),
                      sizeof(tendon_kernels) - _Alignof(tendon_kernels) + 1);
}
END_TEST

/* A slerp through the public API, compared with the scalar table bit for bit. */
static void public_slerp_matches_scalar(const char *what)
{
    enum { N = 37 };
    float a[4 * N], b[4 * N], out[4 * N], want[4 * N];
    double t[N];
    test_rng r;
    rng_seed(&r, 0xF02CEu);
    for (int i = 0; i < N; ++i) {
        rng_unit_quat(&r, a + 4 * i);
        rng_unit_quat(&r, b + 4 * i);
        t[i] = rng_range(&r, -0.5, 1.5);
    }
    EXPECT_OK(tendon_quat_slerp(a, b, t, N, out));
    tendon_kernels_for(TENDON_ISA_SCALAR)->quat_slerp(a, b, t, N, want);
    const long d = first_float_diff(out, want, 4 * N);
    ck_assert_msg(d < 0, "%s: public slerp differs from scalar at float %ld", what, d);
}

/* tendon_isa_force: accepted exactly for supported ISAs; a refusal leaves the active ISA. */
START_TEST(test_isa_force)
{
    tendon_isa original, active;
    EXPECT_OK(tendon_isa_active(&original));
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        const tendon_isa isa = (tendon_isa)i;
        if (tendon_isa_supported(isa)) {
            EXPECT_OK(tendon_isa_force(isa));
            EXPECT_OK(tendon_isa_active(&active));
            ck_assert_int_eq(active, isa);
            public_slerp_matches_scalar(tendon_isa_name(isa));
        } else {
            /* force back to a known state first, so "unchanged" is observable */
            EXPECT_OK(tendon_isa_force(TENDON_ISA_SCALAR));
            char quoted[32];
            snprintf(quoted, sizeof quoted, "\"%s\"", tendon_isa_name(isa));
            EXPECT_FAIL(tendon_isa_force(isa), TENDON_ERR_ISA, quoted, "scalar");
            if (tendon_isa_compiled(isa) == TENDON_ISA_EMULATED)
                ck_assert_msg(strstr(tendon_error_message(), "emulated") != NULL, "%s",
                              tendon_error_message());
            EXPECT_OK(tendon_isa_active(&active));
            ck_assert_int_eq(active, TENDON_ISA_SCALAR);
        }
    }
#if defined(__x86_64__)
    /* emulated NEON on x86-64 is refused explicitly */
    if (tendon_isa_compiled(TENDON_ISA_NEON) == TENDON_ISA_EMULATED) {
        EXPECT_OK(tendon_isa_force(best_supported()));
        EXPECT_FAIL(tendon_isa_force(TENDON_ISA_NEON), TENDON_ERR_ISA, "neon", "emulated");
        EXPECT_OK(tendon_isa_active(&active));
        ck_assert_int_eq(active, best_supported());
        ck_assert_ptr_nonnull(tendon_kernels_for(TENDON_ISA_NEON)); /* tests may still run it */
    }
#endif
    EXPECT_OK(tendon_isa_force(original));
    EXPECT_FAIL(tendon_isa_force(TENDON_ISA_COUNT), TENDON_ERR_ISA, "6");
    EXPECT_FAIL(tendon_isa_force((tendon_isa)-1), TENDON_ERR_ISA, "-1");
    EXPECT_OK(tendon_isa_active(&active));
    ck_assert_int_eq(active, original);
}
END_TEST

/*
 * The TENDON_ISA probe, run in a child process whose environment names `TENDON_ISA`: the value
 * is unknown or unusable here, so every dispatched call fails with TENDON_ERR_ISA and a message
 * naming it, writes nothing, and keeps failing (the refusal is not cached); tendon_isa_force of
 * a supported ISA then takes over. Returns 0 when all of that holds; 77 when the choice was
 * already made in this process (the in-process fallback cannot probe then).
 */
static int env_probe(int in_process)
{
    const char *env = getenv("TENDON_ISA");
    tendon_isa isa;
    if (!env) {
        fprintf(stderr, "probe: TENDON_ISA is not set\n");
        return 2;
    }
    tendon_status st = tendon_isa_active(&isa);
    if (st == TENDON_OK) {
        if (in_process)
            return 77;
        fprintf(stderr, "probe: TENDON_ISA=%s was accepted as %s\n", env, tendon_isa_name(isa));
        return 3;
    }
    if (st != TENDON_ERR_ISA || !strstr(tendon_error_message(), env)) {
        fprintf(stderr, "probe: tendon_isa_active gave %s, \"%s\"\n", tendon_status_name(st),
                tendon_error_message());
        return 4;
    }
    float q[8] = {0, 0, 0, 1, 0, 0, 0, 1}, out[8];
    double t[2] = {0.5, 0.5};
    float tr[6] = {0}, rot[8] = {0, 0, 0, 1, 0, 0, 0, 1}, sc[6] = {1, 1, 1, 1, 1, 1};
    float otr[6], orot[8], osc[6], w[2] = {1, 1};
    tendon_pose p = {tr, rot, sc, 2}, o = {otr, orot, osc, 2};
    for (int round = 0; round < 2; ++round) {
        for (int call = 0; call < 7; ++call) {
            fill_sentinel(out, 8);
            fill_sentinel(otr, 6);
            fill_sentinel(orot, 8);
            fill_sentinel(osc, 6);
            switch (call) {
            case 0: st = tendon_quat_slerp(q, q, t, 2, out); break;
            case 1: st = tendon_quat_nlerp(q, q, t, 2, out); break;
            case 2: st = tendon_quat_multiply(q, q, 2, out); break;
            case 3: st = tendon_pose_blend(&p, &p, 0.5, &o); break;
            case 4: st = tendon_pose_blend_masked(&p, &p, 0.5, w, &o); break;
            case 5: st = tendon_pose_add(&p, &p, 0.5, &o); break;
            default: st = tendon_pose_add_masked(&p, &p, 0.5, w, &o); break;
            }
            if (st != TENDON_ERR_ISA || !strstr(tendon_error_message(), env)) {
                fprintf(stderr, "probe: call %d (round %d) gave %s, \"%s\"\n", call, round,
                        tendon_status_name(st), tendon_error_message());
                return 10 + call;
            }
            if (!untouched(out, 8) || !untouched(otr, 6) || !untouched(orot, 8) ||
                !untouched(osc, 6)) {
                fprintf(stderr, "probe: call %d wrote its output although it failed\n", call);
                return 20 + call;
            }
        }
        if (tendon_isa_active(&isa) != TENDON_ERR_ISA) {
            fprintf(stderr, "probe: the refusal was cached as a choice\n");
            return 5;
        }
    }
    /* Non-dispatching functions still work. */
    if (tendon_pose_copy(&p, &o) != TENDON_OK || tendon_isa_from_name("scalar", &isa) != TENDON_OK)
        return 6;
    /* tendon_isa_force overrides the environment's refusal. */
    if (tendon_isa_force(TENDON_ISA_SCALAR) != TENDON_OK || tendon_isa_active(&isa) != TENDON_OK ||
        isa != TENDON_ISA_SCALAR || tendon_quat_slerp(q, q, t, 2, out) != TENDON_OK) {
        fprintf(stderr, "probe: forcing scalar after the refusal failed: %s\n",
                tendon_error_message());
        return 7;
    }
    return 0;
}

/* Run env_probe in a child whose environment has TENDON_ISA=value; its exit status. */
static int run_probe(const char *value)
{
    fflush(NULL);
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setenv("TENDON_ISA", value, 1);
        char *const args[] = {(char *)g_self, "--env-probe", NULL};
        execv(g_self, args);
        /* Could not re-execute (e.g. under an emulator): probe here if nothing has chosen yet. */
        _exit(env_probe(1));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_env_unknown_isa_name)
{
    static const char *const VALUES[] = {"bogus-isa", "SSE2", "avx-512"};
    for (int i = 0; i < 3; ++i) {
        const int rc = run_probe(VALUES[i]);
        if (rc == 77) {
            fprintf(stderr, "  [skip] TENDON_ISA probe could not run in a fresh process\n");
            return;
        }
        ck_assert_msg(rc == 0, "TENDON_ISA=%s: probe failed with %d (see stderr)", VALUES[i], rc);
    }
}
END_TEST

START_TEST(test_env_unusable_isa)
{
    int probed = 0;
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        if (tendon_isa_supported((tendon_isa)i))
            continue;
        const int rc = run_probe(tendon_isa_name((tendon_isa)i));
        if (rc == 77) {
            fprintf(stderr, "  [skip] TENDON_ISA probe could not run in a fresh process\n");
            return;
        }
        ck_assert_msg(rc == 0, "TENDON_ISA=%s (unusable here): probe failed with %d",
                      tendon_isa_name((tendon_isa)i), rc);
        ++probed;
    }
    printf("TENDON_ISA refusal probed for %d unusable ISA(s)\n", probed);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The thread-local error message
 * ------------------------------------------------------------------------------------------- */

enum { THREAD_ROUNDS = 2000 };

typedef struct thread_arg {
    int which;
    pthread_barrier_t *barrier;
    int failures;
    char first_failure[600];
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *arg = p;
    float tr[9] = {0}, rot[12] = {0}, sc[9] = {0}, in[4] = {0};
    tendon_pose pose = {tr, rot, sc, 3};
    /* a fresh thread has no message yet */
    if (tendon_error_message()[0] != '\0') {
        ++arg->failures;
        snprintf(arg->first_failure, sizeof arg->first_failure, "fresh thread sees \"%s\"",
                 tendon_error_message());
    }
    for (int round = 0; round < THREAD_ROUNDS; ++round) {
        char want[64];
        pthread_barrier_wait(arg->barrier); /* both fail at the same time */
        if (arg->which == 0) {
            tendon_pose_set_joint(&pose, (size_t)(1000 + round), in, in, in);
            snprintf(want, sizeof want, "joint %d ", 1000 + round);
        } else {
            char name[32];
            snprintf(name, sizeof name, "thread-b-%d", round);
            tendon_isa isa;
            tendon_isa_from_name(name, &isa);
            snprintf(want, sizeof want, "\"thread-b-%d\"", round);
        }
        pthread_barrier_wait(arg->barrier); /* both messages are set: read our own */
        if (!strstr(tendon_error_message(), want) && arg->failures++ == 0)
            snprintf(arg->first_failure, sizeof arg->first_failure,
                     "round %d: thread %d reads \"%s\", expected it to mention %s", round,
                     arg->which, tendon_error_message(), want);
        /* a successful call does not clear the message */
        tendon_isa isa;
        tendon_isa_from_name("scalar", &isa);
        if (!strstr(tendon_error_message(), want) && arg->failures++ == 0)
            snprintf(arg->first_failure, sizeof arg->first_failure,
                     "round %d: a successful call changed thread %d's message to \"%s\"", round,
                     arg->which, tendon_error_message());
    }
    return NULL;
}

START_TEST(test_error_message_is_per_thread)
{
    /* this thread's message is left alone by the others */
    tendon_isa isa;
    EXPECT_FAIL(tendon_isa_from_name("main-thread-name", &isa), TENDON_ERR_ISA, "main-thread-name");
    pthread_barrier_t barrier;
    ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, 2), 0);
    thread_arg args[2] = {{0, &barrier, 0, ""}, {1, &barrier, 0, ""}};
    pthread_t th[2];
    for (int i = 0; i < 2; ++i)
        ck_assert_int_eq(pthread_create(&th[i], NULL, thread_main, &args[i]), 0);
    for (int i = 0; i < 2; ++i)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < 2; ++i)
        ck_assert_msg(args[i].failures == 0, "%d failures, first: %s", args[i].failures,
                      args[i].first_failure);
    ck_assert_msg(strstr(tendon_error_message(), "main-thread-name") != NULL,
                  "the main thread's message became \"%s\"", tendon_error_message());
}
END_TEST

/*
 * The first use races: several threads ask for the active ISA at once (in Check's fork mode
 * this process has not chosen yet); every thread gets the same answer, the one the
 * environment or the CPU dictates, and a dispatched call on each gives the scalar bits.
 */
enum { RACERS = 4 };
typedef struct racer {
    pthread_barrier_t *barrier;
    tendon_status status;
    tendon_isa isa;
    int slerp_ok;
} racer;

static void *race_main(void *p)
{
    racer *r = p;
    float a[8] = {0, 0, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f},
          b[8] = {0, 0, 0.70710677f, 0.70710677f, 0.5f, -0.5f, 0.5f, -0.5f};
    float out[8], want[8];
    double t[2] = {0.3, 0.7};
    pthread_barrier_wait(r->barrier);
    r->status = tendon_isa_active(&r->isa);
    const tendon_status st = tendon_quat_slerp(a, b, t, 2, out);
    tendon_kernels_for(TENDON_ISA_SCALAR)->quat_slerp(a, b, t, 2, want);
    r->slerp_ok = st == TENDON_OK && first_float_diff(out, want, 8) < 0;
    return NULL;
}

START_TEST(test_first_use_race)
{
    pthread_barrier_t barrier;
    ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, RACERS), 0);
    racer rs[RACERS];
    pthread_t th[RACERS];
    for (int i = 0; i < RACERS; ++i) {
        rs[i].barrier = &barrier;
        rs[i].status = (tendon_status)-1;
        ck_assert_int_eq(pthread_create(&th[i], NULL, race_main, &rs[i]), 0);
    }
    for (int i = 0; i < RACERS; ++i)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&barrier);
    const char *env = getenv("TENDON_ISA");
    tendon_isa want = best_supported();
    if (env && *env)
        ck_assert_int_eq(tendon_isa_from_name(env, &want), TENDON_OK);
    for (int i = 0; i < RACERS; ++i) {
        ck_assert_msg(rs[i].status == TENDON_OK, "thread %d: %s", i,
                      tendon_status_name(rs[i].status));
        ck_assert_msg(rs[i].isa == want, "thread %d chose %s, expected %s", i,
                      tendon_isa_name(rs[i].isa), tendon_isa_name(want));
        ck_assert_msg(rs[i].slerp_ok, "thread %d: the dispatched slerp failed or differs", i);
    }
}
END_TEST

START_TEST(test_status_names_and_version)
{
    static const char *const NAMES[] = {
        "TENDON_OK",        "TENDON_ERR_NULL",   "TENDON_ERR_COUNT",     "TENDON_ERR_RANGE",
        "TENDON_ERR_ALIAS", "TENDON_ERR_ISA",    "TENDON_ERR_VALUE",     "TENDON_ERR_OVERFLOW",
        "TENDON_ERR_NOMEM", "TENDON_ERR_FORMAT", "TENDON_ERR_NOT_FOUND", "TENDON_ERR_IO",
        "TENDON_ERR_FPENV"};
    for (int i = 0; i <= TENDON_ERR_FPENV; ++i)
        ck_assert_str_eq(tendon_status_name((tendon_status)i), NAMES[i]);
    ck_assert_str_eq(tendon_status_name((tendon_status)999), "TENDON_ERR_UNKNOWN");
    ck_assert_str_eq(tendon_status_name((tendon_status)-1), "TENDON_ERR_UNKNOWN");
    unsigned major, minor, patch;
    char tail;
    ck_assert_msg(sscanf(tendon_version(), "%u.%u.%u%c", &major, &minor, &patch, &tail) == 3,
                  "version \"%s\" is not MAJOR.MINOR.PATCH", tendon_version());
    /* the macros (version.h) are the version of the library the program runs against */
    ck_assert_uint_eq(major, TENDON_VERSION_MAJOR);
    ck_assert_uint_eq(minor, TENDON_VERSION_MINOR);
    ck_assert_uint_eq(patch, TENDON_VERSION_PATCH);
    ck_assert_str_eq(tendon_version(), TENDON_VERSION_STRING_LITERAL);
    ck_assert_int_eq(TENDON_VERSION_NUMBER, (int)(major * 10000 + minor * 100 + patch));
    ck_assert_int_eq(TENDON_MAKE_VERSION(0, 2, 0), 200);
    ck_assert(TENDON_MAKE_VERSION(0, 10, 0) > TENDON_MAKE_VERSION(0, 9, 99));
    ck_assert(TENDON_MAKE_VERSION(1, 0, 0) > TENDON_MAKE_VERSION(0, 99, 99));
}
END_TEST

/* tendon_error_set: what a layered component (the glTF importer) reports its refusals with. */
START_TEST(test_error_set)
{
    ck_assert_int_eq(tendon_error_set(TENDON_ERR_FORMAT, "%s: accessors[%d]: %s", "a.gltf", 3,
                                      "count is 0"),
                     TENDON_ERR_FORMAT);
    ck_assert_str_eq(tendon_error_message(), "a.gltf: accessors[3]: count is 0");
    /* a library refusal replaces it, as any later failure does */
    ck_assert_int_eq(tendon_quat_slerp(NULL, NULL, NULL, 1, NULL), TENDON_ERR_NULL);
    ck_assert_ptr_null(strstr(tendon_error_message(), "accessors"));
    /* truncated to the message buffer, never overrun */
    char long_text[2000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    ck_assert_int_eq(tendon_error_set(TENDON_ERR_VALUE, "%s", long_text), TENDON_ERR_VALUE);
    ck_assert_uint_eq(strlen(tendon_error_message()), 511);
    /* a NULL format sets "" (a NULL the compiler cannot see, through a pointer without the
       format attribute, so neither -Wformat nor clang's -Wformat-security speaks) */
    const char *null_format = getenv("TENDON_TEST_UNSET_VARIABLE");
    ck_assert_ptr_null(null_format);
    tendon_status (*const set_error)(tendon_status, const char *, ...) = tendon_error_set;
    ck_assert_int_eq(set_error(TENDON_OK, null_format), TENDON_OK);
    ck_assert_str_eq(tendon_error_message(), "");
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Quaternion API errors
 * ------------------------------------------------------------------------------------------- */

enum { QN = 5 };

typedef tendon_status (*quat_fn)(const float *, const float *, const double *, size_t, float *);
static tendon_status multiply_adapter(const float *a, const float *b, const double *t, size_t n,
                                      float *out)
{
    (void)t;
    return tendon_quat_multiply(a, b, n, out);
}
static const struct {
    const char *name;
    quat_fn fn;
    int has_t;
    int kernel; /* index into the table: 0 slerp, 1 nlerp, 2 multiply */
} QUAT_FNS[3] = {
    {"tendon_quat_slerp", tendon_quat_slerp, 1, 0},
    {"tendon_quat_nlerp", tendon_quat_nlerp, 1, 1},
    {"tendon_quat_multiply", multiply_adapter, 0, 2},
};

static void quat_reference(int kernel, const float *a, const float *b, const double *t, size_t n,
                           float *out)
{
    const tendon_kernels *k = tendon_kernels_for(TENDON_ISA_SCALAR);
    if (kernel == 0)
        k->quat_slerp(a, b, t, n, out);
    else if (kernel == 1)
        k->quat_nlerp(a, b, t, n, out);
    else
        k->quat_multiply(a, b, n, out);
}

START_TEST(test_quat_errors)
{
    for (int f = 0; f < 3; ++f) {
        const char *fn = QUAT_FNS[f].name;
        const quat_fn call = QUAT_FNS[f].fn;
        /* one buffer holding a, b and room to misplace out */
        float buf[4 * QN * 4], a[4 * QN], b[4 * QN], out[4 * QN], want[4 * QN];
        double t[QN + 4];
        test_rng r;
        rng_seed(&r, 0xE770u + (uint64_t)f);
        for (int i = 0; i < QN; ++i) {
            rng_unit_quat(&r, a + 4 * i);
            rng_unit_quat(&r, b + 4 * i);
            t[i] = rng_unit(&r);
        }

#define FAILS(st, ...)                                                                             \
    do {                                                                                           \
        fill_sentinel(out, 4 * QN);                                                                \
        const char *const needles_[] = {fn, __VA_ARGS__, NULL};                                    \
        expect_fail_(fn, (st), expected_, needles_);                                               \
        EXPECT(untouched(out, 4 * QN), "%s wrote its output although it failed", fn);              \
    } while (0)
        tendon_status expected_;

        /* NULL arrays with a count */
        expected_ = TENDON_ERR_NULL;
        fill_sentinel(out, 4 * QN);
        FAILS(call(NULL, b, t, QN, out), "a is NULL", "5");
        FAILS(call(a, NULL, t, QN, out), "b is NULL");
        if (QUAT_FNS[f].has_t)
            FAILS(call(a, b, NULL, QN, out), "t is NULL");
        else
            EXPECT_OK(call(a, b, NULL, QN, out)); /* the product takes no t */
        fill_sentinel(out, 4 * QN);
        expect_fail_(fn, call(a, b, t, QN, NULL), TENDON_ERR_NULL,
                     (const char *const[]){"out is NULL", NULL});
        /* count 0: nothing is read or written, NULL allowed */
        EXPECT_OK(call(NULL, NULL, NULL, 0, NULL));
        fill_sentinel(out, 4 * QN);
        EXPECT_OK(call(a, b, t, 0, out));
        EXPECT(untouched(out, 4 * QN), "%s with count 0 wrote", fn);

        /* counts whose byte size overflows size_t: refused before anything is touched */
        expected_ = TENDON_ERR_OVERFLOW;
        const size_t huge[] = {SIZE_MAX, SIZE_MAX / 4, SIZE_MAX / 16 + 1, (SIZE_MAX >> 1) + 7};
        for (int i = 0; i < 4; ++i) {
            char num[32];
            snprintf(num, sizeof num, "%zu", huge[i]);
            FAILS(call(a, b, t, huge[i], out), num);
        }
        /* a byte size that fits size_t but a range past the end of the address space (exact
           aliasing skips the overlap checks, so only this check stands between it and a crash) */
        FAILS(call(out, out, t, SIZE_MAX / 16, out), "address space");

        /* partial overlaps are refused; exact aliasing is allowed */
        expected_ = TENDON_ERR_ALIAS;
        memcpy(buf, a, sizeof a);
        memcpy(buf + 4 * QN, b, sizeof b);
        const float *ba = buf, *bb = buf + 4 * QN;
        const size_t shifts[] = {1, 2, 3, 4, 4 * QN - 1};
        for (int i = 0; i < 5; ++i) {
            float before[sizeof buf / sizeof(float)];
            memcpy(before, buf, sizeof buf);
            EXPECT(call(ba, bb, t, QN, buf + shifts[i]) == TENDON_ERR_ALIAS &&
                       strstr(tendon_error_message(), "partly overlaps a"),
                   "%s: out = a + %zu floats was not refused: %s", fn, shifts[i],
                   tendon_error_message());
            EXPECT(memcmp(before, buf, sizeof buf) == 0, "%s wrote into a refused overlap", fn);
            EXPECT(call(ba, bb, t, QN, buf + 4 * QN + shifts[i]) == TENDON_ERR_ALIAS &&
                       strstr(tendon_error_message(), "partly overlaps b"),
                   "%s: out = b + %zu floats was not refused: %s", fn, shifts[i],
                   tendon_error_message());
            EXPECT(memcmp(before, buf, sizeof buf) == 0, "%s wrote into a refused overlap", fn);
        }
        if (QUAT_FNS[f].has_t) {
            /* out inside t's doubles */
            double tb[4 * QN];
            for (int i = 0; i < QN; ++i)
                tb[i] = t[i];
            EXPECT_FAIL(call(a, b, tb, QN, (float *)(void *)(tb + 1)), TENDON_ERR_ALIAS, "t");
            ck_assert(memcmp(tb, t, QN * sizeof(double)) == 0);
        }
        /* out == a, out == b, a == b (inputs may share): the non-aliased bits */
        quat_reference(QUAT_FNS[f].kernel, a, b, t, QN, want);
        memcpy(buf, a, sizeof a);
        EXPECT_OK(call(buf, b, t, QN, buf));
        ck_assert_int_eq(first_float_diff(buf, want, 4 * QN), -1);
        memcpy(buf, b, sizeof b);
        EXPECT_OK(call(a, buf, t, QN, buf));
        ck_assert_int_eq(first_float_diff(buf, want, 4 * QN), -1);
        quat_reference(QUAT_FNS[f].kernel, a, a, t, QN, want);
        EXPECT_OK(call(a, a, t, QN, out));
        ck_assert_int_eq(first_float_diff(out, want, 4 * QN), -1);
        /* adjacent but not overlapping: allowed */
        memcpy(buf, a, sizeof a);
        EXPECT_OK(call(buf, b, t, QN, buf + 4 * QN));
        quat_reference(QUAT_FNS[f].kernel, a, b, t, QN, want);
        ck_assert_int_eq(first_float_diff(buf + 4 * QN, want, 4 * QN), -1);
        /* the public result is the scalar table's, bit for bit, on whichever ISA is active */
        EXPECT_OK(call(a, b, t, QN, out));
        ck_assert_int_eq(first_float_diff(out, want, 4 * QN), -1);
#undef FAILS
    }
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Pose API errors
 * ------------------------------------------------------------------------------------------- */

enum { PN = 5 };

/* A pose over caller arrays: 3·n, 4·n, 3·n floats. */
typedef struct spose {
    float t[3 * PN], r[4 * PN], s[3 * PN];
    tendon_pose p;
} spose;

static void spose_init(spose *sp, test_rng *r)
{
    for (int j = 0; j < PN; ++j) {
        for (int c = 0; c < 3; ++c) {
            sp->t[3 * j + c] = (float)rng_range(r, -5, 5);
            sp->s[3 * j + c] = (float)rng_range(r, 0.5, 2);
        }
        rng_unit_quat(r, sp->r + 4 * j);
    }
    sp->p.translation = sp->t;
    sp->p.rotation = sp->r;
    sp->p.scale = sp->s;
    sp->p.joint_count = PN;
}

static void spose_sentinel(spose *sp)
{
    fill_sentinel(sp->t, 3 * PN);
    fill_sentinel(sp->r, 4 * PN);
    fill_sentinel(sp->s, 3 * PN);
}

static int spose_untouched(const spose *sp)
{
    return untouched(sp->t, 3 * PN) && untouched(sp->r, 4 * PN) && untouched(sp->s, 3 * PN);
}

static int pose_same(const tendon_pose *x, const tendon_pose *y, size_t n)
{
    return first_float_diff(x->translation, y->translation, 3 * n) < 0 &&
           first_float_diff(x->rotation, y->rotation, 4 * n) < 0 &&
           first_float_diff(x->scale, y->scale, 3 * n) < 0;
}

typedef tendon_status (*pose_fn)(const tendon_pose *, const tendon_pose *, double, const float *,
                                 tendon_pose *);
static tendon_status blend_adapter(const tendon_pose *a, const tendon_pose *b, double t,
                                   const float *w, tendon_pose *out)
{
    (void)w;
    return tendon_pose_blend(a, b, t, out);
}
static tendon_status add_adapter(const tendon_pose *a, const tendon_pose *b, double t,
                                 const float *w, tendon_pose *out)
{
    (void)w;
    return tendon_pose_add(a, b, t, out);
}
/* The float32 tier's unmasked entry points, in the masked signature. */
static tendon_status blend_f32_adapter(const tendon_pose *a, const tendon_pose *b, double t,
                                       const float *w, tendon_pose *out)
{
    (void)w;
    return tendon_pose_blend_f32(a, b, t, out);
}
static tendon_status nlerp_f32_adapter(const tendon_pose *a, const tendon_pose *b, double t,
                                       const float *w, tendon_pose *out)
{
    (void)w;
    return tendon_pose_blend_nlerp_f32(a, b, t, out);
}
static tendon_status add_f32_adapter(const tendon_pose *a, const tendon_pose *b, double t,
                                     const float *w, tendon_pose *out)
{
    (void)w;
    return tendon_pose_add_f32(a, b, t, out);
}
/* kernel: 0 pose_blend, 1 pose_add, 2 pose_blend_f32, 3 pose_blend_nlerp_f32, 4 pose_add_f32 */
enum { POSE_FN_COUNT = 10 };
static const struct {
    const char *name, *a_name, *b_name;
    pose_fn fn;
    int masked, add, kernel;
} POSE_FNS[POSE_FN_COUNT] = {
    {"tendon_pose_blend", "a", "b", blend_adapter, 0, 0, 0},
    {"tendon_pose_blend_masked", "a", "b", tendon_pose_blend_masked, 1, 0, 0},
    {"tendon_pose_add", "base", "delta", add_adapter, 0, 1, 1},
    {"tendon_pose_add_masked", "base", "delta", tendon_pose_add_masked, 1, 1, 1},
    {"tendon_pose_blend_f32", "a", "b", blend_f32_adapter, 0, 0, 2},
    {"tendon_pose_blend_masked_f32", "a", "b", tendon_pose_blend_masked_f32, 1, 0, 2},
    {"tendon_pose_blend_nlerp_f32", "a", "b", nlerp_f32_adapter, 0, 0, 3},
    {"tendon_pose_blend_nlerp_masked_f32", "a", "b", tendon_pose_blend_nlerp_masked_f32, 1, 0, 3},
    {"tendon_pose_add_f32", "base", "delta", add_f32_adapter, 0, 1, 4},
    {"tendon_pose_add_masked_f32", "base", "delta", tendon_pose_add_masked_f32, 1, 1, 4},
};

static void pose_reference(int kernel, const tendon_pose *a, const tendon_pose *b, double t,
                           const float *w, tendon_pose *out)
{
    const tendon_kernels *k = tendon_kernels_for(TENDON_ISA_SCALAR);
    const size_t n = out->joint_count;
    switch (kernel) {
    case 0: k->pose_blend(a, b, t, w, n, out); break;
    case 1: k->pose_add(a, b, t, w, n, out); break;
    case 2: k->pose_blend_f32(a, b, t, w, n, out); break;
    case 3: k->pose_blend_nlerp_f32(a, b, t, w, n, out); break;
    default: k->pose_add_f32(a, b, t, w, n, out); break;
    }
}

START_TEST(test_pose_errors)
{
    for (int f = 0; f < POSE_FN_COUNT; ++f) {
        const char *fn = POSE_FNS[f].name, *an = POSE_FNS[f].a_name, *bn = POSE_FNS[f].b_name;
        const pose_fn call = POSE_FNS[f].fn;
        const int masked = POSE_FNS[f].masked;
        test_rng r;
        rng_seed(&r, 0x90DEu + (uint64_t)f);
        spose A, B, O;
        spose_init(&A, &r);
        spose_init(&B, &r);
        spose_init(&O, &r);
        float w[PN] = {1, 0.5f, 0, 0.25f, 1};
        const double t = 0.375;
        char msg[64];

#define POSE_FAILS(st, want, ...)                                                                  \
    do {                                                                                           \
        spose_sentinel(&O);                                                                        \
        const char *const needles_[] = {fn, __VA_ARGS__, NULL};                                    \
        expect_fail_(fn, (st), (want), needles_);                                                  \
        EXPECT(spose_untouched(&O), "%s wrote its output although it failed", fn);                 \
    } while (0)

        /* NULL poses and arrays */
        snprintf(msg, sizeof msg, "argument `%s` is NULL", an);
        POSE_FAILS(call(NULL, &B.p, t, w, &O.p), TENDON_ERR_NULL, msg);
        snprintf(msg, sizeof msg, "argument `%s` is NULL", bn);
        POSE_FAILS(call(&A.p, NULL, t, w, &O.p), TENDON_ERR_NULL, msg);
        POSE_FAILS(call(&A.p, &B.p, t, w, NULL), TENDON_ERR_NULL, "argument `out` is NULL");
        static const char *const ARR[3] = {"translation", "rotation", "scale"};
        for (int k = 0; k < 3; ++k) {
            tendon_pose bad = A.p;
            if (k == 0)
                bad.translation = NULL;
            else if (k == 1)
                bad.rotation = NULL;
            else
                bad.scale = NULL;
            char who[32];
            snprintf(msg, sizeof msg, "NULL %s array", ARR[k]);
            snprintf(who, sizeof who, "`%s` has", an);
            POSE_FAILS(call(&bad, &B.p, t, w, &O.p), TENDON_ERR_NULL, msg, who);
            snprintf(who, sizeof who, "`%s` has", bn);
            POSE_FAILS(call(&A.p, &bad, t, w, &O.p), TENDON_ERR_NULL, msg, who);
            /* out with a NULL array: nothing to check for untouched beyond not crashing */
            tendon_pose bad_out = O.p;
            bad_out.rotation = k == 1 ? NULL : bad_out.rotation;
            bad_out.translation = k == 0 ? NULL : bad_out.translation;
            bad_out.scale = k == 2 ? NULL : bad_out.scale;
            POSE_FAILS(call(&A.p, &B.p, t, w, &bad_out), TENDON_ERR_NULL, msg, "`out` has");
        }
        if (masked)
            POSE_FAILS(call(&A.p, &B.p, t, NULL, &O.p), TENDON_ERR_NULL, "joint_weights");
        /* zero joints: NULL arrays and weights are fine */
        {
            tendon_pose z = {NULL, NULL, NULL, 0};
            EXPECT_OK(call(&z, &z, t, NULL, &z));
        }

        /* joint counts that differ */
        {
            tendon_pose a4 = A.p, o3 = O.p;
            a4.joint_count = 4;
            POSE_FAILS(call(&a4, &B.p, t, w, &O.p), TENDON_ERR_COUNT, "4", "5");
            tendon_pose b3 = B.p;
            b3.joint_count = 3;
            POSE_FAILS(call(&A.p, &b3, t, w, &O.p), TENDON_ERR_COUNT, "3", "5");
            o3.joint_count = 3;
            POSE_FAILS(call(&A.p, &B.p, t, w, &o3), TENDON_ERR_COUNT, "3", "5");
        }

        /* joint counts whose byte size overflows size_t (pointers never dereferenced) */
        {
            tendon_pose big = A.p, big_b = B.p, big_o = O.p;
            const size_t n = SIZE_MAX / 8;
            big.joint_count = big_b.joint_count = big_o.joint_count = n;
            snprintf(msg, sizeof msg, "%zu", n);
            POSE_FAILS(call(&big, &big_b, t, w, &big_o), TENDON_ERR_OVERFLOW, msg);
            big.joint_count = big_b.joint_count = big_o.joint_count = SIZE_MAX;
            POSE_FAILS(call(&big, &big_b, t, w, &big_o), TENDON_ERR_OVERFLOW, "joint_count");
            /* a byte size that fits size_t but arrays past the end of the address space: the
               message names the pose (it said "its rotation array", whichever it was) */
            tendon_pose wild_b = B.p, wild_o = O.p;
            wild_b.joint_count = wild_o.joint_count = SIZE_MAX / 16;
            snprintf(msg, sizeof msg, "`%s`'s rotation array", bn);
            POSE_FAILS(call(&A.p, &wild_b, t, w, &O.p), TENDON_ERR_OVERFLOW, "address space", msg);
            POSE_FAILS(call(&A.p, &B.p, t, w, &wild_o), TENDON_ERR_OVERFLOW, "address space",
                       "`out`'s rotation array");
            /* a pose struct not aligned to its type (its members read through it would be
               undefined behaviour): refused by name before a member is read, on the fast path
               (every array packed) as on the detailed one */
            {
                _Alignas(tendon_pose) unsigned char raw[3][sizeof(tendon_pose) + 8];
                tendon_pose *mis_a = (tendon_pose *)(void *)(raw[0] + 4);
                tendon_pose *mis_b = (tendon_pose *)(void *)(raw[1] + 4);
                tendon_pose *mis_o = (tendon_pose *)(void *)(raw[2] + 4);
                memcpy(raw[0] + 4, &A.p, sizeof A.p);
                memcpy(raw[1] + 4, &B.p, sizeof B.p);
                memcpy(raw[2] + 4, &O.p, sizeof O.p);
                snprintf(msg, sizeof msg, "argument `%s` at", an);
                POSE_FAILS(call(mis_a, &B.p, t, w, &O.p), TENDON_ERR_VALUE, msg,
                           "not aligned to tendon_pose");
                snprintf(msg, sizeof msg, "argument `%s` at", bn);
                POSE_FAILS(call(&A.p, mis_b, t, w, &O.p), TENDON_ERR_VALUE, msg,
                           "not aligned to tendon_pose");
                POSE_FAILS(call(&A.p, &B.p, t, w, mis_o), TENDON_ERR_VALUE,
                           "argument `out` at", "not aligned to tendon_pose");
            }
        }

        /* a pose whose own arrays overlap */
        {
            float shared[4 * PN + 3 * PN];
            tendon_pose self = {shared, shared + 3 * PN - 1, A.s, PN};
            memcpy(shared, A.t, sizeof A.t);
            POSE_FAILS(call(&self, &B.p, t, w, &O.p), TENDON_ERR_ALIAS, "overlapping");
        }

        /* partial overlaps between out and an input: refused, nothing written */
        {
            float big_buf[2 * (3 + 4 + 3) * PN + 8];
            float *tb = big_buf, *rb = big_buf + 3 * PN + 4, *sb = rb + 4 * PN + 4;
            memcpy(tb, A.t, sizeof A.t);
            memcpy(rb, A.r, sizeof A.r);
            memcpy(sb, A.s, sizeof A.s);
            tendon_pose a_in = {tb, rb, sb, PN};
            const struct {
                float *t, *r, *s;
                const char *what;
            } outs[] = {
                {tb + 1, O.r, O.s, "out.translation overlaps"},
                {O.t, rb + 3, O.s, "out.rotation overlaps"},
                {O.t, O.r, sb - 2, "out.scale overlaps"},
                {rb, O.r, O.s, "out.translation overlaps"}, /* into a's rotation */
                {O.t, tb + 3 * PN - 4, O.s, "out.rotation overlaps"},
            };
            for (size_t i = 0; i < sizeof outs / sizeof outs[0]; ++i) {
                float before[sizeof big_buf / sizeof(float)];
                memcpy(before, big_buf, sizeof big_buf);
                tendon_pose o = {outs[i].t, outs[i].r, outs[i].s, PN};
                const tendon_status st = call(&a_in, &B.p, t, w, &o);
                EXPECT(st == TENDON_ERR_ALIAS && strstr(tendon_error_message(), outs[i].what),
                       "%s case %zu: %s, \"%s\"", fn, i, tendon_status_name(st),
                       tendon_error_message());
                EXPECT(memcmp(before, big_buf, sizeof big_buf) == 0,
                       "%s wrote into a refused overlap", fn);
                /* the same overlap with b */
                const tendon_status st2 = call(&B.p, &a_in, t, w, &o);
                EXPECT(st2 == TENDON_ERR_ALIAS, "%s case %zu (b): %s", fn, i,
                       tendon_status_name(st2));
                EXPECT(memcmp(before, big_buf, sizeof big_buf) == 0,
                       "%s wrote into a refused overlap", fn);
            }
        }
        if (masked) {
            /* joint weights inside out: refused; inside an input: allowed (read only) */
            spose_sentinel(&O);
            const tendon_status st = call(&A.p, &B.p, t, O.t + 2, &O.p);
            EXPECT(st == TENDON_ERR_ALIAS && strstr(tendon_error_message(), "joint_weights"),
                   "%s: joint_weights inside out gave %s", fn, tendon_status_name(st));
            EXPECT(spose_untouched(&O), "%s wrote although it failed", fn);
        }

        /* exact aliasing, out == a and out == b: the non-aliased bits */
        {
            tendon_pose want_p;
            spose want;
            spose_init(&want, &r);
            want_p = want.p;
            pose_reference(POSE_FNS[f].kernel, &A.p, &B.p, t, masked ? w : NULL, &want_p);
            EXPECT_OK(call(&A.p, &B.p, t, w, &O.p));
            ck_assert_msg(pose_same(&O.p, &want_p, PN), "%s: public result differs from scalar",
                          fn);
            spose X = A;
            X.p.translation = X.t;
            X.p.rotation = X.r;
            X.p.scale = X.s;
            EXPECT_OK(call(&X.p, &B.p, t, w, &X.p));
            ck_assert_msg(pose_same(&X.p, &want_p, PN), "%s: out == %s differs", fn, an);
            X = B;
            X.p.translation = X.t;
            X.p.rotation = X.r;
            X.p.scale = X.s;
            EXPECT_OK(call(&A.p, &X.p, t, w, &X.p));
            ck_assert_msg(pose_same(&X.p, &want_p, PN), "%s: out == %s differs", fn, bn);
            /* a == b (both inputs one pose) is fine too */
            EXPECT_OK(call(&A.p, &A.p, t, w, &O.p));
            /* masked weights that live inside an input pose are read-only: allowed */
            if (masked) {
                spose AW = A;
                AW.p.translation = AW.t;
                AW.p.rotation = AW.r;
                AW.p.scale = AW.s;
                memcpy(AW.s, w, sizeof w);
                pose_reference(POSE_FNS[f].kernel, &AW.p, &B.p, t, AW.s, &want_p);
                EXPECT_OK(call(&AW.p, &B.p, t, AW.s, &O.p));
                ck_assert(pose_same(&O.p, &want_p, PN));
            }
        }
#undef POSE_FAILS
    }
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Alignment: every float (and double) pointer must be aligned to its element type, as C
 * requires; a pointer 1, 2 or 3 bytes off is refused with TENDON_ERR_VALUE naming the argument,
 * before anything is read or written.
 * ------------------------------------------------------------------------------------------- */

/* p moved by `bytes` (not a multiple of the element size: a misaligned pointer). */
#define BYTE_SHIFT(T, p, bytes) ((T *)(void *)((unsigned char *)(p) + (bytes)))

START_TEST(test_misaligned_refused)
{
    /* room for QN quaternions plus the shift, in 64-byte-aligned storage */
    _Alignas(64) float qa[4 * QN + 4], qb[4 * QN + 4], qo[4 * QN + 4];
    _Alignas(64) double qt[QN + 2];
    test_rng r;
    rng_seed(&r, 0xA119u);
    for (int i = 0; i < QN + 1; ++i) {
        rng_unit_quat(&r, qa + 4 * i);
        rng_unit_quat(&r, qb + 4 * i);
    }
    for (int i = 0; i < QN + 2; ++i)
        qt[i] = 0.25;
    for (size_t sh = 1; sh < 4; ++sh) {
        for (int f = 0; f < 3; ++f) {
            const char *fn = QUAT_FNS[f].name;
            const quat_fn call = QUAT_FNS[f].fn;
            const double *t = QUAT_FNS[f].has_t ? qt : NULL;
            fill_sentinel(qo, 4 * QN + 4);
            EXPECT_FAIL(call(BYTE_SHIFT(const float, qa, sh), qb, t, QN, qo), TENDON_ERR_VALUE,
                        fn, "a ", "aligned");
            EXPECT_FAIL(call(qa, BYTE_SHIFT(const float, qb, sh), t, QN, qo), TENDON_ERR_VALUE,
                        fn, "b ", "aligned");
            EXPECT_FAIL(call(qa, qb, t, QN, BYTE_SHIFT(float, qo, sh)), TENDON_ERR_VALUE, fn,
                        "out ", "aligned");
            if (QUAT_FNS[f].has_t)
                EXPECT_FAIL(call(qa, qb, BYTE_SHIFT(const double, qt, sh), QN, qo),
                            TENDON_ERR_VALUE, fn, "t ", "aligned");
            EXPECT(untouched(qo, 4 * QN + 4), "%s wrote although it refused a misaligned array",
                   fn);
        }
    }
    /* t holds doubles: 4 bytes off is float-aligned but not double-aligned, and refused */
    for (int f = 0; f < 3; ++f) {
        if (!QUAT_FNS[f].has_t)
            continue;
        EXPECT_FAIL(QUAT_FNS[f].fn(qa, qb, BYTE_SHIFT(const double, qt, 4), QN, qo),
                    TENDON_ERR_VALUE, QUAT_FNS[f].name, "t ", "8 bytes");
    }
    /* set_joint's inputs are float arrays too */
    {
        tendon_pose p;
        ck_assert_int_eq(tendon_pose_create(2, &p), TENDON_OK);
        EXPECT_FAIL(tendon_pose_set_joint(&p, 1, BYTE_SHIFT(const float, qa, 2), qa, qa),
                    TENDON_ERR_VALUE, "tendon_pose_set_joint", "translation", "aligned");
        EXPECT_FAIL(tendon_pose_set_joint(&p, 1, qa, BYTE_SHIFT(const float, qa, 1), qa),
                    TENDON_ERR_VALUE, "tendon_pose_set_joint", "rotation", "aligned");
        /* inputs inside the pose, across its arrays: every value is read before any is written,
           so a joint's translation and scale swap (the scale used to come back as the new
           translation: a review found it) */
        static const float t0[3] = {1, 2, 3}, r0[4] = {0, 0, 0, 1}, s0[3] = {4, 5, 6};
        EXPECT_OK(tendon_pose_set_joint(&p, 0, t0, r0, s0));
        EXPECT_OK(tendon_pose_set_joint(&p, 0, p.scale, p.rotation, p.translation));
        for (int c = 0; c < 3; ++c) {
            ck_assert(p.translation[c] == s0[c]);
            ck_assert(p.scale[c] == t0[c]);
        }
        ck_assert(p.rotation[3] == 1.0f);
        tendon_pose_destroy(&p);
    }
    /* count 0 reads nothing: any pointer is accepted, as NULL is */
    EXPECT_OK(tendon_quat_slerp(BYTE_SHIFT(const float, qa, 1), qb, qt, 0, qo));

    /* poses: each array of each argument, and the mask's weights */
    for (int f = 0; f < POSE_FN_COUNT; ++f) {
        const char *fn = POSE_FNS[f].name, *an = POSE_FNS[f].a_name, *bn = POSE_FNS[f].b_name;
        const pose_fn call = POSE_FNS[f].fn;
        spose A, B, O;
        spose_init(&A, &r);
        spose_init(&B, &r);
        spose_init(&O, &r);
        _Alignas(64) float room[4 * PN + 4];
        float w[PN] = {1, 0.5f, 0, 0.25f, 1};
        static const char *const ARR[3] = {"translation", "rotation", "scale"};
        for (int k = 0; k < 3; ++k) {
            for (int which = 0; which < 3; ++which) {
                tendon_pose a = A.p, b = B.p, o = O.p;
                tendon_pose *bad = which == 0 ? &a : which == 1 ? &b : &o;
                float **arr = k == 0 ? &bad->translation : k == 1 ? &bad->rotation : &bad->scale;
                memcpy(room, *arr, (k == 1 ? 4 : 3) * PN * sizeof(float));
                *arr = BYTE_SHIFT(float, room, 1 + (size_t)k);
                const char *who = which == 0 ? an : which == 1 ? bn : "out";
                char arg[32];
                snprintf(arg, sizeof arg, "`%s`", who);
                spose_sentinel(&O);
                if (which == 2)
                    fill_sentinel(room, 4 * PN + 4);
                EXPECT_FAIL(call(&a, &b, 0.5, w, &o), TENDON_ERR_VALUE, fn, arg, ARR[k],
                            "aligned");
                EXPECT(spose_untouched(&O), "%s wrote although it failed", fn);
                if (which == 2)
                    EXPECT(untouched(room, 4 * PN + 4), "%s wrote a misaligned output", fn);
            }
        }
        if (POSE_FNS[f].masked) {
            memcpy(room, w, sizeof w);
            spose_sentinel(&O);
            EXPECT_FAIL(call(&A.p, &B.p, 0.5, BYTE_SHIFT(const float, room, 2), &O.p),
                        TENDON_ERR_VALUE, fn, "joint_weights", "aligned");
            EXPECT(spose_untouched(&O), "%s wrote although it failed", fn);
        }
    }

    /* pose storage */
    {
        spose A, O;
        spose_init(&A, &r);
        spose_init(&O, &r);
        _Alignas(64) float room[4 * PN + 4];
        fill_sentinel(room, 4 * PN + 4);
        tendon_pose shifted = O.p;
        shifted.scale = BYTE_SHIFT(float, room, 3);
        EXPECT_FAIL(tendon_pose_copy(&A.p, &shifted), TENDON_ERR_VALUE, "tendon_pose_copy",
                    "`dst`", "scale", "aligned");
        EXPECT_FAIL(tendon_pose_set_identity(&shifted), TENDON_ERR_VALUE,
                    "tendon_pose_set_identity", "scale", "aligned");
        EXPECT(untouched(room, 4 * PN + 4), "a refused misaligned pose was written");
        shifted = A.p;
        memcpy(room, A.r, sizeof A.r);
        shifted.rotation = BYTE_SHIFT(float, room, 1);
        spose_sentinel(&O);
        EXPECT_FAIL(tendon_pose_copy(&shifted, &O.p), TENDON_ERR_VALUE, "`src`", "rotation",
                    "aligned");
        EXPECT(spose_untouched(&O), "tendon_pose_copy wrote although it failed");
    }
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Pose storage: create / destroy / identity / copy / set_joint
 * ------------------------------------------------------------------------------------------- */

static void assert_rest(const tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            EXPECT(float_bits(p->translation[3 * j + c]) == 0, "joint %zu translation", j);
            EXPECT(float_bits(p->scale[3 * j + c]) == float_bits(1.0f), "joint %zu scale", j);
        }
        for (int c = 0; c < 4; ++c)
            EXPECT(float_bits(p->rotation[4 * j + c]) == float_bits(c == 3 ? 1.0f : 0.0f),
                   "joint %zu rotation %d", j, c);
    }
}

static int ranges_overlap(const void *a, size_t an, const void *b, size_t bn)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return an && bn && x < y + bn && y < x + an;
}

START_TEST(test_pose_create_destroy)
{
    static const size_t COUNTS[] = {0, 1, 5, 16, 67, 1000};
    for (size_t i = 0; i < sizeof COUNTS / sizeof COUNTS[0]; ++i) {
        const size_t n = COUNTS[i];
        tendon_pose p;
        memset(&p, 0xAB, sizeof p);
        EXPECT_OK(tendon_pose_create(n, &p));
        ck_assert_uint_eq(p.joint_count, n);
        ck_assert(p.translation && p.rotation && p.scale);
        ck_assert_uint_eq((uintptr_t)p.translation % 64, 0);
        ck_assert_uint_eq((uintptr_t)p.rotation % 64, 0);
        ck_assert_uint_eq((uintptr_t)p.scale % 64, 0);
        const size_t tb = 3 * n * sizeof(float), rb = 4 * n * sizeof(float);
        ck_assert(!ranges_overlap(p.translation, tb, p.rotation, rb));
        ck_assert(!ranges_overlap(p.translation, tb, p.scale, tb));
        ck_assert(!ranges_overlap(p.rotation, rb, p.scale, tb));
        assert_rest(&p);
        /* usable: blend it with itself */
        EXPECT_OK(tendon_pose_blend(&p, &p, 0.5, &p));
        assert_rest(&p);
        tendon_pose_destroy(&p);
        ck_assert(p.translation == NULL && p.rotation == NULL && p.scale == NULL &&
                  p.joint_count == 0);
        tendon_pose_destroy(&p); /* zeroed: no-op */
    }
    tendon_pose_destroy(NULL);

    EXPECT_FAIL(tendon_pose_create(3, NULL), TENDON_ERR_NULL, "out");
    const size_t huge[] = {SIZE_MAX, SIZE_MAX / 12, SIZE_MAX / 4, (SIZE_MAX / sizeof(float)) / 12};
    for (int i = 0; i < 4; ++i) {
        tendon_pose p;
        memset(&p, 0xAB, sizeof p);
        char num[32];
        snprintf(num, sizeof num, "%zu", huge[i]);
        EXPECT_FAIL(tendon_pose_create(huge[i], &p), TENDON_ERR_OVERFLOW, "joint_count", num);
        ck_assert(p.translation == NULL && p.rotation == NULL && p.scale == NULL &&
                  p.joint_count == 0);
    }
}
END_TEST

START_TEST(test_pose_identity_copy)
{
    tendon_pose a, b;
    EXPECT_OK(tendon_pose_create(7, &a));
    EXPECT_OK(tendon_pose_create(7, &b));
    /* garbage, NaN payloads, −0 and denormals in a */
    const uint32_t bits[] = {0x7FC01234u, 0xFFA00001u, 0x80000000u, 0x00000001u,
                             0x7F800000u, 0x3F800001u, 0xDEADBEEFu};
    for (size_t i = 0; i < 3 * 7; ++i) {
        memcpy(a.translation + i, &bits[i % 7], 4);
        memcpy(a.scale + i, &bits[(i + 3) % 7], 4);
    }
    for (size_t i = 0; i < 4 * 7; ++i)
        memcpy(a.rotation + i, &bits[(i + 5) % 7], 4);
    /* copy is bit for bit, NaN payloads included */
    EXPECT_OK(tendon_pose_copy(&a, &b));
    ck_assert(memcmp(a.translation, b.translation, 3 * 7 * 4) == 0);
    ck_assert(memcmp(a.rotation, b.rotation, 4 * 7 * 4) == 0);
    ck_assert(memcmp(a.scale, b.scale, 3 * 7 * 4) == 0);
    EXPECT_OK(tendon_pose_copy(&a, &a)); /* src == dst */
    ck_assert(memcmp(a.translation, b.translation, 3 * 7 * 4) == 0);

    /* copy errors leave dst alone */
    tendon_pose c;
    EXPECT_OK(tendon_pose_create(6, &c));
    EXPECT_FAIL(tendon_pose_copy(&a, &c), TENDON_ERR_COUNT, "7", "6");
    assert_rest(&c);
    EXPECT_FAIL(tendon_pose_copy(NULL, &c), TENDON_ERR_NULL, "src");
    EXPECT_FAIL(tendon_pose_copy(&a, NULL), TENDON_ERR_NULL, "dst");
    tendon_pose shifted = {a.translation + 1, b.rotation, b.scale, 7};
    float before[3 * 7];
    memcpy(before, a.translation, sizeof before);
    EXPECT_FAIL(tendon_pose_copy(&a, &shifted), TENDON_ERR_ALIAS, "overlaps");
    ck_assert(memcmp(before, a.translation, sizeof before) == 0);
    tendon_pose nul = {NULL, NULL, NULL, 0};
    EXPECT_OK(tendon_pose_copy(&nul, &nul));

    /* identity */
    EXPECT_OK(tendon_pose_set_identity(&a));
    assert_rest(&a);
    EXPECT_OK(tendon_pose_set_identity(&nul));
    EXPECT_FAIL(tendon_pose_set_identity(NULL), TENDON_ERR_NULL, "pose");
    tendon_pose half = {b.translation, NULL, b.scale, 7};
    EXPECT_FAIL(tendon_pose_set_identity(&half), TENDON_ERR_NULL, "rotation");
    tendon_pose_destroy(&a);
    tendon_pose_destroy(&b);
    tendon_pose_destroy(&c);
}
END_TEST

START_TEST(test_pose_set_joint)
{
    tendon_pose p, snapshot;
    EXPECT_OK(tendon_pose_create(3, &p));
    EXPECT_OK(tendon_pose_create(3, &snapshot));
    float tr[3], rot[4], sc[3];
    const uint32_t tb[3] = {0x7FC0BEEFu, 0x80000000u, 0x00000007u};
    const uint32_t rb[4] = {0x3F000000u, 0xBF000000u, 0x7F800000u, 0xFF812345u};
    const uint32_t sb[3] = {0x3F800000u, 0xC0000000u, 0x00800000u};
    memcpy(tr, tb, sizeof tr);
    memcpy(rot, rb, sizeof rot);
    memcpy(sc, sb, sizeof sc);
    EXPECT_OK(tendon_pose_set_joint(&p, 1, tr, rot, sc));
    /* bit for bit (not normalised, NaN payloads kept), other joints untouched */
    ck_assert(memcmp(p.translation + 3, tb, sizeof tb) == 0);
    ck_assert(memcmp(p.rotation + 4, rb, sizeof rb) == 0);
    ck_assert(memcmp(p.scale + 3, sb, sizeof sb) == 0);
    for (size_t j = 0; j < 3; j += 2) {
        tendon_pose one = {p.translation + 3 * j, p.rotation + 4 * j, p.scale + 3 * j, 1};
        assert_rest(&one);
    }
    /* inputs that point into the pose itself */
    EXPECT_OK(tendon_pose_set_joint(&p, 2, p.translation + 3, p.rotation + 4, p.scale + 3));
    ck_assert(memcmp(p.rotation + 8, rb, sizeof rb) == 0);
    float t_src[3], r_src[4], s_src[3];
    memcpy(t_src, p.translation + 2, sizeof t_src);
    memcpy(r_src, p.rotation + 2, sizeof r_src);
    memcpy(s_src, p.scale + 4, sizeof s_src);
    EXPECT_OK(tendon_pose_set_joint(&p, 1, p.translation + 2, p.rotation + 2, p.scale + 4));
    ck_assert(memcmp(p.translation + 3, t_src, sizeof t_src) == 0 &&
              memcmp(p.rotation + 4, r_src, sizeof r_src) == 0 &&
              memcmp(p.scale + 3, s_src, sizeof s_src) == 0);

    /* errors: the pose is unchanged */
    EXPECT_OK(tendon_pose_copy(&p, &snapshot));
    const size_t bad[] = {3, 4, 1000, SIZE_MAX};
    for (int i = 0; i < 4; ++i) {
        char joint[48];
        snprintf(joint, sizeof joint, "joint %zu", bad[i]);
        EXPECT_FAIL(tendon_pose_set_joint(&p, bad[i], tr, rot, sc), TENDON_ERR_RANGE, joint,
                    "3 joints");
        ck_assert(memcmp(p.translation, snapshot.translation, 9 * 4) == 0 &&
                  memcmp(p.rotation, snapshot.rotation, 12 * 4) == 0 &&
                  memcmp(p.scale, snapshot.scale, 9 * 4) == 0);
    }
    tendon_pose empty = {NULL, NULL, NULL, 0};
    EXPECT_FAIL(tendon_pose_set_joint(&empty, 0, tr, rot, sc), TENDON_ERR_RANGE, "joint 0",
                "0 joints");
    EXPECT_FAIL(tendon_pose_set_joint(NULL, 0, tr, rot, sc), TENDON_ERR_NULL, "pose");
    EXPECT_FAIL(tendon_pose_set_joint(&p, 0, NULL, rot, sc), TENDON_ERR_NULL, "translation");
    EXPECT_FAIL(tendon_pose_set_joint(&p, 0, tr, NULL, sc), TENDON_ERR_NULL, "rotation");
    EXPECT_FAIL(tendon_pose_set_joint(&p, 0, tr, rot, NULL), TENDON_ERR_NULL, "scale");
    tendon_pose no_rot = {p.translation, NULL, p.scale, 3};
    EXPECT_FAIL(tendon_pose_set_joint(&no_rot, 0, tr, rot, sc), TENDON_ERR_NULL, "rotation");
    ck_assert(memcmp(p.translation, snapshot.translation, 9 * 4) == 0 &&
              memcmp(p.rotation, snapshot.rotation, 12 * 4) == 0 &&
              memcmp(p.scale, snapshot.scale, 9 * 4) == 0);
    tendon_pose_destroy(&p);
    tendon_pose_destroy(&snapshot);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("dispatch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_active_isa_is_requested); /* first */
    tcase_add_test(tc, test_isa_names);
    tcase_add_test(tc, test_isa_tables);
    tcase_add_test(tc, test_kernel_table_append_only);
    tcase_add_test(tc, test_isa_force);
    tcase_add_test(tc, test_env_unknown_isa_name);
    tcase_add_test(tc, test_env_unusable_isa);
    tcase_add_test(tc, test_error_message_is_per_thread);
    tcase_add_test(tc, test_first_use_race);
    tcase_add_test(tc, test_status_names_and_version);
    tcase_add_test(tc, test_error_set);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_quat_errors);
    tcase_add_test(tc, test_pose_errors);
    tcase_add_test(tc, test_misaligned_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("pose");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_pose_create_destroy);
    tcase_add_test(tc, test_pose_identity_copy);
    tcase_add_test(tc, test_pose_set_joint);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--env-probe") == 0)
        return env_probe(0);
    if (argc >= 1 && argv[0] && strchr(argv[0], '/'))
        g_self = argv[0];
    if (env_isa_unusable())
        return 77;
    return run_suite(api_suite());
}

/*
 * tendon benchmarks — the cases, written in C.
 *
 * A case is one kernel measured on seeded random input at each of its own counts. bench/main.cc
 * knows nothing about any kernel: it registers every case × every ISA that can run here × every
 * count of the case with Google Benchmark, named `<kernel>/<isa>/<count>`, and reports
 * `count` items per iteration (items_per_second; `tendon bench` turns that into ns per item).
 *
 * Adding a kernel is one entry in tendon_bench_cases[] (bench/cases.c): a name, what an item is,
 * a zero-terminated list of counts, and setup / run / teardown functions. A case that needs its
 * own fixture type embeds nothing: it hangs whatever it allocates off fixture->data.
 */
#ifndef TENDON_BENCH_CASES_H
#define TENDON_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

#include <tendon/dispatch.h>
#include <tendon/kernels.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What setup fills in and run / teardown use. Zeroed by the harness before setup. */
typedef struct tendon_bench_fixture {
    size_t count; /**< items per run (joints, quaternions, elements): the registered count */
    void *out;    /**< what run writes; the harness passes it to benchmark::DoNotOptimize */
    void *data;   /**< the case's own inputs and outputs, owned by setup/teardown */
} tendon_bench_fixture;

/** One benchmarked kernel. */
typedef struct tendon_bench_case {
    /** First part of the benchmark name, e.g. "pose_blend". Unique among the cases. */
    const char *kernel;
    /** What one item is ("joint", "quat", "element", later "vertex", "spring"): the label. */
    const char *item;
    /** The counts to register, terminated by 0. */
    const size_t *counts;
    /**
     * Whether this case can run on `isa` (whose table `k` is non-NULL). NULL means every ISA
     * with a table. The floor cases use it: they exist only for the widths bench/ compiled.
     */
    int (*usable)(tendon_isa isa, const tendon_kernels *k);
    /**
     * Build seeded random inputs for `count` items into fx (fx->count is already set).
     * The seed depends only on the case and the count, so every ISA sees the same input.
     * Returns 0 on success, nonzero on failure (allocation); teardown is then still called.
     */
    int (*setup)(tendon_bench_fixture *fx, uint64_t seed);
    /** One timed call: the kernel of table `k` (k->isa says which) over fx->count items. */
    void (*run)(const tendon_bench_fixture *fx, const tendon_kernels *k);
    /** Free what setup allocated. Must accept a fixture whose setup failed part-way. */
    void (*teardown)(tendon_bench_fixture *fx);
} tendon_bench_case;

/** Every case, in registration order. */
extern const tendon_bench_case tendon_bench_cases[];
/** How many entries tendon_bench_cases[] has. */
extern const size_t tendon_bench_case_count;

/**
 * The seed of a case's input at one count (FNV-1a of the kernel name, mixed with the count):
 * fixed across runs, ISAs and machines.
 */
uint64_t tendon_bench_seed(const char *kernel, size_t count);

/* ---- the floor micro-benchmarks (bench/floor_*.c, each compiled with its ISA's flags) ------
 * out[i] = a[i] / b[i] and out[i] = sqrt(a[i]) over n doubles, independent elements (a
 * throughput measure). n must be a multiple of the ISA's lane count (8 covers all of them).
 * Each is defined only where bench/CMakeLists.txt defines TENDON_BENCH_FLOOR_<ISA>. */
void tendon_bench_floor_div_scalar(const double *a, const double *b, size_t n, double *out);
void tendon_bench_floor_sqrt_scalar(const double *a, size_t n, double *out);
void tendon_bench_floor_div_sse2(const double *a, const double *b, size_t n, double *out);
void tendon_bench_floor_sqrt_sse2(const double *a, size_t n, double *out);
void tendon_bench_floor_div_avx2(const double *a, const double *b, size_t n, double *out);
void tendon_bench_floor_sqrt_avx2(const double *a, size_t n, double *out);
void tendon_bench_floor_div_avx512(const double *a, const double *b, size_t n, double *out);
void tendon_bench_floor_sqrt_avx512(const double *a, size_t n, double *out);
void tendon_bench_floor_div_neon(const double *a, const double *b, size_t n, double *out);
void tendon_bench_floor_lerp_scalar(const float *a, const float *b, float t, size_t n, float *out);
void tendon_bench_floor_lerp_sse2(const float *a, const float *b, float t, size_t n, float *out);
void tendon_bench_floor_lerp_avx2(const float *a, const float *b, float t, size_t n, float *out);
void tendon_bench_floor_lerp_avx512(const float *a, const float *b, float t, size_t n, float *out);
void tendon_bench_floor_lerp_neon(const float *a, const float *b, float t, size_t n, float *out);
void tendon_bench_floor_sqrt_neon(const double *a, size_t n, double *out);

#ifdef __cplusplus
}
#endif
#endif

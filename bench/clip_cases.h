/* tendon benchmarks — clip sampling's cases (bench/clip_cases.c), entries of cases.c's table. */
#ifndef TENDON_BENCH_CLIP_CASES_H
#define TENDON_BENCH_CLIP_CASES_H

#include "cases.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clip_sample (tracks sharing one timeline, as glTF exporters write them) and
   clip_sample_distinct (every track its own times): item = track, a random time per call */
int tendon_bench_clip_setup(tendon_bench_fixture *fx, uint64_t seed);
int tendon_bench_clip_setup_distinct(tendon_bench_fixture *fx, uint64_t seed);
void tendon_bench_clip_teardown(tendon_bench_fixture *fx);
void tendon_bench_run_clip_sample(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_clip_forward(const tendon_bench_fixture *fx, const tendon_kernels *k);
/* the float32 tier of the same (tendon_clip_sample_f32 / _cursor_f32) */
void tendon_bench_run_clip_sample_f32(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_clip_forward_f32(const tendon_bench_fixture *fx, const tendon_kernels *k);

#ifdef __cplusplus
}
#endif
#endif

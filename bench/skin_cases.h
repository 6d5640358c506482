/* tendon benchmarks — the matrix kernels' cases (bench/skin_cases.c), entries of cases.c's table. */
#ifndef TENDON_BENCH_SKIN_CASES_H
#define TENDON_BENCH_SKIN_CASES_H

#include "cases.h"

#ifdef __cplusplus
extern "C" {
#endif

/* local_matrices, model_matrices(_level, _dfs), palette, pose_palette: item = joint */
int tendon_bench_rig_setup(tendon_bench_fixture *fx, uint64_t seed);
void tendon_bench_rig_teardown(tendon_bench_fixture *fx);
void tendon_bench_run_local_matrices(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_model_matrices(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_model_matrices_level(const tendon_bench_fixture *fx,
                                           const tendon_kernels *k);
void tendon_bench_run_model_matrices_dfs(const tendon_bench_fixture *fx,
                                         const tendon_kernels *k);
void tendon_bench_run_palette(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_pose_palette(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_palette_splat(const tendon_bench_fixture *fx, const tendon_kernels *k);
/* local_model_lanes, transform_points_lanes (the spring rig's, a time per lane): item = lane */
void tendon_bench_run_local_model_lanes(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_transform_points_lanes(const tendon_bench_fixture *fx,
                                             const tendon_kernels *k);
/* skin_positions, skin_normals (positions + normals): item = vertex */
int tendon_bench_skin_setup(tendon_bench_fixture *fx, uint64_t seed);
void tendon_bench_skin_teardown(tendon_bench_fixture *fx);
void tendon_bench_run_skin_positions(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_skin_normals(const tendon_bench_fixture *fx, const tendon_kernels *k);
/* skin_tangents (positions + normals + tangents); skin_mesh_positions, skin_mesh_normals,
   skin_mesh_tangents: the prepared mesh of the same vertices. item = vertex */
void tendon_bench_run_skin_tangents(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_skin_mesh_positions(const tendon_bench_fixture *fx,
                                          const tendon_kernels *k);
void tendon_bench_run_skin_mesh_normals(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_skin_mesh_tangents(const tendon_bench_fixture *fx, const tendon_kernels *k);
/* skin_mesh_dq: dual quaternions, positions + normals (item = vertex); palette_to_dual_quat:
   the 64-entry palette (item = joint, count 64) */
void tendon_bench_run_skin_mesh_dq(const tendon_bench_fixture *fx, const tendon_kernels *k);
void tendon_bench_run_palette_to_dual_quat(const tendon_bench_fixture *fx,
                                           const tendon_kernels *k);
/* morph (8 targets, positions): item = vertex */
int tendon_bench_morph_setup(tendon_bench_fixture *fx, uint64_t seed);
void tendon_bench_morph_teardown(tendon_bench_fixture *fx);
void tendon_bench_run_morph(const tendon_bench_fixture *fx, const tendon_kernels *k);

#ifdef __cplusplus
}
#endif
#endif

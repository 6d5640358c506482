/*
 * The spring march at W = 4 for the avx512 table (spring_avx512.c): the AVX2 op layer compiled
 * with the AVX-512 flags of this directory, for plans of at most 4 lanes.
 */
#include "../avx2/ops.h"
#undef TENDON_SFX
#define TENDON_SFX avx512_w4
#include "../kernels/spring.inl.h"

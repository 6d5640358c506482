/*
 * The spring march, avx512 instantiation: the one body twice — at W = 8 (512-bit vectors) for
 * plans of more than 4 lanes (batches, chain batches), and at W = 4 over the AVX2 op layer,
 * compiled with this directory's AVX-512 flags (EVEX-encoded 256-bit operations), for plans of
 * at most 4 lanes (one spring, one chain: 3 lanes). A single spring or chain is one dependent
 * chain of substeps: 512-bit operations only add lanes of padding there, and measured 5–15 %
 * slower than the same march on 256-bit vectors (docs/springs.md). Same operations in the same
 * order either way: the scalar reference's bits.
 */
#include "ops.h"
#undef TENDON_SFX
#define TENDON_SFX avx512_w8
#include "../kernels/spring.inl.h"

void tendon_spring_march_avx512_w4(const tendon_spring_march_plan *plan);
void tendon_spring_chain_march_avx512_w4(const tendon_spring_march_plan *plan);

void tendon_spring_march_avx512(const tendon_spring_march_plan *plan)
{
    if (plan->lanes <= 4)
        tendon_spring_march_avx512_w4(plan);
    else
        tendon_spring_march_avx512_w8(plan);
}

void tendon_spring_chain_march_avx512(const tendon_spring_march_plan *plan)
{
    if (plan->lanes <= 4)
        tendon_spring_chain_march_avx512_w4(plan);
    else
        tendon_spring_chain_march_avx512_w8(plan);
}

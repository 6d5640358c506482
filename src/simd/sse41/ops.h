/*
 * SSE4.1 op layer: the SSE2 layer with blendv selects (src/simd/sse2/ops.h), W = 2, on SIMDe
 * types (native with -msse4.1 on x86-64, emulated elsewhere). Everything else is SSE2's.
 */
#ifndef TENDON_OPS_SSE41_H
#define TENDON_OPS_SSE41_H

#define TENDON_SFX sse41
#define TENDON_SSE41_SELECTS 1
#include "../sse2/ops.h"

#endif

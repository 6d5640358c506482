/* The float32 tier: clip interpolation kernels; simd128 instantiation. */
#include "ops.h"
#include "../kernels/clip_f32.inl.h"

/* The float32 tier: clip interpolation kernels; neon instantiation. */
#include "ops.h"
#include "../kernels/clip_f32.inl.h"

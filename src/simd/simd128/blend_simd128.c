/* Pose blend and additive layer, simd128 instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

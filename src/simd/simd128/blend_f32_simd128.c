/* The float32 tier: pose blend / nlerp / additive, quaternion arrays; simd128 instantiation. */
#include "ops.h"
#include "../kernels/blend_f32.inl.h"

/* The quaternion array kernels, simd128 instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

/* The clip interpolation kernel, simd128 instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

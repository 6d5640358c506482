/* The clip interpolation kernel, avx512 instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

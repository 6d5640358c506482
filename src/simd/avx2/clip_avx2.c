/* The clip interpolation kernel, avx2 instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

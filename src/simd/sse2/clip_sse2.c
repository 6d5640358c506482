/* The clip interpolation kernel, sse2 instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

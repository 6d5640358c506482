/* The clip interpolation kernel, sse41 instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

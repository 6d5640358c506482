/* The clip interpolation kernel, neon instantiation. */
#include "ops.h"
#include "../kernels/clip.inl.h"

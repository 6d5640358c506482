/* Pose blend and additive layer, avx2 instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

/* Pose blend and additive layer, avx512 instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

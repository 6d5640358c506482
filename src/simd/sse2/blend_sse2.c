/* Pose blend and additive layer, sse2 instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

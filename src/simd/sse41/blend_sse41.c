/* Pose blend and additive layer, sse41 instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

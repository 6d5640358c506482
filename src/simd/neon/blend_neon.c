/* Pose blend and additive layer, neon instantiation. */
#include "ops.h"
#include "../kernels/blend.inl.h"

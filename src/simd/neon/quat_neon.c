/* The quaternion array kernels, neon instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

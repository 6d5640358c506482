/* The quaternion array kernels, sse2 instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

/* The quaternion array kernels, sse41 instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

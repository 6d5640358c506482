/* The quaternion array kernels, avx2 instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

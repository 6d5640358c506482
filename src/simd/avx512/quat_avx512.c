/* The quaternion array kernels, avx512 instantiation. */
#include "ops.h"
#include "../kernels/quat.inl.h"

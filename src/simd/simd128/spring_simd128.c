/* The spring march, simd128 instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

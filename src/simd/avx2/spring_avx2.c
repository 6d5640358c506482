/* The spring march, avx2 instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

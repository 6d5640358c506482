/* The spring march, avx512 instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

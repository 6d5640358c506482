/* The spring march, sse2 instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

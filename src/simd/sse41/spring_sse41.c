/* The spring march, sse41 instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

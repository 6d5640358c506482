/* The spring march, neon instantiation. */
#include "ops.h"
#include "../kernels/spring.inl.h"

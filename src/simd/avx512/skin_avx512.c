/* Local/model matrices, palette, skinning and morph targets, avx512 instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

/* Local/model matrices, palette, skinning and morph targets, simd128 instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

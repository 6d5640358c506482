/* Local/model matrices, palette, skinning and morph targets, avx2 instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

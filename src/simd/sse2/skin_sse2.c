/* Local/model matrices, palette, skinning and morph targets, sse2 instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

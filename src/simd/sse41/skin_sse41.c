/* Local/model matrices, palette, skinning and morph targets, sse41 instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

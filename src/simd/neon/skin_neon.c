/* Local/model matrices, palette, skinning and morph targets, neon instantiation. */
#include "ops.h"
#include "../kernels/skin.inl.h"

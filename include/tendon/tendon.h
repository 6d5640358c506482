/** @file
 * tendon — the umbrella header: the whole public C API. */
#ifndef TENDON_TENDON_H
#define TENDON_TENDON_H
#include "version.h"
#include "status.h"
#include "fpenv.h"
#include "dispatch.h"
#include "pose.h"
#include "quat.h"
#include "blend.h"
#include "skeleton.h"
#include "skin.h"
#include "spring.h"
#include "spring_rig.h"
#include "clip.h"
#include "kernels.h"
#include "graph.h"
#include "mask.h"
#include "ik.h"
#include "retarget.h"
#endif

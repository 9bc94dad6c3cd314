// cl-info's self-test structs for the layout check (shared/struct_layouts.h says how).
#ifndef SHARED_CL_INFO_STRUCT_LAYOUTS_H
#define SHARED_CL_INFO_STRUCT_LAYOUTS_H

#include "shared/cl-info/selftest.h"

#define CL_INFO_STRUCTS(STRUCT) STRUCT(SelfTestParticle, SELFTEST_PARTICLE_FIELDS)

#endif  // SHARED_CL_INFO_STRUCT_LAYOUTS_H

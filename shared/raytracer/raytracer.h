// The raytracer's device code, written once and compiled both as C++ (the CPU reference
// renderer, tests) and as OpenCL C (kernels/raytracer/*.cl): one header for each concept.
#ifndef SHARED_RAYTRACER_H
#define SHARED_RAYTRACER_H

#include "shared/raytracer/bsdf.h"
#include "shared/raytracer/bvh_build.h"
#include "shared/raytracer/display.h"
#include "shared/raytracer/emitters.h"
#include "shared/raytracer/intersect.h"
#include "shared/raytracer/intersect_mesh.h"
#include "shared/raytracer/mesh_types.h"
#include "shared/raytracer/path.h"
#include "shared/raytracer/random.h"
#include "shared/raytracer/shading.h"
#include "shared/raytracer/sky.h"
#include "shared/raytracer/texture.h"
#include "shared/raytracer/types.h"
#include "shared/raytracer/vector.h"

#endif  // SHARED_RAYTRACER_H

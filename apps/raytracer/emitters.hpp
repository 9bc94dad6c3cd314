// The path tracer's area lights (shared/raytracer/emitters.h): every emissive sphere and every
// emissive triangle of every instance, in the world, in an alias table that draws them by power.
#pragma once

#include <vector>

#include "apps/raytracer/scene.hpp"

namespace raytracer {

struct EmitterList {
  std::vector<RtEmitter> emitters;
  float total_power = 0;  // summed luminance x area
};

// Emissive planes (infinite: no point can be drawn on them uniformly) and triangles whose
// emission is textured are left out; the path tracer counts their light where paths hit them.
EmitterList build_emitters(const Scene& scene);

}  // namespace raytracer

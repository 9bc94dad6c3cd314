// Helpers shared by the raytracer tests.
#pragma once

#include "apps/raytracer/render_settings.hpp"
#include "apps/raytracer/renderer.hpp"
#include "test_support.hpp"

namespace raytracer_test {

// One renderer (and its compiled kernels) for every raytracer test, built with the reference
// options the image comparisons need. Never destroyed, like clf_test::runtime().
inline raytracer::DeviceRenderer& renderer() {
  static auto* shared =
      new raytracer::DeviceRenderer(clf_test::runtime(), raytracer::kReferenceBuildOptions);
  return *shared;
}

}  // namespace raytracer_test

// Whether two tracers answered a ray batch alike (cl-raytracer rays checks ours against Embree
// and both against the CPU reference before it prints any figure).
#pragma once

#include <string>

#include "apps/raytracer/ray_batch.hpp"

namespace raytracer {

// Two nearest hits agree when both miss, or both hit at distances within this share of the
// larger (float rounding of different but correct intersection code stays far below it; a
// different surface, e.g. one hit through a gap, is almost always much further off).
constexpr float kDistanceTolerance = 1e-3f;
// The share of rays allowed to disagree: rays within rounding of a triangle's edge or a
// silhouette may hit in one tracer and miss (or hit the surface behind) in the other.
constexpr double kAllowedDisagreement = 1e-3;

struct Agreement {
  std::size_t rays = 0;
  std::size_t disagreements = 0;  // hit against miss, or distances further apart than allowed
  std::size_t hits = 0;           // rays the first tracer found a surface (or blocker) for
  double disagreeing_share() const {
    return rays == 0 ? 0.0 : static_cast<double>(disagreements) / static_cast<double>(rays);
  }
  bool acceptable() const { return disagreeing_share() <= kAllowedDisagreement; }
};

// Compares the answers of two tracers for the same rays (same count and kind of answers).
Agreement compare_results(const RayResults& a, const RayResults& b);

// "12 of 2073600 rays differ (0.0006 %)".
std::string describe(const Agreement& agreement);

}  // namespace raytracer

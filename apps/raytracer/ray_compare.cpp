#include "apps/raytracer/ray_compare.hpp"

#include <algorithm>
#include <cmath>

#include "apps/raytracer/frame_stats.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

bool same_hit(const RtHit& a, const RtHit& b) {
  const bool a_hit = a.kind != RT_HIT_NONE;
  const bool b_hit = b.kind != RT_HIT_NONE;
  if (a_hit != b_hit) return false;
  if (!a_hit) return true;
  return std::fabs(a.t - b.t) <= kDistanceTolerance * std::max(a.t, b.t);
}

}  // namespace

Agreement compare_results(const RayResults& a, const RayResults& b) {
  if (a.hits.size() != b.hits.size() || a.occluded.size() != b.occluded.size()) {
    throw clf::Error("compare_results: the tracers answered different numbers of rays");
  }
  Agreement agreement;
  agreement.rays = a.hits.size() + a.occluded.size();
  for (std::size_t i = 0; i < a.hits.size(); ++i) {
    agreement.hits += a.hits[i].kind != RT_HIT_NONE;
    agreement.disagreements += !same_hit(a.hits[i], b.hits[i]);
  }
  for (std::size_t i = 0; i < a.occluded.size(); ++i) {
    agreement.hits += a.occluded[i] != 0;
    agreement.disagreements += (a.occluded[i] != 0) != (b.occluded[i] != 0);
  }
  return agreement;
}

std::string describe(const Agreement& agreement) {
  return std::to_string(agreement.disagreements) + " of " + std::to_string(agreement.rays) +
         " rays differ (" + fixed(100.0 * agreement.disagreeing_share(), 4) + " %)";
}

}  // namespace raytracer

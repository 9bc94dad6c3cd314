#include "apps/raytracer/frame_stats.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "framework/atomic_file.hpp"

namespace raytracer {

using nlohmann::json;

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string fixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

json timings_json(const FrameTimings& t) {
  return {{"bvh_ms", t.bvh_ms},
          {"trace_ms", t.trace_ms},
          {"copy_ms", t.copy_ms},
          {"total_ms", t.total_ms},
          {"primary_rays", t.primary_rays},
          {"shadow_rays", t.shadow_rays},
          {"secondary_rays", t.secondary_rays},
          {"rays_per_second", rays_per_second(t)}};
}

std::uint64_t total_rays(const FrameTimings& t) {
  return t.primary_rays + t.shadow_rays + t.secondary_rays;
}

double rays_per_second(const FrameTimings& t) {
  return t.trace_ms > 0 ? static_cast<double>(total_rays(t)) / (t.trace_ms * 1e-3) : 0.0;
}

std::string describe_rays(const FrameTimings& t) {
  auto millions = [](std::uint64_t n) { return fixed(static_cast<double>(n) * 1e-6, 2) + " M"; };
  return millions(t.primary_rays) + " primary + " + millions(t.shadow_rays) + " shadow + " +
         millions(t.secondary_rays) + " secondary = " + millions(total_rays(t)) + " rays, " +
         fixed(rays_per_second(t) * 1e-6, 0) + " Mrays/s";
}

void write_json(const std::string& path, const json& value) {
  clf::write_file_atomically(path, value.dump(2) + "\n");
}

FrameTimings summarise(const std::vector<FrameTimings>& frames) {
  const std::size_t skip = frames.size() > 1 ? 1 : 0;
  std::vector<double> bvh, trace, copy, total, primary, shadow, secondary;
  for (std::size_t i = skip; i < frames.size(); ++i) {
    bvh.push_back(frames[i].bvh_ms);
    trace.push_back(frames[i].trace_ms);
    copy.push_back(frames[i].copy_ms);
    total.push_back(frames[i].total_ms);
    primary.push_back(static_cast<double>(frames[i].primary_rays));
    shadow.push_back(static_cast<double>(frames[i].shadow_rays));
    secondary.push_back(static_cast<double>(frames[i].secondary_rays));
  }
  FrameTimings m;
  m.bvh_ms = median(bvh);
  m.trace_ms = median(trace);
  m.copy_ms = median(copy);
  m.total_ms = median(total);
  m.primary_rays = static_cast<std::uint64_t>(median(primary));
  m.shadow_rays = static_cast<std::uint64_t>(median(shadow));
  m.secondary_rays = static_cast<std::uint64_t>(median(secondary));
  return m;
}

std::uint64_t samples_per_pixel(const FrameTimings& t, int aa) {
  return static_cast<std::uint64_t>(t.accumulated) * static_cast<std::uint64_t>(aa) *
         static_cast<std::uint64_t>(aa);
}

}  // namespace raytracer

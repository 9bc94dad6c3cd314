#include "apps/raytracer/frame_stats.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "framework/error.hpp"

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
          {"total_ms", t.total_ms}};
}

void write_json(const std::string& path, const json& value) {
  std::ofstream out(path);
  out << value.dump(2) << "\n";
  if (!out) throw clf::Error(path + ": cannot write the statistics");
}

FrameTimings summarise(const std::vector<FrameTimings>& frames) {
  const std::size_t skip = frames.size() > 1 ? 1 : 0;
  std::vector<double> bvh, trace, copy, total;
  for (std::size_t i = skip; i < frames.size(); ++i) {
    bvh.push_back(frames[i].bvh_ms);
    trace.push_back(frames[i].trace_ms);
    copy.push_back(frames[i].copy_ms);
    total.push_back(frames[i].total_ms);
  }
  FrameTimings m;
  m.bvh_ms = median(bvh);
  m.trace_ms = median(trace);
  m.copy_ms = median(copy);
  m.total_ms = median(total);
  return m;
}

}  // namespace raytracer

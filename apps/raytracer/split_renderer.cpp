#include "apps/raytracer/split_renderer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "apps/raytracer/frame_stats.hpp"
#include "framework/error.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

// Band boundaries fall on the render kernel's work-group rows, so no band pays for a partial
// group at both ends.
constexpr std::size_t kRowGranularity = 8;

// Whether `next` moves any device's share by more than 1/8 of its rows. Moving rows while
// accumulating costs their accumulation buffers (16 bytes a pixel) copied between devices
// through the host, which on four GPUs took longer than the imbalance a smaller move removes.
bool worth_moving(const std::vector<clf::WorkRange>& current,
                  const std::vector<clf::WorkRange>& next) {
  for (std::size_t i = 0; i < current.size(); ++i) {
    const auto now = static_cast<double>(current[i].size());
    const auto then = static_cast<double>(next[i].size());
    if (std::abs(then - now) > now / 8) return true;
  }
  return false;
}

clf::WorkRange overlap(clf::WorkRange a, clf::WorkRange b) {
  const std::size_t begin = std::max(a.begin, b.begin);
  const std::size_t end = std::min(a.end, b.end);
  return begin < end ? clf::WorkRange{begin, end} : clf::WorkRange{begin, begin};
}

}  // namespace

SplitRenderer::SplitRenderer(const clf::DeviceSet& devices, const std::string& build_options)
    : devices_(devices),
      renderers_(devices.size()),
      balancer_(devices.size()),
      image_(clf::pinned_vector<cl_uint>(devices.front())),
      handed_rows_(clf::pinned_vector<cl_float4>(devices.front())) {
  // Each device compiles its kernels on its own thread.
  clf::for_each_device(devices_, [&](std::size_t i, clf::Runtime& runtime) {
    renderers_[i] = std::make_unique<DeviceRenderer>(runtime, build_options);
  });
}

void SplitRenderer::for_each_renderer(const std::function<void(DeviceRenderer&)>& body) {
  clf::for_each_device(devices_,
                       [&](std::size_t i, clf::Runtime& /*runtime*/) { body(*renderers_[i]); });
}

void SplitRenderer::set_mesh_bvh_builder(MeshBvhBuilder builder) {
  for (auto& r : renderers_) r->set_mesh_bvh_builder(builder);
}
void SplitRenderer::set_scene(const Scene& scene) {
  for_each_renderer([&](DeviceRenderer& r) { r.set_scene(scene); });
}
void SplitRenderer::set_lights(const std::vector<RtLight>& lights) {
  for (auto& r : renderers_) r->set_lights(lights);
}
void SplitRenderer::set_camera(const CameraView& camera) {
  for (auto& r : renderers_) r->set_camera(camera);
}
void SplitRenderer::set_background(Vec3 background) {
  for (auto& r : renderers_) r->set_background(background);
}
void SplitRenderer::reset_accumulation() {
  for (auto& r : renderers_) r->reset_accumulation();
}
void SplitRenderer::invalidate_bvh() {
  for (auto& r : renderers_) r->invalidate_bvh();
}

FrameTimings SplitRenderer::render(const RenderSettings& settings, bool accumulate) {
  if (renderers_.size() > 1) return render_split(settings, accumulate);
  DeviceRenderer& renderer = *renderers_.front();
  const FrameTimings timings = renderer.render(settings, accumulate);
  const std::size_t rows = resolve_settings(renderer.scene(), settings).height;
  shares_ = {{clf::device_label(renderer.runtime()), {0, rows}, timings}};
  return timings;
}

FrameTimings SplitRenderer::render_split(const RenderSettings& requested, bool accumulate) {
  const auto start = std::chrono::steady_clock::now();
  const RenderSettings settings = resolve_settings(scene(), requested);
  const std::size_t width = settings.width, height = settings.height;
  std::vector<clf::WorkRange> split = balancer_.split(height, kRowGranularity);
  // The devices accumulate in step: all continue or all start over.
  if (renderers_.front()->continues_accumulation(settings, accumulate) &&
      split_.size() == split.size()) {
    if (worth_moving(split_, split)) {
      hand_over_rows(split_, split);
    } else {
      split = split_;
    }
  }
  split_ = split;
  image_.resize(width * height);
  shares_.assign(renderers_.size(), {});
  clf::for_each_device(devices_, [&](std::size_t i, clf::Runtime& runtime) {
    shares_[i].device = clf::device_label(runtime);
    shares_[i].rows = split[i];
    shares_[i].timings = renderers_[i]->render_rows(settings, accumulate, split[i], image_.data());
  });
  FrameTimings frame;
  for (std::size_t i = 0; i < shares_.size(); ++i) {
    const FrameTimings& t = shares_[i].timings;
    // The fixed costs (BVH build) do not grow with the rows, so they stay out of the speed.
    const double seconds = (t.trace_ms + t.copy_ms) * 1e-3;
    if (!split[i].empty() && seconds > 0) balancer_.record(i, split[i].size() * width, seconds);
    frame.bvh_ms = std::max(frame.bvh_ms, t.bvh_ms);
    frame.trace_ms = std::max(frame.trace_ms, t.trace_ms);
    frame.copy_ms = std::max(frame.copy_ms, t.copy_ms);
    frame.primary_rays += t.primary_rays;
    frame.shadow_rays += t.shadow_rays;
    frame.secondary_rays += t.secondary_rays;
    frame.accumulated = t.accumulated;
  }
  frame.total_ms = clf::milliseconds_since(start);
  return frame;
}

void SplitRenderer::hand_over_rows(const std::vector<clf::WorkRange>& old_split,
                                   const std::vector<clf::WorkRange>& new_split) {
  for (std::size_t to = 0; to < new_split.size(); ++to) {
    for (std::size_t from = 0; from < old_split.size(); ++from) {
      if (from == to) continue;
      const clf::WorkRange rows = overlap(new_split[to], old_split[from]);
      if (rows.empty()) continue;
      renderers_[from]->read_accumulation_rows(rows, handed_rows_);
      renderers_[to]->write_accumulation_rows(rows, handed_rows_);
    }
  }
}

const Image& SplitRenderer::image() const {
  if (renderers_.size() == 1) return renderers_.front()->image();
  if (image_.empty()) throw clf::Error("SplitRenderer::image: nothing rendered yet");
  return image_;
}

std::string describe_shares(const std::vector<DeviceShare>& shares, int height) {
  std::ostringstream text;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const DeviceShare& s = shares[i];
    text << (i == 0 ? "" : "; ") << s.device << " rows " << s.rows.begin << ".." << s.rows.end
         << " (" << fixed(100.0 * static_cast<double>(s.rows.size()) / height, 1) << " %), trace "
         << fixed(s.timings.trace_ms) << " ms";
  }
  return text.str();
}

nlohmann::json shares_json(const std::vector<DeviceShare>& shares) {
  nlohmann::json list = nlohmann::json::array();
  for (const DeviceShare& s : shares) {
    nlohmann::json share = timings_json(s.timings);
    share["device"] = s.device;
    share["first_row"] = s.rows.begin;
    share["rows"] = s.rows.size();
    list.push_back(share);
  }
  return list;
}

}  // namespace raytracer

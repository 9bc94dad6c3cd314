#include "apps/boids/gui_frame_maker.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace boids {

namespace {

// Where a world point lands in the frame (as kernels/boids/render.cl maps it); false if behind.
bool project(const BoidsRules& rules, const BoidsView& view, const cl_float4& p, float* sx,
             float* sy) {
  const float L = rules.half_width;
  if (rules.dims == 2) {
    *sx = (p.x + L) / (2.0f * L) * static_cast<float>(view.width);
    *sy = (L - p.y) / (2.0f * L) * static_cast<float>(view.height);
    return true;
  }
  const float cx = p.x * view.right.x + p.y * view.right.y + p.z * view.right.z;
  const float cy = p.x * view.up.x + p.y * view.up.y + p.z * view.up.z;
  const float depth =
      view.distance + p.x * view.forward.x + p.y * view.forward.y + p.z * view.forward.z;
  if (depth <= 0.0f) return false;
  *sx = 0.5f * static_cast<float>(view.width) + view.focal * cx / depth;
  *sy = 0.5f * static_cast<float>(view.height) - view.focal * cy / depth;
  return true;
}

// A white cross with a dark outline where the goal is.
void draw_goal_marker(const BoidsRules& rules, const BoidsView& view,
                      std::vector<std::uint32_t>& rgba) {
  float fx, fy;
  if (!project(rules, view, rules.goal, &fx, &fy)) return;
  const int cx = static_cast<int>(fx), cy = static_cast<int>(fy);
  auto put = [&](int x, int y, std::uint32_t color) {
    if (x >= 0 && y >= 0 && x < view.width && y < view.height)
      rgba[static_cast<std::size_t>(y) * view.width + x] = color;
  };
  for (int pass = 0; pass < 2; ++pass) {
    const int arm = pass == 0 ? 9 : 8;
    const int thick = pass == 0 ? 1 : 0;
    const std::uint32_t color = pass == 0 ? 0xff202020u : 0xffffffffu;
    for (int d = -arm; d <= arm; ++d) {
      for (int t = -thick; t <= thick; ++t) {
        put(cx + d, cy + t, color);
        put(cx + t, cy + d, color);
      }
    }
  }
}

}  // namespace

BoidsView view_of(const BoidsRules& rules, int width, int height, float yaw, float pitch,
                  float zoom) {
  BoidsView view = make_view(rules, width, height, yaw, pitch);
  view.focal *= zoom;
  return view;
}

// The world point under frame pixel (sx, sy): in 2D the box, in 3D the plane through the box's
// centre facing the camera. Clamped into the box.
cl_float4 unproject(const BoidsRules& rules, const BoidsView& view, float sx, float sy) {
  const float L = rules.half_width;
  cl_float4 p{};
  if (rules.dims == 2) {
    p.x = sx / static_cast<float>(view.width) * 2.0f * L - L;
    p.y = L - sy / static_cast<float>(view.height) * 2.0f * L;
  } else {
    const float cx = (sx - 0.5f * static_cast<float>(view.width)) * view.distance / view.focal;
    const float cy = (0.5f * static_cast<float>(view.height) - sy) * view.distance / view.focal;
    p.x = cx * view.right.x + cy * view.up.x;
    p.y = cx * view.right.y + cy * view.up.y;
    p.z = cx * view.right.z + cy * view.up.z;
  }
  const float inside = L * 0.999f;
  p.x = std::clamp(p.x, -inside, inside);
  p.y = std::clamp(p.y, -inside, inside);
  p.z = std::clamp(p.z, -inside, inside);
  return p;
}

FrameResult FrameMaker::make(const FrameRequest& r) {
  FrameResult result;
  try {
    // A switch that failed part way leaves no renderer: the next request builds all again.
    if (!runtime_ || !renderer_ || r.device != device_) {
      renderer_.reset();
      simulation_.reset();
      frame_.reset();
      runtime_.reset();
      runtime_ = r.device >= 0 ? std::make_unique<clf::Runtime>(
                                     clf::enumerate_devices().at(r.device), request_)
                               : std::make_unique<clf::Runtime>(request_);
      renderer_ = std::make_unique<FrameRenderer>(*runtime_);
      device_ = r.device;
    }
    const bool same_box = simulation_ && simulation_->size() == r.count &&
                          simulation_->rules().dims == r.rules.dims &&
                          simulation_->rules().half_width == r.rules.half_width &&
                          generation_ == r.generation;
    if (!same_box) {
      simulation_.reset();
      simulation_ = std::make_unique<Simulation>(*runtime_, r.rules, r.count, r.seed, r.method);
      generation_ = r.generation;
    } else if (std::memcmp(&simulation_->rules(), &r.rules, sizeof(BoidsRules)) != 0) {
      try {
        simulation_->set_rules(r.rules);  // the next step uses them; nothing is recompiled
      } catch (const clf::Error& refused) {
        result.warning = refused.what();
      }
    }
    StageRecorder recorder;
    for (int s = 0; s < r.steps; ++s) simulation_->step(&recorder);
    const BoidsView view = view_of(simulation_->rules(), r.width, r.height, r.yaw, r.pitch, r.zoom);
    const std::size_t pixels = static_cast<std::size_t>(r.width) * r.height;
    if (!frame_ || frame_->size() != pixels)
      frame_ = std::make_unique<clf::DeviceBuffer<cl_uchar4>>(*runtime_, pixels);
    runtime_->start_recording();
    renderer_->draw(*simulation_, view, *frame_);
    const std::vector<clf::Event> draw_events = runtime_->stop_recording();
    const std::vector<cl_uchar4> bytes = frame_->read();
    result.rgba.resize(bytes.size());
    std::memcpy(result.rgba.data(), bytes.data(), bytes.size() * sizeof(cl_uchar4));
    if (r.goal_marker) draw_goal_marker(simulation_->rules(), view, result.rgba);

    result.stage_ms = recorder.totals_ms();
    for (const clf::Event& event : draw_events) result.draw_ms += event.duration_ms();
    result.width = r.width;
    result.height = r.height;
    result.steps = r.steps;
    result.steps_done = simulation_->steps_done();
    result.count = simulation_->size();
    result.rules = simulation_->rules();
    result.device = runtime_->device_name();
    result.method = method_text();
  } catch (const std::exception& error) {
    result.error = error.what();
    simulation_.reset();  // rebuilt from the next request
  }
  return result;
}

std::string FrameMaker::method_text() const {
  if (simulation_->method().brute) return "brute force";
  const BoidsGrid& g = simulation_->grid();
  std::string cells = std::to_string(g.cells_per_axis);
  for (int d = 1; d < simulation_->rules().dims; ++d)
    cells += "x" + std::to_string(g.cells_per_axis);
  return "grid " + cells + ", " + std::to_string(g.search_cells) + "^" +
         std::to_string(simulation_->rules().dims) + " cells searched, ranges by " +
         to_string(simulation_->cell_ranges());
}

}  // namespace boids

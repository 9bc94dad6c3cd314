// The boids window's worker side: a frame request (everything one frame depends on), its result,
// and FrameMaker, which owns the device, the Simulation and the renderer on the worker thread. A
// change of N, dims, box, device or a reset makes a new Simulation; any other change is
// Simulation::set_rules before the next step (no kernel is rebuilt).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/boids/render.hpp"
#include "apps/boids/simulation.hpp"

namespace boids {

// Everything one frame depends on.
struct FrameRequest {
  BoidsRules rules{};  // goal and goal_weight from the mouse and the goal toggle
  std::size_t count = 0;
  std::uint64_t seed = 1;
  Method method;
  std::uint64_t generation = 0;  // bumped by reset: a new Simulation from the seed
  int device = -1;               // index into enumerate_devices(), -1: the options' choice
  int steps = 0;                 // steps before drawing
  int width = 0, height = 0;
  float yaw = 0.6f, pitch = 0.45f, zoom = 1.0f;
  bool goal_marker = false;
};

struct FrameResult {
  int width = 0, height = 0;
  std::vector<std::uint32_t> rgba;
  int steps = 0;  // run for this frame
  std::array<double, kStageCount> stage_ms{};
  double draw_ms = 0;
  std::size_t steps_done = 0;
  std::size_t count = 0;
  BoidsRules rules{};  // the rules the simulation has now
  std::string device;
  std::string method;
  std::string warning;  // rules the simulation refused (it kept its old ones)
  std::string error;    // no simulation
};

// The view a frame is drawn with: make_view with the camera's zoom.
BoidsView view_of(const BoidsRules& rules, int width, int height, float yaw, float pitch,
                  float zoom);

// The world point under frame pixel (sx, sy): in 2D the box, in 3D the plane through the box's
// centre facing the camera. Clamped into the box.
cl_float4 unproject(const BoidsRules& rules, const BoidsView& view, float sx, float sy);

// Owned by the worker thread: the device, the simulation on it and the renderer.
class FrameMaker {
 public:
  explicit FrameMaker(clf::DeviceRequest request) : request_(std::move(request)) {
    request_.profiling = true;  // per-stage device times
  }

  FrameResult make(const FrameRequest& r);

 private:
  std::string method_text() const;

  clf::DeviceRequest request_;
  std::unique_ptr<clf::Runtime> runtime_;
  std::unique_ptr<FrameRenderer> renderer_;
  std::unique_ptr<Simulation> simulation_;
  std::unique_ptr<clf::DeviceBuffer<cl_uchar4>> frame_;
  int device_ = -2;
  std::uint64_t generation_ = 0;
};

}  // namespace boids

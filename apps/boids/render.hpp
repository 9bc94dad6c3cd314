// Frames of a Simulation drawn on the device (kernels/boids/render.cl): one point per boid (3x3
// pixels in frames of 400 pixels and more), coloured by heading; 3D through an orbiting perspective
// camera. A GUI keeps the RGBA buffer on the device and draws every frame; the CLI downloads one
// and writes a PNG.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/boids/simulation.hpp"
#include "framework/clf.hpp"

namespace boids {

// A camera orbiting the box's centre: yaw around z, pitch above the xy plane (radians).
// 2D ignores the angles and maps the box onto the frame.
BoidsView make_view(const BoidsRules& rules, int width, int height, float yaw = 0.6f,
                    float pitch = 0.45f);

class FrameRenderer {
 public:
  explicit FrameRenderer(clf::Runtime& runtime);
  ~FrameRenderer();

  // Draws into `rgba` (view.width x view.height pixels, top row first, bytes r, g, b, a).
  void draw(const Simulation& simulation, const BoidsView& view,
            clf::DeviceBuffer<cl_uchar4>& rgba);
  // The same, downloaded: width x height x 4 bytes.
  std::vector<std::uint8_t> render(const Simulation& simulation, const BoidsView& view);

 private:
  struct Kernels;
  clf::Runtime* runtime_;
  std::unique_ptr<Kernels> kernels_;
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> packed_;
};

}  // namespace boids

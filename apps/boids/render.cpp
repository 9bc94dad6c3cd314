#include "apps/boids/render.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace boids {

BoidsView make_view(const BoidsRules& rules, int width, int height, float yaw, float pitch) {
  BoidsView view{};
  view.width = width;
  view.height = height;
  view.point_radius = std::min(width, height) >= 400 ? 1 : 0;
  // The camera sits at -forward * distance and looks at the origin; world up is +z.
  const float cp = std::cos(pitch);
  const float forward[3] = {-cp * std::cos(yaw), -cp * std::sin(yaw), -std::sin(pitch)};
  // right = forward x up_world, normalised; up = right x forward.
  float right[3] = {forward[1], -forward[0], 0.0f};
  const float right_length = std::sqrt(right[0] * right[0] + right[1] * right[1]);
  for (float& c : right) c /= right_length > 0.0f ? right_length : 1.0f;
  const float up[3] = {right[1] * forward[2] - right[2] * forward[1],
                       right[2] * forward[0] - right[0] * forward[2],
                       right[0] * forward[1] - right[1] * forward[0]};
  view.right = cl_float4{{right[0], right[1], right[2], 0.0f}};
  view.up = cl_float4{{up[0], up[1], up[2], 0.0f}};
  view.forward = cl_float4{{forward[0], forward[1], forward[2], 0.0f}};
  const float L = rules.half_width;
  const float reach = 1.75f * L;  // a little more than the box's half diagonal, sqrt(3) L
  view.distance = 10.0f * L;      // far enough for a mild perspective
  // The half diagonal at its nearest fills half the smaller side of the frame.
  view.focal = 0.5f * static_cast<float>(std::min(width, height)) * (view.distance - reach) / reach;
  return view;
}

struct FrameRenderer::Kernels {
  explicit Kernels(clf::Runtime& runtime)
      : clear(runtime, clf::kernel_source("kernels/boids/render.cl"), "boids_clear_frame"),
        draw(runtime, clf::kernel_source("kernels/boids/render.cl"), "boids_draw"),
        unpack(runtime, clf::kernel_source("kernels/boids/render.cl"), "boids_unpack_frame") {}
  clf::CLKernel clear, draw, unpack;
};

FrameRenderer::FrameRenderer(clf::Runtime& runtime)
    : runtime_(&runtime), kernels_(std::make_unique<Kernels>(runtime)) {}
FrameRenderer::~FrameRenderer() = default;

void FrameRenderer::draw(const Simulation& simulation, const BoidsView& view,
                         clf::DeviceBuffer<cl_uchar4>& rgba) {
  const std::size_t pixels = static_cast<std::size_t>(view.width) * view.height;
  if (view.width <= 0 || view.height <= 0 || rgba.size() != pixels) {
    throw clf::Error("FrameRenderer::draw: a " + std::to_string(view.width) + "x" +
                     std::to_string(view.height) + " frame needs an RGBA buffer of " +
                     std::to_string(pixels) + " pixels, got " + std::to_string(rgba.size()));
  }
  if (!packed_ || packed_->size() != pixels) {
    packed_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(*runtime_, pixels);
  }
  const cl_uint count = static_cast<cl_uint>(pixels);
  const cl_uint n = static_cast<cl_uint>(simulation.size());
  kernels_->clear(clf::Range::linear(pixels, 256), count, *packed_);
  kernels_->draw(clf::Range::linear(n, 256), simulation.device_positions(),
                 simulation.device_velocities(), simulation.rules(), view, n, *packed_);
  kernels_->unpack(clf::Range::linear(pixels, 256), *packed_, count, rgba);
}

std::vector<std::uint8_t> FrameRenderer::render(const Simulation& simulation,
                                                const BoidsView& view) {
  clf::DeviceBuffer<cl_uchar4> rgba(*runtime_, static_cast<std::size_t>(view.width) * view.height);
  draw(simulation, view, rgba);
  const std::vector<cl_uchar4> pixels = rgba.read();
  std::vector<std::uint8_t> bytes(pixels.size() * 4);
  std::memcpy(bytes.data(), pixels.data(), bytes.size());
  return bytes;
}

}  // namespace boids

// Helpers shared by the raytracer tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

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

inline int channel(cl_uint pixel, int c) { return static_cast<int>((pixel >> (8 * c)) & 0xFF); }

// Per-pixel tolerance: every channel within 2 of 255 (float rounding differs between the host
// compiler and the OpenCL compiler, e.g. contracted multiply-adds); at least 99.9% of pixels
// must be within it (a pixel on a silhouette or shadow edge may flip).
constexpr int kTolerance = 2;
constexpr double kRequiredShare = 0.999;

// The device image against the CPU reference's. With reference_brute the reference tests every
// sphere and triangle instead of walking the BVHs, so the comparison checks the traversal too.
inline void expect_matches_reference(const raytracer::Scene& scene,
                                     raytracer::RenderSettings settings,
                                     bool reference_brute = false) {
  settings = raytracer::resolve_settings(scene, settings);
  renderer().set_scene(scene);
  renderer().render(settings);
  const auto device = renderer().image();
  raytracer::RenderSettings reference_settings = settings;
  if (reference_brute) reference_settings.use_bvh = false;
  const std::vector<cl_uint> reference = raytracer::render_reference(scene, reference_settings);
  ASSERT_EQ(device.size(), reference.size());
  std::size_t within = 0;
  int worst = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    int diff = 0;
    for (int c = 0; c < 4; ++c)
      diff = std::max(diff, std::abs(channel(device[i], c) - channel(reference[i], c)));
    worst = std::max(worst, diff);
    if (diff <= kTolerance) ++within;
  }
  const double share = static_cast<double>(within) / device.size();
  EXPECT_GE(share, kRequiredShare)
      << scene.name << ": " << (device.size() - within) << " pixels off by more than " << kTolerance
      << " (worst " << worst << ")";
  // The image is not trivially uniform: the comparison means something.
  std::size_t distinct = 0;
  for (std::size_t i = 1; i < reference.size(); ++i) distinct += reference[i] != reference[0];
  EXPECT_GT(distinct, reference.size() / 10) << scene.name << " renders almost uniform";
}

// A width x height frame in `mode` with the mode's default depth.
inline raytracer::RenderSettings mode_settings(raytracer::RenderMode mode, int width, int height) {
  raytracer::RenderSettings settings;
  settings.mode = mode;
  settings.width = width;
  settings.height = height;
  settings.depth = raytracer::default_depth(mode);
  return settings;
}

// A pure Lambert reflector in path mode (no specular coat: index 1).
inline RtMaterial lambert_material(raytracer::Vec3 albedo) {
  RtMaterial m = raytracer::make_material(albedo, 0, 1, 0, 1, 0);
  m.metallic = 0;
  m.roughness = 1;
  m.ior = 1;
  return m;
}

// The device's paths (one frame of `settings`, path mode) against the reference's with the same
// random numbers: equal up to float rounding, except where a rounding difference sends a path
// elsewhere (3 % of pixels allowed).
inline void expect_same_paths_as_reference(const raytracer::Scene& scene,
                                           const raytracer::RenderSettings& settings,
                                           int frames = 1) {
  renderer().set_scene(scene);
  for (int f = 0; f < frames; ++f) renderer().render(settings, true);
  const std::vector<cl_float4> device = renderer().radiance();
  const std::vector<cl_float4> reference =
      raytracer::render_reference_radiance(scene, settings, frames);
  ASSERT_EQ(device.size(), reference.size());
  std::size_t close = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    const cl_float4 d = device[i];
    const cl_float4 r = reference[i];
    const float scale = std::max(1.0f, rt_max_component(r));
    close += std::fabs(d.x - r.x) <= 1e-3f * scale && std::fabs(d.y - r.y) <= 1e-3f * scale &&
             std::fabs(d.z - r.z) <= 1e-3f * scale;
  }
  EXPECT_GE(static_cast<double>(close) / device.size(), 0.97) << scene.name;
}

// The mean of the green channel over an image and its standard deviation over that mean: for an
// image whose pixels all estimate the same value with one path each, how far one path strays.
struct Spread {
  double mean = 0;
  double relative = 0;
};
inline Spread green_spread(const std::vector<cl_float4>& image) {
  double sum = 0;
  double sum2 = 0;
  for (const cl_float4& p : image) {
    sum += p.y;
    sum2 += static_cast<double>(p.y) * p.y;
  }
  Spread s;
  s.mean = sum / image.size();
  s.relative = std::sqrt(std::max(0.0, sum2 / image.size() - s.mean * s.mean)) / s.mean;
  return s;
}

// A scene with one light and no planes unless a test adds them.
inline raytracer::Scene empty_scene() {
  raytracer::Scene scene;
  scene.name = "test";
  scene.background = {0, 0, 0};
  scene.camera.position = {0, 0, 0};
  scene.camera.look_at = {0, 0, 1};
  scene.camera.fov_y = 3.14159265f / 2;
  return scene;
}

// The pixel whose centre ray passes through `point` (the camera model inverted).
inline std::pair<int, int> project(const raytracer::Scene& scene, int width, int height,
                                   raytracer::Vec3 point) {
  const RtCamera camera = raytracer::make_camera(scene.camera, width, height);
  const cl_float4 d = rt_sub(raytracer::to_float4(point), camera.position);
  const cl_float4 q = rt_scale(d, 1.0f / rt_dot(d, camera.forward));
  const float u = (rt_dot(q, camera.right) / rt_dot(camera.right, camera.right) + 1) / 2;
  const float v = (1 - rt_dot(q, camera.up) / rt_dot(camera.up, camera.up)) / 2;
  return {static_cast<int>(std::floor(u * width)), static_cast<int>(std::floor(v * height))};
}

// A 2x2 texture: red, green (top row), blue, white (bottom row).
inline std::shared_ptr<const raytracer::SceneTexture> four_colour_texture() {
  raytracer::SceneTexture t;
  t.name = "four colours";
  t.width = 2;
  t.height = 2;
  t.rgba = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};
  return std::make_shared<const raytracer::SceneTexture>(t);
}

// The device's `image` of the unit quad of make_quad_mesh (facing the camera, untransformed)
// with four_colour_texture on it shows each texel at its texel centre, (±0.5, ±0.5) on the quad:
// the top-left texel (red) at the top left. Within 40 of 255 per channel (bilinear filtering).
inline void expect_four_texels_in_place(const raytracer::Scene& scene, int width, int height,
                                        const raytracer::Image& image) {
  struct Expected {
    raytracer::Vec3 point;
    cl_uint rgba;
    const char* where;
  };
  for (const Expected& e : {Expected{{-0.5f, 0.5f, 0}, 0xFF0000FFu, "top left: red"},
                            Expected{{0.5f, 0.5f, 0}, 0xFF00FF00u, "top right: green"},
                            Expected{{-0.5f, -0.5f, 0}, 0xFFFF0000u, "bottom left: blue"},
                            Expected{{0.5f, -0.5f, 0}, 0xFFFFFFFFu, "bottom right: white"}}) {
    const auto [x, y] = project(scene, width, height, e.point);
    const cl_uint pixel = image[static_cast<std::size_t>(y) * width + x];
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(channel(pixel, c), channel(e.rgba, c), 40) << e.where << ", channel " << c;
    }
  }
}

}  // namespace raytracer_test

// A scene looks the same whatever its units: models come in metres, millimetres or kilometres,
// and the offsets that keep secondary rays off their own surface must follow the scene's size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "apps/raytracer/render_settings.hpp"
#include "apps/raytracer/scene.hpp"
#include "raytracer_test_support.hpp"

namespace {

using raytracer::RenderMode;
using raytracer::RenderSettings;
using raytracer::Scene;
using raytracer_test::channel;

raytracer::Vec3 scaled(raytracer::Vec3 v, float s) { return {v.x * s, v.y * s, v.z * s}; }
cl_float4 scaled(cl_float4 v, float s) { return rt_vec(v.x * s, v.y * s, v.z * s); }

// The scene with every length multiplied by s; what the camera sees is unchanged. Lights keep
// their intensity (point lights have no fall-off) and emitters their radiance.
Scene scaled_scene(Scene scene, float s) {
  for (RtSphere& sphere : scene.spheres) {
    sphere.center_radius.x *= s;
    sphere.center_radius.y *= s;
    sphere.center_radius.z *= s;
    sphere.center_radius.w *= s;
  }
  for (RtPlane& plane : scene.planes) {
    plane.offset *= s;
    plane.checker_size *= s;
  }
  for (RtLight& light : scene.lights) light.position = scaled(light.position, s);
  for (raytracer::MeshInstance& instance : scene.instances)
    instance.transform = raytracer::Transform::scale(s, s, s) * instance.transform;
  scene.camera.position = scaled(scene.camera.position, s);
  scene.camera.look_at = scaled(scene.camera.look_at, s);
  return scene;
}

struct Difference {
  double share_within = 0;  // pixels with every channel within the tolerance
  int worst = 0;
};

Difference compare(const std::vector<cl_uint>& a, const std::vector<cl_uint>& b, int tolerance) {
  Difference d;
  std::size_t within = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    int diff = 0;
    for (int c = 0; c < 3; ++c)
      diff = std::max(diff, std::abs(channel(a[i], c) - channel(b[i], c)));
    d.worst = std::max(d.worst, diff);
    within += diff <= tolerance;
  }
  d.share_within = static_cast<double>(within) / a.size();
  return d;
}

// Whitted: the Cornell box (spheres resting on the floor, glass, a mesh panel) at 1/1000, 1 and
// 1000 scene units: the same picture but for rounding at edges.
TEST(RaytracerScale, WhittedImageIsTheSameAtEveryScale) {
  const Scene unit = raytracer::builtin_scene("cornell");
  const RenderSettings settings = raytracer::resolve_settings(
      unit, raytracer_test::mode_settings(RenderMode::whitted, 160, 160));
  const std::vector<cl_uint> expected = raytracer::render_reference(unit, settings);
  for (const float s : {1e-3f, 1e3f}) {
    const Difference d =
        compare(raytracer::render_reference(scaled_scene(unit, s), settings), expected, 2);
    EXPECT_GE(d.share_within, 0.995) << "scale " << s << ": worst " << d.worst;
  }
}

// Path tracing draws the same random numbers at every scale, so the paths are the same but where
// rounding turns one aside; averaged over 16 frames, every 8x8 block's mean matches.
TEST(RaytracerScale, PathTracedImageIsTheSameAtEveryScale) {
  const Scene unit = raytracer::builtin_scene("cornell");
  const RenderSettings settings =
      raytracer::resolve_settings(unit, raytracer_test::mode_settings(RenderMode::path, 160, 160));
  const int frames = 16;
  const std::vector<cl_uint> expected = raytracer::render_reference(unit, settings, 0, frames);
  for (const float s : {1e-3f, 1e3f}) {
    const std::vector<cl_uint> image =
        raytracer::render_reference(scaled_scene(unit, s), settings, 0, frames);
    const Difference d = compare(image, expected, 2);
    EXPECT_GE(d.share_within, 0.95) << "scale " << s << ": worst " << d.worst;
    int worst_block = 0;
    for (int by = 0; by < settings.height; by += 8) {
      for (int bx = 0; bx < settings.width; bx += 8) {
        for (int c = 0; c < 3; ++c) {
          int sum = 0;
          for (int y = by; y < by + 8; ++y) {
            for (int x = bx; x < bx + 8; ++x) {
              const std::size_t i = static_cast<std::size_t>(y) * settings.width + x;
              sum += channel(image[i], c) - channel(expected[i], c);
            }
          }
          worst_block = std::max(worst_block, std::abs(sum) / 64);
        }
      }
    }
    EXPECT_LE(worst_block, 3) << "scale " << s;
  }
}

}  // namespace

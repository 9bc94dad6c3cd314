// Environment images: where a direction reads the panorama, a white furnace lit by one, and the
// device against the CPU reference with one in both modes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "raytracer_test_support.hpp"

namespace {

using namespace raytracer;
using raytracer_test::empty_scene;
using raytracer_test::expect_matches_reference;
using raytracer_test::renderer;

constexpr float kPi = 3.14159265f;

// A width x height panorama whose texel (x, y) holds (x, y, 1 + x + 10 y).
std::shared_ptr<const EnvironmentImage> numbered_image(int width, int height) {
  auto image = std::make_shared<EnvironmentImage>();
  image->width = width;
  image->height = height;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image->radiance.push_back(
          rt_vec(static_cast<float>(x), static_cast<float>(y), static_cast<float>(1 + x + 10 * y)));
    }
  }
  return image;
}

Scene with_environment(Scene scene, std::shared_ptr<const EnvironmentImage> image,
                       float intensity = 1, float rotate_degrees = 0) {
  SceneEnvironment environment;
  environment.file = "in memory";
  environment.intensity = intensity;
  environment.rotate_degrees = rotate_degrees;
  environment.image = std::move(image);
  scene.environment = environment;
  return scene;
}

// The direction at azimuth `turns` from +z towards +x and `down` from +y (both shares of pi x 2
// and of pi).
cl_float4 direction(float turns, float down) {
  const float azimuth = 2 * kPi * turns;
  const float polar = kPi * down;
  return rt_vec(std::sin(azimuth) * std::sin(polar), std::cos(polar),
                std::cos(azimuth) * std::sin(polar));
}

TEST(RaytracerSky, EachTexelCentreReadsThatTexel) {
  const auto image = numbered_image(8, 4);
  const Scene scene = with_environment(empty_scene(), image, 2.0f);
  const RtFrameParams params = make_frame_params(scene, resolve_settings(scene, {}), 0, 0, {});
  ASSERT_EQ(params.sky_width, 8u);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 8; ++x) {
      // Texel x's centre is u = (x + 0.5) / 8, and u = 0.5 lies along +z.
      const cl_float4 d = direction((x + 0.5f) / 8 - 0.5f, (y + 0.5f) / 4);
      const cl_float4 seen = rt_sky(&params, image->radiance.data(), d);
      EXPECT_NEAR(seen.x, 2.0f * x, 1e-3f) << "texel (" << x << ", " << y << ")";
      EXPECT_NEAR(seen.y, 2.0f * y, 1e-3f) << "texel (" << x << ", " << y << ")";
    }
  }
  // Straight up reads the top row, straight down the bottom one; +x is right of the centre.
  EXPECT_NEAR(rt_sky(&params, image->radiance.data(), rt_vec(0, 1, 0)).y, 0.0f, 1e-6f);
  EXPECT_NEAR(rt_sky(&params, image->radiance.data(), rt_vec(0, -1, 0)).y, 2.0f * 3, 1e-6f);
  EXPECT_NEAR(rt_sky(&params, image->radiance.data(), direction(0.25f - 1.0f / 16, 0.5f)).x,
              2.0f * 5, 1e-3f);
  // A quarter turn brings what lay along +z (between columns 3 and 4) to +x.
  const Scene turned = with_environment(empty_scene(), image, 1.0f, 90);
  const RtFrameParams p = make_frame_params(turned, resolve_settings(turned, {}), 0, 0, {});
  EXPECT_NEAR(rt_sky(&p, image->radiance.data(), rt_vec(1, 0, 0)).x, 3.5f, 1e-3f);
  // Between texels the reading is their mix; across the back (-z) it wraps.
  const cl_float4 between = rt_sky(&params, image->radiance.data(), direction(0, 0.375f));
  EXPECT_NEAR(between.x, 2.0f * 3.5f, 1e-3f) << "columns 3 and 4 mixed";
  EXPECT_NEAR(between.y, 2.0f * 1, 1e-3f) << "row 1";
  const cl_float4 back = rt_sky(&params, image->radiance.data(), direction(0.5f, 0.625f));
  EXPECT_NEAR(back.x, 2.0f * 3.5f, 1e-3f) << "columns 7 and 0 mixed";
  // Directions that are not numbers still read a texel.
  const cl_float4 nan = rt_sky(&params, image->radiance.data(), rt_vec(NAN, NAN, NAN));
  EXPECT_TRUE(std::isfinite(nan.x) && std::isfinite(nan.y) && std::isfinite(nan.z));
}

// A white furnace with the sky as the furnace: a Lambert sphere of albedo 0.6 inside a panorama
// of radiance 1 everywhere returns 0.6 on the device.
TEST(RaytracerSky, LambertSphereInAnEnvironmentFurnaceReflectsItsAlbedo) {
  auto uniform = std::make_shared<EnvironmentImage>();
  uniform->width = 16;
  uniform->height = 8;
  uniform->radiance.assign(16 * 8, rt_vec(1, 1, 1));
  Scene scene = empty_scene();
  scene.background = {0, 0, 0};  // the sky replaces it
  RtMaterial lambert = make_material({0.6f, 0.6f, 0.6f}, 0, 1, 0, 1, 0);
  lambert.metallic = 0;
  lambert.roughness = 1;
  lambert.ior = 1;
  scene.materials.push_back(lambert);
  scene.spheres.push_back(make_sphere({0, 0, 3}, 1, 0));
  scene = with_environment(scene, uniform);
  RenderSettings s;
  s.mode = RenderMode::path;
  s.width = 17;
  s.height = 17;
  s.aa = 4;
  s.depth = 16;
  renderer().set_scene(scene);
  for (int f = 0; f < 8; ++f) renderer().render(s, true);
  const std::vector<cl_float4> image = renderer().radiance();
  double sum = 0;
  for (int y = 6; y <= 10; ++y) {
    for (int x = 6; x <= 10; ++x) sum += image[y * 17 + x].y;
  }
  EXPECT_NEAR(sum / 25, 0.6, 0.02);
}

// The mesh-and-spheres scene of the material-map tests' kind under a varied panorama: the device
// against the reference, Whitted (the sky seen and mirrored) and path traced (lit by it).
TEST(RaytracerSky, DeviceMatchesReferenceInBothModes) {
  Scene scene = empty_scene();
  scene.camera.position = {0, 1, -4};
  scene.camera.look_at = {0, 0.5f, 0};
  scene.materials.push_back(make_material({0.8f, 0.7f, 0.6f}, 0.1f, 0.8f, 0.3f, 16, 0));
  scene.materials.push_back(make_material({0.9f, 0.9f, 0.9f}, 0.05f, 0.2f, 0.8f, 64, 0.9f));
  scene.planes.push_back(make_plane({0, 1, 0}, -1, 0));
  scene.spheres.push_back(make_sphere({-0.8f, 0, 0.5f}, 0.7f, 0));
  scene.spheres.push_back(make_sphere({0.9f, 0.2f, 0.8f}, 0.8f, 1));
  scene.name = "sky";
  scene = with_environment(scene, numbered_image(32, 16), 0.05f, 30);
  RenderSettings whitted;
  whitted.width = 64;
  whitted.height = 48;
  expect_matches_reference(scene, whitted);

  RenderSettings path = whitted;
  path.mode = RenderMode::path;
  path.depth = 4;
  renderer().set_scene(scene);
  renderer().render(path, true);
  const std::vector<cl_float4> device = renderer().radiance();
  const std::vector<cl_float4> reference = render_reference_radiance(scene, path, 1);
  std::size_t close = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    const float scale = std::max(1.0f, rt_max_component(reference[i]));
    close += std::fabs(device[i].x - reference[i].x) <= 1e-3f * scale &&
             std::fabs(device[i].y - reference[i].y) <= 1e-3f * scale &&
             std::fabs(device[i].z - reference[i].z) <= 1e-3f * scale;
  }
  EXPECT_GE(static_cast<double>(close) / device.size(), 0.97);
}

}  // namespace

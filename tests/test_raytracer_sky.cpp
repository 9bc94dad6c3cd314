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
  std::vector<cl_float4> radiance;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      radiance.push_back(
          rt_vec(static_cast<float>(x), static_cast<float>(y), static_cast<float>(1 + x + 10 * y)));
    }
  }
  return std::make_shared<const EnvironmentImage>(width, height, std::move(radiance));
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

// Drawn as a light, a direction's density is the one rt_sky_pdf gives it (but where rounding puts
// a point drawn on a texel's edge into its neighbour), and the density integrates to 1 over the
// sphere (a fine grid of directions); a texel is never drawn where it and its neighbours are
// black (a bilinear lookup there gives black).
TEST(RaytracerSky, SamplingDensityIsConsistentAndNormalised) {
  auto image = numbered_image(16, 8);
  std::vector<cl_float4> radiance = image->radiance;
  for (int x = 0; x < 3 * 16; ++x) radiance[3 * 16 + x] = rt_vec(0, 0, 0);  // rows 3-5 black
  const auto sky = std::make_shared<const EnvironmentImage>(16, 8, radiance);
  const Scene scene = with_environment(empty_scene(), sky, 1.0f, 40);
  const RtFrameParams params = make_frame_params(scene, resolve_settings(scene, {}), 0, 0, {});
  ASSERT_EQ(params.sky_sampled, 1u);
  const float* cdf = sky->distribution.data();
  std::uint32_t rng = 12345;
  int differing = 0;
  const int samples = 20000;
  for (int i = 0; i < samples; ++i) {
    float pdf = 0;
    const cl_float4 d = rt_sample_sky(&params, cdf, rt_random(&rng), rt_random(&rng), &pdf);
    ASSERT_NEAR(rt_dot(d, d), 1.0f, 1e-4f);
    ASSERT_GT(pdf, 0.0f);
    differing += std::fabs(rt_sky_pdf(&params, cdf, d) - pdf) > 2e-3f * pdf;
    cl_float u, v;
    rt_sky_coordinates(&params, d, &u, &v);
    EXPECT_FALSE(v > 4.0f / 8 && v < 5.0f / 8) << "a direction in row 4";
  }
  EXPECT_LE(differing, samples / 1000);
  double integral = 0;
  const int n = 1000;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 2 * n; ++j) {
      const float polar = kPi * (i + 0.5f) / n;
      const float azimuth = 2 * kPi * (j + 0.5f) / (2 * n);
      const cl_float4 d = rt_vec(std::sin(azimuth) * std::sin(polar), std::cos(polar),
                                 std::cos(azimuth) * std::sin(polar));
      integral += rt_sky_pdf(&params, cdf, d) * std::sin(polar) * (kPi / n) * (kPi / n);
    }
  }
  EXPECT_NEAR(integral, 1.0, 2e-3);
}

// A grey floor under a black sky with a small bright sun (a 2x2-texel patch of a 64x32 image):
// its radiance is albedo / pi times the irradiance, found here by quadrature of the image over
// the upper half of the sphere. Sampled as a light, one path's estimate spreads by less than the
// mean, 0.79 (escaping paths alone meet the sun about one time in 170: a spread of 14 times the
// mean); what is left is the bilinear lookup's variation within the texels drawn.
TEST(RaytracerSky, SunLightsAFloorAsQuadratureSays) {
  std::vector<cl_float4> radiance(64 * 32, rt_vec(0, 0, 0));
  for (int y : {9, 10}) {
    for (int x : {40, 41}) radiance[y * 64 + x] = rt_vec(400, 380, 350);
  }
  Scene scene = empty_scene();
  scene.background = {0, 0, 0};
  scene.materials.push_back(raytracer_test::lambert_material({0.5f, 0.5f, 0.5f}));
  scene.planes.push_back(make_plane({0, 1, 0}, 0, 0));
  scene.camera.position = {0, 1, -3};
  scene.camera.look_at = {0, 0, 0};
  scene.camera.fov_y = 2.0f * kPi / 180.0f;
  scene = with_environment(
      scene, std::make_shared<const EnvironmentImage>(64, 32, std::move(radiance)), 1.0f, 25);
  const RtFrameParams params = make_frame_params(scene, resolve_settings(scene, {}), 0, 0, {});
  double irradiance = 0;
  const int n = 2000;
  for (int i = 0; i < n / 2; ++i) {
    for (int j = 0; j < 2 * n; ++j) {
      const float polar = kPi * (i + 0.5f) / n;
      const float azimuth = 2 * kPi * (j + 0.5f) / (2 * n);
      const cl_float4 d = rt_vec(std::sin(azimuth) * std::sin(polar), std::cos(polar),
                                 std::cos(azimuth) * std::sin(polar));
      irradiance += rt_sky(&params, scene.environment->image->radiance.data(), d).y * d.y *
                    std::sin(polar) * (kPi / n) * (kPi / n);
    }
  }
  const double expected = 0.5 / kPi * irradiance;
  ASSERT_GT(expected, 1.0) << "the sun is above the horizon";
  RenderSettings s;
  s.mode = RenderMode::path;
  s.width = 33;
  s.height = 33;
  s.depth = 2;
  EXPECT_LT(raytracer_test::green_spread(render_reference_radiance(scene, s, 1)).relative, 1.0);
  // 16 paths a pixel on the device: the mean's standard error is about 0.6 %.
  s.aa = 4;
  renderer().set_scene(scene);
  renderer().render(s, true);
  double device = 0;
  for (const cl_float4& p : renderer().radiance()) device += p.y;
  EXPECT_NEAR(device / (s.width * s.height), expected, 0.025 * expected);
}

// A white furnace with the sky as the furnace: a Lambert sphere of albedo 0.6 inside a panorama
// of radiance 1 everywhere returns 0.6 on the device.
TEST(RaytracerSky, LambertSphereInAnEnvironmentFurnaceReflectsItsAlbedo) {
  auto uniform = std::make_shared<const EnvironmentImage>(
      16, 8, std::vector<cl_float4>(16 * 8, rt_vec(1, 1, 1)));
  Scene scene = empty_scene();
  scene.background = {0, 0, 0};  // the sky replaces it
  scene.materials.push_back(raytracer_test::lambert_material({0.6f, 0.6f, 0.6f}));
  scene.spheres.push_back(make_sphere({0, 0, 3}, 1, 0));
  scene = with_environment(scene, uniform);
  RenderSettings s;
  s.mode = RenderMode::path;
  s.width = 32;
  s.height = 32;
  s.aa = 4;
  s.depth = 16;
  renderer().set_scene(scene);
  for (int f = 0; f < 8; ++f) renderer().render(s, true);
  const std::vector<cl_float4> image = renderer().radiance();
  double sum = 0;
  for (int y = 14; y <= 18; ++y) {
    for (int x = 14; x <= 18; ++x) sum += image[y * 32 + x].y;
  }
  EXPECT_NEAR(sum / 25, 0.6, 0.01);
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
  raytracer_test::expect_same_paths_as_reference(scene, path);
}

}  // namespace

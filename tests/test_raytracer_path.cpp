// The path tracer: energy conservation in a white furnace (an object in a uniform sky), an
// area light's irradiance against its closed form, the device against the CPU reference (the
// same paths; and, with other random numbers, the same converged image within a statistical
// tolerance), and the rays it counts.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/raytracer/procedural_mesh.hpp"
#include "raytracer_test_support.hpp"

namespace {

using raytracer_test::empty_scene;
using raytracer_test::renderer;
using namespace raytracer;

RenderSettings path_settings(int size, int aa, int depth = 16) {
  RenderSettings s;
  s.mode = RenderMode::path;
  s.width = size;
  s.height = size;
  s.aa = aa;
  s.depth = depth;
  return s;
}

// The device's linear image after `frames` accumulated frames.
std::vector<cl_float4> device_radiance(const Scene& scene, const RenderSettings& settings,
                                       int frames) {
  renderer().set_scene(scene);
  for (int f = 0; f < frames; ++f) renderer().render(settings, true);
  return renderer().radiance();
}

// Mean of channel c over the pixels within `radius` pixels of the image centre.
double centre_mean(const std::vector<cl_float4>& image, int size, int radius, int c) {
  double sum = 0;
  int n = 0;
  for (int y = size / 2 - radius; y <= size / 2 + radius; ++y) {
    for (int x = size / 2 - radius; x <= size / 2 + radius; ++x) {
      const cl_float4& p = image[static_cast<std::size_t>(y) * size + x];
      sum += c == 0 ? p.x : c == 1 ? p.y : p.z;
      ++n;
    }
  }
  return sum / n;
}

// A sphere filling the middle of the view, in a sky of radiance 1 with no lights: whatever the
// sphere does not absorb reaches the camera.
Scene furnace(const RtMaterial& material) {
  Scene scene = empty_scene();
  scene.background = {1, 1, 1};
  scene.materials.push_back(material);
  scene.spheres.push_back(make_sphere({0, 0, 3}, 1, 0));
  return scene;
}

RtMaterial lambert(Vec3 albedo) { return raytracer_test::lambert_material(albedo); }

TEST(RaytracerPath, LambertSphereInAFurnaceReflectsItsAlbedo) {
  const std::vector<cl_float4> image =
      device_radiance(furnace(lambert({0.8f, 0.5f, 0.2f})), path_settings(32, 4), 4);
  // A convex object: each bounce leaves it and sees the sky, so every path returns the albedo
  // in expectation (64 paths a pixel, 25 pixels).
  EXPECT_NEAR(centre_mean(image, 32, 2, 0), 0.8, 0.01);
  EXPECT_NEAR(centre_mean(image, 32, 2, 1), 0.5, 0.01);
  EXPECT_NEAR(centre_mean(image, 32, 2, 2), 0.2, 0.01);
  EXPECT_FLOAT_EQ(image[0].x, 1.0f);  // a corner sees the sky
}

TEST(RaytracerPath, ClearGlassInAFurnaceLosesNothing) {
  RtMaterial glass = lambert({1, 1, 1});
  glass.transmission = 1;
  glass.ior = 1.5f;
  glass.roughness = 0;
  const std::vector<cl_float4> image = device_radiance(furnace(glass), path_settings(32, 4), 4);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(centre_mean(image, 32, 4, c), 1.0, 0.01);
}

// The BSDF's sampling agrees with its evaluation (on the host, through the shared code): the
// mean weight f cos / pdf of drawn directions equals the integral of f cos over the hemisphere
// by quadrature, and the density the evaluation reports integrates to at most 1 (directions
// drawn below the surface are lost). Multiple importance sampling relies on both.
TEST(RaytracerPath, BsdfSamplingMatchesItsEvaluation) {
  struct Case {
    const char* name;
    float metallic, roughness, ior;
  };
  for (const Case& c : {Case{"rough metal", 1, 0.5f, 1.5f}, Case{"glossy metal", 1, 0.15f, 1.5f},
                        Case{"plastic", 0, 0.3f, 1.5f}, Case{"lambert", 0, 1, 1}}) {
    RtSurfacePoint s{};
    s.normal = rt_vec(0, 0, 1);
    s.base_color = rt_vec(0.9f, 0.6f, 0.3f);
    s.metallic = c.metallic;
    s.alpha = std::max(c.roughness * c.roughness, RT_MIN_ALPHA);
    s.ior = c.ior;
    s.front = 1;
    for (float nv : {0.25f, 0.6f, 0.95f}) {
      SCOPED_TRACE(std::string(c.name) + ", n.v " + std::to_string(nv));
      const cl_float4 v = rt_vec(std::sqrt(1 - nv * nv), 0, nv);
      double drawn = 0;
      cl_uint rng = 12345;
      const int n = 400000;
      for (int i = 0; i < n; ++i) {
        const float u_lobe = rt_random(&rng), u1 = rt_random(&rng), u2 = rt_random(&rng);
        drawn += rt_sample_bsdf(s, v, u_lobe, u1, u2).weight.y;
      }
      // Quadrature in (cos theta, phi), midpoints.
      double integral = 0, density = 0;
      const int steps = 800;
      for (int i = 0; i < steps; ++i) {
        const double cos_t = (i + 0.5) / steps;
        const double sin_t = std::sqrt(1 - cos_t * cos_t);
        for (int j = 0; j < steps; ++j) {
          const double phi = 2 * M_PI * (j + 0.5) / steps;
          const cl_float4 l =
              rt_vec(static_cast<float>(sin_t * std::cos(phi)),
                     static_cast<float>(sin_t * std::sin(phi)), static_cast<float>(cos_t));
          float pdf = 0;
          const cl_float4 f = rt_bsdf_eval(s, v, l, &pdf);
          const double area = (1.0 / steps) * (2 * M_PI / steps);
          integral += f.y * cos_t * area;
          density += pdf * area;
        }
      }
      EXPECT_NEAR(drawn / n, integral, 0.01 * integral + 0.002);
      EXPECT_LE(density, 1.01);
      EXPECT_GT(integral, 0.05);
    }
  }
}

TEST(RaytracerPath, RoughMetalInAFurnaceReflectsAtMostEverything) {
  RtMaterial metal = lambert({1, 1, 1});
  metal.metallic = 1;
  metal.roughness = 0.5f;
  const std::vector<cl_float4> image = device_radiance(furnace(metal), path_settings(32, 4), 4);
  // Single-scattering microfacets lose the light that would bounce between facets: a few per
  // cent at this roughness, never a gain.
  const double mean = centre_mean(image, 32, 4, 0);
  EXPECT_LE(mean, 1.005);
  EXPECT_GE(mean, 0.85);
}

TEST(RaytracerPath, PlasticInAFurnaceDoesNotCreateEnergy) {
  RtMaterial plastic = lambert({1, 1, 1});
  plastic.ior = 1.5f;
  plastic.roughness = 0.3f;
  const std::vector<cl_float4> image = device_radiance(furnace(plastic), path_settings(32, 4), 4);
  for (int c = 0; c < 3; ++c) EXPECT_LE(centre_mean(image, 32, 4, c), 1.01);
  EXPECT_GE(centre_mean(image, 32, 4, 0), 0.85);
}

// A grey Lambert floor (albedo 0.5) under a glowing sphere of radiance L = 4 and radius r = 0.5
// whose centre is d = 2 above it, seen from the side so that the centre pixels see floor points
// near the one below the sphere.
Scene sphere_light_over_floor() {
  Scene scene = empty_scene();
  scene.materials.push_back(lambert({0.5f, 0.5f, 0.5f}));
  RtMaterial glow = lambert({0, 0, 0});
  glow.emission = rt_vec(4, 4, 4);
  scene.materials.push_back(glow);
  scene.planes.push_back(make_plane({0, 1, 0}, 0, 0));
  scene.spheres.push_back(make_sphere({0, 2, 0}, 0.5f, 1));
  scene.camera.position = {0, 1, -3};
  scene.camera.look_at = {0, 0, 0};
  scene.camera.fov_y = 2.0f * 3.14159265f / 180.0f;  // the centre pixels see points near (0,0,0)
  return scene;
}

// The floor point below the sphere receives E = pi L (r / d)^2 and shows albedo / pi x E. Light
// sampling and BSDF sampling both reach the sphere; their weighted sum must give exactly that.
TEST(RaytracerPath, AreaLightGivesTheIrradianceOfItsClosedForm) {
  const Scene scene = sphere_light_over_floor();
  const std::vector<cl_float4> image = device_radiance(scene, path_settings(33, 8, 4), 16);
  // 25 pixels x 1024 paths, each within a few per cent of the answer (next test): what is left
  // is the pixels' points lying beside the one the closed form is for.
  const double expected = 0.5 * 4.0 * (0.5 * 0.5) / (2.0 * 2.0);
  EXPECT_NEAR(centre_mean(image, 33, 2, 1), expected, 0.005 * expected);
}

// The scene above seen at one path per pixel: every pixel's estimate of the same floor point.
// Light sampling draws points of the sphere the floor can see (its visible cap, by solid angle),
// so a single path is already close to the answer; drawn over the whole sphere, half the points
// would be on its far side, in its own shadow, and the rest weighted by their distance.
TEST(RaytracerPath, SphereLightSamplesSpreadLittle) {
  const raytracer_test::Spread spread = raytracer_test::green_spread(
      render_reference_radiance(sphere_light_over_floor(), path_settings(33, 1), 1));
  // Over the whole sphere the spread was 1.66 times the mean; over the cap it is 0.02.
  EXPECT_LT(spread.relative, 0.05);
  const double expected = 0.5 * 4.0 * (0.5 * 0.5) / (2.0 * 2.0);
  EXPECT_NEAR(spread.mean, expected, 0.01 * expected);
}

// The same for a light made of triangles (a lamp panel), checked against the reference's
// estimate with other random numbers: both sampling strategies on triangle emitters.
TEST(RaytracerPath, DeviceConvergesToTheReferenceOnTheCornellBox) {
  const Scene scene = builtin_scene("cornell");
  const RenderSettings settings = path_settings(24, 2, 6);
  const std::vector<cl_float4> device = device_radiance(scene, settings, 32);
  const std::vector<cl_float4> other = render_reference_radiance(scene, settings, 32, 1000);
  // 6 x 6 blocks of 4 x 4 pixels: their means agree within 4 standard errors (estimated from
  // the spread of the pixels in the block, which also holds the image's own variation, so the
  // bound is conservative), and the image as a whole within 3 %.
  double total_device = 0, total_other = 0;
  for (int by = 0; by < 6; ++by) {
    for (int bx = 0; bx < 6; ++bx) {
      double sum_d = 0, sum_o = 0, sq_d = 0, sq_o = 0;
      for (int y = by * 4; y < by * 4 + 4; ++y) {
        for (int x = bx * 4; x < bx * 4 + 4; ++x) {
          const double d = rt_luminance(device[y * 24 + x]);
          const double o = rt_luminance(other[y * 24 + x]);
          sum_d += d;
          sum_o += o;
          sq_d += d * d;
          sq_o += o * o;
        }
      }
      const double n = 16;
      const double var_d = std::max(0.0, sq_d / n - (sum_d / n) * (sum_d / n));
      const double var_o = std::max(0.0, sq_o / n - (sum_o / n) * (sum_o / n));
      const double error = std::sqrt(var_d / n + var_o / n);
      EXPECT_NEAR(sum_d / n, sum_o / n, 4 * error + 0.01) << "block (" << bx << ", " << by << ")";
      total_device += sum_d;
      total_other += sum_o;
    }
  }
  EXPECT_NEAR(total_device / total_other, 1.0, 0.03);
  EXPECT_GT(total_device / (24 * 24), 0.05) << "the box is lit";
}

TEST(RaytracerPath, DeviceTracesTheReferencePathsWithTheSameRandomNumbers) {
  // The Cornell box with its white sphere glowing too: light sampling of triangles and spheres.
  Scene scene = builtin_scene("cornell");
  RtMaterial glow = lambert({0.5f, 0.5f, 0.5f});
  glow.emission = rt_vec(2, 3, 4);
  scene.materials.push_back(glow);
  scene.spheres.back().material = static_cast<cl_uint>(scene.materials.size() - 1);
  raytracer_test::expect_same_paths_as_reference(scene, path_settings(20, 1, 6), 2);
}

TEST(RaytracerPath, CountsTheRaysItTraces) {
  const Scene scene = builtin_scene("cornell");
  renderer().set_scene(scene);
  const FrameTimings t = renderer().render(path_settings(16, 2, 6));
  EXPECT_EQ(t.primary_rays, 16u * 16u * 4u);
  // Every primary hit inside the box draws a shadow ray to the point light and one to the panel
  // (fewer where the BSDF cannot reach them), and most paths go on.
  EXPECT_GT(t.shadow_rays, t.primary_rays);
  EXPECT_GT(t.secondary_rays, t.primary_rays / 2);

  RenderSettings whitted;
  whitted.width = 16;
  whitted.height = 16;
  const FrameTimings w = renderer().render(whitted);
  EXPECT_EQ(w.primary_rays, 256u);
  EXPECT_GT(w.shadow_rays, 0u);
}

TEST(RaytracerPath, WhittedModeRefractsThroughGlassAsTheReferenceDoes) {
  RenderSettings settings;
  settings.width = 48;
  settings.height = 48;
  raytracer_test::expect_matches_reference(builtin_scene("cornell"), settings);
}

TEST(RaytracerPath, ToneMappedImageMatchesTheReference) {
  const Scene scene = builtin_scene("cornell");
  const RenderSettings settings = path_settings(20, 1, 6);
  renderer().set_scene(scene);
  renderer().render(settings);
  const auto device = renderer().image();
  const std::vector<cl_uint> reference = render_reference(scene, settings);
  std::size_t same = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    int diff = 0;
    for (int c = 0; c < 3; ++c) {
      diff = std::max(diff, std::abs(raytracer_test::channel(device[i], c) -
                                     raytracer_test::channel(reference[i], c)));
    }
    same += diff <= 2;
  }
  EXPECT_GE(static_cast<double>(same) / device.size(), 0.97);
}

}  // namespace

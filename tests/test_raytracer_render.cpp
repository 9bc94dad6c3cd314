// Raytracer: the device image against the CPU reference, and analytic checks (a sphere's
// silhouette, a shadow where the light is blocked, a mirror showing what is behind the camera).
#include <gtest/gtest.h>

#include <cmath>

#include "raytracer_test_support.hpp"

namespace {

using raytracer_test::renderer;
using namespace raytracer;

using raytracer_test::channel;
using raytracer_test::empty_scene;
using raytracer_test::expect_matches_reference;
using raytracer_test::project;

TEST(RaytracerRender, SeedMatchesReferenceWithBvh) {
  RenderSettings s;
  s.width = 96;
  s.height = 96;
  expect_matches_reference(builtin_scene("seed"), s);
}

TEST(RaytracerRender, SeedMatchesReferenceBruteForceWithAntialiasing) {
  RenderSettings s;
  s.width = 48;
  s.height = 48;
  s.aa = 2;
  s.use_bvh = false;
  expect_matches_reference(builtin_scene("seed"), s);
}

TEST(RaytracerRender, AalborgMatchesReference) {
  RenderSettings s;
  s.width = 64;
  s.height = 64;
  expect_matches_reference(builtin_scene("aalborg"), s);
}

TEST(RaytracerRender, RandomSceneMatchesReference) {
  RenderSettings s;
  s.width = 80;
  s.height = 45;
  s.depth = 1;
  expect_matches_reference(builtin_scene("random:300"), s);
}

TEST(RaytracerRender, SphereSilhouetteIsTheAnalyticDisc) {
  Scene scene = empty_scene();
  scene.materials.push_back(make_material({1, 1, 1}, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f));  // flat white
  scene.spheres.push_back(make_sphere({0, 0, 5}, 1.5f, 0));
  RenderSettings s;
  s.width = 101;
  s.height = 101;
  renderer().set_scene(scene);
  renderer().render(s);
  const auto image = renderer().image();
  const RtCamera camera = make_camera(scene.camera, s.width, s.height);
  const double edge = std::asin(1.5 / 5.0);  // half-angle of the sphere's cone
  int inside = 0, checked = 0;
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const cl_float4 d =
          rt_primary_direction(&camera, (x + 0.5f) / s.width, (y + 0.5f) / s.height);
      const double angle = std::acos(std::min(1.0f, d.z));
      const int r = channel(image[y * s.width + x], 0);
      if (angle < edge - 0.01) {
        EXPECT_EQ(r, 255) << "pixel " << x << "," << y << " inside the silhouette";
        ++inside;
      } else if (angle > edge + 0.01) {
        EXPECT_EQ(r, 0) << "pixel " << x << "," << y << " outside the silhouette";
      }
      ++checked;
    }
  }
  // The disc covers about pi (tan(edge) * 50)^2 pixels.
  const double expected = 3.14159 * std::pow(std::tan(edge) * 50.5, 2);
  EXPECT_NEAR(inside, expected, 0.1 * expected);
}

TEST(RaytracerRender, ShadowWhereTheLightIsBlocked) {
  Scene scene = empty_scene();
  scene.camera.position = {0, 3, -4};
  scene.camera.look_at = {0, 0, 0};
  scene.camera.fov_y = 1.0f;
  scene.materials.push_back(make_material({1, 1, 1}, 0.1f, 0.8f, 0.0f, 1.0f, 0.0f));
  scene.planes.push_back(make_plane({0, 1, 0}, 0.0f, 0));
  scene.spheres.push_back(make_sphere({0, 1, 0}, 0.5f, 0));
  scene.lights.push_back(make_light({0, 5, 0}, {1, 1, 1}, 1.0f));
  RenderSettings s;
  s.width = 64;
  s.height = 64;
  s.depth = 0;
  const auto [sx, sy] = project(scene, s.width, s.height, {0, 0, 0});     // under the sphere
  const auto [lx, ly] = project(scene, s.width, s.height, {1.5f, 0, 0});  // beside its shadow
  renderer().set_scene(scene);
  renderer().render(s);
  const auto with_shadows = renderer().image();
  const int shadowed = channel(with_shadows[sy * s.width + sx], 0);
  const int lit = channel(with_shadows[ly * s.width + lx], 0);
  EXPECT_LE(shadowed, 30) << "floor under the sphere: only ambient light (0.1 of 255)";
  EXPECT_GE(lit, 150) << "floor beside the shadow: lit";
  s.shadows = false;
  renderer().render(s);
  EXPECT_GE(channel(renderer().image()[sy * s.width + sx], 0), 200) << "no shadow rays: lit";
}

TEST(RaytracerRender, MirrorShowsTheObjectBehindTheCamera) {
  Scene scene = empty_scene();
  scene.materials.push_back(make_material({1, 0, 0}, 0.2f, 0.8f, 0.0f, 1.0f, 0.0f));  // red
  scene.materials.push_back(make_material({0, 0, 0}, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f));  // mirror
  scene.spheres.push_back(make_sphere({0, 0, -3}, 1.0f, 0));                          // behind
  scene.planes.push_back(make_plane({0, 0, -1}, -5.0f, 1));                           // z = 5
  scene.lights.push_back(make_light({0, 0, 2}, {1, 1, 1}, 1.0f));
  RenderSettings s;
  s.width = 33;
  s.height = 33;
  s.depth = 1;
  renderer().set_scene(scene);
  renderer().render(s);
  const cl_uint centre = renderer().image()[16 * s.width + 16];
  EXPECT_GE(channel(centre, 0), 200) << "the mirror shows the red sphere behind the camera";
  EXPECT_LE(channel(centre, 1), 10);
  const cl_uint corner = renderer().image()[0];
  EXPECT_EQ(channel(corner, 0), 0) << "the mirror shows the black background elsewhere";
  s.depth = 0;  // no bounce: the mirror is its own (black) matte colour
  renderer().render(s);
  EXPECT_EQ(channel(renderer().image()[16 * s.width + 16], 0), 0);
}

TEST(RaytracerRender, AccumulationAveragesJitteredFramesAndRestartsOnCameraMove) {
  Scene scene = empty_scene();
  scene.materials.push_back(make_material({1, 1, 1}, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f));  // flat white
  scene.spheres.push_back(make_sphere({0, 0, 5}, 1.5f, 0));
  RenderSettings s;
  s.width = 32;
  s.height = 32;
  renderer().set_scene(scene);
  EXPECT_EQ(renderer().render(s, true).accumulated, 1u);
  const auto first = renderer().image();
  for (cl_uint k = 2; k <= 8; ++k) EXPECT_EQ(renderer().render(s, true).accumulated, k);
  const auto averaged = renderer().image();
  // Inside and outside the disc nothing changes; on its edge the jittered samples average to
  // grey levels, which one frame of one sample per pixel never shows.
  std::size_t same = 0, grey = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    same += first[i] == averaged[i];
    const int r = channel(averaged[i], 0);
    grey += r > 0 && r < 255;
    EXPECT_TRUE(channel(first[i], 0) == 0 || channel(first[i], 0) == 255);
  }
  EXPECT_GT(same, first.size() * 8 / 10);
  EXPECT_GT(grey, 10u);
  CameraView moved = scene.camera;
  moved.position.x += 0.1f;
  renderer().set_camera(moved);
  EXPECT_EQ(renderer().render(s, true).accumulated, 1u);
  EXPECT_EQ(renderer().render(s, false).accumulated, 1u);
}

}  // namespace

// Raytracer meshes on the device: images against the CPU reference (walking the same BVHs, and
// testing every triangle), and analytic checks: instance placement, texture lookup and
// orientation, smooth normals shading like the sphere they approximate.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/procedural_mesh.hpp"
#include "framework/error.hpp"
#include "raytracer_test_support.hpp"

namespace {

using namespace raytracer;
using raytracer_test::channel;
using raytracer_test::empty_scene;
using raytracer_test::expect_matches_reference;
using raytracer_test::four_colour_texture;
using raytracer_test::project;
using raytracer_test::renderer;

std::shared_ptr<const TriangleMesh> shared(TriangleMesh mesh) {
  return std::make_shared<const TriangleMesh>(std::move(mesh));
}

// Spheres, a checkerboard floor, and meshes: a smooth and a flat sphere mesh placed three times
// (one a mirror), and a textured quad behind them.
Scene mixed_scene() {
  Scene scene = empty_scene();
  scene.background = {0.2f, 0.3f, 0.5f};
  scene.camera.position = {0, 2, -5};
  scene.camera.look_at = {0, 0.5f, 4};
  scene.camera.right_handed = true;
  scene.materials.push_back(make_material({0.9f, 0.3f, 0.2f}, 0.1f, 0.8f, 0.5f, 32, 0));
  scene.materials.push_back(make_material({0.8f, 0.8f, 0.8f}, 0.1f, 0.8f, 0.2f, 8, 0.3f));
  scene.materials.push_back(make_material({1, 1, 1}, 0.2f, 0.8f, 0, 1, 0));
  scene.materials.back().texture = 0;
  scene.textures.push_back(four_colour_texture());
  scene.planes.push_back(make_plane({0, 1, 0}, -1, 1, 1.0f, {0.2f, 0.2f, 0.2f}));
  scene.spheres.push_back(make_sphere({-2.5f, 0, 3}, 0.8f, 0));
  scene.meshes.push_back(shared(make_sphere_mesh(10, 20, 0, true)));
  scene.meshes.push_back(shared(make_sphere_mesh(8, 12, 1, false)));
  scene.meshes.push_back(shared(make_quad_mesh(2)));
  scene.instances.push_back({0, Transform::translation(0, 0, 3), -1});
  scene.instances.push_back(
      {1, Transform::translation(2.2f, 0.2f, 4) * Transform::scale(1, 1.3f, 1), -1});
  scene.instances.push_back(
      {0, Transform::translation(0.8f, -0.5f, 1.5f) * Transform::scale(0.4f, 0.4f, 0.4f), 1});
  scene.instances.push_back({2,
                             Transform::translation(0, 1.5f, 8) *
                                 Transform::rotation(1, 3.14159265f) * Transform::scale(4, 2.5f, 1),
                             -1});
  scene.lights.push_back(make_light({-3, 6, -2}, {1, 1, 1}, 0.8f));
  scene.lights.push_back(make_light({4, 3, 0}, {0.6f, 0.6f, 1}, 0.5f));
  scene.name = "mixed";
  return scene;
}

TEST(RaytracerMeshes, MixedSceneMatchesReference) {
  RenderSettings s;
  s.width = 96;
  s.height = 72;
  s.depth = 2;
  expect_matches_reference(mixed_scene(), s);
}

TEST(RaytracerMeshes, MixedSceneMatchesReferenceTestingEveryTriangle) {
  RenderSettings s;
  s.width = 64;
  s.height = 48;
  s.depth = 2;
  expect_matches_reference(mixed_scene(), s, true);
}

TEST(RaytracerMeshes, DeviceBruteForceMatchesReference) {
  RenderSettings s;
  s.width = 48;
  s.height = 36;
  s.use_bvh = false;
  expect_matches_reference(mixed_scene(), s);
}

// A flat-white quad (ambient 1, no diffuse) facing the camera.
Scene quad_scene(Transform placement, int material_texture) {
  Scene scene = empty_scene();
  scene.camera.position = {0, 0, 4};
  scene.camera.look_at = {0, 0, 0};
  scene.camera.fov_y = 1.0f;
  scene.camera.right_handed = true;
  scene.materials.push_back(make_material({1, 1, 1}, 1, 0, 0, 1, 0));
  scene.materials[0].texture = material_texture;
  if (material_texture >= 0) scene.textures.push_back(four_colour_texture());
  scene.meshes.push_back(shared(make_quad_mesh(0)));
  scene.instances.push_back({0, placement, -1});
  return scene;
}

TEST(RaytracerMeshes, InstanceTransformPlacesTheMesh) {
  // The quad moved left by 1: it covers [-2, 0] x [-1, 1].
  const Scene scene = quad_scene(Transform::translation(-1, 0, 0), -1);
  RenderSettings s;
  s.width = 80;
  s.height = 80;
  renderer().set_scene(scene);
  renderer().render(s);
  const auto image = renderer().image();
  auto red_at = [&](Vec3 p) {
    const auto [x, y] = project(scene, s.width, s.height, p);
    return channel(image[y * s.width + x], 0);
  };
  EXPECT_EQ(red_at({-1, 0, 0}), 255) << "the quad's centre";
  EXPECT_EQ(red_at({-1.9f, 0.9f, 0}), 255) << "near its top-left corner";
  EXPECT_EQ(red_at({-0.1f, -0.9f, 0}), 255) << "near its bottom-right corner";
  EXPECT_EQ(red_at({0.1f, 0, 0}), 0) << "right of it";
  EXPECT_EQ(red_at({-1, 1.1f, 0}), 0) << "above it";
}

TEST(RaytracerMeshes, TextureShowsItsTexelsTheRightWayRound) {
  const Scene scene = quad_scene(Transform{}, 0);
  RenderSettings s;
  s.width = 64;
  s.height = 64;
  renderer().set_scene(scene);
  renderer().render(s);
  const auto image = renderer().image();
  raytracer_test::expect_four_texels_in_place(scene, s.width, s.height, image);
  // Between two texels the colour is their mix (bilinear), not either one.
  const auto [mx, my] = project(scene, s.width, s.height, {0, 0.5f, 0});
  const cl_uint between = image[my * s.width + mx];
  EXPECT_GT(channel(between, 0), 60);
  EXPECT_GT(channel(between, 1), 60);
  expect_matches_reference(scene, s);
}

TEST(RaytracerMeshes, TextureSamplingIsBilinearAndStaysInside) {
  const std::shared_ptr<const SceneTexture> texture = four_colour_texture();
  const RtTexture t = {0, 2, 2, 0};
  auto sample = [&](float u, float v) {
    return rt_sample_texture(&t, texture->rgba.data(), 0, u, v, 0);
  };
  // Texel centres give the texel; halfway between red and green, their average.
  EXPECT_EQ(sample(0.25f, 0.25f).x, 1.0f);
  EXPECT_EQ(sample(0.25f, 0.25f).y, 0.0f);
  EXPECT_EQ(sample(0.75f, 0.25f).y, 1.0f);
  EXPECT_NEAR(sample(0.5f, 0.25f).x, 0.5f, 1e-6f);
  EXPECT_NEAR(sample(0.5f, 0.25f).y, 0.5f, 1e-6f);
  EXPECT_NEAR(sample(1.25f, -0.75f).x, 1.0f, 1e-6f) << "repeats";
  // Coordinates that are not numbers, infinite or huge still read a texel of this texture.
  for (float bad : {std::nanf(""), INFINITY, -INFINITY, 3e38f, -1e-9f}) {
    const cl_float4 c = sample(bad, bad);
    for (float channel_value : {c.x, c.y, c.z}) {
      EXPECT_GE(channel_value, 0.0f) << bad;
      EXPECT_LE(channel_value, 1.0f) << bad;
    }
  }
  Scene scene = quad_scene(Transform{}, 0);
  SceneTexture broken = *texture;
  broken.rgba.pop_back();
  scene.textures[0] = std::make_shared<const SceneTexture>(broken);
  renderer().set_scene(quad_scene(Transform{}, -1));
  EXPECT_THROW(renderer().set_scene(scene), clf::Error) << "3 texels for 2x2";
  EXPECT_EQ(renderer().scene().textures.size(), 0u) << "the renderer keeps the scene it had";
}

// Mean absolute difference of the red channel over the pixels where both images are not black.
double mean_difference(const Image& a, const Image& b) {
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (channel(a[i], 0) == 0 || channel(b[i], 0) == 0) continue;
    sum += std::abs(channel(a[i], 0) - channel(b[i], 0));
    ++n;
  }
  return n > 0 ? sum / n : 1e9;
}

TEST(RaytracerMeshes, SmoothNormalsShadeLikeTheSphereTheyApproximate) {
  Scene scene = empty_scene();
  scene.camera.right_handed = true;
  scene.materials.push_back(make_material({1, 1, 1}, 0.0f, 1.0f, 0, 1, 0));
  scene.lights.push_back(make_light({-3, 3, 0}, {1, 1, 1}, 1));
  RenderSettings s;
  s.width = 64;
  s.height = 64;
  s.depth = 0;
  auto render = [&](const Scene& sc) {
    renderer().set_scene(sc);
    renderer().render(s);
    return renderer().image();
  };
  Scene sphere = scene;
  sphere.spheres.push_back(make_sphere({0, 0, 4}, 1.5f, 0));
  const Image exact = render(sphere);
  for (bool smooth : {true, false}) {
    Scene mesh = scene;
    mesh.meshes.push_back(shared(make_sphere_mesh(24, 48, 0, smooth)));
    mesh.instances.push_back(
        {0, Transform::translation(0, 0, 4) * Transform::scale(1.5f, 1.5f, 1.5f), -1});
    const double difference = mean_difference(exact, render(mesh));
    if (smooth) {
      EXPECT_LT(difference, 2.0) << "smooth normals: the sphere's shading";
    } else {
      EXPECT_GT(difference, 2.0) << "flat normals: visible facets";
    }
  }
}

TEST(RaytracerMeshes, InstancesSceneStoresTwoMeshesAndMatchesReference) {
  const Scene scene = builtin_scene("instances:100:7");
  ASSERT_EQ(scene.meshes.size(), 2u);
  EXPECT_EQ(scene.instances.size(), 100u);
  EXPECT_EQ(scene.meshes[0]->triangles.size() + scene.meshes[1]->triangles.size(), 3264u);
  const std::size_t placed = placed_triangle_count(scene);
  EXPECT_GT(placed, 100u * 960u);
  EXPECT_LT(placed, 100u * 2304u);
  RenderSettings s;
  s.width = 96;
  s.height = 54;
  s.depth = 1;
  expect_matches_reference(scene, s);
  EXPECT_THROW(builtin_scene("instances:many"), clf::Error);
  EXPECT_THROW(builtin_scene("instances:2000000"), clf::Error);
}

TEST(RaytracerMeshes, ReferencePixelsAreTheReferenceImagesPixels) {
  const Scene scene = builtin_scene("instances:64");
  RenderSettings s;
  s.width = 40;
  s.height = 30;
  s.depth = 1;
  const std::vector<cl_uint> image = render_reference(scene, s);
  const std::vector<std::pair<int, int>> pixels = {{0, 0}, {20, 15}, {39, 29}, {7, 22}, {33, 4}};
  const std::vector<cl_uint> chosen = render_reference_pixels(scene, s, pixels);
  ASSERT_EQ(chosen.size(), pixels.size());
  for (std::size_t k = 0; k < pixels.size(); ++k) {
    EXPECT_EQ(chosen[k], image[pixels[k].second * s.width + pixels[k].first]) << "pixel " << k;
  }
}

}  // namespace

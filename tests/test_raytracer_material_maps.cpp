// The maps a glTF material may carry besides the base colour: emission, metallic-roughness and
// tangent-space normals. Analytic checks of what each does at a hit, then device images against
// the CPU reference in both modes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "apps/raytracer/emitters.hpp"
#include "apps/raytracer/procedural_mesh.hpp"
#include "raytracer_test_support.hpp"

namespace {

using namespace raytracer;
using raytracer_test::empty_scene;
using raytracer_test::expect_matches_reference;
using raytracer_test::renderer;

std::shared_ptr<const SceneTexture> texture(int width, int height, std::vector<cl_uint> rgba) {
  SceneTexture t;
  t.name = "test map";
  t.width = width;
  t.height = height;
  t.rgba = std::move(rgba);
  return std::make_shared<const SceneTexture>(std::move(t));
}

cl_uint rgb(int r, int g, int b) {
  return 0xFF000000u | static_cast<cl_uint>(b) << 16 | static_cast<cl_uint>(g) << 8 |
         static_cast<cl_uint>(r);
}

// The unit quad of make_quad_mesh ([-1, 1]^2 at z = 0, facing +z, texture coordinate (0, 0) at
// its top left), one instance under `placement`, with material 0, seen by a camera on +z.
Scene quad_scene(const RtMaterial& material, Transform placement = {}) {
  Scene scene = empty_scene();
  scene.camera.position = {0, 0, 4};
  scene.camera.look_at = {0, 0, 0};
  scene.camera.fov_y = 1.0f;
  scene.camera.right_handed = true;
  scene.materials.push_back(material);
  scene.meshes.push_back(std::make_shared<const TriangleMesh>(make_quad_mesh(0)));
  scene.instances.push_back({0, placement, -1});
  return scene;
}

// rt_triangle_surface at barycentrics (u, v) of triangle `triangle` of the quad scene, seen
// along -z.
struct Surface {
  cl_float4 normal;
  RtMaterial material;
};
Surface surface_at(const Scene& scene, int triangle, float u, float v) {
  const TriangleMesh& mesh = *scene.meshes[0];
  RtInstance instance{};
  const Transform inverse = scene.instances[0].transform.inverse();
  instance.world_to_mesh_x = rt_vec(inverse.m[0][0], inverse.m[0][1], inverse.m[0][2]);
  instance.world_to_mesh_y = rt_vec(inverse.m[1][0], inverse.m[1][1], inverse.m[1][2]);
  instance.world_to_mesh_z = rt_vec(inverse.m[2][0], inverse.m[2][1], inverse.m[2][2]);
  instance.material = -1;
  std::vector<RtTexture> textures;
  std::vector<cl_uint> texels;
  for (const auto& t : scene.textures) {
    textures.push_back({static_cast<cl_uint>(texels.size()), static_cast<cl_uint>(t->width),
                        static_cast<cl_uint>(t->height), 0});
    texels.insert(texels.end(), t->rgba.begin(), t->rgba.end());
  }
  RtHit hit{};
  hit.kind = RT_HIT_TRIANGLE;
  hit.index = triangle;
  hit.instance = 0;
  hit.u = u;
  hit.v = v;
  Surface out;
  cl_float4 base_color;
  cl_int front;
  rt_triangle_surface(scene.materials.data(), &instance, mesh.triangles.data(), mesh.shading.data(),
                      textures.data(), texels.data(), hit, rt_vec(0, 0, -1), 1, &out.normal,
                      &out.material, &base_color, &front);
  return out;
}

RtMaterial matte(Vec3 color) { return make_material(color, 0.1f, 0.9f, 0, 1, 0); }

TEST(RaytracerMaterialMaps, NormalMapBendsTheNormalAsTheImageSays) {
  struct Case {
    cl_uint texel;
    cl_float4 expected;  // in the world, for the quad as it is
    const char* what;
  };
  for (const Case& c : {Case{rgb(128, 128, 255), rt_vec(0, 0, 1), "flat"},
                        Case{rgb(255, 128, 128), rt_vec(1, 0, 0), "along u: right"},
                        Case{rgb(128, 255, 128), rt_vec(0, 1, 0), "up the image"},
                        Case{rgb(128, 0, 128), rt_vec(0, -1, 0), "down the image"}}) {
    RtMaterial material = matte({1, 1, 1});
    material.normal_texture = 0;
    Scene scene = quad_scene(material);
    scene.textures.push_back(texture(1, 1, {c.texel}));
    // Both triangles (their texture coordinates run differently) and a point inside each.
    for (const int triangle : {0, 1}) {
      const Surface s = surface_at(scene, triangle, 0.3f, 0.2f);
      EXPECT_GT(rt_dot(s.normal, c.expected), 0.999f) << c.what << ", triangle " << triangle;
    }
    // Turned a quarter about z with its instance, the bent normal turns with it.
    scene.instances[0].transform = Transform::rotation(2, 1.5707963f);
    const cl_float4 turned = rt_vec(-c.expected.y, c.expected.x, c.expected.z);
    EXPECT_GT(rt_dot(surface_at(scene, 0, 0.3f, 0.2f).normal, turned), 0.999f) << c.what;
    // With scale 0 the map's tilt is gone.
    scene.materials[0].normal_scale = 0;
    scene.instances[0].transform = Transform{};
    EXPECT_GT(rt_dot(surface_at(scene, 0, 0.3f, 0.2f).normal, rt_vec(0, 0, 1)), 0.999f) << c.what;
  }
}

TEST(RaytracerMaterialMaps, MetallicRoughnessMapScalesTheFactors) {
  RtMaterial material = matte({1, 1, 1});
  material.metallic = 0.8f;
  material.roughness = 0.5f;
  material.metallic_roughness_texture = 0;
  Scene scene = quad_scene(material);
  // Left column: rough dielectric (blue 0, green 255); right: smooth metal (blue 255, green 51).
  scene.textures.push_back(texture(2, 1, {rgb(0, 255, 0), rgb(0, 51, 255)}));
  // Texel centres: texture coordinate (0.25, 0.5) is triangle 1 at barycentrics (0.25, 0.25),
  // (0.75, 0.5) triangle 0 at (0.25, 0.5).
  const Surface left = surface_at(scene, 1, 0.25f, 0.25f);
  EXPECT_NEAR(left.material.metallic, 0.0f, 1e-6f);
  EXPECT_NEAR(left.material.roughness, 0.5f, 1e-6f);
  const Surface right = surface_at(scene, 0, 0.25f, 0.5f);
  EXPECT_NEAR(right.material.metallic, 0.8f, 1e-6f);
  EXPECT_NEAR(right.material.roughness, 0.5f * 0.2f, 1e-6f);
}

// Emission times its map (four_colour_texture), on a black quad with no light.
Scene emissive_quad() {
  RtMaterial material = make_material({0, 0, 0}, 0, 0, 0, 1, 0);
  material.emission = rt_vec(1, 1, 1);
  material.emissive_texture = 0;
  Scene scene = quad_scene(material);
  scene.textures.push_back(raytracer_test::four_colour_texture());
  return scene;
}

TEST(RaytracerMaterialMaps, EmissiveMapShowsItsTexels) {
  const Scene scene = emissive_quad();
  RenderSettings s;
  s.width = 64;
  s.height = 64;
  renderer().set_scene(scene);
  renderer().render(s);
  raytracer_test::expect_four_texels_in_place(scene, s.width, s.height, renderer().image());
  expect_matches_reference(scene, s);
}

TEST(RaytracerMaterialMaps, TexturedEmissionIsLeftToThePaths) {
  // No point drawn on the quad could carry its texture's colour, so it is not a light to sample;
  // the path tracer still sees it where paths meet it.
  Scene scene = emissive_quad();
  EXPECT_TRUE(build_emitters(scene).emitters.empty());
  scene.materials[0].emissive_texture = -1;
  EXPECT_EQ(build_emitters(scene).emitters.size(), 2u);
}

// A lit matte quad with all three maps, a sphere in front of it and a glowing sphere: the device
// against the reference in both modes.
Scene mapped_scene() {
  RtMaterial material = matte({0.8f, 0.8f, 0.8f});
  material.metallic = 1;
  material.roughness = 1;
  material.metallic_roughness_texture = 0;
  material.normal_texture = 1;
  material.normal_scale = 0.8f;
  material.emission = rt_vec(0.5f, 0.5f, 0.5f);
  material.emissive_texture = 2;
  Scene scene = quad_scene(material, Transform::scale(2, 2, 1));
  scene.textures.push_back(
      texture(2, 2, {rgb(0, 255, 0), rgb(0, 80, 255), rgb(0, 200, 128), rgb(0, 10, 255)}));
  scene.textures.push_back(texture(3, 2,
                                   {rgb(128, 128, 255), rgb(230, 128, 180), rgb(128, 30, 200),
                                    rgb(60, 200, 180), rgb(128, 128, 255), rgb(200, 200, 150)}));
  scene.textures.push_back(texture(2, 1, {rgb(0, 0, 0), rgb(255, 128, 0)}));
  scene.materials.push_back(matte({0.3f, 0.6f, 0.9f}));
  RtMaterial glow = matte({0, 0, 0});
  glow.emission = rt_vec(6, 6, 5);
  scene.materials.push_back(glow);
  scene.spheres.push_back(make_sphere({-0.6f, -0.3f, 1}, 0.5f, 1));
  scene.spheres.push_back(make_sphere({1, 1.2f, 1.5f}, 0.3f, 2));
  scene.lights.push_back(make_light({2, 3, 5}, {1, 1, 1}, 0.7f));
  scene.background = {0.1f, 0.1f, 0.15f};
  scene.name = "mapped";
  return scene;
}

TEST(RaytracerMaterialMaps, DeviceMatchesReferenceInBothModes) {
  RenderSettings whitted;
  whitted.width = 64;
  whitted.height = 64;
  expect_matches_reference(mapped_scene(), whitted);

  RenderSettings path = whitted;
  path.mode = RenderMode::path;
  path.depth = 4;
  raytracer_test::expect_same_paths_as_reference(mapped_scene(), path);
}

}  // namespace

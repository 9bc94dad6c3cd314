// The built-in scenes "instances:N" and "mesh:N": large triangle scenes defined in code (nothing
// to download), for benchmarks. instances:N: two meshes stored once, a smooth torus (2304
// triangles) and a faceted ball (960), placed N times on a grid with random turns, sizes and
// materials. mesh:N: one mesh of N triangles.
#include <algorithm>
#include <cmath>

#include "apps/raytracer/procedural_mesh.hpp"
#include "apps/raytracer/scene.hpp"
#include "shared/random.h"

namespace raytracer {

Scene instances_scene(std::size_t n, std::uint64_t seed) {
  Scene scene;
  scene.name = "instances:" + std::to_string(n);
  scene.width = 1920;
  scene.height = 1080;
  const Vec3 colors[] = {{0.9f, 0.3f, 0.25f}, {0.25f, 0.6f, 0.9f}, {0.95f, 0.8f, 0.3f},
                         {0.35f, 0.8f, 0.4f}, {0.8f, 0.8f, 0.85f}, {0.6f, 0.35f, 0.8f}};
  for (int i = 0; i < 6; ++i) {
    scene.materials.push_back(make_material(colors[i], 0.1f, 0.8f, 0.5f, i % 2 == 0 ? 32.0f : 8.0f,
                                            i % 3 == 2 ? 0.4f : 0.0f));
  }
  const cl_uint floor = static_cast<cl_uint>(scene.materials.size());
  scene.materials.push_back(make_material({0.8f, 0.8f, 0.8f}, 0.1f, 0.8f, 0.0f, 1.0f, 0.2f));
  scene.meshes.push_back(
      std::make_shared<const TriangleMesh>(make_torus_mesh(1, 0.35f, 48, 24, 0)));
  scene.meshes.push_back(std::make_shared<const TriangleMesh>(make_sphere_mesh(16, 32, 0, false)));

  // A square grid 3 units apart, each instance jittered, turned about x and y, and scaled.
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n > 0 ? n : 1))));
  const float spacing = 3.0f;
  const float half = 0.5f * spacing * static_cast<float>(side - 1);
  PhiloxState rng = philox_init(seed, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(i % side) * spacing - half;
    const float z = static_cast<float>(i / side) * spacing - half;
    const float jitter_x = philox_next_float(&rng) - 0.5f;
    const float jitter_z = philox_next_float(&rng) - 0.5f;
    const float turn_x = 6.2831853f * philox_next_float(&rng);
    const float turn_y = 6.2831853f * philox_next_float(&rng);
    const float size = 0.6f + 0.6f * philox_next_float(&rng);
    MeshInstance instance;
    instance.mesh = philox_next_uint(&rng) % 2;
    instance.material = static_cast<cl_int>(philox_next_uint(&rng) % 6);
    instance.transform = Transform::translation(x + jitter_x, size, z + jitter_z) *
                         Transform::rotation(1, turn_y) * Transform::rotation(0, turn_x) *
                         Transform::scale(size, size, size);
    scene.instances.push_back(instance);
  }
  const float extent = std::max(half, 3.0f);
  scene.planes.push_back(make_plane({0, 1, 0}, -0.6f, floor, 2.0f, {0.3f, 0.3f, 0.3f}));
  scene.lights.push_back(make_light({0.5f * extent, 1.5f * extent, -0.9f * extent}, {1, 1, 1}, 1));
  scene.camera.position = {0.0f, 0.55f * extent, -1.35f * extent};
  scene.camera.look_at = {0.0f, 0.0f, 0.1f * extent};
  scene.camera.fov_y = 60.0f * 3.14159265f / 180.0f;
  scene.background = {0.5f, 0.65f, 0.85f};
  return scene;
}

Scene single_mesh_scene(std::size_t triangles) {
  Scene scene;
  scene.name = "mesh:" + std::to_string(triangles);
  scene.width = 1920;
  scene.height = 1080;
  scene.materials.push_back(make_material({0.85f, 0.55f, 0.3f}, 0.1f, 0.8f, 0.5f, 32.0f, 0.0f));
  scene.materials.push_back(make_material({0.8f, 0.8f, 0.8f}, 0.1f, 0.8f, 0.0f, 1.0f, 0.2f));
  // rings x segments quads of two triangles, the tube's ripples fine enough to need them all.
  const int rings = std::max(3, static_cast<int>(std::sqrt(static_cast<double>(triangles))));
  const int segments =
      std::max(3, static_cast<int>(triangles / (2 * static_cast<std::size_t>(rings))));
  TriangleMesh mesh;
  mesh.name = scene.name;
  add_parametric_surface(
      mesh, rings, segments,
      [](float u, float v, cl_float4* point, cl_float4* normal) {
        const float a = 6.2831853f * u;
        const float b = 6.2831853f * v;
        const float tube = 0.35f + 0.05f * std::sin(24.0f * a) * std::sin(9.0f * b);
        const float ring = 1.0f + tube * std::cos(b);
        *point = rt_vec(ring * std::cos(a), tube * std::sin(b) + 0.6f, ring * std::sin(a));
        *normal = rt_vec(std::cos(b) * std::cos(a), std::sin(b), std::cos(b) * std::sin(a));
      },
      true, 0);
  scene.meshes.push_back(std::make_shared<const TriangleMesh>(std::move(mesh)));
  MeshInstance instance;
  instance.mesh = 0;
  instance.material = 0;
  instance.transform = Transform::rotation(0, 0.5f);
  scene.instances.push_back(instance);
  scene.planes.push_back(make_plane({0, 1, 0}, -0.6f, 1, 2.0f, {0.3f, 0.3f, 0.3f}));
  scene.lights.push_back(make_light({2.0f, 4.0f, -3.0f}, {1, 1, 1}, 1));
  scene.camera.position = {0.0f, 1.6f, -2.6f};
  scene.camera.look_at = {0.0f, 0.3f, 0.0f};
  scene.camera.fov_y = 60.0f * 3.14159265f / 180.0f;
  scene.background = {0.5f, 0.65f, 0.85f};
  return scene;
}

}  // namespace raytracer

// Built-in scenes and the camera.
#include "apps/raytracer/scene.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "framework/error.hpp"
#include "shared/random.h"

namespace raytracer {

namespace {

Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

// Six colours; the built-in scenes cycle through them.
const Vec3 kPalette[] = {{0.90f, 0.20f, 0.20f}, {0.20f, 0.70f, 0.25f}, {0.20f, 0.35f, 0.90f},
                         {0.95f, 0.80f, 0.20f}, {0.80f, 0.30f, 0.85f}, {0.25f, 0.80f, 0.85f}};
constexpr int kPaletteSize = 6;

bool parse_count(const std::string& text, std::uint64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *value = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

}  // namespace

Scene seed_scene(int per_side) {
  Scene scene;
  scene.name = per_side == 10 ? "seed" : "seed:" + std::to_string(per_side);
  scene.width = 700;
  scene.height = 700;
  for (int i = 0; i < kPaletteSize; ++i) {
    // Every third colour is half a mirror, so reflections show in the grid.
    scene.materials.push_back(
        make_material(kPalette[i], 0.1f, 0.8f, 0.5f, 32.0f, i % 3 == 2 ? 0.5f : 0.0f));
  }
  const cl_uint floor = static_cast<cl_uint>(scene.materials.size());
  scene.materials.push_back(make_material({0.85f, 0.85f, 0.85f}, 0.1f, 0.8f, 0.0f, 1.0f, 0.25f));
  const float first = -0.5f * static_cast<float>(per_side - 1);
  for (int i = 0; i < per_side; ++i) {
    for (int j = 0; j < per_side; ++j) {
      for (int k = 0; k < per_side; ++k) {
        const Vec3 center{first + i, 1.0f + j, first + k};
        scene.spheres.push_back(
            make_sphere(center, 0.35f, static_cast<cl_uint>((i + j + k) % kPaletteSize)));
      }
    }
  }
  scene.planes.push_back(make_plane({0, 1, 0}, 0.0f, floor, 1.0f, {0.25f, 0.25f, 0.25f}));
  scene.lights.push_back(make_light({6.0f, 16.0f, -9.0f}, {1, 1, 1}, 1.0f));
  scene.camera.position = {3.0f, 9.0f, -19.0f};
  scene.camera.look_at = {0.0f, 4.5f, 0.0f};
  scene.camera.fov_y = 45.0f * 3.14159265f / 180.0f;
  scene.background = {0.55f, 0.7f, 0.9f};
  return scene;
}

namespace {

// Aalborg's benchmark scene (their section 4.2): 289 reflective spheres, 10 lights.
Scene aalborg_scene() {
  Scene scene;
  scene.name = "aalborg";
  scene.width = 512;
  scene.height = 512;
  for (int i = 0; i < kPaletteSize; ++i) {
    scene.materials.push_back(make_material(kPalette[i], 0.1f, 0.7f, 0.6f, 40.0f, 0.5f));
  }
  for (int i = 0; i < 17; ++i) {
    for (int j = 0; j < 17; ++j) {
      const Vec3 center{-240.0f + 30.0f * i, -240.0f + 30.0f * j, 1024.0f};
      scene.spheres.push_back(
          make_sphere(center, 10.0f, static_cast<cl_uint>((i * 17 + j) % kPaletteSize)));
    }
  }
  for (int i = 0; i < 10; ++i) {
    scene.lights.push_back(make_light({-90.0f + 20.0f * i, 0.0f, 512.0f}, {1, 1, 1}, 0.2f));
  }
  scene.camera.position = {0, 0, 0};
  scene.camera.look_at = {0, 0, 1};
  scene.camera.fov_y = 3.14159265f / 6.0f;
  scene.background = {0.02f, 0.02f, 0.05f};
  return scene;
}

}  // namespace

RtCamera make_camera(const CameraView& view, int width, int height) {
  const cl_float4 forward = rt_normalize(to_float4(view.look_at - view.position));
  cl_float4 right = view.right_handed ? rt_cross(forward, to_float4(view.up))
                                      : rt_cross(to_float4(view.up), forward);
  if (rt_dot(right, right) < 1e-12f) {
    // up ∥ forward: any axis across the view will do, so take the one least along it (z, as
    // before, unless the view itself runs along z).
    const cl_float4 across = std::fabs(forward.s[2]) < 0.9f ? rt_vec(0, 0, 1) : rt_vec(0, 1, 0);
    right = rt_cross(across, forward);
  }
  right = rt_normalize(right);
  const cl_float4 up = view.right_handed ? rt_cross(right, forward) : rt_cross(forward, right);
  const float half_height = std::tan(view.fov_y * 0.5f);
  const float half_width = half_height * static_cast<float>(width) / static_cast<float>(height);
  RtCamera camera;
  camera.position = to_float4(view.position);
  camera.forward = forward;
  camera.right = rt_scale(right, half_width);
  camera.up = rt_scale(up, half_height);
  return camera;
}

RtMaterial make_material(Vec3 color, float ambient, float diffuse, float specular, float shininess,
                         float reflectivity) {
  RtMaterial m{};
  m.color = to_float4(color);
  m.ambient = ambient;
  m.diffuse = diffuse;
  m.specular = specular;
  m.shininess = shininess;
  m.reflectivity = reflectivity;
  m.texture = -1;
  m.metallic_roughness_texture = -1;
  m.emissive_texture = -1;
  m.normal_texture = -1;
  m.normal_scale = 1;
  // The path tracer's reading of the same surface: a mirror share as a smooth metal, the Phong
  // lobe as a dielectric coat of the matching GGX roughness (alpha = sqrt(2 / (shininess + 2))).
  m.metallic = reflectivity;
  m.roughness = reflectivity > 0 ? 0.0f : std::sqrt(std::sqrt(2.0f / (shininess + 2.0f)));
  m.transmission = 0;
  m.ior = 1.5f;
  return m;
}

RtSphere make_sphere(Vec3 center, float radius, cl_uint material) {
  RtSphere s{};
  s.center_radius = to_float4(center);
  s.center_radius.w = radius;
  s.material = material;
  return s;
}

RtPlane make_plane(Vec3 normal, float offset, cl_uint material, float checker_size,
                   Vec3 checker_color) {
  RtPlane p{};
  p.normal = rt_normalize(to_float4(normal));
  p.offset = offset;
  p.material = material;
  p.checker_size = checker_size;
  p.checker_color = to_float4(checker_color);
  return p;
}

RtLight make_light(Vec3 position, Vec3 color, float intensity) {
  RtLight l{};
  l.position = to_float4(position);
  l.color = to_float4(color);
  l.intensity = intensity;
  return l;
}

Scene random_scene(std::size_t n, std::uint64_t seed) {
  Scene scene;
  scene.name = "random:" + std::to_string(n);
  scene.width = 1920;
  scene.height = 1080;
  for (int i = 0; i < kPaletteSize; ++i) {
    scene.materials.push_back(
        make_material(kPalette[i], 0.1f, 0.8f, 0.5f, 32.0f, i % 2 == 1 ? 0.3f : 0.0f));
  }
  const cl_uint floor = static_cast<cl_uint>(scene.materials.size());
  scene.materials.push_back(make_material({0.8f, 0.8f, 0.8f}, 0.1f, 0.8f, 0.0f, 1.0f, 0.2f));
  // About one sphere per 4^3 units: the box grows with n so the density stays the same.
  const float side = 4.0f * std::cbrt(static_cast<float>(n > 0 ? n : 1));
  PhiloxState rng = philox_init(seed, 0);
  scene.spheres.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = (philox_next_float(&rng) - 0.5f) * side;
    const float y = philox_next_float(&rng) * side;
    const float z = (philox_next_float(&rng) - 0.5f) * side;
    const float radius = 0.3f + 0.7f * philox_next_float(&rng);
    const cl_uint material = philox_next_uint(&rng) % kPaletteSize;
    scene.spheres.push_back(make_sphere({x, y, z}, radius, material));
  }
  scene.planes.push_back(make_plane({0, 1, 0}, -1.0f, floor, side / 16.0f, {0.3f, 0.3f, 0.3f}));
  scene.lights.push_back(make_light({0.6f * side, 2.0f * side, -0.8f * side}, {1, 1, 1}, 1.0f));
  scene.camera.position = {0.0f, 0.9f * side, -1.3f * side};
  scene.camera.look_at = {0.0f, 0.35f * side, 0.0f};
  scene.camera.fov_y = 60.0f * 3.14159265f / 180.0f;
  scene.background = {0.5f, 0.65f, 0.85f};
  return scene;
}

bool is_builtin_scene_name(const std::string& name) {
  return name == "seed" || name == "aalborg" || name == "cornell" ||
         name.rfind("random:", 0) == 0 || name.rfind("instances:", 0) == 0 ||
         name.rfind("mesh:", 0) == 0;
}

namespace {

// "PREFIX:N" or "PREFIX:N:SEED" with N in [0, max_count]; the error names the form.
void parse_count_and_seed(const std::string& name, const std::string& prefix,
                          std::uint64_t max_count, const std::string& what, std::uint64_t* count,
                          std::uint64_t* seed) {
  const std::string rest = name.substr(prefix.size() + 1);
  const std::size_t colon = rest.find(':');
  *seed = 1;
  if (!parse_count(rest.substr(0, colon), count) || *count > max_count ||
      (colon != std::string::npos && !parse_count(rest.substr(colon + 1), seed))) {
    throw clf::Error("scene '" + name + "': expected " + prefix + ":N or " + prefix +
                     ":N:SEED with N " + what + " up to " + std::to_string(max_count) +
                     " and SEED a non-negative integer");
  }
}

}  // namespace

Scene builtin_scene(const std::string& name) {
  if (name == "seed") return seed_scene(10);
  if (name == "aalborg") return aalborg_scene();
  if (name == "cornell") return cornell_scene();
  std::uint64_t count = 0;
  std::uint64_t seed = 1;
  if (name.rfind("random:", 0) == 0) {
    parse_count_and_seed(name, "random", 100000000, "a sphere count", &count, &seed);
    Scene scene = random_scene(count, seed);
    scene.name = name;
    return scene;
  }
  if (name.rfind("instances:", 0) == 0) {
    parse_count_and_seed(name, "instances", 1000000, "an instance count", &count, &seed);
    Scene scene = instances_scene(count, seed);
    scene.name = name;
    return scene;
  }
  if (name.rfind("mesh:", 0) == 0) {
    parse_count_and_seed(name, "mesh", 100000000, "a triangle count", &count, &seed);
    Scene scene = single_mesh_scene(count);
    scene.name = name;
    return scene;
  }
  throw clf::Error(
      "unknown scene '" + name +
      "'; built in: seed, aalborg, cornell, random:N[:SEED], instances:N[:SEED], mesh:N, or a "
      "JSON scene file");
}

std::string lower_case_extension(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool has_model_file_extension(const std::string& path) {
  const std::string ext = lower_case_extension(path);
  return ext == ".gltf" || ext == ".glb" || ext == ".obj";
}

Scene load_scene(const std::string& name_or_file) {
  if (is_builtin_scene_name(name_or_file)) return builtin_scene(name_or_file);
  std::ifstream probe(name_or_file);
  if (!probe) {
    throw clf::Error("scene '" + name_or_file +
                     "' is neither a built-in scene (seed, aalborg, cornell, random:N[:SEED], "
                     "instances:N[:SEED], mesh:N) nor a readable file");
  }
  return load_scene_file(name_or_file);
}

Scene load_scene_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw clf::Error(path + ": cannot open the scene file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_scene_json(text.str(), path);
}

}  // namespace raytracer

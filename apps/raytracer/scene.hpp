// Scenes: the arrays the renderers trace (shared/raytracer/raytracer.h types), a camera described
// by position and target, and where scenes come from: built-in names or JSON files.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/raytracer/scene_mesh.hpp"
#include "shared/raytracer/raytracer.h"

namespace raytracer {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

inline cl_float4 to_float4(const Vec3& v) { return rt_vec(v.x, v.y, v.z); }

struct CameraView {
  Vec3 position{0, 0, 0};
  Vec3 look_at{0, 0, 1};
  Vec3 up{0, 1, 0};
  float fov_y = 1.0471976f;  // vertical field of view, radians
  // The built-in scenes look along +z with +x to the right (left-handed, as the Aalborg report
  // does); glTF and OBJ models are right-handed and would appear mirrored that way.
  bool right_handed = false;
};

// An environment image (shared/raytracer/sky.h): linear rgb radiance, rows from the top, and
// the path tracer's tables for sampling it as a light, built with it.
struct EnvironmentImage {
  EnvironmentImage(int width, int height, std::vector<cl_float4> radiance);
  int width;
  int height;
  std::vector<cl_float4> radiance;
  // sky.h's sky_cdf: running sums over the rows, then over each row's texels; empty where the
  // image is black everywhere (nothing to sample).
  std::vector<cl_float> distribution;
};

// What surrounds a scene instead of the background colour: an image read from `file` when the
// scene is opened (a scene file's "environment"; apps/raytracer/scene_source.hpp).
struct SceneEnvironment {
  std::string file;          // relative paths are resolved from the scene file's folder
  std::string named_by;      // where it was named, for errors ("scene.json: environment.file")
  float intensity = 1;       // multiplies the image's radiance
  float rotate_degrees = 0;  // about +y
  std::shared_ptr<const EnvironmentImage> image;  // null until read
};

struct Scene {
  std::string name;
  std::vector<RtMaterial> materials;
  std::vector<RtSphere> spheres;
  std::vector<RtPlane> planes;
  std::vector<RtLight> lights;
  std::vector<std::shared_ptr<const TriangleMesh>> meshes;
  std::vector<MeshInstance> instances;
  std::vector<std::shared_ptr<const SceneTexture>> textures;  // RtMaterial::texture indexes these
  std::vector<MeshFileReference> mesh_files;  // named by a scene file, not loaded yet
  // The model files loaded into meshes and instances (a scene file's, or the model opened alone):
  // a saved scene file names them again instead of holding their triangles.
  std::vector<MeshFileReference> placed_mesh_files;
  // Materials from this index on came with those model files (a saved scene leaves them to the
  // models); the ones before it are the scene's own.
  std::size_t first_model_material = kNoModelMaterials;
  static constexpr std::size_t kNoModelMaterials = static_cast<std::size_t>(-1);
  CameraView camera;
  Vec3 background{0, 0, 0};  // what rays leaving the scene see where it has no environment
  std::optional<SceneEnvironment> environment;
  int width = 640;  // the size the scene is meant for (--size overrides)
  int height = 480;
};

// The pinhole camera for an image of width x height pixels.
RtCamera make_camera(const CameraView& view, int width, int height);

RtMaterial make_material(Vec3 color, float ambient, float diffuse, float specular, float shininess,
                         float reflectivity);
RtSphere make_sphere(Vec3 center, float radius, cl_uint material);
RtPlane make_plane(Vec3 normal, float offset, cl_uint material, float checker_size = 0,
                   Vec3 checker_color = {});
RtLight make_light(Vec3 position, Vec3 color, float intensity);

// "seed", "aalborg", "cornell", "random:N[:SEED]" or "instances:N[:SEED]". Throws clf::Error naming
// the choices.
Scene builtin_scene(const std::string& name);
bool is_builtin_scene_name(const std::string& name);
// The file name's extension with its dot, in lower case ("" where it has none).
std::string lower_case_extension(const std::string& path);
// Whether the path ends in .gltf, .glb or .obj (any case): a model file, not a scene file.
bool has_model_file_extension(const std::string& path);
// A built-in name, else a JSON file (see docs/raytracer.md); the model files a JSON file names
// are left in Scene::mesh_files (open_scene in apps/raytracer/scene_source.hpp loads them).
Scene load_scene(const std::string& name_or_file);
// JSON scene files. Errors (clf::Error) name the file, the JSON path of the field and why.
Scene load_scene_file(const std::string& path);
Scene parse_scene_json(const std::string& text, const std::string& file_name);

// The built-in scene "seed" (after Kloosterman's raytracer demo; docs/raytracer.md describes it)
// with per_side^3 spheres ("seed" itself has 10 per side); the window's sphere-count control
// uses it.
Scene seed_scene(int per_side);

// A Cornell box with an emissive ceiling panel and glass, metal and white spheres (the path
// tracer's showcase).
Scene cornell_scene();

// The random scene with n spheres, reproducible from `seed`.
Scene random_scene(std::size_t n, std::uint64_t seed = 1);

// n instances of two generated meshes (a torus and a faceted ball) on a grid over a floor,
// reproducible from `seed`: the large triangle scene of the benchmarks.
Scene instances_scene(std::size_t n, std::uint64_t seed = 1);
// "mesh:N": one mesh of about N triangles (a torus with a rippled tube), placed once: what the
// mesh BVH builders are measured on.
Scene single_mesh_scene(std::size_t triangles);

}  // namespace raytracer

// Models loaded from glTF 2.0 (.gltf, .glb) and Wavefront OBJ (+ MTL) files, in the form a GPU
// raytracer wants: each mesh stored once as flat arrays, placed in the world by instances (mesh
// index + transform), so a mesh placed many times costs its triangles once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "apps/raytracer/scene.hpp"

namespace raytracer::model {

struct Vec2 {
  float u = 0, v = 0;
};

// Column-major 4x4 affine transform, the layout glTF stores (m[12..14] is the translation).
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};
Mat4 operator*(const Mat4& a, const Mat4& b);
Vec3 transform_point(const Mat4& t, Vec3 p);

// An axis-aligned box; empty (min > max) until a point is added.
struct Bounds {
  Vec3 min{1e30f, 1e30f, 1e30f};
  Vec3 max{-1e30f, -1e30f, -1e30f};
  bool empty() const { return min.x > max.x; }
  void extend(Vec3 p);
  void extend(const Bounds& b);
  Vec3 center() const;
  Vec3 size() const;
};

// One material description both formats map onto (metallic-roughness, as glTF defines it).
// Not carried yet: alpha (baseColorFactor's fourth number, alphaMode, map_d), the metallic-
// roughness, normal, occlusion and emissive maps, KHR_texture_transform, TEXCOORD_1 and vertex
// colours.
struct Material {
  std::string name;
  Vec3 base_color{1, 1, 1};     // linear rgb; multiplies the texture
  int base_color_texture = -1;  // index into Model::textures, -1: none
  float metallic = 0;
  float roughness = 1;
  int metallic_roughness_texture = -1;  // blue: metallic, green: roughness (times the factors)
  Vec3 emissive{0, 0, 0};               // linear rgb radiance scale
  int emissive_texture = -1;            // multiplies `emissive`
  int normal_texture = -1;              // tangent-space normals
  float normal_scale = 1;               // of the normal map's x and y
  float transmission = 0;               // 0: opaque, 1: fully transmissive (glass)
  float ior = 1.5f;
};

// A decoded image: width * height RGBA8 texels, rows from the top of the image, colours
// sRGB-encoded as the files store them (the renderer decodes them to linear).
struct Texture {
  std::string name;  // the file or glTF image it came from
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};

// Flat per-vertex arrays of equal length (texcoords are 0 where the file has none; normals are
// unit length: the file's where given, else the flat normal of the triangle) and three indices
// per triangle, each triangle with an index into Model::materials.
struct Mesh {
  std::string name;
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;
  std::vector<Vec2> texcoords;
  std::vector<std::uint32_t> indices;
  std::vector<std::uint32_t> triangle_materials;
  std::size_t triangle_count() const { return indices.size() / 3; }
};

struct Instance {
  std::uint32_t mesh = 0;
  Mat4 transform;
};

struct Model {
  std::string source;  // the file loaded
  std::vector<Mesh> meshes;
  std::vector<Instance> instances;
  std::vector<Material> materials;
  std::vector<Texture> textures;
  std::vector<std::string> warnings;  // what the loader skipped or could not honour
};

// Chooses the loader by extension (.gltf, .glb, .obj; any case). Throws clf::Error naming the
// file and the loader's message: a missing or broken file, a missing texture (named), an index
// out of range.
Model load_model(const std::string& path);
Model load_gltf(const std::string& path);
Model load_obj(const std::string& path);
bool is_model_file(const std::string& path);

Bounds mesh_bounds(const Mesh& mesh);
// The box holding every instance (each mesh's box transformed: a conservative bound).
Bounds world_bounds(const Model& model);
// Triangles as placed in the world (each instance counts its mesh) and as stored (each mesh once).
std::size_t instanced_triangle_count(const Model& model);
std::size_t stored_triangle_count(const Model& model);

// A camera looking at the whole model from the front-right and above, and a white point light
// near the camera: what `render --scene model.glb` shows without a scene file.
struct ModelView {
  CameraView camera;
  RtLight light;
};
ModelView default_view(const Bounds& bounds, float fov_y = 1.0471976f);

}  // namespace raytracer::model

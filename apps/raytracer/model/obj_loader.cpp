// Wavefront OBJ + MTL through tinyobjloader: all shapes of the file become one mesh (vertices
// shared where position, texcoord and normal indices agree), placed once; MTL materials map onto
// the metallic-roughness Material.
#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/model/texture.hpp"
#include "framework/error.hpp"

namespace raytracer::model {
namespace {

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

Vec3 vec3(const tinyobj::real_t* v) { return {v[0], v[1], v[2]}; }

float max_component(const tinyobj::real_t* v) { return std::max({v[0], v[1], v[2]}); }

// MTL onto metallic-roughness: Kd is the base colour (map_Kd its texture); Ns becomes roughness
// through the Blinn-Phong/GGX correspondence alpha = sqrt(2 / (Ns + 2)), roughness = sqrt(alpha),
// unless the file gives Pr (non-zero); metallic is Pm where given (non-zero), else Ks for the
// mirror illumination models (3, 5: reflection by ray tracing); d (or 1 - Tr) is opacity, so
// transmission = 1 - d; Ni is the index of refraction; Ke the emission.
Material map_material(const tinyobj::material_t& m) {
  Material out;
  out.name = m.name;
  out.base_color = vec3(m.diffuse);
  out.emissive = vec3(m.emission);
  const bool mirror = m.illum == 3 || m.illum == 5;
  out.metallic = m.metallic > 0 ? m.metallic : mirror ? max_component(m.specular) : 0.0f;
  out.roughness = m.roughness > 0 ? m.roughness
                                  : std::sqrt(std::sqrt(2.0f / (std::max(m.shininess, 0.0f) + 2)));
  out.transmission = std::clamp(1.0f - m.dissolve, 0.0f, 1.0f);
  if (m.ior > 0) out.ior = m.ior;
  return out;
}

struct CornerKey {
  int position, texcoord, normal;
  bool operator==(const CornerKey& o) const {
    return position == o.position && texcoord == o.texcoord && normal == o.normal;
  }
};

struct CornerKeyHash {
  std::size_t operator()(const CornerKey& k) const {
    return (static_cast<std::size_t>(k.position) * 0x9E3779B97F4A7C15ull) ^
           (static_cast<std::size_t>(k.texcoord) * 0xC2B2AE3D27D4EB4Full) ^
           static_cast<std::size_t>(k.normal);
  }
};

class ObjMeshReader {
 public:
  ObjMeshReader(const tinyobj::attrib_t& attrib, std::uint32_t default_material)
      : attrib_(attrib), default_material_(default_material), builder_("obj") {}

  void add_shape(const tinyobj::shape_t& shape) {
    std::size_t first = 0;
    for (std::size_t face = 0; face < shape.mesh.num_face_vertices.size(); ++face) {
      const std::size_t corners = shape.mesh.num_face_vertices[face];
      if (corners == 3) {
        const int material = shape.mesh.material_ids.at(face);
        add_face(shape, first, face,
                 material < 0 ? default_material_ : static_cast<std::uint32_t>(material));
      }
      first += corners;
    }
  }

  Mesh finish() { return builder_.finish(); }

 private:
  void add_face(const tinyobj::shape_t& shape, std::size_t first, std::size_t face,
                std::uint32_t material) {
    const tinyobj::index_t* idx = &shape.mesh.indices.at(first);
    bool has_normals = true;
    for (int k = 0; k < 3; ++k) {
      check_index(shape, face, "vertex", idx[k].vertex_index, attrib_.vertices.size() / 3, false);
      check_index(shape, face, "texture coordinate", idx[k].texcoord_index,
                  attrib_.texcoords.size() / 2, true);
      check_index(shape, face, "normal", idx[k].normal_index, attrib_.normals.size() / 3, true);
      has_normals &= idx[k].normal_index >= 0;
    }
    if (!has_normals) {
      Vec3 p[3];
      Vec2 uv[3];
      for (int k = 0; k < 3; ++k) {
        p[k] = position(idx[k]);
        uv[k] = texcoord(idx[k]);
      }
      builder_.add_flat_triangle(p, uv, material);
      return;
    }
    std::uint32_t v[3];
    for (int k = 0; k < 3; ++k) v[k] = shared_vertex(idx[k]);
    builder_.add_triangle(v[0], v[1], v[2], material);
  }

  std::uint32_t shared_vertex(const tinyobj::index_t& i) {
    const CornerKey key{i.vertex_index, i.texcoord_index, i.normal_index};
    const auto found = vertices_.find(key);
    if (found != vertices_.end()) return found->second;
    const std::uint32_t v =
        builder_.add_vertex(position(i), vec3(&attrib_.normals[3 * i.normal_index]), texcoord(i));
    vertices_.emplace(key, v);
    return v;
  }

  Vec3 position(const tinyobj::index_t& i) const {
    return vec3(&attrib_.vertices[3 * i.vertex_index]);
  }

  Vec2 texcoord(const tinyobj::index_t& i) const {
    if (i.texcoord_index < 0) return {};
    return {attrib_.texcoords[2 * i.texcoord_index], attrib_.texcoords[2 * i.texcoord_index + 1]};
  }

  static void check_index(const tinyobj::shape_t& shape, std::size_t face, const char* what,
                          int index, std::size_t count, bool optional) {
    if ((optional && index == -1) || (index >= 0 && static_cast<std::size_t>(index) < count)) {
      return;
    }
    const std::string shape_name = shape.name.empty() ? "" : "shape '" + shape.name + "', ";
    throw clf::Error(shape_name + "face " + std::to_string(face + 1) + ": " + what + " index " +
                     std::to_string(index + 1) + " is out of range (the file has " +
                     std::to_string(count) + ")");
  }

  const tinyobj::attrib_t& attrib_;
  std::uint32_t default_material_;
  MeshBuilder builder_;
  std::unordered_map<CornerKey, std::uint32_t, CornerKeyHash> vertices_;
};

Model read_obj(const std::string& path) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    std::string message = reader.Error();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw clf::Error(message.empty() ? "tinyobjloader could not read it" : message);
  }
  Model model;
  model.source = path;
  add_loader_warnings(model, reader.Warning());

  // Each image file decoded once, however many materials and maps name it.
  std::map<std::string, int> texture_of_file;
  const auto texture = [&](const tinyobj::material_t& m, const std::string& name,
                           const char* statement) {
    const auto [it, added] = texture_of_file.emplace(name, 0);
    if (added) {
      try {
        // Files written on Windows name textures with backslashes (".\\wood.jpg").
        std::string file = name;
        std::replace(file.begin(), file.end(), '\\', '/');
        const bool absolute = !file.empty() && file.front() == '/';
        model.textures.push_back(decode_texture_file(absolute ? file : directory_of(path) + file));
      } catch (const clf::Error& e) {
        throw clf::Error("material '" + m.name + "', " + statement + ": " + e.what());
      }
      it->second = static_cast<int>(model.textures.size() - 1);
    }
    return it->second;
  };
  for (const tinyobj::material_t& m : reader.GetMaterials()) {
    Material material = map_material(m);
    if (!m.diffuse_texname.empty())
      material.base_color_texture = texture(m, m.diffuse_texname, "map_Kd");
    if (!m.emissive_texname.empty())
      material.emissive_texture = texture(m, m.emissive_texname, "map_Ke");
    // `norm` names a tangent-space normal map (`bump` a height map, which is not read); -bm
    // scales its tilt.
    if (!m.normal_texname.empty()) {
      material.normal_texture = texture(m, m.normal_texname, "norm");
      material.normal_scale = m.normal_texopt.bump_multiplier;
    }
    model.materials.push_back(material);
  }
  // Faces without a material (no usemtl, or no MTL file) use a white diffuse one.
  const auto default_material = static_cast<std::uint32_t>(model.materials.size());
  model.materials.push_back(Material{"default"});

  ObjMeshReader mesh_reader(reader.GetAttrib(), default_material);
  for (const tinyobj::shape_t& shape : reader.GetShapes()) mesh_reader.add_shape(shape);
  Mesh mesh = mesh_reader.finish();
  mesh.name = path;
  if (mesh.triangle_count() == 0) throw clf::Error("no triangles (points and lines are not drawn)");
  model.meshes.push_back(std::move(mesh));
  model.instances.push_back(Instance{0, Mat4{}});
  return model;
}

}  // namespace

Model load_obj(const std::string& path) {
  try {
    return read_obj(path);
  } catch (const clf::Error& e) {
    throw clf::Error(path + ": " + e.what());
  }
}

}  // namespace raytracer::model

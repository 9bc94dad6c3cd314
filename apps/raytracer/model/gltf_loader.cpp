// glTF 2.0 (.gltf with its files, or .glb) through tinygltf: each glTF mesh becomes one Mesh
// (its triangle primitives concatenated), each node that places a mesh an Instance with the
// node's world transform; metallic-roughness materials with KHR_materials_transmission, _ior
// and _emissive_strength.
#include <tiny_gltf.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "apps/raytracer/model/gltf_accessor.hpp"
#include "apps/raytracer/model/image_decode.hpp"
#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/model/model_scene.hpp"
#include "apps/raytracer/model/texture.hpp"
#include "framework/error.hpp"

namespace raytracer::model {
namespace {

constexpr int kTriangles = TINYGLTF_MODE_TRIANGLES;
constexpr int kTriangleStrip = TINYGLTF_MODE_TRIANGLE_STRIP;
constexpr int kTriangleFan = TINYGLTF_MODE_TRIANGLE_FAN;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

double extension_number(const tinygltf::ExtensionMap& extensions, const std::string& extension,
                        const std::string& field, double fallback) {
  const auto found = extensions.find(extension);
  if (found == extensions.end() || !found->second.Has(field)) return fallback;
  const tinygltf::Value& v = found->second.Get(field);
  return v.IsNumber() ? v.GetNumberAsDouble() : fallback;
}

// The first three numbers of a glTF colour factor; `fallback` for a malformed shorter one.
Vec3 factor3(const std::vector<double>& factor, Vec3 fallback) {
  if (factor.size() < 3) return fallback;
  return {static_cast<float>(factor[0]), static_cast<float>(factor[1]),
          static_cast<float>(factor[2])};
}

class GltfReader {
 public:
  GltfReader(const tinygltf::Model& gltf, Model& model) : gltf_(gltf), model_(model) {}

  void read() {
    for (const tinygltf::Material& m : gltf_.materials) model_.materials.push_back(material(m));
    for (std::size_t i = 0; i < gltf_.meshes.size(); ++i) {
      Mesh mesh = read_mesh(gltf_.meshes[i]);
      if (mesh.triangle_count() == 0) {
        mesh_of_gltf_mesh_.push_back(-1);
        continue;
      }
      mesh_of_gltf_mesh_.push_back(static_cast<int>(model_.meshes.size()));
      model_.meshes.push_back(std::move(mesh));
    }
    place_scene();
  }

 private:
  Material material(const tinygltf::Material& m) {
    const tinygltf::PbrMetallicRoughness& pbr = m.pbrMetallicRoughness;
    Material out;
    out.name = m.name;
    out.base_color = factor3(pbr.baseColorFactor, {1, 1, 1});
    out.metallic = static_cast<float>(pbr.metallicFactor);
    out.roughness = static_cast<float>(pbr.roughnessFactor);
    const float strength = static_cast<float>(
        extension_number(m.extensions, "KHR_materials_emissive_strength", "emissiveStrength", 1));
    const Vec3 emissive = factor3(m.emissiveFactor, {0, 0, 0});
    out.emissive = {emissive.x * strength, emissive.y * strength, emissive.z * strength};
    out.transmission = static_cast<float>(
        extension_number(m.extensions, "KHR_materials_transmission", "transmissionFactor", 0));
    out.ior = static_cast<float>(extension_number(m.extensions, "KHR_materials_ior", "ior", 1.5));
    // Every map is read at the first set of texture coordinates (TEXCOORD_0).
    if (pbr.baseColorTexture.index >= 0) {
      out.base_color_texture = texture(pbr.baseColorTexture.index, m.name, "base colour");
    }
    if (pbr.metallicRoughnessTexture.index >= 0) {
      out.metallic_roughness_texture =
          texture(pbr.metallicRoughnessTexture.index, m.name, "metallic-roughness");
    }
    if (m.emissiveTexture.index >= 0) {
      out.emissive_texture = texture(m.emissiveTexture.index, m.name, "emissive");
    }
    if (m.normalTexture.index >= 0) {
      out.normal_texture = texture(m.normalTexture.index, m.name, "normal");
      out.normal_scale = static_cast<float>(m.normalTexture.scale);
    }
    return out;
  }

  // Our texture for glTF texture `index` (the material's `map`): its image, converted once
  // however often it is used.
  int texture(int index, const std::string& material_name, const std::string& map) {
    const std::string where = "material '" + material_name + "', " + map + " texture";
    if (index >= static_cast<int>(gltf_.textures.size())) {
      throw clf::Error(where + ": texture " + std::to_string(index) + " does not exist");
    }
    const int source = gltf_.textures[index].source;
    if (source < 0 || source >= static_cast<int>(gltf_.images.size())) {
      throw clf::Error(where + ": texture " + std::to_string(index) + " has no image");
    }
    const auto found = texture_of_image_.find(source);
    if (found != texture_of_image_.end()) return found->second;
    const tinygltf::Image& image = gltf_.images[source];
    const std::string name = !image.uri.empty()    ? image.uri
                             : !image.name.empty() ? image.name
                                                   : "image " + std::to_string(source);
    const std::size_t expected =
        static_cast<std::size_t>(image.width) * image.height * image.component * (image.bits / 8);
    if (image.image.size() < expected || image.image.empty()) {
      // tinygltf reports a missing or undecodable image as a warning and goes on.
      std::string reason = "missing, or not an image tinygltf decodes";
      for (const std::string& w : model_.warnings) {
        if (!image.uri.empty() && w.find(image.uri) != std::string::npos) reason = w;
      }
      throw clf::Error(where + ": cannot read image '" + name + "' (" + reason + ")");
    }
    model_.textures.push_back(texture_from_pixels(name, image.width, image.height, image.component,
                                                  image.bits, image.image.data()));
    const int ours = static_cast<int>(model_.textures.size() - 1);
    texture_of_image_.emplace(source, ours);
    return ours;
  }

  std::uint32_t default_material() {
    if (default_material_ < 0) {
      default_material_ = static_cast<int>(model_.materials.size());
      model_.materials.push_back(Material{"default"});
    }
    return static_cast<std::uint32_t>(default_material_);
  }

  Mesh read_mesh(const tinygltf::Mesh& mesh) {
    MeshBuilder builder(mesh.name);
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
      const std::string where = "mesh '" + mesh.name + "', primitive " + std::to_string(p);
      const tinygltf::Primitive& primitive = mesh.primitives[p];
      if (primitive.mode != kTriangles && primitive.mode != kTriangleStrip &&
          primitive.mode != kTriangleFan) {
        model_.warnings.push_back(where + ": points and lines are not drawn");
        continue;
      }
      if (primitive.extensions.count("KHR_draco_mesh_compression")) {
        throw clf::Error(where + ": Draco-compressed meshes are not supported");
      }
      add_primitive(builder, primitive, where);
    }
    return builder.finish();
  }

  void add_primitive(MeshBuilder& builder, const tinygltf::Primitive& primitive,
                     const std::string& where) {
    const auto attribute = [&](const char* name) {
      const auto found = primitive.attributes.find(name);
      return found == primitive.attributes.end() ? -1 : found->second;
    };
    if (attribute("POSITION") < 0) throw clf::Error(where + ": no POSITION attribute");
    const AccessorView positions(gltf_, attribute("POSITION"), where + ", POSITION", 3);
    const std::size_t vertices = positions.count();
    std::optional<AccessorView> normals, texcoords;
    if (attribute("NORMAL") >= 0) {
      normals.emplace(gltf_, attribute("NORMAL"), where + ", NORMAL", 3);
    }
    if (attribute("TEXCOORD_0") >= 0) {
      texcoords.emplace(gltf_, attribute("TEXCOORD_0"), where + ", TEXCOORD_0", 2);
    }
    for (const std::optional<AccessorView>* a : {&normals, &texcoords}) {
      if (a->has_value() && (*a)->count() != vertices) {
        throw clf::Error(where + ": attributes have different vertex counts");
      }
    }
    const std::vector<std::uint32_t> corners = triangle_corners(primitive, vertices, where);
    const std::uint32_t material = primitive.material >= 0
                                       ? static_cast<std::uint32_t>(primitive.material)
                                       : default_material();
    if (material >= model_.materials.size()) {
      throw clf::Error(where + ": material " + std::to_string(primitive.material) +
                       " does not exist");
    }
    const auto position = [&](std::size_t i) {
      return Vec3{positions.real(i, 0), positions.real(i, 1), positions.real(i, 2)};
    };
    const auto texcoord = [&](std::size_t i) {
      return texcoords ? Vec2{texcoords->real(i, 0), texcoords->real(i, 1)} : Vec2{};
    };
    if (!normals) {
      for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
        const Vec3 p[3] = {position(corners[t]), position(corners[t + 1]),
                           position(corners[t + 2])};
        const Vec2 uv[3] = {texcoord(corners[t]), texcoord(corners[t + 1]),
                            texcoord(corners[t + 2])};
        builder.add_flat_triangle(p, uv, material);
      }
      return;
    }
    const auto first = static_cast<std::uint32_t>(builder.vertex_count());
    for (std::size_t i = 0; i < vertices; ++i) {
      builder.add_vertex(position(i),
                         {normals->real(i, 0), normals->real(i, 1), normals->real(i, 2)},
                         texcoord(i));
    }
    for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
      builder.add_triangle(first + corners[t], first + corners[t + 1], first + corners[t + 2],
                           material);
    }
  }

  // Three vertex indices per triangle, strips and fans unrolled, each checked against `vertices`.
  std::vector<std::uint32_t> triangle_corners(const tinygltf::Primitive& primitive,
                                              std::size_t vertices, const std::string& where) {
    std::vector<std::uint32_t> order;
    if (primitive.indices >= 0) {
      const AccessorView indices(gltf_, primitive.indices, where + ", indices", 1);
      order.reserve(indices.count());
      for (std::size_t i = 0; i < indices.count(); ++i) {
        const std::uint32_t v = indices.integer(i, 0);
        if (v >= vertices) {
          throw clf::Error(where + ": index " + std::to_string(i) + " refers to vertex " +
                           std::to_string(v) + " of " + std::to_string(vertices));
        }
        order.push_back(v);
      }
    } else {
      for (std::size_t i = 0; i < vertices; ++i) order.push_back(static_cast<std::uint32_t>(i));
    }
    if (primitive.mode == kTriangles) {
      order.resize(order.size() / 3 * 3);
      return order;
    }
    std::vector<std::uint32_t> corners;
    for (std::size_t i = 2; i < order.size(); ++i) {
      if (primitive.mode == kTriangleFan) {
        corners.insert(corners.end(), {order[0], order[i - 1], order[i]});
      } else if (i % 2 == 0) {  // strips alternate winding to keep every triangle's facing
        corners.insert(corners.end(), {order[i - 2], order[i - 1], order[i]});
      } else {
        corners.insert(corners.end(), {order[i - 1], order[i - 2], order[i]});
      }
    }
    return corners;
  }

  static Mat4 local_transform(const tinygltf::Node& node) {
    Mat4 m;
    if (node.matrix.size() == 16) {
      for (int i = 0; i < 16; ++i) m.m[i] = static_cast<float>(node.matrix[i]);
      return m;
    }
    Mat4 translation, rotation, scale;
    if (node.translation.size() == 3) {
      for (int i = 0; i < 3; ++i) translation.m[12 + i] = static_cast<float>(node.translation[i]);
    }
    if (node.scale.size() == 3) {
      for (int i = 0; i < 3; ++i) scale.m[i * 5] = static_cast<float>(node.scale[i]);
    }
    if (node.rotation.size() == 4) {
      const float x = static_cast<float>(node.rotation[0]),
                  y = static_cast<float>(node.rotation[1]),
                  z = static_cast<float>(node.rotation[2]),
                  w = static_cast<float>(node.rotation[3]);
      rotation.m = {1 - 2 * (y * y + z * z),
                    2 * (x * y + z * w),
                    2 * (x * z - y * w),
                    0,
                    2 * (x * y - z * w),
                    1 - 2 * (x * x + z * z),
                    2 * (y * z + x * w),
                    0,
                    2 * (x * z + y * w),
                    2 * (y * z - x * w),
                    1 - 2 * (x * x + y * y),
                    0,
                    0,
                    0,
                    0,
                    1};
    }
    return translation * rotation * scale;
  }

  // The default scene's nodes (else the first scene's; else every node no other node holds).
  std::vector<int> root_nodes() const {
    if (!gltf_.scenes.empty()) {
      const int scene =
          gltf_.defaultScene >= 0 && gltf_.defaultScene < static_cast<int>(gltf_.scenes.size())
              ? gltf_.defaultScene
              : 0;
      return gltf_.scenes[scene].nodes;
    }
    std::vector<bool> is_child(gltf_.nodes.size());
    for (const tinygltf::Node& node : gltf_.nodes) {
      for (int child : node.children) {
        if (child >= 0 && child < static_cast<int>(is_child.size())) is_child[child] = true;
      }
    }
    std::vector<int> roots;
    for (std::size_t i = 0; i < gltf_.nodes.size(); ++i) {
      if (!is_child[i]) roots.push_back(static_cast<int>(i));
    }
    return roots;
  }

  void place_scene() {
    std::vector<bool> on_path(gltf_.nodes.size());
    std::function<void(int, const Mat4&)> visit = [&](int index, const Mat4& parent) {
      if (index < 0 || index >= static_cast<int>(gltf_.nodes.size())) {
        throw clf::Error("node " + std::to_string(index) + " does not exist");
      }
      if (on_path[index]) {
        throw clf::Error("node " + std::to_string(index) + " is its own ancestor");
      }
      on_path[index] = true;
      const tinygltf::Node& node = gltf_.nodes[index];
      const Mat4 world = parent * local_transform(node);
      if (node.mesh >= static_cast<int>(mesh_of_gltf_mesh_.size())) {
        throw clf::Error("node " + std::to_string(index) + ": mesh " + std::to_string(node.mesh) +
                         " does not exist");
      }
      if (node.mesh >= 0 && mesh_of_gltf_mesh_[node.mesh] >= 0) {
        if (!to_transform(world).invertible()) {
          model_.warnings.push_back("node " + std::to_string(index) +
                                    (node.name.empty() ? "" : " ('" + node.name + "')") +
                                    " flattens its mesh (a zero scale): not drawn");
        } else {
          model_.instances.push_back(
              Instance{static_cast<std::uint32_t>(mesh_of_gltf_mesh_[node.mesh]), world});
        }
      }
      for (int child : node.children) visit(child, world);
      on_path[index] = false;
    };
    for (int root : root_nodes()) visit(root, Mat4{});
  }

  const tinygltf::Model& gltf_;
  Model& model_;
  std::vector<int> mesh_of_gltf_mesh_;  // -1 where a glTF mesh has no triangles
  std::map<int, int> texture_of_image_;
  int default_material_ = -1;
};

bool ends_with_glb(const std::string& path) {
  if (path.size() < 4) return false;
  std::string tail = path.substr(path.size() - 4);
  for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tail == ".glb";
}

// tinygltf's image callback: PNG and JPEG through decode_image instead of its stb_image.
// `model` is the model being loaded: tinygltf (2.7) hands over an image's buffer view without
// checking that it lies inside its buffer, so that is checked here before a byte is read.
bool load_image(tinygltf::Image* image, const int index, std::string* error, std::string*, int, int,
                const unsigned char* bytes, int size, void* model) {
  try {
    const std::string name =
        !image->uri.empty() ? image->uri : "image " + std::to_string(index) + " of the file";
    if (size < 0) throw clf::Error(name + ": larger than 2 GiB");
    if (image->bufferView >= 0) {
      const auto& gltf = *static_cast<const tinygltf::Model*>(model);
      const tinygltf::BufferView& view = gltf.bufferViews.at(image->bufferView);
      const std::size_t buffer_size = gltf.buffers.at(view.buffer).data.size();
      if (view.byteOffset > buffer_size || view.byteLength > buffer_size - view.byteOffset) {
        throw clf::Error(name + ": buffer view " + std::to_string(image->bufferView) + " (" +
                         std::to_string(view.byteLength) + " bytes at " +
                         std::to_string(view.byteOffset) + ") lies outside its buffer of " +
                         std::to_string(buffer_size) + " bytes");
      }
    }
    DecodedImage decoded = decode_image(bytes, static_cast<std::size_t>(size), name);
    image->width = decoded.width;
    image->height = decoded.height;
    image->component = 4;
    image->bits = 8;
    image->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
    image->image = std::move(decoded.rgba);
    return true;
  } catch (const std::exception& e) {
    if (error != nullptr) *error += std::string(e.what()) + "\n";
    return false;
  }
}

Model read_gltf(const std::string& path) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model gltf;
  loader.SetImageLoader(load_image, &gltf);
  std::string error, warning;
  const bool ok = ends_with_glb(path) ? loader.LoadBinaryFromFile(&gltf, &error, &warning, path)
                                      : loader.LoadASCIIFromFile(&gltf, &error, &warning, path);
  if (!ok) {
    error = trimmed(error);
    throw clf::Error(error.empty() ? "tinygltf could not read it" : error);
  }
  Model model;
  model.source = path;
  add_loader_warnings(model, warning);
  // An asset needs its required extensions understood (glTF 2.0, 3.12); others may be ignored.
  const std::set<std::string> supported = {"KHR_materials_emissive_strength", "KHR_materials_ior",
                                           "KHR_materials_transmission"};
  for (const std::string& extension : gltf.extensionsRequired) {
    if (supported.count(extension) == 0) {
      throw clf::Error("extensionsRequired names '" + extension +
                       "', which this loader does not support");
    }
  }
  for (const std::string& extension : gltf.extensionsUsed) {
    if (supported.count(extension) == 0) {
      model.warnings.push_back("extension '" + extension + "' is not supported: ignored");
    }
  }
  GltfReader(gltf, model).read();
  if (model.instances.empty()) throw clf::Error("the scene places no triangles");
  return model;
}

}  // namespace

Model load_gltf(const std::string& path) {
  try {
    return read_gltf(path);
  } catch (const clf::Error& e) {
    throw clf::Error(path + ": " + e.what());
  }
}

}  // namespace raytracer::model

#include "apps/raytracer/model/model_scene.hpp"

#include <algorithm>
#include <cmath>

#include "apps/raytracer/procedural_mesh.hpp"

namespace raytracer::model {

Transform to_transform(const Mat4& matrix) {
  Transform t;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 4; ++col) t.m[row][col] = matrix.m[col * 4 + row];
  return t;
}

namespace {

cl_float4 float4(Vec3 v) { return rt_vec(v.x, v.y, v.z); }

// OBJ counts v up from the bottom of the image, glTF down from the top (as textures are stored).
TriangleMesh to_triangle_mesh(const Mesh& mesh, cl_uint material_base, bool flip_v) {
  TriangleMesh out;
  out.name = mesh.name;
  out.triangles.reserve(mesh.triangle_count());
  out.shading.reserve(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    cl_float4 corners[3], normals[3];
    float uv[3][2];
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = mesh.indices[3 * t + k];
      corners[k] = float4(mesh.positions[v]);
      normals[k] = float4(mesh.normals[v]);
      uv[k][0] = mesh.texcoords[v].u;
      uv[k][1] = flip_v ? 1.0f - mesh.texcoords[v].v : mesh.texcoords[v].v;
    }
    add_triangle(out, corners, normals, uv, material_base + mesh.triangle_materials[t]);
  }
  return out;
}

SceneTexture to_scene_texture(const Texture& texture) {
  SceneTexture out;
  out.name = texture.name;
  out.width = texture.width;
  out.height = texture.height;
  out.rgba.resize(static_cast<std::size_t>(texture.width) * texture.height);
  for (std::size_t i = 0; i < out.rgba.size(); ++i) {
    const std::uint8_t* p = &texture.rgba[4 * i];
    out.rgba[i] = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<cl_uint>(p[3]) << 24);
  }
  return out;
}

}  // namespace

RtMaterial whitted_material(const Material& m, cl_int first_texture) {
  const auto texture = [first_texture](int index) {
    return index >= 0 ? first_texture + index : -1;
  };
  const float roughness = std::clamp(m.roughness, 0.0f, 1.0f);
  const float metallic = std::clamp(m.metallic, 0.0f, 1.0f);
  const float smoothness = 1.0f - roughness;
  // Phong exponent from roughness as Blinn-Phong matches GGX: 2 / alpha^2 - 2, alpha = r^2.
  const float alpha = std::max(roughness * roughness, 0.01f);
  const float shininess = std::clamp(2.0f / (alpha * alpha) - 2.0f, 1.0f, 10000.0f);
  RtMaterial out = make_material(m.base_color, 0.1f, 0.8f, 0.04f + 0.46f * smoothness, shininess,
                                 metallic * smoothness);
  out.texture = texture(m.base_color_texture);
  out.metallic_roughness_texture = texture(m.metallic_roughness_texture);
  out.emissive_texture = texture(m.emissive_texture);
  out.normal_texture = texture(m.normal_texture);
  out.normal_scale = m.normal_scale;
  out.metallic = metallic;
  out.roughness = roughness;
  out.transmission = std::clamp(m.transmission, 0.0f, 1.0f);
  out.ior = std::max(m.ior, 1.0f);
  out.emission = to_float4(m.emissive);
  return out;
}

std::uint32_t add_model_meshes(const Model& model, Scene& scene) {
  const cl_uint material_base = static_cast<cl_uint>(scene.materials.size());
  const cl_int texture_base = static_cast<cl_int>(scene.textures.size());
  const std::uint32_t mesh_base = static_cast<std::uint32_t>(scene.meshes.size());
  for (const Texture& texture : model.textures) {
    scene.textures.push_back(std::make_shared<const SceneTexture>(to_scene_texture(texture)));
  }
  for (const Material& material : model.materials) {
    scene.materials.push_back(whitted_material(material, texture_base));
  }
  const bool flip_v = lower_case_extension(model.source) == ".obj";
  for (const Mesh& mesh : model.meshes) {
    scene.meshes.push_back(
        std::make_shared<const TriangleMesh>(to_triangle_mesh(mesh, material_base, flip_v)));
  }
  return mesh_base;
}

void add_model_instances(const Model& model, std::uint32_t first_mesh, const Transform& placement,
                         cl_int material_override, Scene& scene) {
  for (const Instance& instance : model.instances) {
    MeshInstance placed;
    placed.mesh = first_mesh + instance.mesh;
    placed.transform = placement * to_transform(instance.transform);
    placed.material = material_override;
    scene.instances.push_back(placed);
  }
}

void add_model_to_scene(const Model& model, const Transform& placement, cl_int material_override,
                        Scene& scene) {
  add_model_instances(model, add_model_meshes(model, scene), placement, material_override, scene);
}

Scene scene_from_model(const Model& model) {
  Scene scene;
  scene.name = model.source;
  scene.width = 800;
  scene.height = 600;
  scene.background = {0.05f, 0.07f, 0.12f};
  add_model_to_scene(model, Transform{}, -1, scene);
  const ModelView view = default_view(world_bounds(model));
  scene.camera = view.camera;
  scene.camera.right_handed = true;
  scene.lights.push_back(view.light);
  return scene;
}

}  // namespace raytracer::model

#include "apps/raytracer/scene_json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "apps/raytracer/scene_file_format.hpp"
#include "framework/atomic_file.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

using json = nlohmann::ordered_json;

constexpr float kPi = 3.14159265f;

// The shortest decimal that reads back as this float ("0.1", not 0.10000000149011612), unless
// reading it as a double first (as the reader does) would round it to another float.
json number(float value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text - 1, value).ptr;
  *end = '\0';
  const double shortest = std::strtod(text, nullptr);
  return static_cast<float>(shortest) == value ? shortest : static_cast<double>(value);
}

json vec3(float x, float y, float z) { return json::array({number(x), number(y), number(z)}); }
json vec3(const Vec3& v) { return vec3(v.x, v.y, v.z); }
json vec3(const cl_float4& v) { return vec3(v.x, v.y, v.z); }
json vec3(const float (&v)[3]) { return vec3(v[0], v[1], v[2]); }

std::string material_name(std::size_t index) { return "material" + std::to_string(index); }

// The field of view in degrees, as few digits as read back (by scene_json.cpp's conversion) to
// the same radians: 47.5, not 47.500004.
json degrees(float radians) {
  const double exact = static_cast<double>(radians) * 180.0 / static_cast<double>(kPi);
  for (double scale = 1; scale <= 1e6; scale *= 10) {
    const float candidate = static_cast<float>(std::round(exact * scale) / scale);
    if (candidate * kPi / 180.0f == radians) return number(candidate);
  }
  return number(static_cast<float>(exact));
}

json camera_to_json(const CameraView& camera) {
  return {{"position", vec3(camera.position)},
          {"look_at", vec3(camera.look_at)},
          {"up", vec3(camera.up)},
          {"fov", degrees(camera.fov_y)},
          {"right_handed", camera.right_handed}};
}

json plane_to_json(const RtPlane& plane) {
  json p = {{"normal", vec3(plane.normal)},
            {"offset", number(plane.offset)},
            {"material", material_name(plane.material)}};
  if (plane.checker_size > 0) {
    p["checker"] = {{"size", number(plane.checker_size)}, {"color", vec3(plane.checker_color)}};
  }
  return p;
}

// A model path as seen from the folder of the scene file where the two share a folder below the
// root (the scene moves with its models), else absolute (/usr/share/... from /home/...).
std::string path_from(const std::string& model, const std::string& scene_file) {
  const std::filesystem::path target = std::filesystem::absolute(model).lexically_normal();
  const std::filesystem::path folder =
      std::filesystem::absolute(scene_file).lexically_normal().parent_path();
  auto t = target.begin(), f = folder.begin();
  int shared = 0;
  for (; t != target.end() && f != folder.end() && *t == *f; ++t, ++f) ++shared;
  if (shared < 2) return target.string();  // only the root ("/") in common
  return target.lexically_relative(folder).string();
}

json mesh_to_json(const MeshFileReference& reference, const std::string& scene_file) {
  json m = {{"file", path_from(reference.file, scene_file)}};
  const MeshPlacement& p = reference.placement;
  const auto is = [](const float(&v)[3], float value) {
    return v[0] == value && v[1] == value && v[2] == value;
  };
  if (!is(p.scale, 1)) m["scale"] = vec3(p.scale);
  if (!is(p.rotate_degrees, 0)) m["rotate"] = vec3(p.rotate_degrees);
  if (!is(p.translate, 0)) m["translate"] = vec3(p.translate);
  if (reference.material >= 0) m["material"] = material_name(reference.material);
  return m;
}

// `value` on one line, with a space after each comma and colon.
std::string one_line(const json& value) {
  if (!value.is_structured() || value.empty()) return value.dump();
  std::string out = value.is_object() ? "{" : "[";
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it != value.begin()) out += ", ";
    if (value.is_object()) out += json(it.key()).dump() + ": ";
    out += one_line(*it);
  }
  return out + (value.is_object() ? "}" : "]");
}

// Nothing nested deeper than an array of numbers, and within 100 columns from `column`: one line
// reads best.
bool fits_one_line(const json& value, std::size_t column) {
  const bool shallow = std::all_of(value.begin(), value.end(), [](const json& item) {
    return item.is_primitive() ||
           (item.is_array() &&
            std::all_of(item.begin(), item.end(), [](const json& x) { return x.is_primitive(); }));
  });
  return !value.is_structured() || (shallow && column + one_line(value).size() + 1 <= 100);
}

// Objects and arrays that do not fit on one line hold one item a line, indented by `indent`
// under their opening line; the value starts at `column`.
void append_readable(std::string& out, const json& value, std::size_t indent, std::size_t column) {
  if (fits_one_line(value, column)) {
    out += one_line(value);
    return;
  }
  const std::string pad(indent + 2, ' ');
  out += value.is_object() ? "{\n" : "[\n";
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string key = value.is_object() ? json(it.key()).dump() + ": " : "";
    out += pad + key;
    append_readable(out, *it, indent + 2, pad.size() + key.size());
    out += std::next(it) == value.end() ? "\n" : ",\n";
  }
  out += std::string(indent, ' ') + (value.is_object() ? "}" : "]");
}

}  // namespace

json material_to_json(const RtMaterial& material, const std::string& name) {
  return {{"name", name},
          {"color", vec3(material.color)},
          {"ambient", number(material.ambient)},
          {"diffuse", number(material.diffuse)},
          {"specular", number(material.specular)},
          {"shininess", number(material.shininess)},
          {"reflectivity", number(material.reflectivity)},
          {"emission", vec3(material.emission)},
          {"metallic", number(material.metallic)},
          {"roughness", number(material.roughness)},
          {"transmission", number(material.transmission)},
          {"ior", number(material.ior)}};
}

json scene_to_json(const Scene& scene, const std::string& file) {
  if (!scene.instances.empty() && scene.placed_mesh_files.empty()) {
    throw clf::Error("scene '" + scene.name +
                     "': its meshes are generated, not read from model files, so a scene file "
                     "cannot name them");
  }
  json root = {{"version", kSceneFileVersion},
               {"size", {scene.width, scene.height}},
               {"background", vec3(scene.background)},
               {"camera", camera_to_json(scene.camera)}};
  if (scene.environment) {
    const SceneEnvironment& e = *scene.environment;
    root["environment"] = {{"file", path_from(e.file, file)},
                           {"intensity", number(e.intensity)},
                           {"rotate", number(e.rotate_degrees)}};
  }
  json materials = json::array();
  const std::size_t own = std::min(scene.first_model_material, scene.materials.size());
  for (std::size_t i = 0; i < own; ++i) {
    materials.push_back(material_to_json(scene.materials[i], material_name(i)));
  }
  root["materials"] = materials;
  json spheres = json::array();
  for (const RtSphere& s : scene.spheres) {
    spheres.push_back({{"center", vec3(s.center_radius)},
                       {"radius", number(s.center_radius.w)},
                       {"material", material_name(s.material)}});
  }
  root["spheres"] = spheres;
  json planes = json::array();
  for (const RtPlane& p : scene.planes) planes.push_back(plane_to_json(p));
  root["planes"] = planes;
  json lights = json::array();
  for (const RtLight& l : scene.lights) {
    lights.push_back({{"position", vec3(l.position)},
                      {"color", vec3(l.color)},
                      {"intensity", number(l.intensity)}});
  }
  root["lights"] = lights;
  json meshes = json::array();
  for (const auto* list : {&scene.placed_mesh_files, &scene.mesh_files}) {
    for (const MeshFileReference& reference : *list)
      meshes.push_back(mesh_to_json(reference, file));
  }
  if (!meshes.empty()) root["meshes"] = meshes;
  root["checksum"] = scene_file_checksum(nlohmann::json::parse(root.dump()));
  return root;
}

std::string readable_json(const json& value) {
  std::string text;
  append_readable(text, value, 0, 0);
  return text + "\n";
}

void save_scene_file(const Scene& scene, const std::string& path) {
  clf::write_file_atomically(path, readable_json(scene_to_json(scene, path)));
}

}  // namespace raytracer

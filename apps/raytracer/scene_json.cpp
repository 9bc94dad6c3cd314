// JSON scene files (format: docs/raytracer.md). Every error names the file, the JSON path of
// the offending field (spheres[3].radius) and why, and nothing half-read is returned.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "apps/raytracer/scene.hpp"
#include "apps/raytracer/scene_file_format.hpp"
#include "framework/checksum.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

using nlohmann::json;

std::string describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return std::string(value.type_name()) + " " + text;
}

class SceneReader {
 public:
  explicit SceneReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& why) const {
    throw clf::Error(file_ + ": " + (path.empty() ? "(top level)" : path) + ": " + why);
  }

  // The object at `path`, checked for unknown keys (a misspelt field is an error, not ignored).
  void expect_object(const json& value, const std::string& path,
                     const std::set<std::string>& known) const {
    if (!value.is_object()) fail(path, "expected an object, got " + describe(value));
    for (const auto& item : value.items()) {
      if (known.count(item.key()) == 0) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(join(path, item.key()), "unknown field (known: " + list + ")");
      }
    }
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  const json& require(const json& object, const std::string& path, const std::string& key) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(join(path, key), "missing field");
    return *it;
  }

  float number(const json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number, got " + describe(value));
    const auto v = static_cast<float>(value.get<double>());
    if (!std::isfinite(v)) fail(path, "beyond the range of a float, got " + describe(value));
    return v;
  }

  float number_in(const json& object, const std::string& path, const std::string& key, float low,
                  float high, float fallback, bool required, bool low_inclusive = true) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (required) fail(join(path, key), "missing field");
      return fallback;
    }
    const float v = number(*it, join(path, key));
    if (v < low || (v == low && !low_inclusive) || v > high) {
      const std::string range = high >= 1e29f
                                    ? std::string(low_inclusive ? ">= " : "> ") + format(low)
                                    : std::string(low_inclusive ? "in [" : "in (") + format(low) +
                                          ", " + format(high) + "]";
      fail(join(path, key), "must be " + range + ", got " + format(v));
    }
    return v;
  }

  Vec3 vec3(const json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 3) {
      fail(path, "expected an array of 3 numbers, got " + describe(value));
    }
    return {number(value[0], path + "[0]"), number(value[1], path + "[1]"),
            number(value[2], path + "[2]")};
  }

  Vec3 color(const json& object, const std::string& path, const std::string& key, Vec3 fallback,
             bool required) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (required) fail(join(path, key), "missing field");
      return fallback;
    }
    const Vec3 c = vec3(*it, join(path, key));
    if (c.x < 0 || c.y < 0 || c.z < 0) fail(join(path, key), "colour components must be >= 0");
    return c;
  }

  const json& array(const json& object, const std::string& key) const {
    static const json empty = json::array();
    const auto it = object.find(key);
    if (it == object.end()) return empty;
    if (!it->is_array()) fail(key, "expected an array, got " + describe(*it));
    return *it;
  }

  static std::string format(float v) {
    std::string text = std::to_string(v);
    while (text.size() > 1 && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
  }

  // The Phong fields (Whitted), then the metallic-roughness ones (path) where given: the latter
  // are otherwise derived from the former (make_material).
  RtMaterial material(const json& m, const std::string& path) const {
    expect_object(m, path,
                  {"name", "color", "ambient", "diffuse", "specular", "shininess", "reflectivity",
                   "emission", "metallic", "roughness", "transmission", "ior"});
    RtMaterial out = make_material(color(m, path, "color", {}, true),
                                   number_in(m, path, "ambient", 0, 1, 0.1f, false),
                                   number_in(m, path, "diffuse", 0, 1, 0.8f, false),
                                   number_in(m, path, "specular", 0, 1, 0.5f, false),
                                   number_in(m, path, "shininess", 0, 10000, 32.0f, false),
                                   number_in(m, path, "reflectivity", 0, 1, 0.0f, false));
    out.emission = to_float4(color(m, path, "emission", {0, 0, 0}, false));
    out.metallic = number_in(m, path, "metallic", 0, 1, out.metallic, false);
    out.roughness = number_in(m, path, "roughness", 0, 1, out.roughness, false);
    out.transmission = number_in(m, path, "transmission", 0, 1, out.transmission, false);
    out.ior = number_in(m, path, "ior", 1, 4, out.ior, false);
    return out;
  }

  // A version other than this program's, or a checksum that does not match, is refused.
  void check_seal(const json& root) const {
    if (const auto it = root.find("version"); it != root.end()) {
      // Compared as 64 bits: a larger integer narrowed to int could wrap onto the version.
      if (!it->is_number_integer() || it->get<std::int64_t>() != kSceneFileVersion) {
        fail("version", "this program reads scene files of version " +
                            std::to_string(kSceneFileVersion) + ", got " + describe(*it));
      }
    }
    if (const auto it = root.find("checksum"); it != root.end()) {
      if (!it->is_string()) fail("checksum", "expected a string, got " + describe(*it));
      if (it->get<std::string>() != scene_file_checksum(root)) {
        fail("checksum",
             "does not match the file's contents: it is damaged, or was edited by hand (remove "
             "the checksum field to load an edited scene)");
      }
    }
  }

  Scene read(const json& root) const {
    Scene scene;
    scene.name = file_;
    expect_object(root, "",
                  {"version", "size", "background", "environment", "camera", "materials", "spheres",
                   "planes", "lights", "meshes", "checksum"});
    check_seal(root);
    if (const auto it = root.find("size"); it != root.end()) {
      if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number_integer() ||
          !(*it)[1].is_number_integer()) {
        fail("size", "expected [width, height] in pixels, got " + describe(*it));
      }
      const auto width = (*it)[0].get<std::int64_t>();
      const auto height = (*it)[1].get<std::int64_t>();
      if (width < 1 || height < 1 || width > 16384 || height > 16384) {
        fail("size", "width and height must be in [1, 16384], got " + describe(*it));
      }
      scene.width = static_cast<int>(width);
      scene.height = static_cast<int>(height);
    }
    scene.background = color(root, "", "background", {0, 0, 0}, false);
    if (root.contains("environment")) scene.environment = environment(root["environment"]);

    const json& camera = require(root, "", "camera");
    expect_object(camera, "camera", {"position", "look_at", "up", "fov", "right_handed"});
    scene.camera.position = vec3(require(camera, "camera", "position"), "camera.position");
    scene.camera.look_at = vec3(require(camera, "camera", "look_at"), "camera.look_at");
    if (camera.contains("up")) scene.camera.up = vec3(camera["up"], "camera.up");
    // glTF and OBJ models are right-handed: a scene placing them is too unless it says otherwise.
    scene.camera.right_handed = root.contains("meshes");
    if (const auto it = camera.find("right_handed"); it != camera.end()) {
      if (!it->is_boolean())
        fail("camera.right_handed", "expected true or false, got " + describe(*it));
      scene.camera.right_handed = it->get<bool>();
    }
    scene.camera.fov_y = number_in(camera, "camera", "fov", 0.0f, 179.0f, 60.0f, false, false) *
                         3.14159265f / 180.0f;
    const Vec3& p = scene.camera.position;
    const Vec3& t = scene.camera.look_at;
    if (p.x == t.x && p.y == t.y && p.z == t.z) fail("camera.look_at", "equals camera.position");

    std::map<std::string, cl_uint> material_index;
    const json& materials = array(root, "materials");
    for (std::size_t i = 0; i < materials.size(); ++i) {
      const std::string path = "materials[" + std::to_string(i) + "]";
      const json& m = materials[i];
      scene.materials.push_back(material(m, path));
      const json& name = require(m, path, "name");
      if (!name.is_string()) fail(path + ".name", "expected a string, got " + describe(name));
      if (material_index.count(name.get<std::string>()) != 0) {
        fail(path + ".name", "material '" + name.get<std::string>() + "' is defined twice");
      }
      material_index[name.get<std::string>()] = static_cast<cl_uint>(i);
    }
    auto material_of = [&](const json& object, const std::string& path) {
      const json& name = require(object, path, "material");
      if (!name.is_string())
        fail(path + ".material", "expected a material name, got " + describe(name));
      const auto it = material_index.find(name.get<std::string>());
      if (it == material_index.end()) {
        std::string list;
        for (const auto& entry : material_index) list += (list.empty() ? "" : ", ") + entry.first;
        fail(path + ".material", "unknown material '" + name.get<std::string>() +
                                     "' (defined: " + (list.empty() ? "none" : list) + ")");
      }
      return it->second;
    };

    const json& spheres = array(root, "spheres");
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      const std::string path = "spheres[" + std::to_string(i) + "]";
      expect_object(spheres[i], path, {"center", "radius", "material"});
      const Vec3 center = vec3(require(spheres[i], path, "center"), path + ".center");
      const float radius = number_in(spheres[i], path, "radius", 0.0f, 1e30f, 0, true, false);
      scene.spheres.push_back(make_sphere(center, radius, material_of(spheres[i], path)));
    }

    const json& planes = array(root, "planes");
    for (std::size_t i = 0; i < planes.size(); ++i) {
      const std::string path = "planes[" + std::to_string(i) + "]";
      const json& p = planes[i];
      expect_object(p, path, {"normal", "offset", "material", "checker"});
      const Vec3 normal = vec3(require(p, path, "normal"), path + ".normal");
      if (normal.x == 0 && normal.y == 0 && normal.z == 0)
        fail(path + ".normal", "must not be zero");
      const float offset = number(require(p, path, "offset"), path + ".offset");
      float checker_size = 0;
      Vec3 checker_color{};
      if (const auto it = p.find("checker"); it != p.end()) {
        expect_object(*it, path + ".checker", {"size", "color"});
        checker_size = number_in(*it, path + ".checker", "size", 0.0f, 1e30f, 0, true, false);
        checker_color = color(*it, path + ".checker", "color", {}, true);
      }
      scene.planes.push_back(
          make_plane(normal, offset, material_of(p, path), checker_size, checker_color));
    }

    read_meshes(root, material_of, scene);

    const json& lights = array(root, "lights");
    for (std::size_t i = 0; i < lights.size(); ++i) {
      const std::string path = "lights[" + std::to_string(i) + "]";
      const json& l = lights[i];
      expect_object(l, path, {"position", "color", "intensity"});
      scene.lights.push_back(make_light(vec3(require(l, path, "position"), path + ".position"),
                                        color(l, path, "color", {1, 1, 1}, false),
                                        number_in(l, path, "intensity", 0, 1e6f, 1.0f, false)));
    }
    return scene;
  }

  // {"file", "intensity", "rotate" (degrees about +y)}: the image is read when the scene is opened.
  SceneEnvironment environment(const json& e) const {
    const std::string path = "environment";
    expect_object(e, path, {"file", "intensity", "rotate"});
    SceneEnvironment environment;
    environment.file = file_path(require(e, path, "file"), path + ".file");
    environment.named_by = file_ + ": " + path + ".file";
    environment.intensity = number_in(e, path, "intensity", 0, 1e6f, 1.0f, false);
    environment.rotate_degrees = number_in(e, path, "rotate", -360, 360, 0.0f, false);
    return environment;
  }

  // A file named at `path`, relative to the scene file's folder unless absolute.
  std::string file_path(const json& file, const std::string& path) const {
    if (!file.is_string() || file.get<std::string>().empty()) {
      fail(path, "expected a file name, got " + describe(file));
    }
    const std::filesystem::path named(file.get<std::string>());
    return named.is_absolute() ? named.string()
                               : (std::filesystem::path(file_).parent_path() / named).string();
  }

  // Optional "scale" (a number or [x, y, z]), "rotate" ([x, y, z] degrees, applied about x, then
  // y, then z) and "translate", applied in that order.
  MeshPlacement placement(const json& mesh, const std::string& path) const {
    MeshPlacement placement;
    const auto store = [](const Vec3& v, float(&to)[3]) {
      to[0] = v.x;
      to[1] = v.y;
      to[2] = v.z;
    };
    if (const auto it = mesh.find("scale"); it != mesh.end()) {
      const Vec3 s = it->is_number()
                         ? Vec3{number(*it, path + ".scale"), it->get<float>(), it->get<float>()}
                         : vec3(*it, path + ".scale");
      if (s.x == 0 || s.y == 0 || s.z == 0) fail(path + ".scale", "must not be zero");
      store(s, placement.scale);
    }
    if (const auto it = mesh.find("rotate"); it != mesh.end())
      store(vec3(*it, path + ".rotate"), placement.rotate_degrees);
    if (const auto it = mesh.find("translate"); it != mesh.end())
      store(vec3(*it, path + ".translate"), placement.translate);
    return placement;
  }

  template <typename MaterialOf>
  void read_meshes(const json& root, const MaterialOf& material_of, Scene& scene) const {
    const json& meshes = array(root, "meshes");
    for (std::size_t i = 0; i < meshes.size(); ++i) {
      const std::string path = "meshes[" + std::to_string(i) + "]";
      const json& m = meshes[i];
      expect_object(m, path, {"file", "scale", "rotate", "translate", "material"});
      MeshFileReference reference;
      reference.file = file_path(require(m, path, "file"), path + ".file");
      reference.json_path = path;
      reference.placement = placement(m, path);
      if (m.contains("material")) reference.material = static_cast<cl_int>(material_of(m, path));
      scene.mesh_files.push_back(reference);
    }
  }

 private:
  std::string file_;
};

}  // namespace

std::string scene_file_checksum(const json& root) {
  json rest = root;
  rest.erase("checksum");
  return clf::checksum_hex(clf::checksum64(rest.dump()));
}

Scene parse_scene_json(const std::string& text, const std::string& file_name) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& error) {
    // nlohmann's message carries the line and column ("at line 3, column 5").
    throw clf::Error(file_name + ": not valid JSON: " + error.what());
  }
  return SceneReader(file_name).read(root);
}

}  // namespace raytracer

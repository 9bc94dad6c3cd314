// Raytracer scenes: built-in scenes as the issue specifies them, and JSON scene files, whose
// errors name the file, the JSON path of the field and why.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/raytracer/commands.hpp"
#include "apps/raytracer/scene.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;

TEST(RaytracerScene, BuiltInScenes) {
  const Scene seed = builtin_scene("seed");
  EXPECT_EQ(seed.width, 700);
  EXPECT_EQ(seed.spheres.size(), 1000u);
  EXPECT_EQ(seed.planes.size(), 1u);
  EXPECT_EQ(seed.lights.size(), 1u);
  for (const RtSphere& s : seed.spheres) EXPECT_GT(s.center_radius.y - s.center_radius.w, 0.0f);

  const Scene aalborg = builtin_scene("aalborg");
  EXPECT_EQ(aalborg.width, 512);
  ASSERT_EQ(aalborg.spheres.size(), 289u);
  EXPECT_EQ(aalborg.spheres[0].center_radius.x, -240.0f);
  EXPECT_EQ(aalborg.spheres[288].center_radius.y, 240.0f);
  EXPECT_EQ(aalborg.spheres[5].center_radius.z, 1024.0f);
  EXPECT_EQ(aalborg.spheres[5].center_radius.w, 10.0f);
  ASSERT_EQ(aalborg.lights.size(), 10u);
  EXPECT_EQ(aalborg.lights[9].position.x, 90.0f);
  EXPECT_EQ(aalborg.lights[9].position.z, 512.0f);
  EXPECT_NEAR(aalborg.camera.fov_y, 3.14159265 / 6, 1e-6);

  const Scene a = builtin_scene("random:1000");
  const Scene b = builtin_scene("random:1000");
  const Scene c = builtin_scene("random:1000:2");
  ASSERT_EQ(a.spheres.size(), 1000u);
  EXPECT_EQ(a.spheres[999].center_radius.x, b.spheres[999].center_radius.x) << "reproducible";
  EXPECT_NE(a.spheres[999].center_radius.x, c.spheres[999].center_radius.x) << "seeded";
}

TEST(RaytracerScene, UnknownNamesAreRejected) {
  EXPECT_CLF_ERROR(builtin_scene("random:12x"), "random:12x", "random:N");
  EXPECT_CLF_ERROR(builtin_scene("teapot"), "unknown scene 'teapot'", "seed, aalborg");
  EXPECT_CLF_ERROR(load_scene("/no/such/file.json"), "/no/such/file.json", "neither a built-in");
  int w = 0, h = 0;
  EXPECT_CLF_ERROR(parse_size("700by700", &w, &h), "--size", "700by700");
  parse_size("320x200", &w, &h);
  EXPECT_EQ(w, 320);
  EXPECT_EQ(h, 200);
}

const char* kValid = R"({
  "size": [320, 200],
  "background": [0.1, 0.2, 0.3],
  "camera": {"position": [0, 2, -5], "look_at": [0, 0, 0], "fov": 50},
  "materials": [
    {"name": "red", "color": [1, 0, 0], "reflectivity": 0.2},
    {"name": "floor", "color": [0.8, 0.8, 0.8], "ambient": 0.05, "diffuse": 0.9, "specular": 0,
     "shininess": 1}
  ],
  "spheres": [{"center": [0, 1, 0], "radius": 1, "material": "red"},
              {"center": [2, 1, 0], "radius": 0.5, "material": "red"}],
  "planes": [{"normal": [0, 2, 0], "offset": 0, "material": "floor",
              "checker": {"size": 1, "color": [0.2, 0.2, 0.2]}}],
  "lights": [{"position": [5, 5, -5], "intensity": 0.8}]
})";

TEST(RaytracerScene, ValidFileParses) {
  const Scene scene = parse_scene_json(kValid, "valid.json");
  EXPECT_EQ(scene.width, 320);
  EXPECT_EQ(scene.height, 200);
  ASSERT_EQ(scene.spheres.size(), 2u);
  EXPECT_EQ(scene.spheres[1].center_radius.w, 0.5f);
  EXPECT_EQ(scene.spheres[1].material, 0u);
  ASSERT_EQ(scene.planes.size(), 1u);
  EXPECT_EQ(scene.planes[0].material, 1u);
  EXPECT_FLOAT_EQ(scene.planes[0].normal.y, 1.0f) << "normals are normalised";
  EXPECT_EQ(scene.planes[0].checker_size, 1.0f);
  EXPECT_FLOAT_EQ(scene.materials[0].reflectivity, 0.2f);
  EXPECT_FLOAT_EQ(scene.materials[0].ambient, 0.1f) << "default";
  EXPECT_FLOAT_EQ(scene.lights[0].intensity, 0.8f);
  EXPECT_FLOAT_EQ(scene.lights[0].color.x, 1.0f) << "default white";
  EXPECT_NEAR(scene.camera.fov_y, 50 * 3.14159265 / 180, 1e-6);
}

// kValid with `from` replaced by `to` (which must occur).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(RaytracerScene, FileErrorsNameFilePathAndReason) {
  EXPECT_CLF_ERROR(parse_scene_json("{\"camera\": [1, 2,,]}", "broken.json"), "broken.json",
                   "not valid JSON", "line 1");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"radius\": 0.5, ", ""), "s.json"), "s.json",
                   "spheres[1].radius", "missing field");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"radius\": 0.5", "\"radius\": -1"), "s.json"),
                   "s.json: spheres[1].radius", "got -1");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"radius\": 1", "\"radius\": \"big\""), "s.json"),
                   "spheres[0].radius", "expected a number", "string");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"center\": [2, 1, 0]", "\"center\": [2, 1]"), "s.json"),
      "spheres[1].center", "array of 3 numbers");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"material\": \"floor\"", "\"material\": \"flor\""), "s.json"),
      "planes[0].material", "unknown material 'flor'", "floor, red");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"intensity\": 0.8", "\"intensty\": 0.8"), "s.json"),
                   "lights[0].intensty", "unknown field");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"fov\": 50", "\"fov\": 200"), "s.json"), "camera.fov",
                   "got 200");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"position\": [0, 2, -5], ", ""), "s.json"),
                   "camera.position", "missing field");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"normal\": [0, 2, 0]", "\"normal\": [0, 0, 0]"), "s.json"),
      "planes[0].normal", "zero");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"size\": [320, 200]", "\"size\": [320]"), "s.json"),
                   "s.json: size");
  EXPECT_CLF_ERROR(parse_scene_json("[1, 2]", "top.json"), "top.json", "expected an object");
  EXPECT_CLF_ERROR(load_scene_file("/no/such/scene.json"), "/no/such/scene.json", "cannot open");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"position\": [0, 2, -5]",
                                           "\"position\": [0, 2, -5], \"right_handed\": 1"),
                                    "s.json"),
                   "s.json: camera.right_handed", "expected true or false");
}

// Integers beyond int and numbers beyond a float are refused, not narrowed onto valid values.
TEST(RaytracerScene, NumbersOutOfRangeAreRefused) {
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"size\": [320, 200]", "\"size\": [4294967616, 200]"), "s.json"),
      "s.json: size", "[1, 16384]");
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"size\": [320, 200]",
                                           "\"version\": 4294967297, \"size\": [320, 200]"),
                                    "s.json"),
                   "s.json: version", "4294967297");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"center\": [2, 1, 0]", "\"center\": [2, 1, 1e39]"), "s.json"),
      "spheres[1].center[2]", "range of a float");
}

TEST(RaytracerScene, PhysicalMaterialFieldsParseAndDefault) {
  const Scene scene = parse_scene_json(
      edited("{\"name\": \"red\", \"color\": [1, 0, 0], \"reflectivity\": 0.2}",
             "{\"name\": \"red\", \"color\": [1, 0, 0], \"reflectivity\": 0.2}, "
             "{\"name\": \"glass\", \"color\": [1, 1, 1], \"transmission\": 1, \"ior\": 1.33, "
             "\"roughness\": 0}, {\"name\": \"lamp\", \"color\": [0, 0, 0], "
             "\"emission\": [10, 8, 6]}, {\"name\": \"steel\", \"color\": [0.6, 0.6, 0.6], "
             "\"metallic\": 1, \"roughness\": 0.4}"),
      "p.json");
  ASSERT_EQ(scene.materials.size(), 5u);
  EXPECT_FLOAT_EQ(scene.materials[0].metallic, 0.2f) << "a mirror share reads as metal";
  EXPECT_FLOAT_EQ(scene.materials[0].roughness, 0.0f);
  EXPECT_FLOAT_EQ(scene.materials[0].transmission, 0.0f);
  EXPECT_FLOAT_EQ(scene.materials[1].transmission, 1.0f);
  EXPECT_FLOAT_EQ(scene.materials[1].ior, 1.33f);
  EXPECT_FLOAT_EQ(scene.materials[2].emission.x, 10.0f);
  EXPECT_FLOAT_EQ(scene.materials[2].emission.z, 6.0f);
  EXPECT_FLOAT_EQ(scene.materials[3].metallic, 1.0f);
  EXPECT_FLOAT_EQ(scene.materials[3].roughness, 0.4f);
  EXPECT_FLOAT_EQ(scene.materials[4].ior, 1.5f) << "default";
  EXPECT_CLF_ERROR(parse_scene_json(edited("\"reflectivity\": 0.2", "\"ior\": 0.5"), "p.json"),
                   "p.json: materials[0].ior", "got 0.5");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"reflectivity\": 0.2", "\"emission\": [1, -1, 0]"), "p.json"),
      "materials[0].emission", ">= 0");
  EXPECT_CLF_ERROR(
      parse_scene_json(edited("\"reflectivity\": 0.2", "\"transmision\": 1"), "p.json"),
      "materials[0].transmision", "unknown field");
}

TEST(RaytracerScene, HandednessFollowsMeshesUnlessTheFileSays) {
  EXPECT_FALSE(parse_scene_json(kValid, "s.json").camera.right_handed) << "no meshes";
  const std::string with_mesh =
      edited("\"lights\"", "\"meshes\": [{\"file\": \"m.obj\"}], \"lights\"");
  const Scene scene = parse_scene_json(with_mesh, "/scenes/s.json");
  EXPECT_TRUE(scene.camera.right_handed);
  ASSERT_EQ(scene.mesh_files.size(), 1u);
  EXPECT_EQ(scene.mesh_files[0].file, "/scenes/m.obj") << "relative to the scene file";
  EXPECT_EQ(scene.mesh_files[0].json_path, "meshes[0]");
  const std::string position = "\"position\": [0, 2, -5]";
  std::string left = with_mesh;
  left.replace(left.find(position), position.size(), position + ", \"right_handed\": false");
  EXPECT_FALSE(parse_scene_json(left, "s.json").camera.right_handed);
}

}  // namespace

// Scene files written by the window's "Save scene" (apps/raytracer/scene_json_writer): every
// field a scene holds survives writing and reading back, model files stay references, scenes a
// file cannot hold are refused by name, the file appears whole (written atomically), and it
// carries a version and a checksum that refuse a damaged or newer file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "apps/raytracer/scene_json_writer.hpp"
#include "raytracer_model_test_support.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;
using raytracer_test::scratch_directory;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void expect_same_vec(const cl_float4& a, const cl_float4& b, const std::string& what) {
  EXPECT_EQ(a.x, b.x) << what;
  EXPECT_EQ(a.y, b.y) << what;
  EXPECT_EQ(a.z, b.z) << what;
}

void expect_same_vec(const Vec3& a, const Vec3& b, const std::string& what) {
  expect_same_vec(to_float4(a), to_float4(b), what);
}

// Every field the writer writes, compared exactly (floats are written as the shortest decimal
// that reads back as the same float) but for the field of view (degrees and back) and plane
// normals (normalised again on reading).
void expect_same_scene(const Scene& a, const Scene& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  expect_same_vec(a.background, b.background, "background");
  expect_same_vec(a.camera.position, b.camera.position, "camera.position");
  expect_same_vec(a.camera.look_at, b.camera.look_at, "camera.look_at");
  expect_same_vec(a.camera.up, b.camera.up, "camera.up");
  EXPECT_NEAR(a.camera.fov_y, b.camera.fov_y, 1e-6f);
  EXPECT_EQ(a.camera.right_handed, b.camera.right_handed);
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    const RtMaterial &m = a.materials[i], &n = b.materials[i];
    expect_same_vec(m.color, n.color, "materials[" + std::to_string(i) + "].color");
    EXPECT_EQ(m.ambient, n.ambient);
    EXPECT_EQ(m.diffuse, n.diffuse);
    EXPECT_EQ(m.specular, n.specular);
    EXPECT_EQ(m.shininess, n.shininess);
    EXPECT_EQ(m.reflectivity, n.reflectivity);
    EXPECT_EQ(m.texture, n.texture);
    expect_same_vec(m.emission, n.emission, "materials[" + std::to_string(i) + "].emission");
    EXPECT_EQ(m.metallic, n.metallic);
    EXPECT_EQ(m.roughness, n.roughness);
    EXPECT_EQ(m.transmission, n.transmission);
    EXPECT_EQ(m.ior, n.ior);
  }
  ASSERT_EQ(a.spheres.size(), b.spheres.size());
  for (std::size_t i = 0; i < a.spheres.size(); ++i) {
    expect_same_vec(a.spheres[i].center_radius, b.spheres[i].center_radius, "sphere centre");
    EXPECT_EQ(a.spheres[i].center_radius.w, b.spheres[i].center_radius.w);
    EXPECT_EQ(a.spheres[i].material, b.spheres[i].material);
  }
  ASSERT_EQ(a.planes.size(), b.planes.size());
  for (std::size_t i = 0; i < a.planes.size(); ++i) {
    EXPECT_NEAR(a.planes[i].normal.x, b.planes[i].normal.x, 1e-7f);
    EXPECT_NEAR(a.planes[i].normal.y, b.planes[i].normal.y, 1e-7f);
    EXPECT_NEAR(a.planes[i].normal.z, b.planes[i].normal.z, 1e-7f);
    EXPECT_EQ(a.planes[i].offset, b.planes[i].offset);
    EXPECT_EQ(a.planes[i].material, b.planes[i].material);
    EXPECT_EQ(a.planes[i].checker_size, b.planes[i].checker_size);
    expect_same_vec(a.planes[i].checker_color, b.planes[i].checker_color, "checker colour");
  }
  ASSERT_EQ(a.lights.size(), b.lights.size());
  for (std::size_t i = 0; i < a.lights.size(); ++i) {
    expect_same_vec(a.lights[i].position, b.lights[i].position, "light position");
    expect_same_vec(a.lights[i].color, b.lights[i].color, "light colour");
    EXPECT_EQ(a.lights[i].intensity, b.lights[i].intensity);
  }
}

const char* kEverything = R"({
  "size": [321, 203],
  "background": [0.1, 0.25, 0.3],
  "camera": {"position": [0.5, 2, -5.25], "look_at": [0, 0.1, 0], "up": [0, 1, 0.1], "fov": 47.5,
             "right_handed": false},
  "materials": [
    {"name": "red", "color": [1, 0, 0], "reflectivity": 0.2},
    {"name": "floor", "color": [0.8, 0.8, 0.8], "ambient": 0.05, "diffuse": 0.9, "specular": 0,
     "shininess": 1},
    {"name": "unused", "color": [0.3, 0.6, 0.9], "shininess": 9999.5},
    {"name": "glass", "color": [1, 1, 1], "transmission": 0.95, "ior": 1.45, "roughness": 0.05,
     "metallic": 0.25, "emission": [0, 0.5, 12]}
  ],
  "spheres": [{"center": [0, 1, 0], "radius": 1, "material": "red"},
              {"center": [2.1, 1, -0.3], "radius": 0.35, "material": "floor"}],
  "planes": [{"normal": [0, 2, 0], "offset": -0.5, "material": "floor",
              "checker": {"size": 1.5, "color": [0.2, 0.2, 0.2]}},
             {"normal": [1, 0, 1], "offset": 3, "material": "red"}],
  "lights": [{"position": [5, 5, -5], "intensity": 0.8},
             {"position": [-1, 7, 2], "color": [1, 0.9, 0.7]}],
  "meshes": [{"file": "models/cube.obj"},
             {"file": "/abs/engine.glb", "scale": [0.5, 0.25, 2], "rotate": [10, 30.5, -45],
              "translate": [1, 2, 3], "material": "floor"}]
})";

TEST(RaytracerSceneWriter, EveryFieldSurvivesARoundTrip) {
  const auto dir = scratch_directory("writer_round_trip");
  const Scene original = parse_scene_json(kEverything, (dir / "in" / "scene.json").string());
  const std::string saved = (dir / "out" / "saved.json").string();
  save_scene_file(original, saved);
  const Scene read = load_scene_file(saved);
  expect_same_scene(original, read);

  ASSERT_EQ(read.mesh_files.size(), 2u);
  EXPECT_EQ(std::filesystem::path(read.mesh_files[0].file).lexically_normal(),
            (dir / "in" / "models" / "cube.obj").lexically_normal())
      << "a relative model path is written relative to the new file's folder";
  EXPECT_EQ(read.mesh_files[1].file, "/abs/engine.glb");
  const MeshPlacement& p = read.mesh_files[1].placement;
  EXPECT_EQ(p.scale[1], 0.25f);
  EXPECT_EQ(p.rotate_degrees[1], 30.5f);
  EXPECT_EQ(p.rotate_degrees[2], -45.0f);
  EXPECT_EQ(p.translate[2], 3.0f);
  EXPECT_EQ(read.mesh_files[1].material, 1);
  EXPECT_EQ(read.mesh_files[0].material, -1);

  const std::string text = read_text(saved);
  EXPECT_NE(text.find("\"../in/models/cube.obj\""), std::string::npos) << text;
  EXPECT_NE(text.find("0.35"), std::string::npos) << "floats as their shortest decimal:\n" << text;
  EXPECT_EQ(text.find("0.3499"), std::string::npos) << text;
  EXPECT_NE(text.find("\"fov\": 47.5,"), std::string::npos) << "degrees as given:\n" << text;
  EXPECT_EQ(read.camera.fov_y, original.camera.fov_y);
}

TEST(RaytracerSceneWriter, BuiltInScenesRoundTrip) {
  const auto dir = scratch_directory("writer_builtin");
  for (const char* name : {"seed", "aalborg", "random:50"}) {
    const Scene scene = builtin_scene(name);
    const std::string saved = (dir / (std::string(name).substr(0, 6) + ".json")).string();
    save_scene_file(scene, saved);
    expect_same_scene(scene, load_scene_file(saved));
  }
}

TEST(RaytracerSceneWriter, GeneratedMeshesAreRefusedByName) {
  const auto dir = scratch_directory("writer_generated");
  EXPECT_CLF_ERROR(save_scene_file(builtin_scene("instances:4"), (dir / "i.json").string()),
                   "instances:4", "generated");
  EXPECT_CLF_ERROR(save_scene_file(builtin_scene("cornell"), (dir / "c.json").string()), "cornell",
                   "generated");
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "nothing written, not even a temporary file";
}

// A saved scene names its format version and a checksum; a changed value is refused naming the
// checksum, and loads again once the checksum line is gone (as when a person edits the file);
// another version is refused naming it.
TEST(RaytracerSceneWriter, VersionAndChecksumRefuseDamage) {
  const auto dir = scratch_directory("writer_checksum");
  const std::string path = (dir / "seed.json").string();
  save_scene_file(builtin_scene("seed"), path);
  const std::string saved = read_text(path);
  ASSERT_NE(saved.find("\"version\": 1"), std::string::npos) << saved.substr(0, 200);
  const std::size_t checksum_at = saved.find("\"checksum\": \"");
  ASSERT_NE(checksum_at, std::string::npos);
  const auto write = [&](const std::string& text) { std::ofstream(path, std::ios::trunc) << text; };

  std::string damaged = saved;
  const std::size_t radius = damaged.find("\"radius\": ") + 10;
  damaged[radius] = damaged[radius] == '1' ? '2' : '1';  // a digit of the first radius
  write(damaged);
  EXPECT_CLF_ERROR(load_scene_file(path), path.c_str(), "checksum", "damaged");

  // The checksum's line removed (with the comma before it): loads, every field checked.
  std::string edited = damaged;
  const std::size_t comma = edited.rfind(',', checksum_at);
  const std::size_t line_end = edited.find('\n', checksum_at);
  edited.erase(comma, line_end - comma);
  write(edited);
  EXPECT_EQ(load_scene_file(path).spheres.size(), builtin_scene("seed").spheres.size());

  std::string newer = saved;
  newer.replace(newer.find("\"version\": 1"), 12, "\"version\": 2");
  write(newer);
  EXPECT_CLF_ERROR(load_scene_file(path), path.c_str(), "version", "got number 2");
}

TEST(RaytracerSceneWriter, WritesAtomically) {
  const auto dir = scratch_directory("writer_atomic");
  const std::string path = (dir / "scene.json").string();
  save_scene_file(builtin_scene("seed"), path);
  save_scene_file(builtin_scene("aalborg"), path);  // replaces the file whole
  EXPECT_EQ(load_scene_file(path).spheres.size(), 289u);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "scene.json") << "no temporary file left behind";
  }
  EXPECT_EQ(files, 1);
  EXPECT_CLF_ERROR(save_scene_file(builtin_scene("seed"), "/proc/no/such/folder/s.json"),
                   "/proc/no/such/folder");
}

TEST(RaytracerSceneWriter, MaterialsWriteEveryFieldTheReaderKnows) {
  RtMaterial m = make_material({0.5f, 0.25f, 1}, 0.2f, 0.7f, 0.4f, 64, 0.6f);
  m.emission = rt_vec(2, 3, 4);
  m.metallic = 0.125f;
  m.roughness = 0.3f;
  m.transmission = 0.7f;
  m.ior = 1.33f;
  const nlohmann::json written = material_to_json(m, "shiny");
  const std::string scene_text =
      R"({"camera": {"position": [0, 0, -1], "look_at": [0, 0, 0]}, "materials": [)" +
      written.dump() + "]}";
  const Scene read = parse_scene_json(scene_text, "m.json");
  ASSERT_EQ(read.materials.size(), 1u);
  Scene expected;
  expected.materials = {m};
  expected.camera = read.camera;
  expected.width = read.width;
  expected.height = read.height;
  expect_same_scene(expected, read);
}

}  // namespace

// Raytracer model scenes: model files opened directly (assimp-testmodels glTF and OBJ samples)
// and placed by scene files, rendered on the device against the CPU reference; scene-file
// errors about meshes name the file, the JSON path and what is wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/scene_json_writer.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/error.hpp"
#include "raytracer_model_test_support.hpp"
#include "raytracer_test_support.hpp"

namespace {

using namespace raytracer;
using raytracer_test::expect_matches_reference;
using raytracer_test::renderer;
using raytracer_test::scratch_directory;
using raytracer_test::test_model;
using raytracer_test::write_file;

RenderSettings small(int width, int height) {
  RenderSettings s;
  s.width = width;
  s.height = height;
  return s;
}

TEST(RaytracerModelScenes, TexturedBoxMatchesReference) {
  const Scene scene = open_scene(test_model("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"));
  EXPECT_TRUE(scene.camera.right_handed);
  ASSERT_EQ(scene.textures.size(), 1u);
  ASSERT_EQ(scene.lights.size(), 1u);
  EXPECT_GE(scene.materials.at(0).texture, 0);
  expect_matches_reference(scene, small(64, 48), true);
}

// Khronos' clear-coat test: its labels are emissive maps, three rows of spheres normal maps and
// one material a metallic-roughness map; each reaches the scene's materials, and the device
// shows them as the reference does.
TEST(RaytracerModelScenes, ClearCoatTestMapsMatchReference) {
  const std::string file = test_model("glTF2/ClearCoat-glTF/ClearCoatTest.gltf");
  const Scene scene = open_scene(file);
  const model::Model model = model::load_model(file);
  auto named = [&](const char* name) -> const RtMaterial& {
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
      if (model.materials[i].name == name)
        return scene.materials.at(scene.first_model_material + i);
    }
    throw std::runtime_error(std::string("no material ") + name);
  };
  const auto texture_name = [&](cl_int index) {
    return index >= 0 ? scene.textures.at(index)->name : std::string("(none)");
  };
  EXPECT_EQ(texture_name(named("LabelMaterial").emissive_texture), "ClearCoatLabels.png");
  EXPECT_EQ(texture_name(named("BaseNorm_Base").normal_texture), "RibsNormal.png");
  EXPECT_EQ(texture_name(named("RoughVariations_Coating").metallic_roughness_texture),
            "RoughnessStripes.png");
  EXPECT_EQ(named("Simple_Base").normal_texture, -1);
  expect_matches_reference(scene, small(96, 72));
}

TEST(RaytracerModelScenes, EngineStoresEachMeshOnceAndMatchesReference) {
  const Scene scene =
      open_scene(test_model("glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"));
  renderer().set_scene(scene);
  EXPECT_EQ(renderer().stored_triangles(), 75730u);
  EXPECT_EQ(renderer().instance_count(), 67u);
  expect_matches_reference(scene, small(80, 60));
}

TEST(RaytracerModelScenes, TexturedObjSpiderMatchesReference) {
  Scene scene = open_scene(test_model("OBJ/spider.obj"));
  EXPECT_EQ(scene.textures.size(), 5u);
  // Halfway to the target, so the thin spider fills enough of the image to compare.
  Vec3& p = scene.camera.position;
  const Vec3& t = scene.camera.look_at;
  p = {(p.x + t.x) / 2, (p.y + t.y) / 2, (p.z + t.z) / 2};
  expect_matches_reference(scene, small(64, 48));
}

// A unit cube as OBJ (flat normals: the file has none).
const char* kCubeObj = R"(v -1 -1 -1
v 1 -1 -1
v 1 1 -1
v -1 1 -1
v -1 -1 1
v 1 -1 1
v 1 1 1
v -1 1 1
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 4 8 7
f 4 7 3
f 1 5 8
f 1 8 4
f 2 3 7
f 2 7 6
)";

// A scene file in its own folder naming cube.obj there, with `meshes` as given.
std::string cube_scene_file(const std::string& test, const std::string& meshes) {
  const auto dir = scratch_directory(test);
  write_file(dir / "cube.obj", kCubeObj);
  const std::string path = (dir / "scene.json").string();
  write_file(path, R"({"size": [64, 48],
  "camera": {"position": [0, 3, -8], "look_at": [0, 0, 0]},
  "materials": [{"name": "floor", "color": [0.8, 0.8, 0.8]},
                {"name": "gold", "color": [0.9, 0.7, 0.2], "reflectivity": 0.3}],
  "planes": [{"normal": [0, 1, 0], "offset": -1, "material": "floor"}],
  "lights": [{"position": [3, 6, -4]}],
  "meshes": )" + meshes +
                       "}");
  return path;
}

// A Radiance .hdr file of 8 x 4 texels: radiance 2 in the top row, 1 below (powers of two, which
// RGBE holds exactly), written flat (without run-length encoding), as the format allows.
void write_sky_hdr(const std::filesystem::path& path) {
  std::string bytes = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 8\n";
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 8; ++x) bytes += {'\x80', '\x80', '\x80', y == 0 ? '\x82' : '\x81'};
  }
  write_file(path, bytes);
}

// A scene file with a sphere and `environment` as given, and sky.hdr beside it.
std::string sky_scene_file(const std::string& test, const std::string& environment) {
  const auto dir = scratch_directory(test);
  write_sky_hdr(dir / "sky.hdr");
  const std::string path = (dir / "scene.json").string();
  write_file(path, R"({"size": [48, 32], "environment": )" + environment + R"(,
  "camera": {"position": [0, 0, -4], "look_at": [0, 0, 0]},
  "materials": [{"name": "mirror", "color": [0.9, 0.5, 0.3], "reflectivity": 0.5}],
  "lights": [{"position": [2, 3, -4]}],
  "spheres": [{"center": [0, 0, 0], "radius": 1, "material": "mirror"}]})");
  return path;
}

TEST(RaytracerModelScenes, SceneFileEnvironmentIsReadAndSaved) {
  const std::string source =
      sky_scene_file("sky", R"({"file": "sky.hdr", "intensity": 0.25, "rotate": 90})");
  const Scene scene = open_scene(source);
  ASSERT_TRUE(scene.environment && scene.environment->image);
  const EnvironmentImage& image = *scene.environment->image;
  ASSERT_EQ(image.width, 8);
  ASSERT_EQ(image.height, 4);
  EXPECT_EQ(image.radiance[3].x, 2.0f) << "top row";
  EXPECT_EQ(image.radiance[8 + 3].y, 1.0f) << "second row";
  EXPECT_EQ(scene.environment->intensity, 0.25f);
  EXPECT_EQ(scene.environment->rotate_degrees, 90.0f);
  expect_matches_reference(scene, small(48, 32));

  const std::string saved = (scratch_directory("sky_copy") / "copy.json").string();
  save_scene_file(scene, saved);
  const nlohmann::json json = nlohmann::json::parse(std::ifstream(saved));
  EXPECT_EQ(json["environment"]["file"], "../models_sky/sky.hdr");
  const Scene read = open_scene(saved);
  ASSERT_TRUE(read.environment && read.environment->image);
  ASSERT_EQ(read.environment->image->radiance.size(), image.radiance.size());
  EXPECT_EQ(0, std::memcmp(read.environment->image->radiance.data(), image.radiance.data(),
                           image.radiance.size() * sizeof(cl_float4)));
  EXPECT_EQ(read.environment->intensity, 0.25f);
  EXPECT_EQ(read.environment->rotate_degrees, 90.0f);
}

TEST(RaytracerModelScenes, EnvironmentErrorsNameFilePathAndReason) {
  const auto expect_error = [](const std::string& environment, const std::string& expected,
                               const std::string& garbage = "") {
    const std::string file = sky_scene_file("sky_errors", environment);
    if (!garbage.empty()) {
      write_file(std::filesystem::path(file).parent_path() / "sky.hdr", garbage);
    }
    try {
      open_scene(file);
      ADD_FAILURE() << "accepted: " << environment;
    } catch (const clf::Error& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find(file), std::string::npos) << message;
      EXPECT_NE(message.find(expected), std::string::npos) << message;
    }
  };
  expect_error(R"({"file": "missing.hdr"})", "environment.file: ");
  expect_error(R"({"file": "missing.hdr"})", "missing.hdr: cannot read it as an image");
  expect_error(R"({"file": "sky.hdr"})", "sky.hdr: cannot read it as an image",
               "#?RADIANCE\nnot a picture");
  expect_error(R"({"file": 3})", "environment.file: expected a file name");
  expect_error(R"({"file": "sky.hdr", "intensity": -1})", "environment.intensity");
  expect_error(R"({"file": "sky.hdr", "colour": 1})", "environment.colour: unknown field");
  expect_error(R"({"intensity": 1})", "environment.file: missing field");
}

TEST(RaytracerModelScenes, SceneFilePlacesModelFiles) {
  const Scene scene =
      open_scene(cube_scene_file("placed", R"([{"file": "cube.obj", "translate": [-2, 0, 0]},
                   {"file": "cube.obj", "translate": [2, 0.5, 1], "rotate": [0, 45, 0],
                    "scale": 0.5, "material": "gold"}])"));
  EXPECT_TRUE(scene.mesh_files.empty());
  EXPECT_EQ(scene.meshes.size(), 1u) << "the file named twice is stored once";
  EXPECT_TRUE(scene.camera.right_handed) << "a scene with meshes is right-handed by default";
  ASSERT_EQ(scene.instances.size(), 2u);
  EXPECT_EQ(scene.instances[0].material, -1);
  EXPECT_EQ(scene.instances[1].material, 1) << "gold replaces the cube's own material";
  const cl_float4 corner = scene.instances[1].transform.apply_point(rt_vec(1, 1, 1));
  // (1, 1, 1) scaled by 0.5, turned 45 degrees about y (x, z) -> (0.707, 0): then moved.
  EXPECT_NEAR(corner.x, 2 + 0.70711f, 1e-4f);
  EXPECT_NEAR(corner.y, 1.0f, 1e-5f);
  EXPECT_NEAR(corner.z, 1.0f, 1e-4f);
  expect_matches_reference(scene, small(64, 48), true);
}

void expect_scene_error(const std::string& meshes, const std::string& expected) {
  const std::string file = cube_scene_file("errors", meshes);
  try {
    open_scene(file);
    ADD_FAILURE() << "accepted: " << meshes;
  } catch (const clf::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(file), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(RaytracerModelScenes, MeshErrorsNameFilePathAndReason) {
  expect_scene_error(R"([{"file": "missing.obj"}])", "meshes[0].file: ");
  expect_scene_error(R"([{"file": "missing.obj"}])", "missing.obj: no such file");
  expect_scene_error(R"([{"file": "cube.obj"}, {"file": 3}])", "meshes[1].file: expected a file");
  expect_scene_error(R"([{"file": "cube.obj", "scale": 0}])", "meshes[0].scale: must not be zero");
  expect_scene_error(R"([{"file": "cube.obj", "translate": [1, 2]}])",
                     "meshes[0].translate: expected an array of 3 numbers");
  expect_scene_error(R"([{"file": "cube.obj", "positon": [1, 2, 3]}])",
                     "meshes[0].positon: unknown field");
  expect_scene_error(R"([{"file": "cube.obj", "material": "silver"}])",
                     "meshes[0].material: unknown material 'silver'");
  expect_scene_error(R"({"file": "cube.obj"})", "meshes: expected an array");
}

// What a saved scene must keep of one with models: the same instances (mesh, placement,
// material override) and triangles, the scene's own materials, camera and lights.
void expect_same_placed_models(const Scene& a, const Scene& b) {
  EXPECT_EQ(a.meshes.size(), b.meshes.size());
  EXPECT_EQ(a.materials.size(), b.materials.size());
  EXPECT_EQ(a.first_model_material, b.first_model_material);
  ASSERT_EQ(a.instances.size(), b.instances.size());
  for (std::size_t i = 0; i < a.instances.size(); ++i) {
    EXPECT_EQ(a.instances[i].mesh, b.instances[i].mesh);
    EXPECT_EQ(a.instances[i].material, b.instances[i].material);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(a.instances[i].transform.m[r][c], b.instances[i].transform.m[r][c]);
  }
  for (std::size_t i = 0; i < a.meshes.size(); ++i)
    EXPECT_EQ(a.meshes[i]->triangles.size(), b.meshes[i]->triangles.size());
  EXPECT_EQ(a.camera.position.z, b.camera.position.z);
  EXPECT_EQ(a.camera.right_handed, b.camera.right_handed);
  ASSERT_EQ(a.lights.size(), b.lights.size());
  EXPECT_EQ(a.lights[0].position.x, b.lights[0].position.x);
}

TEST(RaytracerModelScenes, SavedSceneNamesItsModelFiles) {
  const std::string source =
      cube_scene_file("saved", R"([{"file": "cube.obj", "translate": [-2, 0, 0]},
                   {"file": "cube.obj", "translate": [2, 0.5, 1], "rotate": [0, 45, 0],
                    "scale": 0.5, "material": "gold"}])");
  const Scene scene = open_scene(source);
  EXPECT_EQ(scene.first_model_material, 2u) << "floor and gold are the scene's own";
  const std::string saved = (scratch_directory("saved_copy") / "copy.json").string();
  save_scene_file(scene, saved);
  const nlohmann::json json = nlohmann::json::parse(std::ifstream(saved));
  ASSERT_EQ(json["meshes"].size(), 2u);
  EXPECT_EQ(json["meshes"][0]["file"], "../models_saved/cube.obj") << "named, not inlined";
  EXPECT_EQ(json["materials"].size(), 2u) << "the cube's own material stays in the cube";
  expect_same_placed_models(scene, open_scene(saved));
}

TEST(RaytracerModelScenes, ModelOpenedAloneSavesAsASceneNamingIt) {
  const auto dir = scratch_directory("alone");
  write_file(dir / "cube.obj", kCubeObj);
  const Scene scene = open_scene((dir / "cube.obj").string());
  ASSERT_EQ(scene.placed_mesh_files.size(), 1u);
  const std::string saved = (dir / "scene.json").string();
  save_scene_file(scene, saved);
  const nlohmann::json json = nlohmann::json::parse(std::ifstream(saved));
  EXPECT_EQ(json["meshes"][0]["file"], "cube.obj");
  EXPECT_EQ(json["meshes"][0].size(), 1u) << "placed as it is: no scale, rotation or move";
  const Scene read = open_scene(saved);
  expect_same_placed_models(scene, read);
  EXPECT_EQ(read.width, scene.width);
  EXPECT_EQ(read.background.z, scene.background.z);
}

}  // namespace

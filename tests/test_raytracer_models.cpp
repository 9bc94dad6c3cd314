// Raytracer models: glTF 2.0 files from Debian's assimp-testmodels (counts checked by hand against
// the files) and small files written here, loaded into meshes and instances; materials mapped
// onto one description; errors that name the file and what is wrong (OBJ + MTL:
// test_raytracer_model_obj.cpp; images: test_raytracer_model_images.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/error.hpp"
#include "raytracer_model_test_support.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;
using namespace raytracer::model;

using raytracer_test::cross3;
using raytracer_test::dot;
using raytracer_test::expect_bounds;
using raytracer_test::expect_well_formed;
using raytracer_test::length;
using raytracer_test::minus;
using raytracer_test::scratch_directory;
using raytracer_test::test_model;
using raytracer_test::write_file;

// The message of the clf::Error that loading `path` throws ("" if it loads).
std::string load_error(const std::string& path) {
  try {
    load_model(path);
  } catch (const clf::Error& e) {
    return e.what();
  }
  return "";
}

TEST(RaytracerModels, GltfBinaryTexturedBox) {
  const Model model = load_model(test_model("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"));
  expect_well_formed(model);
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.instances.size(), 1u);
  EXPECT_EQ(stored_triangle_count(model), 12u);
  expect_bounds(world_bounds(model), {-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}, 1e-5f);
  ASSERT_EQ(model.materials.size(), 1u);
  const Material& material = model.materials[0];
  EXPECT_EQ(material.name, "Texture");
  EXPECT_EQ(material.metallic, 0.0f);
  EXPECT_EQ(material.roughness, 1.0f);  // glTF's default
  ASSERT_EQ(material.base_color_texture, 0);
  EXPECT_EQ(model.textures[0].width, 211);  // CesiumLogoFlat.png
  EXPECT_EQ(model.textures[0].height, 211);
  for (const Vec2& uv : model.meshes[0].texcoords) {
    EXPECT_TRUE(uv.u >= 0 && uv.u <= 6 && uv.v >= 0 && uv.v <= 1);
  }
}

TEST(RaytracerModels, GltfSeparateEmbeddedAndBinaryFilesAgree) {
  const Model binary = load_model(test_model("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"));
  for (const char* file : {"glTF2/BoxTextured-glTF/BoxTextured.gltf",
                           "glTF2/BoxTextured-glTF-Embedded/BoxTextured.gltf"}) {
    SCOPED_TRACE(file);
    const Model model = load_model(test_model(file));
    expect_well_formed(model);
    ASSERT_EQ(model.meshes.size(), 1u);
    ASSERT_EQ(model.meshes[0].positions.size(), binary.meshes[0].positions.size());
    EXPECT_EQ(model.meshes[0].indices, binary.meshes[0].indices);
    for (std::size_t i = 0; i < model.meshes[0].positions.size(); ++i) {
      EXPECT_EQ(model.meshes[0].positions[i].x, binary.meshes[0].positions[i].x);
      EXPECT_EQ(model.meshes[0].texcoords[i].v, binary.meshes[0].texcoords[i].v);
    }
    ASSERT_EQ(model.textures.size(), 1u);
    EXPECT_EQ(model.textures[0].rgba, binary.textures[0].rgba);
  }
}

// 2CylinderEngine: 29 meshes placed by 67 nodes; the sums of the index counts / 3 of the
// meshes and of the placed meshes, read from its JSON chunk, are 75730 and 121496.
TEST(RaytracerModels, GltfEngineStoresEachMeshOnce) {
  const Model model =
      load_model(test_model("glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"));
  expect_well_formed(model);
  EXPECT_EQ(model.meshes.size(), 29u);
  EXPECT_EQ(model.instances.size(), 67u);
  EXPECT_EQ(stored_triangle_count(model), 75730u);
  EXPECT_EQ(instanced_triangle_count(model), 121496u);
  std::set<std::uint32_t> used;
  for (const Instance& instance : model.instances) used.insert(instance.mesh);
  EXPECT_EQ(used.size(), 29u) << "every mesh placed, some several times";
  expect_bounds(world_bounds(model), {-373.3f, -188.3f, -140.0f}, {371.7f, 115.3f, 135.3f}, 0.1f);
  ASSERT_EQ(model.materials.size(), 34u);
  EXPECT_EQ(model.materials[0].name, "Material_20");
  EXPECT_NEAR(model.materials[0].base_color.x, 0.85f, 1e-6f);
  EXPECT_EQ(model.materials[1].base_color.x, 0.0f);
}

TEST(RaytracerModels, GltfLargerSamples) {
  const Model coat = load_model(test_model("glTF2/ClearCoat-glTF/ClearCoatTest.gltf"));
  expect_well_formed(coat);
  EXPECT_EQ(coat.meshes.size(), 27u);
  EXPECT_EQ(stored_triangle_count(coat), 37116u);
  EXPECT_EQ(coat.materials.size(), 19u);

  const Model transforms =
      load_model(test_model("glTF2/textureTransform/TextureTransformTest.gltf"));
  expect_well_formed(transforms);
  EXPECT_EQ(stored_triangle_count(transforms), 18u);
  EXPECT_EQ(instanced_triangle_count(transforms), 24u);
  EXPECT_EQ(transforms.textures.size(), 5u);
  EXPECT_EQ(transforms.textures[0].width, 256);  // UV.png
}

TEST(RaytracerModels, GltfNormalsMadeUnitLength) {
  // BoxBadNormals stores normals that are not unit length.
  expect_well_formed(load_model(test_model("glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb")));
}

TEST(RaytracerModels, GltfStripsAndFansBecomeTriangles) {
  // Mode_04 is a strip, Mode_05 a fan, each of four vertices: a quad in the z = 0 plane.
  for (const char* file : {"Mesh_PrimitiveMode_04.gltf", "Mesh_PrimitiveMode_05.gltf"}) {
    SCOPED_TRACE(file);
    const Model model = load_model(
        test_model(std::string("glTF2/glTF-Asset-Generator/Mesh_PrimitiveMode/") + file));
    expect_well_formed(model);
    ASSERT_EQ(stored_triangle_count(model), 2u);
    const Mesh& mesh = model.meshes[0];
    for (std::size_t t = 0; t < 2; ++t) {
      const Vec3* p = mesh.positions.data();
      const std::uint32_t* v = &mesh.indices[3 * t];
      const Vec3 facing = cross3(minus(p[v[1]], p[v[0]]), minus(p[v[2]], p[v[0]]));
      EXPECT_GT(facing.z, 0) << "triangle " << t << " keeps the strip's facing";
    }
  }
}

// One triangle without normals, placed by two nodes (the second a child of the first), with
// a material using the transmission, ior and emissive-strength extensions.
std::string written_gltf() {
  return R"({
  "asset": {"version": "2.0"},
  "extensionsUsed": ["KHR_materials_transmission", "KHR_materials_ior",
                     "KHR_materials_emissive_strength"],
  "buffers": [{"uri": "triangle.bin", "byteLength": 36}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                 "min": [0, 0, 0], "max": [1, 1, 0]}],
  "materials": [{"name": "glass",
                 "pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.8, 0.7, 1.0],
                                          "metallicFactor": 0.25, "roughnessFactor": 0.4},
                 "emissiveFactor": [1.0, 0.5, 0.0],
                 "extensions": {"KHR_materials_transmission": {"transmissionFactor": 0.9},
                                "KHR_materials_ior": {"ior": 1.33},
                                "KHR_materials_emissive_strength": {"emissiveStrength": 2.0}}}],
  "meshes": [{"name": "triangle", "primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
  "nodes": [{"mesh": 0, "translation": [10, 0, 0], "children": [1]},
            {"mesh": 0, "scale": [2, 2, 2], "rotation": [0, 0, 0.70710678, 0.70710678]}],
  "scenes": [{"nodes": [0]}],
  "scene": 0
})";
}

void write_triangle_gltf(const std::filesystem::path& dir) {
  const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  write_file(dir / "triangle.bin",
             std::string(reinterpret_cast<const char*>(positions), sizeof positions));
  write_file(dir / "triangle.gltf", written_gltf());
}

TEST(RaytracerModels, GltfInstancesShareOneMesh) {
  const std::filesystem::path dir = scratch_directory("instances");
  write_triangle_gltf(dir);
  const Model model = load_model((dir / "triangle.gltf").string());
  expect_well_formed(model);
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.instances.size(), 2u);
  EXPECT_EQ(model.instances[0].mesh, 0u);
  EXPECT_EQ(model.instances[1].mesh, 0u);
  EXPECT_EQ(stored_triangle_count(model), 1u);
  EXPECT_EQ(instanced_triangle_count(model), 2u);
  // Flat normal where the file gives none.
  for (const Vec3& n : model.meshes[0].normals) EXPECT_NEAR(n.z, 1.0f, 1e-6f);
  // The child: scaled by 2, turned 90 degrees about z, then moved by its parent's +10 in x.
  const Vec3 p = transform_point(model.instances[1].transform, {1, 0, 0});
  EXPECT_NEAR(p.x, 10.0f, 1e-5f);
  EXPECT_NEAR(p.y, 2.0f, 1e-5f);
  EXPECT_NEAR(p.z, 0.0f, 1e-5f);
  expect_bounds(world_bounds(model), {8, 0, 0}, {11, 2, 0}, 1e-5f);
}

// Exporters hide nodes by scaling them to zero: such a node is left out with a warning naming it,
// and the rest of the model loads (it was refused as a whole).
TEST(RaytracerModels, GltfNodeScaledToZeroIsLeftOut) {
  const std::filesystem::path dir = scratch_directory("zero-scale");
  write_triangle_gltf(dir);
  std::string gltf = written_gltf();
  const std::string child = R"({"mesh": 0, "scale": [2, 2, 2],)";
  ASSERT_NE(gltf.find(child), std::string::npos);
  gltf.replace(gltf.find(child), child.size(),
               R"({"mesh": 0, "name": "hidden", "scale": [0, 0, 0],)");
  write_file(dir / "triangle.gltf", gltf);
  const Model model = load_model((dir / "triangle.gltf").string());
  expect_well_formed(model);
  ASSERT_EQ(model.instances.size(), 1u);
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_NE(model.warnings[0].find("node 1 ('hidden')"), std::string::npos) << model.warnings[0];
  // Opening it as a scene says so.
  ::testing::internal::CaptureStderr();
  const Scene scene = open_scene((dir / "triangle.gltf").string());
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("triangle.gltf: node 1 ('hidden') flattens"), std::string::npos) << said;
  EXPECT_EQ(scene.meshes.size(), 1u);
}

// Extensions the loader does not know: required ones refuse the file, naming the extension; used
// ones are a warning.
TEST(RaytracerModels, GltfUnsupportedExtensions) {
  const std::filesystem::path dir = scratch_directory("extensions");
  write_triangle_gltf(dir);
  std::string gltf = written_gltf();
  const std::string used = R"("extensionsUsed": [)";
  ASSERT_NE(gltf.find(used), std::string::npos);
  gltf.insert(gltf.find(used) + used.size(), R"("EXT_made_up", )");
  write_file(dir / "triangle.gltf", gltf);
  const Model model = load_model((dir / "triangle.gltf").string());
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_NE(model.warnings[0].find("'EXT_made_up' is not supported"), std::string::npos);
  gltf.insert(gltf.find(used), R"("extensionsRequired": ["KHR_materials_ior", "EXT_made_up"], )");
  write_file(dir / "triangle.gltf", gltf);
  EXPECT_CLF_ERROR(load_model((dir / "triangle.gltf").string()), "triangle.gltf",
                   "extensionsRequired", "'EXT_made_up'");
}

TEST(RaytracerModels, GltfMaterialExtensions) {
  const std::filesystem::path dir = scratch_directory("materials");
  write_triangle_gltf(dir);
  const Model model = load_model((dir / "triangle.gltf").string());
  ASSERT_EQ(model.materials.size(), 1u);
  const Material& m = model.materials[0];
  EXPECT_EQ(m.name, "glass");
  EXPECT_NEAR(m.base_color.x, 0.9f, 1e-6f);
  EXPECT_NEAR(m.base_color.z, 0.7f, 1e-6f);
  EXPECT_EQ(m.base_color_texture, -1);
  EXPECT_NEAR(m.metallic, 0.25f, 1e-6f);
  EXPECT_NEAR(m.roughness, 0.4f, 1e-6f);
  EXPECT_NEAR(m.emissive.x, 2.0f, 1e-6f);
  EXPECT_NEAR(m.emissive.y, 1.0f, 1e-6f);
  EXPECT_NEAR(m.transmission, 0.9f, 1e-6f);
  EXPECT_NEAR(m.ior, 1.33f, 1e-6f);
}

// spider.obj: 1368 triangles (its faces are triangles and quads), five materials each with a
// JPEG named with a Windows path (".\wal67ar_small.jpg"); faces without usemtl use the default.
TEST(RaytracerModels, ErrorsNameTheFileAndTheProblem) {
  const std::filesystem::path dir = scratch_directory("errors");
  for (const char* missing : {"no-such-model.glb", "no-such-model.gltf", "no-such-model.obj"}) {
    const std::string path = (dir / missing).string();
    EXPECT_EQ(load_error(path), path + ": no such file");
  }
  EXPECT_NE(load_error("model.ply").find("expected .gltf, .glb or .obj"), std::string::npos);

  // A .glb cut in half.
  std::ifstream in(test_model("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"), std::ios::binary);
  const std::string glb((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write_file(dir / "truncated.glb", glb.substr(0, glb.size() / 2));
  const std::string truncated = load_error((dir / "truncated.glb").string());
  EXPECT_NE(truncated.find("truncated.glb: "), std::string::npos) << truncated;

  // A glTF whose texture is missing names it.
  const std::string box = test_model("glTF2/BoxTextured-glTF/");
  std::filesystem::copy_file(box + "BoxTextured.gltf", dir / "box.gltf");
  std::filesystem::copy_file(box + "BoxTextured0.bin", dir / "BoxTextured0.bin");
  const std::string no_texture = load_error((dir / "box.gltf").string());
  EXPECT_NE(no_texture.find("box.gltf: "), std::string::npos) << no_texture;
  EXPECT_NE(no_texture.find("cannot read image 'CesiumLogoFlat.png'"), std::string::npos)
      << no_texture;

  // An OBJ whose map_Kd is missing names it and the material.
  write_file(dir / "textured.mtl", "newmtl painted\nKd 1 1 1\nmap_Kd paint.png\n");
  write_file(dir / "textured.obj",
             "mtllib textured.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl painted\nf 1 2 3\n");
  const std::string no_map = load_error((dir / "textured.obj").string());
  EXPECT_NE(no_map.find("textured.obj: material 'painted'"), std::string::npos) << no_map;
  EXPECT_NE(no_map.find("paint.png"), std::string::npos) << no_map;
  // So does one whose normal map is missing, naming the statement.
  write_file(dir / "normal.mtl", "newmtl ribbed\nKd 1 1 1\nnorm ribs.png\n");
  write_file(dir / "normal.obj",
             "mtllib normal.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl ribbed\nf 1 2 3\n");
  const std::string no_normal = load_error((dir / "normal.obj").string());
  EXPECT_NE(no_normal.find("material 'ribbed', norm: "), std::string::npos) << no_normal;
  EXPECT_NE(no_normal.find("ribs.png"), std::string::npos) << no_normal;

  // An OBJ face that refers to a vertex the file does not have.
  write_file(dir / "bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 7\n");
  const std::string bad_index = load_error((dir / "bad_index.obj").string());
  EXPECT_EQ(bad_index, (dir / "bad_index.obj").string() +
                           ": face 2: vertex index 7 is out of range (the file has 3)");
}

// The written triangle with `from` replaced by `to` in its JSON.
std::string broken_gltf_error(const std::string& name, const std::string& from,
                              const std::string& to) {
  const std::filesystem::path dir = scratch_directory(name);
  write_triangle_gltf(dir);
  std::string json = written_gltf();
  const std::size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) json.replace(at, from.size(), to);
  write_file(dir / "triangle.gltf", json);
  return load_error((dir / "triangle.gltf").string());
}

TEST(RaytracerModels, BrokenAccessorsAreRefused) {
  EXPECT_NE(broken_gltf_error("vec2", R"("type": "VEC3")", R"("type": "VEC2")")
                .find("mesh 'triangle', primitive 0, POSITION: accessor 0 has 2 components per "
                      "element, not 3"),
            std::string::npos);
  EXPECT_NE(broken_gltf_error("count", R"("count": 3)", R"("count": 4)")
                .find("triangle.gltf: mesh 'triangle', primitive 0, POSITION: accessor 0 reaches "
                      "past the end of its buffer"),
            std::string::npos);
  EXPECT_NE(broken_gltf_error("short", R"("componentType": 5126)", R"("componentType": 5122)")
                .find("triangle.gltf: mesh 'triangle', primitive 0, POSITION: accessor 0 has "
                      "component type 5122, which glTF does not allow for vertex data"),
            std::string::npos);
  EXPECT_NE(broken_gltf_error("node", R"("children": [1])", R"("children": [7])")
                .find("node 7 does not exist"),
            std::string::npos);
}

TEST(RaytracerModels, BrokenTestModelsAreRefused) {
  const struct {
    const char* file;
    const char* reason;
  } cases[] = {
      {"glTF2/MissingBin/BoxTextured.gltf", "BoxTextured0.bin"},
      {"glTF2/IndexOutOfRange/IndexOutOfRange.gltf", "refers to vertex 255 of 24"},
      {"glTF2/RecursiveNodes/RecursiveNodes.gltf", "is its own ancestor"},
      {"glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "not finite"},
      {"OBJ/testpoints.obj", "no triangles"},
  };
  for (const auto& c : cases) {
    const std::string path = test_model(c.file);
    const std::string message = load_error(path);
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(c.reason), std::string::npos) << message;
  }
}

TEST(RaytracerModels, DefaultViewFramesTheModel) {
  for (const char* file :
       {"glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", "OBJ/WusonOBJ.obj"}) {
    SCOPED_TRACE(file);
    const Bounds bounds = world_bounds(load_model(test_model(file)));
    const ModelView view = default_view(bounds);
    const Vec3 forward = minus(view.camera.look_at, view.camera.position);
    const Vec3 center = bounds.center();
    EXPECT_NEAR(length(minus(view.camera.look_at, center)), 0.0f, 1e-3f);
    // Every corner of the box lies inside the cone of the vertical field of view.
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 p{corner & 1 ? bounds.max.x : bounds.min.x,
                   corner & 2 ? bounds.max.y : bounds.min.y,
                   corner & 4 ? bounds.max.z : bounds.min.z};
      const Vec3 to_corner = minus(p, view.camera.position);
      const float cos_angle = dot(to_corner, forward) / (length(to_corner) * length(forward));
      EXPECT_GT(cos_angle, std::cos(view.camera.fov_y / 2)) << "corner " << corner;
    }
    EXPECT_GT(view.light.position.y, bounds.max.y) << "the light shines from above";
    EXPECT_GT(view.light.intensity, 0.0f);
  }
}

}  // namespace

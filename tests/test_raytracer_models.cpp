// Raytracer models: glTF 2.0 and OBJ + MTL files from Debian's assimp-testmodels (counts checked
// by hand against the files) and small files written here, loaded into meshes and instances;
// materials mapped onto one description; errors that name the file and what is wrong.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "apps/common/png_writer.hpp"
#include "apps/raytracer/model/image_decode.hpp"
#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/error.hpp"
#include "raytracer_model_test_support.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;
using namespace raytracer::model;

using raytracer_test::scratch_directory;
using raytracer_test::test_model;
using raytracer_test::write_file;

float length(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 minus(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 cross3(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// What every loaded model guarantees the renderer: equal-length vertex arrays, unit normals,
// indices and material indices in range, textures the size they say, instances of real meshes.
void expect_well_formed(const Model& model) {
  for (const Mesh& mesh : model.meshes) {
    SCOPED_TRACE("mesh " + mesh.name);
    ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
    ASSERT_EQ(mesh.texcoords.size(), mesh.positions.size());
    ASSERT_EQ(mesh.indices.size() % 3, 0u);
    ASSERT_EQ(mesh.triangle_materials.size(), mesh.triangle_count());
    EXPECT_GT(mesh.triangle_count(), 0u);
    for (std::uint32_t i : mesh.indices) ASSERT_LT(i, mesh.positions.size());
    for (std::uint32_t m : mesh.triangle_materials) ASSERT_LT(m, model.materials.size());
    for (const Vec3& n : mesh.normals) ASSERT_NEAR(length(n), 1.0f, 1e-4f);
  }
  for (const Material& m : model.materials) {
    EXPECT_LT(m.base_color_texture, static_cast<int>(model.textures.size()));
  }
  for (const Texture& t : model.textures) {
    EXPECT_EQ(t.rgba.size(), static_cast<std::size_t>(t.width) * t.height * 4) << t.name;
  }
  for (const Instance& instance : model.instances) ASSERT_LT(instance.mesh, model.meshes.size());
}

void expect_bounds(const Bounds& b, Vec3 min, Vec3 max, float tolerance) {
  EXPECT_NEAR(b.min.x, min.x, tolerance);
  EXPECT_NEAR(b.min.y, min.y, tolerance);
  EXPECT_NEAR(b.min.z, min.z, tolerance);
  EXPECT_NEAR(b.max.x, max.x, tolerance);
  EXPECT_NEAR(b.max.y, max.y, tolerance);
  EXPECT_NEAR(b.max.z, max.z, tolerance);
}

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
TEST(RaytracerModels, ObjTexturedSpider) {
  const Model model = load_model(test_model("OBJ/spider.obj"));
  expect_well_formed(model);
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.instances.size(), 1u);
  EXPECT_EQ(stored_triangle_count(model), 1368u);
  expect_bounds(world_bounds(model), {-92.66f, -42.23f, -106.69f}, {57.94f, 37.50f, 86.69f}, 0.01f);
  ASSERT_EQ(model.materials.size(), 6u);
  const Material& skin = model.materials[0];
  EXPECT_EQ(skin.name, "Skin");
  EXPECT_NEAR(skin.base_color.x, 0.827451f, 1e-6f);
  EXPECT_EQ(skin.metallic, 0.0f);
  EXPECT_NEAR(skin.roughness, 1.0f, 1e-6f);  // Ns 0: as rough as it gets
  ASSERT_EQ(model.textures.size(), 5u);
  const Texture& wood = model.textures.at(model.materials[3].base_color_texture);
  EXPECT_NE(wood.name.find("drkwood2.jpg"), std::string::npos);
  EXPECT_EQ(wood.width, 768);
  EXPECT_EQ(wood.height, 768);
}

TEST(RaytracerModels, ObjSmoothNormalsFromFile) {
  // WusonOBJ.obj: 3732 triangles over 2117 positions with 2076 normals (vn).
  const Model model = load_model(test_model("OBJ/WusonOBJ.obj"));
  expect_well_formed(model);
  EXPECT_EQ(stored_triangle_count(model), 3732u);
  expect_bounds(world_bounds(model), {-0.46f, -0.0006f, -1.6222f}, {0.46f, 1.5153f, 1.6222f},
                1e-3f);
  // Corners that share a position and a normal share a vertex.
  EXPECT_LT(model.meshes[0].positions.size(), 3 * stored_triangle_count(model));
}

TEST(RaytracerModels, ObjFlatNormalsWhereAbsent) {
  // regr01.obj has no normals: every triangle gets its own vertices with the flat normal.
  const Model model = load_model(test_model("OBJ/regr01.obj"));
  expect_well_formed(model);
  const Mesh& mesh = model.meshes[0];
  EXPECT_EQ(mesh.triangle_count(), 2710u);
  EXPECT_EQ(model.materials.size(), 13u);  // 12 in regr01.mtl and the default
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const std::uint32_t* v = &mesh.indices[3 * t];
    const Vec3 n = mesh.normals[v[0]];
    const Vec3 face = cross3(minus(mesh.positions[v[1]], mesh.positions[v[0]]),
                             minus(mesh.positions[v[2]], mesh.positions[v[0]]));
    for (int k = 1; k < 3; ++k) {
      ASSERT_EQ(mesh.normals[v[k]].x, n.x);
      ASSERT_EQ(mesh.normals[v[k]].y, n.y);
      ASSERT_EQ(mesh.normals[v[k]].z, n.z);
    }
    if (length(face) > 1e-3f) {
      ASSERT_NEAR(dot(n, face) / length(face), 1.0f, 1e-3f);
    }
  }
}

TEST(RaytracerModels, ObjMaterialsMapOntoMetallicRoughness) {
  const std::filesystem::path dir = scratch_directory("mtl");
  write_file(dir / "quad.mtl",
             "newmtl glass\nKd 0.1 0.2 0.3\nKs 0.5 0.6 0.7\nNs 98\nKe 1 2 3\nd 0.25\nNi 1.45\n"
             "illum 3\n"
             "newmtl plastic\nKd 1 1 1\nKs 0.5 0.5 0.5\nNs 0\nTr 0\nillum 2\n");
  write_file(dir / "quad.obj",
             "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\n"
             "vt 0 1\nusemtl glass\nf 1/1 2/2 3/3 4/4\nusemtl plastic\nf 1/1 3/3 2/2\n");
  const Model model = load_model((dir / "quad.obj").string());
  expect_well_formed(model);
  ASSERT_EQ(model.meshes[0].triangle_materials, (std::vector<std::uint32_t>{0, 0, 1}));
  const Material& glass = model.materials.at(0);
  EXPECT_NEAR(glass.base_color.z, 0.3f, 1e-6f);
  EXPECT_NEAR(glass.metallic, 0.7f, 1e-6f);  // illum 3 reflects: Ks as metallic
  EXPECT_NEAR(glass.roughness, std::pow(2.0f / 100, 0.25f), 1e-6f);
  EXPECT_NEAR(glass.emissive.y, 2.0f, 1e-6f);
  EXPECT_NEAR(glass.transmission, 0.75f, 1e-6f);
  EXPECT_NEAR(glass.ior, 1.45f, 1e-6f);
  const Material& plastic = model.materials.at(1);
  EXPECT_EQ(plastic.metallic, 0.0f);
  EXPECT_EQ(plastic.transmission, 0.0f);
  // The quad's texture coordinates equal its positions' x and y.
  const Mesh& mesh = model.meshes[0];
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    EXPECT_EQ(mesh.texcoords[i].u, mesh.positions[i].x);
    EXPECT_EQ(mesh.texcoords[i].v, mesh.positions[i].y);
  }
}

// map_Kd, map_Ke and norm (with -bm) become the base colour, emissive and normal maps, each
// image decoded once however many maps name it.
TEST(RaytracerModels, ObjMapsBecomeTheMaterialsTextures) {
  const std::filesystem::path dir = scratch_directory("mtl-maps");
  app_common::write_png((dir / "paint.png").string(), 1, 1, std::vector<cl_uint>{0xFF2040A0u});
  app_common::write_png((dir / "bumps.png").string(), 2, 1,
                        std::vector<cl_uint>{0xFFFF8080u, 0xFF80FF80u});
  write_file(dir / "maps.mtl",
             "newmtl lamp\nKd 1 1 1\nKe 2 2 2\nmap_Kd paint.png\nmap_Ke paint.png\n"
             "norm -bm 0.5 bumps.png\n"
             "newmtl plain\nKd 0.5 0.5 0.5\n");
  write_file(dir / "maps.obj",
             "mtllib maps.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
             "usemtl lamp\nf 1/1 2/2 3/3\nusemtl plain\nf 1/1 3/3 2/2\n");
  const Model model = load_model((dir / "maps.obj").string());
  expect_well_formed(model);
  ASSERT_EQ(model.textures.size(), 2u);
  const Material& lamp = model.materials.at(0);
  EXPECT_EQ(lamp.base_color_texture, lamp.emissive_texture);
  ASSERT_GE(lamp.normal_texture, 0);
  EXPECT_NE(lamp.normal_texture, lamp.base_color_texture);
  EXPECT_EQ(model.textures.at(lamp.normal_texture).width, 2);
  EXPECT_NEAR(lamp.normal_scale, 0.5f, 1e-6f);
  EXPECT_NEAR(lamp.emissive.x, 2.0f, 1e-6f);
  const Material& plain = model.materials.at(1);
  EXPECT_EQ(plain.emissive_texture, -1);
  EXPECT_EQ(plain.normal_texture, -1);
  EXPECT_EQ(plain.metallic_roughness_texture, -1);
}

// A map named by an absolute path is that file, wherever the model lies.
TEST(RaytracerModels, ObjMapsByAbsolutePath) {
  const std::filesystem::path textures = scratch_directory("mtl-absolute-textures");
  const std::filesystem::path dir = scratch_directory("mtl-absolute");
  const std::string paint = std::filesystem::absolute(textures / "paint.png").string();
  app_common::write_png(paint, 1, 1, std::vector<cl_uint>{0xFF2040A0u});
  write_file(dir / "abs.mtl", "newmtl lamp\nKd 1 1 1\nmap_Kd " + paint + "\n");
  write_file(dir / "abs.obj",
             "mtllib abs.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
             "usemtl lamp\nf 1/1 2/2 3/3\n");
  const Model model = load_model((dir / "abs.obj").string());
  ASSERT_EQ(model.textures.size(), 1u);
  EXPECT_EQ(model.materials.at(0).base_color_texture, 0);
}

TEST(RaytracerModels, ObjUnknownMaterialIsAWarning) {
  // cube_usemtl.obj uses mtl3, which its MTL file lacks: those faces get the default material.
  const Model model = load_model(test_model("OBJ/cube_usemtl.obj"));
  expect_well_formed(model);
  EXPECT_EQ(stored_triangle_count(model), 12u);
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_NE(model.warnings[0].find("mtl3"), std::string::npos) << model.warnings[0];
  ASSERT_EQ(model.materials.size(), 3u);
  EXPECT_EQ(model.materials[2].name, "default");
  const std::vector<std::uint32_t>& used = model.meshes[0].triangle_materials;
  EXPECT_NE(std::find(used.begin(), used.end(), 2u), used.end());
}

// A one-row PNG of `row` (`bit_depth`-bit channels, as PNG stores them: big-endian), with a gAMA
// chunk of `gamma` where it is above 0.
std::string png_bytes(int width, int color_type, int bit_depth,
                      const std::vector<std::uint8_t>& row, double gamma) {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_set_write_fn(
      png, &out,
      [](png_structp p, png_bytep data, std::size_t length) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<char*>(data), length);
      },
      nullptr);
  png_set_IHDR(png, info, width, 1, bit_depth, color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (gamma > 0) png_set_gAMA(png, info, gamma);
  png_write_info(png, info);
  png_write_row(png, const_cast<png_bytep>(row.data()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

std::vector<std::uint8_t> decoded_rgba(const std::string& png) {
  return decode_image(reinterpret_cast<const std::uint8_t*>(png.data()), png.size(), "test.png")
      .rgba;
}

// glTF: "gamma ... information MUST be ignored", so a texel is what the file stores whatever its
// depth and chunks (libpng's simplified API turned a 16-bit (0.5, 0.5, 1) normal into (186, 186,
// 255), a flat normal tilted by 33 degrees, and so an 8-bit one tagged gAMA 1.0).
TEST(RaytracerModels, ImagesKeepTheirStoredValues) {
  const std::vector<std::uint8_t> flat_normal = {128, 128, 255, 255};
  EXPECT_EQ(
      decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 16, {0x80, 0x00, 0x80, 0x00, 0xFF, 0xFF}, 0)),
      flat_normal);
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 8, {128, 128, 255}, 1.0)), flat_normal);
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 8, {128, 128, 255}, 0)), flat_normal);
  // Grey with alpha, 16 bits: expanded to RGBA, alpha kept.
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, {0x40, 0x00, 0x80, 0x00}, 0)),
            (std::vector<std::uint8_t>{64, 64, 64, 128}));
  // Truncated: refused, naming the image.
  const std::string png = png_bytes(2, PNG_COLOR_TYPE_RGB, 8, {1, 2, 3, 4, 5, 6}, 0);
  EXPECT_CLF_ERROR(
      decode_image(reinterpret_cast<const std::uint8_t*>(png.data()), png.size() / 2, "half.png"),
      "half.png");
}

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

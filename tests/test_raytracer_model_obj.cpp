// Raytracer models from OBJ + MTL files (tinyobjloader): assimp-testmodels' OBJ files and small
// files written here; normals, materials mapped onto metallic-roughness, texture maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/common/png_writer.hpp"
#include "apps/raytracer/model/model.hpp"
#include "raytracer_model_test_support.hpp"

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

TEST(RaytracerObjModels, TexturedSpider) {
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

TEST(RaytracerObjModels, SmoothNormalsFromFile) {
  // WusonOBJ.obj: 3732 triangles over 2117 positions with 2076 normals (vn).
  const Model model = load_model(test_model("OBJ/WusonOBJ.obj"));
  expect_well_formed(model);
  EXPECT_EQ(stored_triangle_count(model), 3732u);
  expect_bounds(world_bounds(model), {-0.46f, -0.0006f, -1.6222f}, {0.46f, 1.5153f, 1.6222f},
                1e-3f);
  // Corners that share a position and a normal share a vertex.
  EXPECT_LT(model.meshes[0].positions.size(), 3 * stored_triangle_count(model));
}

TEST(RaytracerObjModels, FlatNormalsWhereAbsent) {
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

TEST(RaytracerObjModels, MaterialsMapOntoMetallicRoughness) {
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
TEST(RaytracerObjModels, MapsBecomeTheMaterialsTextures) {
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
TEST(RaytracerObjModels, MapsByAbsolutePath) {
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

TEST(RaytracerObjModels, UnknownMaterialIsAWarning) {
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

}  // namespace

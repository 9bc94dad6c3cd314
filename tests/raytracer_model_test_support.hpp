// Helpers shared by the raytracer's model tests: the assimp-testmodels files, scratch files and
// what every loaded model must be.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "apps/raytracer/model/model.hpp"

namespace raytracer_test {

using raytracer::Vec3;
using raytracer::model::Bounds;
using raytracer::model::Instance;
using raytracer::model::Material;
using raytracer::model::Mesh;
using raytracer::model::Model;
using raytracer::model::Texture;

inline const std::string kModels = "/usr/share/assimp/models/";

// A test model from assimp-testmodels (setup.sh installs it).
inline std::string test_model(const std::string& relative) {
  const std::string path = kModels + relative;
  if (!std::filesystem::exists(path)) {
    ADD_FAILURE() << path << " is missing: install the Debian package assimp-testmodels";
  }
  return path;
}

// A fresh directory for files a test writes.
inline std::filesystem::path scratch_directory(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / ("models_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline float length(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 minus(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 cross3(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// What every loaded model guarantees the renderer: equal-length vertex arrays, unit normals,
// indices and material indices in range, textures the size they say, instances of real meshes.
inline void expect_well_formed(const Model& model) {
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

inline void expect_bounds(const Bounds& b, Vec3 min, Vec3 max, float tolerance) {
  EXPECT_NEAR(b.min.x, min.x, tolerance);
  EXPECT_NEAR(b.min.y, min.y, tolerance);
  EXPECT_NEAR(b.min.z, min.z, tolerance);
  EXPECT_NEAR(b.max.x, max.x, tolerance);
  EXPECT_NEAR(b.max.y, max.y, tolerance);
  EXPECT_NEAR(b.max.z, max.z, tolerance);
}

}  // namespace raytracer_test

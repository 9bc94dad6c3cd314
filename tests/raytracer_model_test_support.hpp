// Helpers shared by the raytracer's model tests: the assimp-testmodels files and scratch files.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace raytracer_test {

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

}  // namespace raytracer_test

// load_model: the loader chosen by the file's extension.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"
#include "framework/error.hpp"

namespace raytracer::model {
namespace {

std::string lower_extension(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

void add_loader_warnings(Model& model, const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (std::find(model.warnings.begin(), model.warnings.end(), line) == model.warnings.end()) {
      model.warnings.push_back(line);
    }
  }
}

bool is_model_file(const std::string& path) {
  const std::string ext = lower_extension(path);
  return ext == ".gltf" || ext == ".glb" || ext == ".obj";
}

Model load_model(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (is_model_file(path) && !std::filesystem::is_regular_file(path)) {
    throw clf::Error(path + ": no such file");
  }
  if (ext == ".gltf" || ext == ".glb") return load_gltf(path);
  if (ext == ".obj") return load_obj(path);
  throw clf::Error(path + ": not a model file (expected .gltf, .glb or .obj)");
}

}  // namespace raytracer::model

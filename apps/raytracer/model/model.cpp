// load_model: the loader chosen by the file's extension.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"
#include "framework/error.hpp"

namespace raytracer::model {
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

bool is_model_file(const std::string& path) { return has_model_file_extension(path); }

Model load_model(const std::string& path) {
  const std::string ext = lower_case_extension(path);
  if (is_model_file(path) && !std::filesystem::is_regular_file(path)) {
    throw clf::Error(path + ": no such file");
  }
  if (ext == ".gltf" || ext == ".glb") return load_gltf(path);
  if (ext == ".obj") return load_obj(path);
  throw clf::Error(path + ": not a model file (expected .gltf, .glb or .obj)");
}

}  // namespace raytracer::model

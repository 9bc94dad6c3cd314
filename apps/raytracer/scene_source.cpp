#include "apps/raytracer/scene_source.hpp"

#include <iostream>
#include <map>
#include <utility>

#include "framework/error.hpp"
#if CLF_RAYTRACER_MODELS
#include "apps/raytracer/model/environment_file.hpp"
#include "apps/raytracer/model/model_scene.hpp"
#endif

namespace raytracer {

#if !CLF_RAYTRACER_MODELS
namespace {

[[noreturn]] void no_model_library(const std::string& what) {
  throw clf::Error(what +
                   ": model and environment files need the model library, which this build "
                   "lacks (install libtinygltf-dev libtinyobjloader-dev libturbojpeg0-dev "
                   "libstb-dev, as setup.sh does, and rebuild)");
}

}  // namespace
#endif

#if CLF_RAYTRACER_MODELS
namespace {

// What the loader skipped or could not honour, said where the scene is opened (on stderr, as the
// window's and the commands' other notices).
model::Model load_model_saying_warnings(const std::string& file) {
  model::Model model = model::load_model(file);
  for (const std::string& warning : model.warnings) {
    std::cerr << "warning: " << file << ": " << warning << "\n";
  }
  return model;
}

}  // namespace
#endif

bool model_files_supported() { return CLF_RAYTRACER_MODELS != 0; }

void load_mesh_files(Scene& scene) {
  if (!scene.mesh_files.empty() && scene.first_model_material == Scene::kNoModelMaterials)
    scene.first_model_material = scene.materials.size();
#if CLF_RAYTRACER_MODELS
  // A file named again is placed again, not loaded again: its meshes are stored once.
  std::map<std::string, std::pair<model::Model, std::uint32_t>> loaded;
#endif
  for (const MeshFileReference& reference : scene.mesh_files) {
#if CLF_RAYTRACER_MODELS
    auto it = loaded.find(reference.file);
    if (it == loaded.end()) {
      model::Model model;
      try {
        model = load_model_saying_warnings(reference.file);
      } catch (const std::exception& error) {
        throw clf::Error(scene.name + ": " + reference.json_path + ".file: " + error.what());
      }
      const std::uint32_t first_mesh = model::add_model_meshes(model, scene);
      it = loaded.emplace(reference.file, std::make_pair(std::move(model), first_mesh)).first;
    }
    model::add_model_instances(it->second.first, it->second.second, reference.placement.transform(),
                               reference.material, scene);
#else
    no_model_library(scene.name + ": " + reference.json_path + ".file");
#endif
  }
  scene.placed_mesh_files.insert(scene.placed_mesh_files.end(), scene.mesh_files.begin(),
                                 scene.mesh_files.end());
  scene.mesh_files.clear();
}

void load_environment(Scene& scene) {
  if (!scene.environment || scene.environment->image) return;
  const std::string& where = scene.environment->named_by;
#if CLF_RAYTRACER_MODELS
  try {
    scene.environment->image = std::make_shared<const EnvironmentImage>(
        model::read_environment_image(scene.environment->file));
  } catch (const std::exception& error) {
    throw clf::Error(where + ": " + error.what());
  }
#else
  no_model_library(where);
#endif
}

void use_environment_file(Scene& scene, const std::string& file, float intensity,
                          const std::string& option) {
  if (!(intensity >= 0 && intensity <= 1e6f)) {
    throw clf::Error(option + "-intensity: must be in [0, 1e6], got " + std::to_string(intensity));
  }
  SceneEnvironment environment;
  environment.file = file;
  environment.named_by = option;
  environment.intensity = intensity;
  scene.environment = environment;
  load_environment(scene);
}

Scene open_scene(const std::string& name_or_file) {
  if (has_model_file_extension(name_or_file)) {
#if CLF_RAYTRACER_MODELS
    Scene scene = model::scene_from_model(load_model_saying_warnings(name_or_file));
    MeshFileReference placed;
    placed.file = name_or_file;
    scene.placed_mesh_files.push_back(placed);
    scene.first_model_material = 0;
    return scene;
#else
    no_model_library(name_or_file);
#endif
  }
  Scene scene = load_scene(name_or_file);
  load_mesh_files(scene);
  load_environment(scene);
  return scene;
}

}  // namespace raytracer

#include "apps/raytracer/scene_source.hpp"

#include <map>
#include <utility>

#include "framework/error.hpp"
#if CLF_RAYTRACER_MODELS
#include "apps/raytracer/model/model_scene.hpp"
#endif

namespace raytracer {

#if !CLF_RAYTRACER_MODELS
namespace {

[[noreturn]] void no_model_library(const std::string& what) {
  throw clf::Error(what +
                   ": model files need the model library, which this build lacks "
                   "(install libtinygltf-dev libtinyobjloader-dev libturbojpeg0-dev, "
                   "as setup.sh does, and rebuild)");
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
        model = model::load_model(reference.file);
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

Scene open_scene(const std::string& name_or_file) {
  if (has_model_file_extension(name_or_file)) {
#if CLF_RAYTRACER_MODELS
    Scene scene = model::scene_from_model(model::load_model(name_or_file));
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
  return scene;
}

}  // namespace raytracer

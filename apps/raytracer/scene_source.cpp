#include "apps/raytracer/scene_source.hpp"

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
  for (const MeshFileReference& reference : scene.mesh_files) {
#if CLF_RAYTRACER_MODELS
    model::Model loaded;
    try {
      loaded = model::load_model(reference.file);
    } catch (const std::exception& error) {
      throw clf::Error(scene.name + ": " + reference.json_path + ".file: " + error.what());
    }
    model::add_model_to_scene(loaded, reference.transform, reference.material, scene);
#else
    no_model_library(scene.name + ": " + reference.json_path + ".file");
#endif
  }
  scene.mesh_files.clear();
}

Scene open_scene(const std::string& name_or_file) {
  if (has_model_file_extension(name_or_file)) {
#if CLF_RAYTRACER_MODELS
    return model::scene_from_model(model::load_model(name_or_file));
#else
    no_model_library(name_or_file);
#endif
  }
  Scene scene = load_scene(name_or_file);
  load_mesh_files(scene);
  return scene;
}

}  // namespace raytracer

// Every kind of scene the tools open: a built-in name, a JSON scene file (with the model files
// it names loaded), or a model file (.gltf, .glb, .obj) shown alone. Where the model library is
// not built (its Debian packages missing), model files are an error saying so.
#pragma once

#include <string>

#include "apps/raytracer/scene.hpp"

namespace raytracer {

// A model file opened alone is listed in Scene::placed_mesh_files, placed as it is. Throws
// clf::Error naming the file (and, for a scene file, the JSON path) and what is wrong.
Scene open_scene(const std::string& name_or_file);

// Loads the model files a scene file named (Scene::mesh_files) into its meshes and moves them to
// Scene::placed_mesh_files. Errors name the scene file, the JSON path and the loader's message.
void load_mesh_files(Scene& scene);
// Reads the environment image a scene file named (Scene::environment), unless already read.
void load_environment(Scene& scene);
// Surrounds the scene with the image in `file` instead (a command line's `option`, which errors
// name), its radiance times `intensity`.
void use_environment_file(Scene& scene, const std::string& file, float intensity,
                          const std::string& option);

// Whether model files can be loaded in this build.
bool model_files_supported();

}  // namespace raytracer

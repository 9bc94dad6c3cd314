// Scenes written as the JSON scene files parse_scene_json reads (format: docs/raytracer.md): the
// format version, size, background, camera, the scene's own materials, spheres, planes, lights,
// the model files it places, named by path with their placements (never their triangles; their
// materials and textures stay the models'), and a checksum of all that (scene_file_format.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "apps/raytracer/scene.hpp"

namespace raytracer {

// The scene as a scene file that will be written to `file`: model paths are written relative to
// its folder where they can be. Throws clf::Error naming the scene when a scene file cannot hold
// it (meshes generated in code, as `instances:N` has).
// Fields in the order docs/raytracer.md lists them.
nlohmann::ordered_json scene_to_json(const Scene& scene, const std::string& file);

// One material as a scene file writes it, under `name`: every field the reader knows, so that a
// field added to RtMaterial is written here and read in scene_json.cpp, nowhere else.
nlohmann::ordered_json material_to_json(const RtMaterial& material, const std::string& name);

// JSON as people read and edit it: an object's fields one a line, arrays of numbers on one line.
std::string readable_json(const nlohmann::ordered_json& value);

// Writes scene_to_json(scene, path), readable, to `path` atomically (a temporary file renamed
// over it).
void save_scene_file(const Scene& scene, const std::string& path);

}  // namespace raytracer

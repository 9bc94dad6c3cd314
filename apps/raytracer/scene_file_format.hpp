// What a scene file the program writes carries beyond the scene (docs/raytracer.md, "Scene
// files"): its format version and a checksum of the rest, so that a damaged one is refused.
// Scene files written by hand may leave both out: every field is checked as it is read.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace raytracer {

constexpr int kSceneFileVersion = 1;

// clf::checksum64 (hex) of the file's fields but "checksum", keys sorted, without spaces: the
// same whatever the layout or order of the fields in the file.
std::string scene_file_checksum(const nlohmann::json& root);

}  // namespace raytracer

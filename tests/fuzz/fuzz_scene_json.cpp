// Scene JSON as `cl-raytracer render --scene FILE` reads it.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "apps/raytracer/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    raytracer::parse_scene_json(std::string(reinterpret_cast<const char*>(data), size),
                                "fuzz.json");
  } catch (const std::exception&) {
  }
  return 0;
}

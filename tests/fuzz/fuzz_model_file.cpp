// Model files as `cl-raytracer render --scene FILE` will read them: the first byte picks the
// format (.glb, .gltf or .obj), the rest is the file, written to a scratch folder so that the
// loaders (tinygltf, tinyobjloader) read it as they read a user's file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "apps/raytracer/model/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kExtensions[] = {".glb", ".gltf", ".obj"};
  static const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("clf-fuzz-model-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::filesystem::path file = folder / (std::string("model") + kExtensions[data[0] % 3]);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    raytracer::model::load_model(file.string());
  } catch (const std::exception&) {
  }
  return 0;
}

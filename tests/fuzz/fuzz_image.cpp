// Image bytes as a glTF image or an OBJ texture file hands them to the decoder: PNG (libpng's
// low-level reader over memory, with its longjmp error path) or JPEG (libjpeg-turbo).
#include <cstddef>
#include <cstdint>
#include <exception>

#include "apps/raytracer/model/image_decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    raytracer::model::decode_image(data, size, "fuzz");
  } catch (const std::exception&) {
  }
  return 0;
}

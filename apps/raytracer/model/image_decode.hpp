// PNG and JPEG images decoded to RGBA8 with libpng and libjpeg-turbo, both hardened by continuous
// fuzzing upstream; one path for OBJ's texture files and glTF's images (tinygltf's own loader is
// replaced). Values stay as stored: no gamma or colour-space conversion (glTF ignores PNG's gAMA,
// sRGB and iCCP chunks; 16-bit channels are scaled to 8). A damaged or oversized image is refused
// with a message naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace raytracer::model {

struct DecodedImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4 bytes, rows top to bottom
};

// The largest image accepted, in pixels (a 16384 x 16384 texture).
constexpr std::uint64_t kMaxImagePixels = 1ull << 28;

// Throws clf::Error naming `name` and the reason: not a PNG or JPEG, damaged, or too large.
DecodedImage decode_image(const std::uint8_t* bytes, std::size_t size, const std::string& name);

}  // namespace raytracer::model

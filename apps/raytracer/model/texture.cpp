// Texture decoding and conversion to RGBA8.
#include "apps/raytracer/model/texture.hpp"

#include <fstream>
#include <iterator>
#include <vector>

#include "apps/raytracer/model/image_decode.hpp"
#include "framework/error.hpp"

namespace raytracer::model {

Texture decode_texture_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw clf::Error("cannot read texture '" + path + "': cannot open the file");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const DecodedImage image = decode_image(bytes.data(), bytes.size(), path);
  return texture_from_pixels(path, image.width, image.height, 4, 8, image.rgba.data());
}

Texture texture_from_pixels(std::string name, int width, int height, int components,
                            int bits_per_channel, const std::uint8_t* pixels) {
  if (width <= 0 || height <= 0 || components < 1 || components > 4 ||
      (bits_per_channel != 8 && bits_per_channel != 16)) {
    throw clf::Error("texture '" + name + "': unsupported image (" + std::to_string(width) + "x" +
                     std::to_string(height) + ", " + std::to_string(components) + " channels of " +
                     std::to_string(bits_per_channel) + " bits)");
  }
  Texture t;
  t.name = std::move(name);
  t.width = width;
  t.height = height;
  const std::size_t count = static_cast<std::size_t>(width) * height;
  t.rgba.resize(count * 4);
  const int bytes = bits_per_channel / 8;
  // 16-bit channels keep their high byte (tinygltf gives them as native little-endian words).
  auto channel = [&](std::size_t texel, int c) {
    return pixels[(texel * components + c) * bytes + (bytes - 1)];
  };
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t* out = &t.rgba[i * 4];
    const bool grey = components < 3;
    out[0] = channel(i, 0);
    out[1] = grey ? out[0] : channel(i, 1);
    out[2] = grey ? out[0] : channel(i, 2);
    out[3] = components == 2 ? channel(i, 1) : components == 4 ? channel(i, 3) : 255;
  }
  return t;
}

}  // namespace raytracer::model

// Textures as RGBA8: decoded from PNG/JPEG files (OBJ's map_Kd), or converted from the pixels
// tinygltf has decoded (through decode_image too: read_gltf installs it as tinygltf's loader).
#pragma once

#include <cstdint>
#include <string>

#include "apps/raytracer/model/model.hpp"

namespace raytracer::model {

// Throws clf::Error naming the file and the reason (it cannot be opened, is damaged, ...).
Texture decode_texture_file(const std::string& path);

// `components` channels (1: grey, 2: grey+alpha, 3: rgb, 4: rgba) of 8 or 16 bits each.
Texture texture_from_pixels(std::string name, int width, int height, int components,
                            int bits_per_channel, const std::uint8_t* pixels);

}  // namespace raytracer::model

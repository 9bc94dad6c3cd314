// Textures as RGBA8: decoded from PNG/JPEG files (OBJ's map_Kd) with stb_image, or converted
// from the pixels tinygltf has already decoded.
#pragma once

#include <cstdint>
#include <string>

#include "apps/raytracer/model/model.hpp"

namespace raytracer::model {

// Throws clf::Error naming the file and stb_image's reason (e.g. it cannot be opened).
Texture decode_texture_file(const std::string& path);

// `components` channels (1: grey, 2: grey+alpha, 3: rgb, 4: rgba) of 8 or 16 bits each.
Texture texture_from_pixels(std::string name, int width, int height, int components,
                            int bits_per_channel, const std::uint8_t* pixels);

}  // namespace raytracer::model

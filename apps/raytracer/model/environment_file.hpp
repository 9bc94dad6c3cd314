// Environment images from files: Radiance .hdr (RGBE) as the radiance it stores; other formats
// stb_image reads (PNG, JPEG, ...) as 8-bit sRGB colours decoded to linear.
#pragma once

#include <cstdint>
#include <string>

#include "apps/raytracer/scene.hpp"

namespace raytracer::model {

// 8192 x 8192: a 16 K panorama's worth (1 GiB of texels on the host and on each device).
constexpr std::uint64_t kMaxEnvironmentPixels = 1ull << 26;

// clf::Error naming the file and what is wrong where it cannot be read, is empty, larger than
// kMaxEnvironmentPixels or holds values that are not finite and non-negative.
EnvironmentImage read_environment_image(const std::string& path);

}  // namespace raytracer::model

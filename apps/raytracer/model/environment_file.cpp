#include "apps/raytracer/model/environment_file.hpp"

#include <stb_image.h>

#include <cmath>
#include <memory>

#include "framework/error.hpp"

namespace raytracer::model {

EnvironmentImage read_environment_image(const std::string& path) {
  int width = 0;
  int height = 0;
  int channels = 0;
  // stb_image gives an .hdr file's radiance as it is, and other images' 8-bit colours decoded
  // from sRGB (gamma 2.2, its default for them).
  std::unique_ptr<float, void (*)(void*)> pixels(
      stbi_loadf(path.c_str(), &width, &height, &channels, 3), stbi_image_free);
  if (!pixels) {
    throw clf::Error(path + ": cannot read it as an image (" + stbi_failure_reason() + ")");
  }
  const auto count = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
  if (width < 1 || height < 1 || count > kMaxEnvironmentPixels) {
    throw clf::Error(path + ": " + std::to_string(width) + "x" + std::to_string(height) +
                     " pixels is empty or larger than " + std::to_string(kMaxEnvironmentPixels) +
                     " pixels");
  }
  std::vector<cl_float4> radiance(count);
  const float* p = pixels.get();
  for (std::uint64_t i = 0; i < count; ++i, p += 3) {
    for (int c = 0; c < 3; ++c) {
      if (!(std::isfinite(p[c]) && p[c] >= 0)) {
        throw clf::Error(path + ": pixel (" + std::to_string(i % width) + ", " +
                         std::to_string(i / width) + ") holds " + std::to_string(p[c]) +
                         " (radiance must be finite and not negative)");
      }
    }
    radiance[i] = rt_vec(p[0], p[1], p[2]);
  }
  return EnvironmentImage(width, height, std::move(radiance));
}

}  // namespace raytracer::model

#include "apps/raytracer/png.hpp"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "framework/error.hpp"

namespace raytracer {

void write_png(const std::string& path, int width, int height, const std::vector<cl_uint>& rgba) {
  if (rgba.size() != static_cast<std::size_t>(width) * height) {
    throw clf::Error(path + ": image has " + std::to_string(rgba.size()) + " pixels, not " +
                     std::to_string(width) + "x" + std::to_string(height));
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ignored;
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw clf::Error(path + ": cannot write: " + std::strerror(errno));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    throw clf::Error(path + ": libpng failed to write the image");
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<unsigned char> row(static_cast<std::size_t>(width) * 4);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const cl_uint p = rgba[static_cast<std::size_t>(y) * width + x];
      for (int c = 0; c < 4; ++c) row[4 * x + c] = static_cast<unsigned char>(p >> (8 * c));
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fclose(file) != 0) throw clf::Error(path + ": cannot write: " + std::strerror(errno));
}

}  // namespace raytracer

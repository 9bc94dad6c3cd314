#include "apps/common/png_writer.hpp"

#include <png.h>

#include <string>

#include "framework/atomic_file.hpp"
#include "framework/error.hpp"

namespace app_common {

namespace {

void append_to_string(png_structp png, png_bytep data, png_size_t bytes) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), bytes);
}

void no_flush(png_structp) {}

}  // namespace

void write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    throw clf::Error(path + ": " + std::to_string(rgba.size()) + " bytes are not a " +
                     std::to_string(width) + "x" + std::to_string(height) + " RGBA image");
  }
  // Encoded in memory, then written atomically: a viewer never sees half an image.
  std::string encoded;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw clf::Error(path + ": libpng failed to encode the image");
  }
  png_set_write_fn(png, &encoded, append_to_string, no_flush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) {
    png_write_row(png,
                  const_cast<png_bytep>(rgba.data() + static_cast<std::size_t>(y) * width * 4));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  clf::write_file_atomically(path, encoded);
}

void write_png(const std::string& path, int width, int height, const cl_uint* rgba,
               std::size_t count) {
  std::vector<std::uint8_t> bytes(count * 4);
  for (std::size_t i = 0; i < count; ++i) {
    for (int c = 0; c < 4; ++c) bytes[4 * i + c] = static_cast<std::uint8_t>(rgba[i] >> (8 * c));
  }
  write_png(path, width, height, bytes);
}

void write_png(const std::string& path, int width, int height, const std::vector<cl_uint>& rgba) {
  write_png(path, width, height, rgba.data(), rgba.size());
}

}  // namespace app_common

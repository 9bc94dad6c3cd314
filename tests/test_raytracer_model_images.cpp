// Images as the models' textures come: PNGs of every depth and colour type decoded to RGBA8
// with the values they store (no gamma or colour-space conversion), damaged ones refused.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdint>
#include <string>
#include <vector>

#include "apps/raytracer/model/image_decode.hpp"
#include "test_support.hpp"

namespace {

using raytracer::model::decode_image;

// A one-row PNG of `row` (`bit_depth`-bit channels, as PNG stores them: big-endian), with a gAMA
// chunk of `gamma` where it is above 0.
std::string png_bytes(int width, int color_type, int bit_depth,
                      const std::vector<std::uint8_t>& row, double gamma) {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_set_write_fn(
      png, &out,
      [](png_structp p, png_bytep data, std::size_t length) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<char*>(data), length);
      },
      nullptr);
  png_set_IHDR(png, info, width, 1, bit_depth, color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (gamma > 0) png_set_gAMA(png, info, gamma);
  png_write_info(png, info);
  png_write_row(png, const_cast<png_bytep>(row.data()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

std::vector<std::uint8_t> decoded_rgba(const std::string& png) {
  return decode_image(reinterpret_cast<const std::uint8_t*>(png.data()), png.size(), "test.png")
      .rgba;
}

// glTF: "gamma ... information MUST be ignored", so a texel is what the file stores whatever its
// depth and chunks (libpng's simplified API turned a 16-bit (0.5, 0.5, 1) normal into (186, 186,
// 255), a flat normal tilted by 33 degrees, and so an 8-bit one tagged gAMA 1.0).
TEST(RaytracerImages, KeepTheirStoredValues) {
  const std::vector<std::uint8_t> flat_normal = {128, 128, 255, 255};
  EXPECT_EQ(
      decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 16, {0x80, 0x00, 0x80, 0x00, 0xFF, 0xFF}, 0)),
      flat_normal);
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 8, {128, 128, 255}, 1.0)), flat_normal);
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_RGB, 8, {128, 128, 255}, 0)), flat_normal);
  // Grey with alpha, 16 bits: expanded to RGBA, alpha kept.
  EXPECT_EQ(decoded_rgba(png_bytes(1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, {0x40, 0x00, 0x80, 0x00}, 0)),
            (std::vector<std::uint8_t>{64, 64, 64, 128}));
  // Truncated: refused, naming the image.
  const std::string png = png_bytes(2, PNG_COLOR_TYPE_RGB, 8, {1, 2, 3, 4, 5, 6}, 0);
  EXPECT_CLF_ERROR(
      decode_image(reinterpret_cast<const std::uint8_t*>(png.data()), png.size() / 2, "half.png"),
      "half.png");
}

}  // namespace

#include "apps/raytracer/model/image_decode.hpp"

#include <png.h>
#include <turbojpeg.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "framework/error.hpp"

namespace raytracer::model {

namespace {

void check_size(const std::string& name, std::uint64_t width, std::uint64_t height) {
  if (width == 0 || height == 0 || width * height > kMaxImagePixels) {
    throw clf::Error("image '" + name + "': " + std::to_string(width) + "x" +
                     std::to_string(height) + " pixels is empty or larger than " +
                     std::to_string(kMaxImagePixels) + " pixels");
  }
}

// libpng's low-level reader over bytes in memory. Errors longjmp back to read_png with the
// message kept here (the simplified API cannot leave the stored values alone: it converts 16-bit
// and gAMA-tagged images to sRGB, which glTF forbids: "gamma ... information MUST be ignored").
struct PngSource {
  const std::uint8_t* bytes;
  std::size_t size;
  std::size_t offset;
  std::uint64_t width, height;  // as the header says, for the message on a size refused
  char error[256];
};

void read_png_bytes(png_structp png, png_bytep out, std::size_t length) {
  auto* source = static_cast<PngSource*>(png_get_io_ptr(png));
  if (length > source->size - source->offset) png_error(png, "the file ends early");
  std::memcpy(out, source->bytes + source->offset, length);
  source->offset += length;
}

[[noreturn]] void png_failed(png_structp png, png_const_charp message) {
  auto* source = static_cast<PngSource*>(png_get_error_ptr(png));
  std::snprintf(source->error, sizeof source->error, "%s", message);
  png_longjmp(png, 1);
}

void png_warned(png_structp /*png*/, png_const_charp /*message*/) {}

// The image as 8-bit RGBA with the values as stored (palettes and grey expanded, 16 bits scaled
// to 8, opaque alpha added), into `image` and `rows` (the caller's, so that nothing this frame
// owns is skipped by a longjmp); false with source.error set where libpng fails or the image is
// too large.
bool read_png(PngSource& source, DecodedImage& image, std::vector<png_bytep>& rows) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, png_failed, png_warned);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    std::snprintf(source.error, sizeof source.error, "out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &source, read_png_bytes);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  source.width = width;
  source.height = height;
  if (width == 0 || height == 0 || std::uint64_t{width} * height > kMaxImagePixels) {
    png_error(png, "size refused");
  }
  png_set_expand(png);
  png_set_scale_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != std::size_t{4} * width) png_error(png, "unexpected layout");
  image.width = static_cast<int>(width);
  image.height = static_cast<int>(height);
  image.rgba.resize(std::size_t{4} * width * height);
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = image.rgba.data() + std::size_t{4} * width * y;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

DecodedImage decode_png(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
  PngSource source{bytes, size, 0, 0, 0, {}};
  DecodedImage image;
  std::vector<png_bytep> rows;
  if (!read_png(source, image, rows)) {
    if (std::strcmp(source.error, "size refused") == 0)
      check_size(name, source.width, source.height);
    throw clf::Error("image '" + name + "': not a PNG libpng reads, or damaged (" + source.error +
                     ")");
  }
  return image;
}

DecodedImage decode_jpeg(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
  const std::unique_ptr<void, int (*)(tjhandle)> decoder(tjInitDecompress(), tjDestroy);
  if (!decoder) throw clf::Error("image '" + name + "': cannot start the JPEG decoder");
  const auto fail = [&](const char* what) {
    return clf::Error("image '" + name + "': " + what + " (" + tjGetErrorStr2(decoder.get()) + ")");
  };
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(decoder.get(), bytes, static_cast<unsigned long>(size), &width, &height,
                          &subsampling, &colorspace) != 0) {
    throw fail("not a JPEG libjpeg-turbo reads");
  }
  check_size(name, static_cast<std::uint64_t>(width), static_cast<std::uint64_t>(height));
  DecodedImage decoded;
  decoded.width = width;
  decoded.height = height;
  decoded.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  // A warning (a truncated or corrupt stream decoded as far as it goes) is refused as well.
  if (tjDecompress2(decoder.get(), bytes, static_cast<unsigned long>(size), decoded.rgba.data(),
                    width, 0, height, TJPF_RGBA, TJFLAG_ACCURATEDCT) != 0) {
    throw fail("damaged JPEG");
  }
  return decoded;
}

}  // namespace

DecodedImage decode_image(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
  static const std::uint8_t kPng[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  static const std::uint8_t kJpeg[] = {0xff, 0xd8, 0xff};
  if (size >= sizeof kPng && std::memcmp(bytes, kPng, sizeof kPng) == 0) {
    return decode_png(bytes, size, name);
  }
  if (size >= sizeof kJpeg && std::memcmp(bytes, kJpeg, sizeof kJpeg) == 0) {
    return decode_jpeg(bytes, size, name);
  }
  throw clf::Error("image '" + name + "': neither PNG nor JPEG (" + std::to_string(size) +
                   " bytes)");
}

}  // namespace raytracer::model

#include "apps/raytracer/model/image_decode.hpp"

#include <png.h>
#include <turbojpeg.h>

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

DecodedImage decode_png(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, bytes, size) == 0) {
    throw clf::Error("image '" + name + "': not a PNG libpng reads (" + image.message + ")");
  }
  try {
    check_size(name, image.width, image.height);
  } catch (...) {
    png_image_free(&image);
    throw;
  }
  image.format = PNG_FORMAT_RGBA;
  DecodedImage decoded;
  decoded.width = static_cast<int>(image.width);
  decoded.height = static_cast<int>(image.height);
  decoded.rgba.resize(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, decoded.rgba.data(), 0, nullptr) == 0) {
    const std::string reason = image.message;
    png_image_free(&image);
    throw clf::Error("image '" + name + "': damaged PNG (" + reason + ")");
  }
  return decoded;
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

// PNG output for the apps' headless renders (libpng).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shared/cl_types.h"

namespace app_common {

// Writes 8-bit RGBA pixels, 4 bytes per pixel in R, G, B, A order, as a PNG, atomically
// (clf::write_file_atomically); creates the parent directory. Throws clf::Error naming the file on
// failure or on a size that does not match.
void write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba);
// The same for `count` pixels packed into one cl_uint each, R in the low byte (as kernels write
// them).
void write_png(const std::string& path, int width, int height, const cl_uint* rgba,
               std::size_t count);
void write_png(const std::string& path, int width, int height, const std::vector<cl_uint>& rgba);

}  // namespace app_common

// PNG output (libpng).
#pragma once

#include <string>
#include <vector>

#include "shared/cl_types.h"

namespace raytracer {

// Writes RGBA pixels (R in the low byte of each cl_uint) as an 8-bit RGBA PNG; creates the
// parent directory. Throws clf::Error naming the file on failure.
void write_png(const std::string& path, int width, int height, const std::vector<cl_uint>& rgba);

}  // namespace raytracer

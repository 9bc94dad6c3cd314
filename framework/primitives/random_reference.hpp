// CPU references for framework/primitives/random.hpp: the same generators (shared/random.h,
// compiled for the host) drawn sequentially, number after number, with no skip-ahead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shared/cl_types.h"

namespace clf::primitives {

// The first n numbers of stream `stream` of `generator` under `seed`. Throws Error for an
// unknown generator.
std::vector<cl_uint> random_uint_reference(std::size_t n, std::uint64_t seed,
                                           const std::string& generator = "philox",
                                           std::uint64_t stream = 0);
// The same numbers as floats on [0, 1).
std::vector<cl_float> random_float_reference(std::size_t n, std::uint64_t seed,
                                             const std::string& generator = "philox",
                                             std::uint64_t stream = 0);

}  // namespace clf::primitives

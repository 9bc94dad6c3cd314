// Small pieces every benchmark case needs: wall-clock milliseconds, reproducible inputs and
// the usual power-of-two size lists.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "framework/stopwatch.hpp"

namespace bench {

using clf::milliseconds_since;

// splitmix64: a reproducible pseudo-random 64-bit value per (seed, index), so inputs depend on
// --seed alone and any element can be made without making the ones before it.
inline std::uint64_t input_bits(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + index + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// What a case's output buffer holds before its first run: a value no right result has in
// practice (NaN for floats), so that a kernel skipping elements cannot pass on what an earlier
// case or size left in reused memory.
template <typename T>
std::vector<T> stale_output(std::size_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::vector<T>(n, std::numeric_limits<T>::quiet_NaN());
  } else {
    return std::vector<T>(n, static_cast<T>(0xDEADBEEFu));
  }
}

// The dtype name cl-bench shows for a 32-bit element type: "int32", "uint32" or "float32".
template <typename T>
constexpr const char* dtype_name() {
  static_assert(sizeof(T) == 4, "cl-bench's dtypes are 32-bit");
  if constexpr (std::is_floating_point_v<T>) {
    return "float32";
  } else if constexpr (std::is_signed_v<T>) {
    return "int32";
  } else {
    return "uint32";
  }
}

// 2^first, 2^(first+step), ... up to 2^last.
inline std::vector<std::size_t> powers_of_two(int first, int last, int step = 1) {
  std::vector<std::size_t> sizes;
  for (int exponent = first; exponent <= last; exponent += step) {
    sizes.push_back(std::size_t{1} << exponent);
  }
  return sizes;
}

}  // namespace bench

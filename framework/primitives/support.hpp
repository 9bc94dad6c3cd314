// Small helpers every primitive's host code uses.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "framework/error.hpp"

namespace clf::primitives {

// a / b rounded up (b > 0).
constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// The smallest power of two >= n (1 for n = 0).
constexpr std::size_t next_power_of_two(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// The error for a variant name `primitive` does not know: "<primitive>: unknown variant 'x'
// (known: a, b, c)".
inline Error unknown_variant(const std::string& primitive, const std::string& name,
                             const std::vector<std::string>& known) {
  return Error(primitive + ": unknown variant '" + name + "' (known: " + join(known) + ")");
}

}  // namespace clf::primitives

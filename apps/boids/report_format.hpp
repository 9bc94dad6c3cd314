// Small helpers the headless commands share for timing and printing figures.
#pragma once

#include <chrono>
#include <iomanip>
#include <sstream>
#include <string>

#include "framework/stopwatch.hpp"

namespace boids {

using Clock = std::chrono::steady_clock;

using clf::seconds_since;

// `value` with `digits` digits after the point.
inline std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

}  // namespace boids

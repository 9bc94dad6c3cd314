// Small text and time helpers the cl-bench harness files share (internal to the harness).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "framework/error.hpp"

namespace bench {

using clf::join;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(text);
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

inline bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

inline bool selects_all(const std::vector<std::string>& names) {
  return names.empty() || contains(names, "all");
}

// A figure with about four significant digits and no exponent.
inline std::string figure(double value) {
  if (std::isnan(value)) return "-";
  char text[64];
  const double magnitude = std::fabs(value);
  const int decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3;
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

inline std::string milliseconds(double ms) {
  if (std::isnan(ms)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, ms >= 100 ? "%.1f" : ms >= 1 ? "%.3f" : "%.4f", ms);
  return text;
}

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace bench

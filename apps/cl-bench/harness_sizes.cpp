// Size lists ("2^20", "16Mi", "2^10..2^20") and the statistics of a run.
#include "apps/cl-bench/harness.hpp"

#include <cmath>
#include <map>
#include <regex>

#include "apps/cl-bench/harness_helpers.hpp"

namespace bench {

namespace {

// Sizes above this are surely typos (2^48 elements); it also keeps the arithmetic exact.
constexpr long double kLargestSize = 281474976710656.0L;

[[noreturn]] void bad_size(const std::string& text, const std::string& why = "") {
  throw UsageError("'" + text + "' is not a size" + (why.empty() ? "" : " (" + why + ")") +
                   "; use forms like 1000, 1e6, 2^20, 1M, 16Mi, or a range 2^10..2^20");
}

}  // namespace

std::size_t parse_size(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) bad_size(raw, "empty");
  long double value = 0;
  static const std::regex power(R"(^(\d+)\^(\d+)$)");
  static const std::regex number(R"(^(\d*\.?\d+(?:[eE][+]?\d+)?)(k|K|M|G|T|Ki|Mi|Gi|Ti)?$)");
  std::smatch match;
  if (std::regex_match(text, match, power)) {
    const long double base = std::stold(match[1].str());
    const long double exponent = std::stold(match[2].str());
    if (exponent > 64) bad_size(raw, "too large");
    value = std::pow(base, exponent);
  } else if (std::regex_match(text, match, number)) {
    value = std::stold(match[1].str());
    static const std::map<std::string, long double> multipliers = {
        {"", 1},
        {"k", 1e3},
        {"K", 1e3},
        {"M", 1e6},
        {"G", 1e9},
        {"T", 1e12},
        {"Ki", 1024.0L},
        {"Mi", 1024.0L * 1024},
        {"Gi", 1024.0L * 1024 * 1024},
        {"Ti", 1024.0L * 1024 * 1024 * 1024}};
    value *= multipliers.at(match[2].str());
  } else {
    bad_size(raw);
  }
  if (value > kLargestSize) bad_size(raw, "larger than 2^48");
  const long double whole = std::round(value);
  if (std::fabs(value - whole) > 1e-6L) bad_size(raw, "not a whole number");
  return static_cast<std::size_t>(whole);
}

std::vector<std::size_t> parse_sizes(const std::string& list) {
  std::vector<std::size_t> sizes;
  for (const std::string& item : split(list, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      sizes.push_back(parse_size(item));
      continue;
    }
    const std::size_t first = parse_size(item.substr(0, dots));
    const std::size_t last = parse_size(item.substr(dots + 2));
    if (first == 0 || last < first) {
      throw UsageError("'" + trim(item) +
                       "' is not a range; A..B needs 0 < A <= B and gives A, 2A, 4A, ... <= B");
    }
    for (std::size_t n = first; n <= last; n *= 2) sizes.push_back(n);
  }
  if (sizes.empty()) throw UsageError("the size list is empty");
  return sizes;
}

std::string format_size(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int exponent = 0;
    while ((std::size_t{1} << exponent) != n) ++exponent;
    return "2^" + std::to_string(exponent);
  }
  return std::to_string(n);
}

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

double minimum(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("minimum of no values");
  return *std::min_element(values.begin(), values.end());
}

}  // namespace bench

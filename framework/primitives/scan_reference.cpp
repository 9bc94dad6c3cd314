#include "framework/primitives/scan_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace clf::primitives {

namespace {

// Sequential scan with Acc as the accumulator type and Out as the result type.
template <typename Acc, typename Out, typename In>
std::vector<Out> sequential_scan(const std::vector<In>& input, ScanType type) {
  std::vector<Out> result(input.size());
  Acc running = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const Acc next = running + static_cast<Acc>(input[i]);
    result[i] = static_cast<Out>(type == ScanType::inclusive ? next : running);
    running = next;
  }
  return result;
}

template <typename T>
std::string check_exact(const std::vector<T>& input, const std::vector<T>& result, ScanType type) {
  if (result.size() != input.size()) {
    return "result has " + std::to_string(result.size()) + " elements, expected " +
           std::to_string(input.size());
  }
  const std::vector<T> expected = scan_reference(input, type);
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (result[i] != expected[i] && wrong++ == 0) first = i;
  }
  if (wrong == 0) return "";
  std::ostringstream out;
  out << to_string(type) << " scan of " << input.size() << " elements: " << wrong
      << " wrong, the first at " << first << " (" << result[first] << ", expected "
      << expected[first] << ")";
  return out.str();
}

}  // namespace

const char* to_string(ScanType type) {
  return type == ScanType::inclusive ? "inclusive" : "exclusive";
}

std::vector<std::int32_t> scan_reference(const std::vector<std::int32_t>& input, ScanType type) {
  return sequential_scan<std::uint32_t, std::int32_t>(input, type);
}

std::vector<std::uint32_t> scan_reference(const std::vector<std::uint32_t>& input, ScanType type) {
  return sequential_scan<std::uint32_t, std::uint32_t>(input, type);
}

std::vector<double> scan_reference(const std::vector<float>& input, ScanType type) {
  return sequential_scan<double, double>(input, type);
}

bool float_scan_is_exact(const std::vector<float>& input) {
  // The partial sums a scan forms run over contiguous ranges, differences of two prefixes: where
  // all prefixes of integer values lie within 2^24 of each other, each such sum is an integer a
  // float holds exactly, whatever the order of the additions. (The chunks variant's 8-lane totals
  // sum strided parts of a chunk; random integers keep those far below 2^24 too.)
  double prefix = 0.0, lowest = 0.0, highest = 0.0;
  for (const float value : input) {
    if (value != std::nearbyint(value)) return false;  // NaN and infinities too
    prefix += static_cast<double>(value);
    lowest = std::min(lowest, prefix);
    highest = std::max(highest, prefix);
  }
  return highest - lowest < 16777216.0;
}

double float_scan_tolerance(std::size_t n) {
  const double unit_roundoff = std::ldexp(1.0, -24);
  const double log2n = n > 1 ? std::ceil(std::log2(static_cast<double>(n))) : 0.0;
  const double depth = 2.0 * log2n + 32.0 + std::ceil(static_cast<double>(n) / 1024.0);
  return depth * unit_roundoff;
}

std::string check_scan(const std::vector<std::int32_t>& input,
                       const std::vector<std::int32_t>& result, ScanType type) {
  return check_exact(input, result, type);
}

std::string check_scan(const std::vector<std::uint32_t>& input,
                       const std::vector<std::uint32_t>& result, ScanType type) {
  return check_exact(input, result, type);
}

std::string check_scan(const std::vector<float>& input, const std::vector<float>& result,
                       ScanType type) {
  if (result.size() != input.size()) {
    return "result has " + std::to_string(result.size()) + " elements, expected " +
           std::to_string(input.size());
  }
  const std::vector<double> expected = scan_reference(input, type);
  if (float_scan_is_exact(input)) {
    std::size_t wrong = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!(static_cast<double>(result[i]) == expected[i]) && wrong++ == 0) first = i;
    }
    if (wrong == 0) return "";
    std::ostringstream out;
    out.precision(9);
    out << to_string(type) << " float scan of " << input.size() << " integer values: " << wrong
        << " wrong (every sum is exact), the first at " << first << " (" << result[first]
        << ", expected " << expected[first] << ")";
    return out.str();
  }
  const double tolerance = float_scan_tolerance(input.size());
  double magnitudes = 0.0;  // S_i, over the elements the scan at i includes
  std::size_t wrong = 0;
  std::size_t first = 0;
  double first_bound = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (type == ScanType::inclusive) magnitudes += std::fabs(static_cast<double>(input[i]));
    const double bound = tolerance * magnitudes;
    const double got = static_cast<double>(result[i]);
    // Past an infinity or NaN the sum must be that infinity or NaN (the bound is infinite there);
    // otherwise within the bound, !(a <= b) also catching a NaN result.
    const bool right = std::isfinite(expected[i])
                           ? std::fabs(got - expected[i]) <= bound
                           : got == expected[i] || (std::isnan(got) && std::isnan(expected[i]));
    if (!right && wrong++ == 0) {
      first = i;
      first_bound = bound;
    }
    if (type == ScanType::exclusive) magnitudes += std::fabs(static_cast<double>(input[i]));
  }
  if (wrong == 0) return "";
  std::ostringstream out;
  out.precision(9);
  out << to_string(type) << " float scan of " << input.size() << " elements: " << wrong
      << " outside the tolerance, the first at " << first << " (" << result[first] << ", expected "
      << expected[first] << " +- " << first_bound << ")";
  return out.str();
}

const char* to_string(Comparison comparison) {
  switch (comparison) {
    case Comparison::nonzero:
      return "nonzero";
    case Comparison::equal:
      return "equal";
    case Comparison::not_equal:
      return "not-equal";
    case Comparison::less:
      return "less";
    case Comparison::less_equal:
      return "less-equal";
    case Comparison::greater:
      return "greater";
    case Comparison::greater_equal:
      return "greater-equal";
  }
  return "?";
}

template <typename T>
bool Predicate<T>::operator()(T x) const {
  switch (comparison) {
    case Comparison::nonzero:
      return x != T{};
    case Comparison::equal:
      return x == value;
    case Comparison::not_equal:
      return x != value;
    case Comparison::less:
      return x < value;
    case Comparison::less_equal:
      return x <= value;
    case Comparison::greater:
      return x > value;
    case Comparison::greater_equal:
      return x >= value;
  }
  return false;
}

template <typename T>
std::string Predicate<T>::to_string() const {
  if (comparison == Comparison::nonzero) return "nonzero";
  std::ostringstream out;
  out << primitives::to_string(comparison) << " " << value;
  return out.str();
}

template <typename T>
std::vector<T> compact_reference(const std::vector<T>& input, const Predicate<T>& predicate) {
  std::vector<T> result;
  for (const T x : input) {
    if (predicate(x)) result.push_back(x);
  }
  return result;
}

template <typename T>
std::vector<std::uint32_t> compact_indices_reference(const std::vector<T>& input,
                                                     const Predicate<T>& predicate) {
  std::vector<std::uint32_t> result;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (predicate(input[i])) result.push_back(static_cast<std::uint32_t>(i));
  }
  return result;
}

#define CLF_INSTANTIATE_COMPACT_REFERENCE(T)                                             \
  template struct Predicate<T>;                                                          \
  template std::vector<T> compact_reference(const std::vector<T>&, const Predicate<T>&); \
  template std::vector<std::uint32_t> compact_indices_reference(const std::vector<T>&,   \
                                                                const Predicate<T>&);
CLF_INSTANTIATE_COMPACT_REFERENCE(std::int32_t)
CLF_INSTANTIATE_COMPACT_REFERENCE(std::uint32_t)
CLF_INSTANTIATE_COMPACT_REFERENCE(float)
#undef CLF_INSTANTIATE_COMPACT_REFERENCE

}  // namespace clf::primitives

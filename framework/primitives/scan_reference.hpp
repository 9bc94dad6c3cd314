// CPU references for scan and stream compaction, and the checks tests and benchmarks use to
// compare a device result with them. Plain C++, no OpenCL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clf::primitives {

enum class ScanType { inclusive, exclusive };
const char* to_string(ScanType type);

// Sequential scan (Gruber's scanCPU). Integers wrap modulo 2^32 like the device's adds.
std::vector<std::int32_t> scan_reference(const std::vector<std::int32_t>& input, ScanType type);
std::vector<std::uint32_t> scan_reference(const std::vector<std::uint32_t>& input, ScanType type);
// Floats are summed in double, so the reference carries no rounding error of its own.
std::vector<double> scan_reference(const std::vector<float>& input, ScanType type);

// The bound the float check allows, as a multiple of the running sum of magnitudes
// S_i = |x_0| + ... + |x_i|: a float sum whose longest chain of dependent additions has d steps
// is off by at most about d * u * S_i (u = 2^-24, the unit roundoff). The device variants add in
// other orders than the CPU: trees inside a tile (depth < 2 log2 n + 32 over the per-work-item
// runs) and one addition per earlier tile or block (at most n / 1024 of them: look-back chains,
// carries across tiles). So d(n) = 2 ceil(log2 n) + 32 + ceil(n / 1024), and the check allows
// |device_i - exact_i| <= d(n) * u * S_i. This is a worst case; random data stays far below it.
double float_scan_tolerance(std::size_t n);
// Whether any order of additions scans `input` exactly: integer values whose prefix sums all lie
// within 2^24 of each other (a scan's partial sums are contiguous ranges'; see the definition).
bool float_scan_is_exact(const std::vector<float>& input);

// Empty when `result` is the scan of `input`, else a description of the first mismatch and the
// number of wrong elements. Integers must match exactly; floats too where float_scan_is_exact,
// else within float_scan_tolerance.
std::string check_scan(const std::vector<std::int32_t>& input,
                       const std::vector<std::int32_t>& result, ScanType type);
std::string check_scan(const std::vector<std::uint32_t>& input,
                       const std::vector<std::uint32_t>& result, ScanType type);
std::string check_scan(const std::vector<float>& input, const std::vector<float>& result,
                       ScanType type);

// What stream compaction selects: x != 0, or x compared with a value.
enum class Comparison { nonzero, equal, not_equal, less, less_equal, greater, greater_equal };
const char* to_string(Comparison comparison);

template <typename T>
struct Predicate {
  Comparison comparison = Comparison::nonzero;
  T value{};

  static Predicate nonzero() { return {Comparison::nonzero, T{}}; }
  static Predicate equal(T v) { return {Comparison::equal, v}; }
  static Predicate not_equal(T v) { return {Comparison::not_equal, v}; }
  static Predicate less(T v) { return {Comparison::less, v}; }
  static Predicate less_equal(T v) { return {Comparison::less_equal, v}; }
  static Predicate greater(T v) { return {Comparison::greater, v}; }
  static Predicate greater_equal(T v) { return {Comparison::greater_equal, v}; }

  bool operator()(T x) const;
  std::string to_string() const;
};

// Sequential stream compaction: the selected elements in order, or their indices.
template <typename T>
std::vector<T> compact_reference(const std::vector<T>& input, const Predicate<T>& predicate);
template <typename T>
std::vector<std::uint32_t> compact_indices_reference(const std::vector<T>& input,
                                                     const Predicate<T>& predicate);

extern template struct Predicate<std::int32_t>;
extern template struct Predicate<std::uint32_t>;
extern template struct Predicate<float>;

}  // namespace clf::primitives

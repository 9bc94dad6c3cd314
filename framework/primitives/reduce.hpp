// Reductions over a device buffer: sum, min, max, argmin, argmax of int32, uint32 or float.
//
//   clf::DeviceBuffer<cl_int> values(runtime, n);  values.write(host_values);
//   cl_long total = clf::primitives::reduce_sum(values);            // exact, no wrap-around
//   auto [low, where] = clf::primitives::reduce_argmin(values);     // lowest index among ties
//
// Semantics (the CPU references in reduce_reference.hpp are the specification):
// - Integer sums are exact: int32 sums are returned as int64 and uint32 sums as uint64 (like
//   numpy's and CuPy's sum, which widen too); the kernels accumulate in 64 bits.
// - Float sums accumulate in float in a tree of partial sums, so they differ from a sequential
//   or double-precision sum by rounding (see float_sum_tolerance in reduce_reference.hpp).
// - Float min/max/argmin/argmax ignore NaN (like fmin/fmax); an all-NaN input gives NaN, index 0.
//   argmin/argmax return the lowest index among equal values, and -0 equals +0.
// - min, max, argmin and argmax of an empty buffer throw; the sum of one is 0.
// - At most 2^31 elements (indices are 32-bit).
// Variants (reduce_variants()): "default" (vector loads, grid sized to the device, two passes;
// on CPUs the tuning table's chunks), "chunks" (for CPUs: one contiguous chunk per one-item
// work-group, 8-wide vector loads, two passes), "two-pass" (scalar loads, fixed grid, two
// passes), "tree" (Kloosterman's pairwise tree, one launch per factor of 512).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/tuning.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

enum class ReduceOp { sum, min, max, argmin, argmax };

// "sum", "min", "max", "argmin", "argmax".
const std::vector<std::string>& reduce_op_names();
const char* to_string(ReduceOp op);
// Throws Error listing the known names when `name` is not one of them.
ReduceOp parse_reduce_op(const std::string& name);
// "default", "chunks", "two-pass", "tree".
const std::vector<std::string>& reduce_variants();
// The most elements one reduction takes.
constexpr std::size_t kReduceMaxElements = std::size_t{1} << 31;

// The type a sum of T is returned in: exact 64-bit for the integers, float for float.
template <typename T>
struct ReduceSumType;
template <>
struct ReduceSumType<cl_int> {
  using type = cl_long;
};
template <>
struct ReduceSumType<cl_uint> {
  using type = cl_ulong;
};
template <>
struct ReduceSumType<cl_float> {
  using type = cl_float;
};
template <typename T>
using SumType = typename ReduceSumType<T>::type;

// The winner of an argmin or argmax.
template <typename T>
struct Extremum {
  T value;
  cl_uint index;
};

// What a reduction produced; which fields are meaningful depends on the op.
template <typename T>
struct ReduceResult {
  SumType<T> sum{};   // sum
  T value{};          // min, max, argmin, argmax
  cl_uint index = 0;  // argmin, argmax
};

// One op and variant for T, built once and run many times on device-resident inputs (what
// cl-bench times). Not thread-safe.
template <typename T>
class Reducer {
 public:
  // Throws Error for an unknown variant. The config (what "default" runs, the chunks' grid)
  // defaults to the tuning table's for the device.
  Reducer(Runtime& runtime, ReduceOp op, const std::string& variant = "default");
  Reducer(Runtime& runtime, ReduceOp op, const std::string& variant, const ReduceConfig& config);
  ~Reducer();
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  ReduceOp op() const { return op_; }
  const std::string& variant() const { return variant_; }

  // Enqueues the reduction of `input`; the result stays on the device until result(). Throws
  // Error for an empty input to min/max/argmin/argmax, more than kReduceMaxElements elements
  // or a buffer of another runtime.
  void enqueue(const DeviceBuffer<T>& input);
  // Reads back the result of the last enqueue() (blocking). Throws Error if there was none.
  ReduceResult<T> result() const;
  // enqueue() then result().
  ReduceResult<T> operator()(const DeviceBuffer<T>& input) {
    enqueue(input);
    return result();
  }

 private:
  struct Impl;
  Runtime* runtime_;
  ReduceOp op_;
  std::string variant_;
  std::unique_ptr<Impl> impl_;
};

// One-shot helpers on the input's runtime (kernels come from the program cache after the first).
template <typename T>
SumType<T> reduce_sum(const DeviceBuffer<T>& input, const std::string& variant = "default");
template <typename T>
T reduce_min(const DeviceBuffer<T>& input, const std::string& variant = "default");
template <typename T>
T reduce_max(const DeviceBuffer<T>& input, const std::string& variant = "default");
template <typename T>
Extremum<T> reduce_argmin(const DeviceBuffer<T>& input, const std::string& variant = "default");
template <typename T>
Extremum<T> reduce_argmax(const DeviceBuffer<T>& input, const std::string& variant = "default");

}  // namespace clf::primitives

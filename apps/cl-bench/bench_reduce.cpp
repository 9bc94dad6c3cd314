// cl-bench cases for reductions: every op (sum, min, max, argmin, argmax) x type (int32, uint32,
// float32) x variant (framework/primitives/reduce.hpp). The op is part of the dtype column,
// e.g. "int32-sum", so `--variant default` selects the default variant of every op. Integer
// sums are exact 64-bit results; float sums of integer inputs are checked exactly.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "apps/cl-bench/peers.hpp"
#include "framework/clf.hpp"
#include "framework/primitives/reduce.hpp"
#include "framework/primitives/reduce_reference.hpp"

namespace bench {

namespace {

using clf::primitives::ReduceOp;

// Full-range integers (sums need all 64 bits), floats uniform on [-1, 1).
template <typename T>
T input_value(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t bits = input_bits(seed, index);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<float>(static_cast<std::uint32_t>(bits) >> 8) * (2.0f / 16777216.0f) - 1.0f;
  } else {
    return static_cast<T>(static_cast<std::uint32_t>(bits));
  }
}

// Float sums get -1, 0 and 1, at most about 2^22 non-zero (half the values below 2^23 of them),
// so that any order of additions is exact and the sum is checked exactly (float_sum_is_exact):
// a tolerance for real values would let a lost block of a large sum pass. The values change
// nothing a sum's speed depends on.
float float_sum_input_value(std::uint64_t seed, std::uint64_t index, std::size_t n) {
  const std::uint64_t bits = input_bits(seed, index);
  const double non_zero = std::min(0.5, 4194304.0 / static_cast<double>(n));
  if (static_cast<double>(static_cast<std::uint32_t>(bits)) >= non_zero * 4294967296.0) return 0;
  return (bits >> 32) & 1 ? 1.0f : -1.0f;
}

template <typename T>
class ReduceCase : public BenchCase {
 public:
  ReduceCase(ReduceOp op, std::string variant) : op_(op), variant_(std::move(variant)) {}

  std::string primitive() const override { return "reduce"; }
  std::string variant() const override { return variant_; }
  std::string dtype() const override {
    return std::string(dtype_name<T>()) + "-" + clf::primitives::to_string(op_);
  }
  std::string unit() const override { return "Gelem/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    if (quick) return {std::size_t{1} << 12, (std::size_t{1} << 16) + 3};
    return powers_of_two(10, 28, 2);
  }

  std::size_t max_size(const clf::Runtime& runtime) const override {
    const std::uint64_t by_allocation = runtime.device().max_allocation_bytes / sizeof(T);
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(by_allocation, clf::primitives::kReduceMaxElements));
  }

  std::string no_result_at(std::size_t n) const override {
    if (n > 0 || op_ == ReduceOp::sum) return "";
    return std::string("no ") + clf::primitives::to_string(op_) + " of an empty input";
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    if (runtime_ != &runtime) {
      reducer_.reset();  // kernels belong to the runtime they were built on
      if (!bench::peers::is_peer(variant_)) reducer_.emplace(runtime, op_, variant_);
      runtime_ = &runtime;
    }
    input_.resize(n);
    bool float_sum = false;
    if constexpr (std::is_floating_point_v<T>) float_sum = op_ == ReduceOp::sum;
    for (std::size_t i = 0; i < n; ++i) {
      input_[i] = float_sum ? float_sum_input_value(seed, i, n) : input_value<T>(seed, i);
    }
    const auto start = std::chrono::steady_clock::now();
    expected_ = clf::primitives::reduce_reference(input_, op_);
    const double cpu_ms = milliseconds_since(start);
    if constexpr (std::is_floating_point_v<T>) {
      if (float_sum) {
        expected_sum_ = clf::primitives::sum_in_double(input_);
        tolerance_ = clf::primitives::float_sum_is_exact(input_)
                         ? 0.0
                         : clf::primitives::float_sum_tolerance(input_);
      }
    }
    device_input_.reset();
    device_input_.emplace(runtime, n);
    return cpu_ms;
  }

  double upload() override {
    const auto start = std::chrono::steady_clock::now();
    if (!input_.empty()) device_input_->write(input_);
    return milliseconds_since(start);
  }

  void run() override {
    if (reducer_) {
      reducer_->enqueue(*device_input_);
    } else {
      peer_result_ = bench::peers::reduce(*runtime_, *device_input_, op_);
    }
  }

  double download() override {
    const auto start = std::chrono::steady_clock::now();
    result_ = reducer_ ? reducer_->result() : peer_result_;
    return milliseconds_since(start);
  }

  std::string verify() override {
    if (op_ == ReduceOp::sum) {
      if constexpr (std::is_floating_point_v<T>) {
        // Written so that a NaN sum fails too.
        if (!(std::fabs(result_.sum - expected_sum_) <= tolerance_)) {
          return "sum " + std::to_string(result_.sum) + ", expected " +
                 std::to_string(expected_sum_) +
                 (tolerance_ == 0 ? " exactly" : " within " + std::to_string(tolerance_));
        }
      } else if (!reducer_ && static_cast<T>(result_.sum) == static_cast<T>(expected_.sum)) {
        return "";  // Boost.Compute sums in T: right modulo 2^32
      } else if (result_.sum != expected_.sum) {
        return "sum " + std::to_string(result_.sum) + ", expected " + std::to_string(expected_.sum);
      }
      return "";
    }
    // Inputs have no NaN, so plain comparison is exact here.
    if (result_.value != expected_.value) {
      return "value " + std::to_string(result_.value) + ", expected " +
             std::to_string(expected_.value);
    }
    if ((op_ == ReduceOp::argmin || op_ == ReduceOp::argmax) && result_.index != expected_.index) {
      return "index " + std::to_string(result_.index) + ", expected " +
             std::to_string(expected_.index);
    }
    return "";
  }

  double work(std::size_t n) const override { return static_cast<double>(n); }
  double bytes_moved(std::size_t n) const override { return static_cast<double>(n) * sizeof(T); }

 private:
  ReduceOp op_;
  std::string variant_;
  clf::Runtime* runtime_ = nullptr;
  std::optional<clf::primitives::Reducer<T>> reducer_;
  std::vector<T> input_;
  std::optional<clf::DeviceBuffer<T>> device_input_;
  clf::primitives::ReduceResult<T> expected_, result_, peer_result_;
  double expected_sum_ = 0;
  double tolerance_ = 0;
};

template <typename T>
void add_cases(std::vector<std::unique_ptr<BenchCase>>& cases) {
  for (const std::string& op : clf::primitives::reduce_op_names()) {
    for (const std::string& variant : clf::primitives::reduce_variants()) {
      cases.push_back(
          std::make_unique<ReduceCase<T>>(clf::primitives::parse_reduce_op(op), variant));
    }
    if (peers::have_boost_compute()) {
      cases.push_back(std::make_unique<ReduceCase<T>>(clf::primitives::parse_reduce_op(op),
                                                      peers::kBoostCompute));
    }
  }
}

}  // namespace

CLF_BENCH_CASES("reduce", [] {
  std::vector<std::unique_ptr<BenchCase>> cases;
  add_cases<cl_int>(cases);
  add_cases<cl_uint>(cases);
  add_cases<cl_float>(cases);
  return cases;
});

}  // namespace bench

// cl-bench cases for scan (every variant over int32, uint32 and float32, inclusive, as
// torch.cumsum) and stream compaction (values greater than 0, and indices of nonzero flags).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "apps/cl-bench/peers.hpp"
#include "apps/cl-bench/tuning_knobs.hpp"
#include "framework/buffer.hpp"
#include "framework/primitives/compact.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/primitives/scan_reference.hpp"
#include "framework/stopwatch.hpp"

namespace {

using bench::dtype_name;
using bench::powers_of_two;
using clf::primitives::Predicate;
using clf::primitives::ScanType;

// Inputs from a seed, quickly (2^28 values): integers in [-100, 100], floats too, so that float
// scans of them are exact in any order of additions and checked exactly (float_scan_is_exact; a
// tolerance for real values would let a missing tile's total pass).
template <typename T>
std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
  std::vector<T> values(n);
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (std::size_t i = 0; i < n; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const auto bits = static_cast<std::uint32_t>(state >> 32);
    values[i] = static_cast<T>(static_cast<std::int32_t>(bits % 201) - 100);
  }
  return values;
}

template <typename Call>
double milliseconds(Call call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return clf::milliseconds_since(start);
}

// Largest n with `buffers` arrays of n elements of `bytes` each (a quarter of the device memory
// left for temporaries), within one allocation and the scan's 32-bit indices.
std::size_t fitting_size(const clf::Runtime& runtime, std::size_t bytes, std::size_t buffers) {
  const clf::DeviceInfo& device = runtime.device();
  const std::size_t by_memory = device.global_memory_bytes * 3 / 4 / (bytes * buffers);
  const std::size_t by_allocation = device.max_allocation_bytes / bytes;
  return std::min({by_memory, by_allocation, clf::primitives::kMaxScanElements});
}

template <typename T>
class ScanCase : public bench::BenchCase {
 public:
  explicit ScanCase(std::string variant) : variant_(std::move(variant)) {}

  std::string primitive() const override { return "scan"; }
  std::string variant() const override { return variant_; }
  std::string dtype() const override { return dtype_name<T>(); }
  std::string unit() const override { return "Gelem/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    return quick ? powers_of_two(10, 20, 5) : powers_of_two(16, 28, 2);
  }
  // 0 where the variant cannot run (lookback off NVIDIA GPUs).
  std::size_t max_size(const clf::Runtime& runtime) const override {
    if (variant_ == "lookback" && !clf::primitives::lookback_scan_runs_on(runtime.device())) {
      return 0;
    }
    // blelloch pads to a power of two; naive ping-pongs: count three arrays to be safe.
    return fitting_size(runtime, sizeof(T), 4);
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    runtime_ = &runtime;
    if (bench::peers::is_peer(variant_)) {
      // Boost.Compute's scan; its kernels build on the first run, before the timed ones.
    } else if (!scan_ || &scan_->runtime() != &runtime) {
      scan_ = std::make_unique<clf::primitives::Scan<T>>(
          runtime, variant_, bench::scan_config(runtime.device(), bench::environment_knobs()));
    }
    input_ = make_input<T>(n, seed);
    result_.clear();
    input_buffer_.reset();
    output_buffer_.reset();
    input_buffer_ = std::make_unique<clf::DeviceBuffer<T>>(runtime, n);
    output_buffer_ = std::make_unique<clf::DeviceBuffer<T>>(runtime, n);
    output_buffer_->write(bench::stale_output<T>(n));
    return milliseconds([&] { clf::primitives::scan_reference(input_, ScanType::inclusive); });
  }
  double upload() override {
    return milliseconds([&] { input_buffer_->write(input_); });
  }
  void run() override {
    if (!scan_) return bench::peers::inclusive_scan(*runtime_, *input_buffer_, *output_buffer_);
    scan_->run(*input_buffer_, *output_buffer_, ScanType::inclusive);
  }
  double download() override {
    return milliseconds([&] { result_ = output_buffer_->read(); });
  }
  std::string verify() override {
    return clf::primitives::check_scan(input_, result_, ScanType::inclusive);
  }
  double work(std::size_t n) const override { return static_cast<double>(n); }
  double bytes_moved(std::size_t n) const override { return 2.0 * sizeof(T) * n; }

 private:
  std::string variant_;
  clf::Runtime* runtime_ = nullptr;
  std::unique_ptr<clf::primitives::Scan<T>> scan_;  // none for a peer
  std::vector<T> input_;
  std::vector<T> result_;
  std::unique_ptr<clf::DeviceBuffer<T>> input_buffer_;
  std::unique_ptr<clf::DeviceBuffer<T>> output_buffer_;
};

// Compaction of values > 0 (about half of them), or indices of nonzero uint32 flags (variant
// "indices", three quarters nonzero).
template <typename T>
class CompactCase : public bench::BenchCase {
 public:
  // `peer`: Boost.Compute's copy_if of the values.
  explicit CompactCase(bool indices, bool peer = false) : indices_(indices), peer_(peer) {}

  std::string primitive() const override { return "compact"; }
  std::string variant() const override {
    return peer_ ? bench::peers::kBoostCompute : indices_ ? "indices" : "values";
  }
  std::string dtype() const override { return dtype_name<T>(); }
  std::string unit() const override { return "Gelem/s"; }
  std::vector<std::size_t> default_sizes(bool quick) const override {
    return quick ? powers_of_two(10, 20, 5) : powers_of_two(16, 28, 2);
  }
  std::size_t max_size(const clf::Runtime& runtime) const override {
    return fitting_size(runtime, sizeof(T), 2);
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    runtime_ = &runtime;
    if (!peer_ && (!compact_ || &compact_->runtime() != &runtime)) {
      compact_ = std::make_unique<clf::primitives::Compact<T>>(runtime);
      count_buffer_ = std::make_unique<clf::DeviceBuffer<std::uint32_t>>(runtime, 1);
    }
    input_ = make_input<T>(n, seed);
    if (indices_) {
      const std::vector<std::int32_t> values = make_input<std::int32_t>(n, seed);
      for (std::size_t i = 0; i < n; ++i) input_[i] = values[i] < -50 ? T(0) : T(1);
    }
    input_buffer_.reset();
    values_buffer_.reset();
    indices_buffer_.reset();
    input_buffer_ = std::make_unique<clf::DeviceBuffer<T>>(runtime, n);
    if (indices_) {
      indices_buffer_ = std::make_unique<clf::DeviceBuffer<std::uint32_t>>(runtime, n);
      indices_buffer_->write(bench::stale_output<std::uint32_t>(n));
    } else {
      values_buffer_ = std::make_unique<clf::DeviceBuffer<T>>(runtime, n);
      values_buffer_->write(bench::stale_output<T>(n));
    }
    const double reference_ms = milliseconds([&] {
      if (indices_) {
        expected_indices_ = clf::primitives::compact_indices_reference(input_, predicate());
      } else {
        expected_values_ = clf::primitives::compact_reference(input_, predicate());
      }
    });
    const std::size_t kept = indices_ ? expected_indices_.size() : expected_values_.size();
    kept_fraction_ = n == 0 ? 0.0 : static_cast<double>(kept) / static_cast<double>(n);
    return reference_ms;
  }
  double upload() override {
    return milliseconds([&] { input_buffer_->write(input_); });
  }
  void run() override {
    if (peer_) {
      peer_count_ = bench::peers::copy_if_positive(*runtime_, *input_buffer_, *values_buffer_);
    } else if (indices_) {
      compact_->indices(*input_buffer_, *indices_buffer_, *count_buffer_, input_.size(),
                        predicate());
    } else {
      compact_->run(*input_buffer_, *values_buffer_, *count_buffer_, input_.size(), predicate());
    }
  }
  double download() override {
    return milliseconds([&] {
      count_ = peer_ ? peer_count_ : count_buffer_->read()[0];
      if (indices_) {
        result_indices_ = indices_buffer_->read();
      } else {
        result_values_ = values_buffer_->read();
      }
    });
  }
  std::string verify() override {
    const std::size_t expected = indices_ ? expected_indices_.size() : expected_values_.size();
    if (count_ != expected) {
      return "selected " + std::to_string(count_) + " elements, expected " +
             std::to_string(expected);
    }
    for (std::size_t i = 0; i < expected; ++i) {
      const bool same = indices_ ? result_indices_[i] == expected_indices_[i]
                                 : result_values_[i] == expected_values_[i];
      if (!same) return "selected element " + std::to_string(i) + " differs";
    }
    return "";
  }
  double work(std::size_t n) const override { return static_cast<double>(n); }
  // The input once and the selected output once, at the least (the fraction kept is that of
  // the prepared input: about half for values, three quarters for flags; before the first, a
  // half, for the memory check).
  double bytes_moved(std::size_t n) const override {
    return static_cast<double>(n) * (sizeof(T) + 4.0 * kept_fraction_);
  }

 private:
  Predicate<T> predicate() const {
    return indices_ ? Predicate<T>::nonzero() : Predicate<T>::greater(T(0));
  }

  bool indices_;
  bool peer_;
  clf::Runtime* runtime_ = nullptr;
  std::size_t peer_count_ = 0;
  std::unique_ptr<clf::primitives::Compact<T>> compact_;
  std::unique_ptr<clf::DeviceBuffer<std::uint32_t>> count_buffer_;
  std::vector<T> input_;
  std::vector<T> expected_values_;
  std::vector<std::uint32_t> expected_indices_;
  std::vector<T> result_values_;
  std::vector<std::uint32_t> result_indices_;
  std::size_t count_ = 0;
  double kept_fraction_ = 0.5;
  std::unique_ptr<clf::DeviceBuffer<T>> input_buffer_;
  std::unique_ptr<clf::DeviceBuffer<T>> values_buffer_;
  std::unique_ptr<clf::DeviceBuffer<std::uint32_t>> indices_buffer_;
};

std::vector<std::unique_ptr<bench::BenchCase>> scan_cases() {
  std::vector<std::unique_ptr<bench::BenchCase>> cases;
  for (const std::string& variant : clf::primitives::scan_variants()) {
    cases.push_back(std::make_unique<ScanCase<std::int32_t>>(variant));
    cases.push_back(std::make_unique<ScanCase<std::uint32_t>>(variant));
    cases.push_back(std::make_unique<ScanCase<float>>(variant));
  }
  if (bench::peers::have_boost_compute()) {
    cases.push_back(std::make_unique<ScanCase<std::int32_t>>(bench::peers::kBoostCompute));
    cases.push_back(std::make_unique<ScanCase<std::uint32_t>>(bench::peers::kBoostCompute));
    cases.push_back(std::make_unique<ScanCase<float>>(bench::peers::kBoostCompute));
  }
  return cases;
}

std::vector<std::unique_ptr<bench::BenchCase>> compact_cases() {
  std::vector<std::unique_ptr<bench::BenchCase>> cases;
  cases.push_back(std::make_unique<CompactCase<std::int32_t>>(false));
  cases.push_back(std::make_unique<CompactCase<float>>(false));
  cases.push_back(std::make_unique<CompactCase<std::uint32_t>>(true));
  if (bench::peers::have_boost_compute()) {
    cases.push_back(std::make_unique<CompactCase<std::int32_t>>(false, true));
    cases.push_back(std::make_unique<CompactCase<float>>(false, true));
  }
  return cases;
}

}  // namespace

CLF_BENCH_CASES("scan", scan_cases);
CLF_BENCH_CASES("compact", compact_cases);

// The sort cases: every variant of clf::primitives::Sorter x key type (uint32, int32, float32)
// x keys only / key-value (uint32 values, dtype "<key>-kv"), and uint32 keys below 2^16 sorted by
// those bits (KeyBits, dtype "uint32-low16[-kv]") with the radix variants people would pick.
// Throughput is keys per second.
// Sorting is in place, so run() first restores the work buffers from the untouched inputs with
// copies it does not record: the timed span covers the sort's own launches only.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "apps/cl-bench/peers.hpp"
#include "apps/cl-bench/tuning_knobs.hpp"
#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/sort_reference.hpp"

namespace bench {

namespace {

namespace reference = clf::primitives::reference;

template <typename K>
class SortCase : public BenchCase {
 public:
  // key_bits < 32 (uint32 keys only): keys below 2^key_bits, sorted by those bits.
  SortCase(std::string variant, bool with_values, unsigned key_bits = 32)
      : variant_(std::move(variant)), with_values_(with_values), key_bits_(key_bits) {}

  std::string primitive() const override { return "sort"; }
  std::string variant() const override { return variant_; }
  std::string dtype() const override {
    return std::string(dtype_name<K>()) +
           (key_bits_ < 32 ? "-low" + std::to_string(key_bits_) : std::string()) +
           (with_values_ ? "-kv" : "");
  }
  std::string unit() const override { return "Gkeys/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    if (quick) return {1000, 4097, (std::size_t{1} << 16) + 1};
    return powers_of_two(10, 28, 2);
  }

  std::size_t max_size(const clf::Runtime& runtime) const override {
    std::size_t limit = std::numeric_limits<cl_int>::max();  // a peer: 32-bit indices as ours
    if (!peers::is_peer(variant_)) {
      try {
        // A Sorter compiles nothing until it sorts; this only reads the device's limits.
        clf::primitives::Sorter sorter(const_cast<clf::Runtime&>(runtime), variant_);
        limit = sorter.max_keys(with_values_);
      } catch (const clf::Error&) {
        return 0;  // the variant does not run on this device (onesweep without forward progress)
      }
    }
    // Inputs, work buffers and the sorter's temporaries (up to 8-byte bitonic elements): about
    // 4 arrays of keys and 3 of values.
    const std::uint64_t per_key = (with_values_ ? 7 : 4) * sizeof(cl_uint) + 8;
    return std::min<std::uint64_t>(limit, runtime.device().global_memory_bytes / per_key);
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    runtime_ = &runtime;
    n_ = n;
    if (!sorter_ && !peers::is_peer(variant_))
      sorter_.emplace(runtime, variant_, sort_config(runtime.device(), environment_knobs()));
    keys_.resize(n);
    values_.resize(with_values_ ? n : 0);
    for (std::size_t i = 0; i < n; ++i) {
      auto bits = static_cast<cl_uint>(input_bits(seed, i));
      if (key_bits_ < 32) bits &= (cl_uint{1} << key_bits_) - 1;
      std::memcpy(&keys_[i], &bits, sizeof bits);
      if (with_values_) values_[i] = static_cast<cl_uint>(i);
    }
    expected_keys_ = keys_;
    expected_values_ = values_;
    const auto start = std::chrono::steady_clock::now();
    // The fastest CPU reference (two 16-bit passes, stable): seconds at 2^28, where
    // std::stable_sort takes minutes.
    if (with_values_) {
      reference::radix_sort16_by_key(expected_keys_, expected_values_);
    } else {
      reference::radix_sort16(expected_keys_);
    }
    const double cpu_ms = milliseconds_since(start);
    input_keys_.reset();
    work_keys_.reset();
    input_values_.reset();
    work_values_.reset();
    input_keys_.emplace(runtime, n);
    work_keys_.emplace(runtime, n);
    if (with_values_) {
      input_values_.emplace(runtime, n);
      work_values_.emplace(runtime, n);
    }
    return cpu_ms;
  }

  double upload() override {
    const auto start = std::chrono::steady_clock::now();
    input_keys_->write(keys_);
    if (with_values_) input_values_->write(values_);
    return milliseconds_since(start);
  }

  void run() override {
    copy_unrecorded(*input_keys_, *work_keys_);
    if (with_values_) copy_unrecorded(*input_values_, *work_values_);
    if constexpr (std::is_same_v<K, cl_uint>) {
      if (key_bits_ < 32) {
        const clf::primitives::KeyBits bits{key_bits_};
        with_values_ ? sorter_->sort(*work_keys_, *work_values_, bits)
                     : sorter_->sort(*work_keys_, bits);
        return;
      }
    }
    if (with_values_) {
      if (sorter_) {
        sorter_->sort(*work_keys_, *work_values_);
      } else {
        peers::sort_by_key(*runtime_, *work_keys_, *work_values_);
      }
    } else if (sorter_) {
      sorter_->sort(*work_keys_);
    } else {
      peers::sort(*runtime_, *work_keys_);
    }
  }

  double download() override {
    const auto start = std::chrono::steady_clock::now();
    result_keys_ = work_keys_->read();
    if (with_values_) result_values_ = work_values_->read();
    return milliseconds_since(start);
  }

  std::string verify() override {
    for (std::size_t i = 0; i < n_; ++i) {
      if (std::memcmp(&result_keys_[i], &expected_keys_[i], sizeof(K)) != 0) {
        return "key " + std::to_string(i) + " of " + std::to_string(n_) + " differs from the " +
               "CPU reference";
      }
      if (with_values_ && result_values_[i] != expected_values_[i]) {
        return "value " + std::to_string(i) + " of " + std::to_string(n_) +
               " differs from the CPU reference (stable order)";
      }
    }
    return "";
  }

  double work(std::size_t n) const override { return static_cast<double>(n); }
  // At least one read and one write of the keys (and values).
  double bytes_moved(std::size_t n) const override {
    return 2.0 * static_cast<double>(n) * sizeof(cl_uint) * (with_values_ ? 2 : 1);
  }

 private:
  template <typename T>
  void copy_unrecorded(const clf::DeviceBuffer<T>& from, clf::DeviceBuffer<T>& to) {
    if (n_ == 0) return;
    clf::check(runtime_->queue().enqueueCopyBuffer(from.mem(), to.mem(), 0, 0, n_ * sizeof(T)),
               "clEnqueueCopyBuffer", {"", runtime_->device_name(), "sort input"});
  }

  std::string variant_;
  bool with_values_;
  unsigned key_bits_;
  clf::Runtime* runtime_ = nullptr;
  std::size_t n_ = 0;
  std::optional<clf::primitives::Sorter> sorter_;
  std::vector<K> keys_;
  std::vector<cl_uint> values_;
  std::vector<K> expected_keys_;
  std::vector<cl_uint> expected_values_;
  std::vector<K> result_keys_;
  std::vector<cl_uint> result_values_;
  std::optional<clf::DeviceBuffer<K>> input_keys_;
  std::optional<clf::DeviceBuffer<K>> work_keys_;
  std::optional<clf::DeviceBuffer<cl_uint>> input_values_;
  std::optional<clf::DeviceBuffer<cl_uint>> work_values_;
};

std::vector<std::unique_ptr<BenchCase>> sort_cases() {
  std::vector<std::unique_ptr<BenchCase>> cases;
  for (const std::string& variant : clf::primitives::sort_variants()) {
    for (bool with_values : {false, true}) {
      cases.push_back(std::make_unique<SortCase<cl_uint>>(variant, with_values));
      cases.push_back(std::make_unique<SortCase<cl_int>>(variant, with_values));
      cases.push_back(std::make_unique<SortCase<cl_float>>(variant, with_values));
    }
  }
  for (const std::string variant : {"default", "radix", "onesweep"}) {
    for (bool with_values : {false, true}) {
      cases.push_back(std::make_unique<SortCase<cl_uint>>(variant, with_values, 16));
    }
  }
  if (peers::have_boost_compute()) {
    for (bool with_values : {false, true}) {
      cases.push_back(std::make_unique<SortCase<cl_uint>>(peers::kBoostCompute, with_values));
      // No float rows: the inputs are random bits, NaN included, which Boost.Compute's sort
      // does not place by IEEE 754 totalOrder as ours and the reference do.
      cases.push_back(std::make_unique<SortCase<cl_int>>(peers::kBoostCompute, with_values));
    }
  }
  return cases;
}

}  // namespace

CLF_BENCH_CASES("sort", sort_cases);

}  // namespace bench

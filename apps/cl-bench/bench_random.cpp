// cl-bench cases for random fills (framework/primitives/random.hpp): each generator ("philox",
// "mwc64x") filling uint32 and float32 buffers, checked bit for bit against the host's
// sequential draw of the same stream (shared/random.h).
#include <chrono>
#include <optional>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "framework/clf.hpp"
#include "framework/primitives/random.hpp"
#include "framework/primitives/random_reference.hpp"

namespace bench {

namespace {

template <typename T>
class RandomCase : public BenchCase {
 public:
  explicit RandomCase(std::string generator) : generator_(std::move(generator)) {}

  std::string primitive() const override { return "random"; }
  std::string variant() const override { return generator_; }
  std::string dtype() const override { return std::is_floating_point_v<T> ? "float32" : "uint32"; }
  std::string unit() const override { return "Gelem/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    if (quick) return {std::size_t{1} << 12, (std::size_t{1} << 16) + 3};
    return powers_of_two(10, 28, 2);
  }

  std::size_t max_size(const clf::Runtime& runtime) const override {
    const std::uint64_t by_allocation = runtime.device().max_allocation_bytes / sizeof(T);
    return static_cast<std::size_t>(std::min<std::uint64_t>(by_allocation, 0xFFFFFFFFULL));
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    if (runtime_ != &runtime) {
      filler_.reset();
      filler_.emplace(runtime, generator_);
      runtime_ = &runtime;
    }
    seed_ = seed;
    const auto start = std::chrono::steady_clock::now();
    if constexpr (std::is_floating_point_v<T>) {
      expected_ = clf::primitives::random_float_reference(n, seed, generator_);
    } else {
      expected_ = clf::primitives::random_uint_reference(n, seed, generator_);
    }
    const double cpu_ms = milliseconds_since(start);
    output_.reset();
    output_.emplace(runtime, n);
    output_->write(stale_output<T>(n));
    return cpu_ms;
  }

  double upload() override { return 0; }  // a fill has no input

  void run() override { filler_->fill(*output_, seed_); }

  double download() override {
    const auto start = std::chrono::steady_clock::now();
    result_ = output_->size() == 0 ? std::vector<T>{} : output_->read();
    return milliseconds_since(start);
  }

  std::string verify() override {
    for (std::size_t i = 0; i < expected_.size(); ++i) {
      if (result_[i] != expected_[i]) {
        return "element " + std::to_string(i) + " is " + std::to_string(result_[i]) +
               ", the host's stream has " + std::to_string(expected_[i]);
      }
    }
    return "";
  }

  double work(std::size_t n) const override { return static_cast<double>(n); }
  double bytes_moved(std::size_t n) const override { return static_cast<double>(n) * sizeof(T); }

 private:
  std::string generator_;
  clf::Runtime* runtime_ = nullptr;
  std::optional<clf::primitives::RandomFiller> filler_;
  std::uint64_t seed_ = 0;
  std::optional<clf::DeviceBuffer<T>> output_;
  std::vector<T> expected_, result_;
};

}  // namespace

CLF_BENCH_CASES("random", [] {
  std::vector<std::unique_ptr<BenchCase>> cases;
  for (const std::string& generator : clf::primitives::random_generators()) {
    cases.push_back(std::make_unique<RandomCase<cl_uint>>(generator));
    cases.push_back(std::make_unique<RandomCase<cl_float>>(generator));
  }
  return cases;
});

}  // namespace bench

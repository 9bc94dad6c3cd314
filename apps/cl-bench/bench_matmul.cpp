// The matmul cases: C = A . B for square n x n fp32 matrices, one case per variant. Work is
// 2 n^3 FLOPs. Verification compares C with double-precision dot products within the fp32 error
// bound (matmul_error_bound): every element up to n = 512, above that 4096 elements spread over
// C (corners included), since the whole double product on the CPU would take minutes. The CPU
// reference time is the blocked, multi-threaded fp32 multiply, measured up to n = 2048 only
// (0 above, where it would take longer than the whole GPU benchmark).
//
// For tuning, CLF_MATMUL_TILINGS="128x128x16/8x8,64x128x16/8x8" adds a case of register-tiles per
// tiling, named "register-tiles@<tiling>", so one run compares them; CLF_MATMUL_TF32X3_TILINGS
// ="2x2/4x4x16/1,..." does the same for tf32x3. CLF_MATMUL_ERRORS=1 prints each result's worst
// |error| / fp32 bound (matmul_accuracy) to stderr.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "apps/cl-bench/peers.hpp"
#include "apps/cl-bench/tuning_knobs.hpp"
#include "framework/clf.hpp"
#include "framework/primitives/matmul.hpp"
#include "framework/primitives/matmul_reference.hpp"

namespace bench {

namespace {

// The comma-separated entries of environment variable `name` (none when unset).
std::vector<std::string> knob_list(const char* name) {
  std::vector<std::string> entries;
  const char* text = std::getenv(name);
  std::istringstream list(text != nullptr ? text : "");
  for (std::string entry; std::getline(list, entry, ',');) {
    if (!entry.empty()) entries.push_back(entry);
  }
  return entries;
}

constexpr std::size_t kFullCheckLimit = 512;
constexpr std::size_t kSampledElements = 4096;
constexpr std::size_t kCpuReferenceLimit = 2048;
// On CPU devices Gruber's slow variants would take minutes per run at large sizes.
constexpr std::size_t kCpuDeviceLimit = 1024;
constexpr std::size_t kEmulatedLimit = 256;

class MatmulCase : public BenchCase {
 public:
  explicit MatmulCase(std::string variant) : variant_(std::move(variant)) {}
  // `variant` with one tiling of its own, named `variant@label`.
  MatmulCase(std::string variant, std::string label,
             std::function<void(clf::primitives::MatmulConfig&)> set_tiling)
      : variant_(std::move(variant)),
        label_(std::move(label)),
        set_tiling_(std::move(set_tiling)) {}

  std::string primitive() const override { return "matmul"; }
  std::string variant() const override {
    return label_.empty() ? variant_ : variant_ + "@" + label_;
  }
  std::string dtype() const override { return "float32"; }
  std::string unit() const override { return "GFLOP/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    if (quick) return {1, 17, 64, 129};
    return {256, 512, 1000, 1024, 2048, 4096, 8192};
  }

  std::size_t max_size(const clf::Runtime& runtime) const override {
    const clf::DeviceInfo& device = runtime.device();
    // Three n x n matrices in memory, each within one allocation and 32-bit indices.
    const std::uint64_t elements =
        std::min<std::uint64_t>({device.max_allocation_bytes / sizeof(float),
                                 device.global_memory_bytes / (3 * sizeof(float)), 0xFFFFFFFFULL});
    std::size_t n = static_cast<std::size_t>(std::sqrt(static_cast<double>(elements)));
    while (static_cast<std::uint64_t>(n) * n > elements) --n;
    if (device.type == clf::DeviceType::cpu) n = std::min(n, kCpuDeviceLimit);
    // Without mma.sync tf32x3 runs emulated through local memory: for tests, not speed.
    const bool emulated = variant_ == "tf32x3" && clf::primitives::device_class(device) !=
                                                      clf::primitives::DeviceClass::nvidia_gpu;
    if (emulated) n = std::min(n, kEmulatedLimit);
    return n;
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    n_ = n;
    a_.reset();
    b_.reset();
    c_.reset();
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    host_a_.resize(n * n);
    host_b_.resize(n * n);
    for (float& v : host_a_) v = uniform(random);
    for (float& v : host_b_) v = uniform(random);
    double cpu_ms = 0;
    if (n <= kCpuReferenceLimit) {
      const auto start = std::chrono::steady_clock::now();
      const std::vector<float> product =
          clf::primitives::matmul_reference_blocked(host_a_, host_b_, n, n, n);
      cpu_ms = milliseconds_since(start);
    }
    a_.emplace(runtime, n * n);
    b_.emplace(runtime, n * n);
    c_.emplace(runtime, n * n);
    if (peers::is_peer(variant_)) {
      runtime_ = &runtime;
    } else if (!multiply_ || runtime_ != &runtime) {
      clf::primitives::MatmulConfig config = matmul_config(runtime.device(), environment_knobs());
      if (set_tiling_) set_tiling_(config);
      multiply_.emplace(runtime, variant_, config);
      runtime_ = &runtime;
    }
    return cpu_ms;
  }

  double upload() override {
    const auto start = std::chrono::steady_clock::now();
    a_->write(host_a_);
    b_->write(host_b_);
    // NaN in C, so an element the kernel never writes cannot pass.
    c_->write(std::vector<float>(n_ * n_, std::nanf("")));
    return milliseconds_since(start);
  }

  void run() override {
    if (!multiply_) return peers::sgemm(*runtime_, *a_, *b_, *c_, n_);
    (*multiply_)(*a_, *b_, *c_, n_, n_, n_);
  }

  double download() override {
    const auto start = std::chrono::steady_clock::now();
    result_ = c_->read();
    return milliseconds_since(start);
  }

  std::string verify() override {
    const std::size_t samples = n_ <= kFullCheckLimit ? 0 : kSampledElements;
    if (std::getenv("CLF_MATMUL_ERRORS") != nullptr) {
      const auto accuracy =
          clf::primitives::matmul_accuracy(host_a_, host_b_, result_, n_, n_, n_, samples);
      std::cerr << "matmul " << variant() << " " << n_ << ": worst |error| / fp32 bound "
                << accuracy.worst_ratio << " over " << accuracy.checked << " elements\n";
    }
    return clf::primitives::matmul_verify(host_a_, host_b_, result_, n_, n_, n_, samples);
  }

  double work(std::size_t n) const override { return 2.0 * n * n * n; }
  // Compute-bound: a fraction of copy bandwidth would say nothing.
  double bytes_moved(std::size_t /*n*/) const override { return 0; }

 private:
  std::string variant_;
  std::string label_;
  std::function<void(clf::primitives::MatmulConfig&)> set_tiling_;
  clf::Runtime* runtime_ = nullptr;
  std::size_t n_ = 0;
  std::vector<float> host_a_, host_b_, result_;
  std::optional<clf::DeviceBuffer<float>> a_, b_, c_;
  std::optional<clf::primitives::Matmul> multiply_;
};

}  // namespace

CLF_BENCH_CASES("matmul", [] {
  std::vector<std::unique_ptr<BenchCase>> cases;
  for (const std::string& variant : clf::primitives::matmul_variants()) {
    cases.push_back(std::make_unique<MatmulCase>(variant));
  }
  if (peers::have_clblast()) cases.push_back(std::make_unique<MatmulCase>(peers::kClblast));
  for (const std::string& text : knob_list("CLF_MATMUL_TILINGS")) {
    const auto tiling = clf::primitives::MatmulTiling::parse(text);
    cases.push_back(std::make_unique<MatmulCase>(
        "register-tiles", text,
        [tiling](clf::primitives::MatmulConfig& config) { config.tiling = tiling; }));
  }
  for (const std::string& text : knob_list("CLF_MATMUL_TF32X3_TILINGS")) {
    const auto tiling = clf::primitives::Tf32x3Tiling::parse(text);
    cases.push_back(std::make_unique<MatmulCase>(
        "tf32x3", text,
        [tiling](clf::primitives::MatmulConfig& config) { config.tf32x3 = tiling; }));
  }
  return cases;
});

}  // namespace bench

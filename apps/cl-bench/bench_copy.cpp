// The copy cases: device-to-device copy of n uint32 values, by a uint4 kernel and by
// clEnqueueCopyBuffer. cl-bench measures the uint4 kernel first as the device's copy bandwidth,
// and reports every other case also as a fraction of it. Bandwidth counts bytes read + written.
#include <algorithm>
#include <chrono>
#include <optional>

#include "apps/cl-bench/bench_case.hpp"
#include "apps/cl-bench/bench_util.hpp"
#include "framework/clf.hpp"

namespace bench {

namespace {

constexpr std::size_t kVectorsPerItem = 4;  // COPY_VECTORS_PER_ITEM in kernels/cl-bench/copy.cl
constexpr std::size_t kWorkGroupSize = 256;

class CopyCase : public BenchCase {
 public:
  enum class Method { kernel, enqueue_copy };
  explicit CopyCase(Method method) : method_(method) {}

  std::string primitive() const override { return "copy"; }
  std::string variant() const override { return method_ == Method::kernel ? "uint4" : "enqueue"; }
  std::string dtype() const override { return "uint32"; }
  std::string unit() const override { return "GB/s"; }

  std::vector<std::size_t> default_sizes(bool quick) const override {
    if (quick) return {std::size_t{1} << 12, std::size_t{1} << 16, (std::size_t{1} << 20) + 3};
    return powers_of_two(10, 28);
  }

  std::size_t max_size(const clf::Runtime& runtime) const override {
    const clf::DeviceInfo& device = runtime.device();
    // Two buffers of n uints, each within one allocation; n fits the kernel's uint.
    const std::uint64_t by_allocation = device.max_allocation_bytes / sizeof(cl_uint);
    const std::uint64_t by_memory = device.global_memory_bytes / (2 * sizeof(cl_uint));
    return static_cast<std::size_t>(
        std::min<std::uint64_t>({by_allocation, by_memory, 0xFFFFFFFFULL}));
  }

  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) override {
    runtime_ = &runtime;
    n_ = n;
    src_.reset();
    dst_.reset();
    input_.resize(n);
    for (std::size_t i = 0; i < n; ++i) input_[i] = static_cast<cl_uint>(input_bits(seed, i));
    // The CPU reference: the same copy in host memory (pages touched before timing).
    expected_.assign(n, 0);
    const auto start = std::chrono::steady_clock::now();
    std::copy(input_.begin(), input_.end(), expected_.begin());
    const double cpu_ms = milliseconds_since(start);
    src_.emplace(runtime, n);
    dst_.emplace(runtime, n);
    dst_->write(stale_output<cl_uint>(n));
    if (method_ == Method::kernel && !copy_) {
      copy_.emplace(runtime, clf::kernel_source("kernels/cl-bench/copy.cl"), "copy_uint4",
                    "-DCOPY_VECTORS_PER_ITEM=" + std::to_string(kVectorsPerItem));
    }
    return cpu_ms;
  }

  double upload() override {
    const auto start = std::chrono::steady_clock::now();
    src_->write(input_);
    return milliseconds_since(start);
  }

  void run() override {
    if (n_ == 0) return;
    if (method_ == Method::kernel) {
      const std::size_t vectors = n_ / 4;
      const std::size_t items =
          std::max((vectors + kVectorsPerItem - 1) / kVectorsPerItem, n_ - vectors * 4);
      (*copy_)(clf::Range::linear(items, kWorkGroupSize), *src_, *dst_, static_cast<cl_uint>(n_));
    } else {
      cl::Event event;
      clf::check(runtime_->queue().enqueueCopyBuffer(src_->mem(), dst_->mem(), 0, 0,
                                                     n_ * sizeof(cl_uint), nullptr, &event),
                 "clEnqueueCopyBuffer", {"", runtime_->device_name(), ""});
      runtime_->record(clf::Event(event));
    }
  }

  double download() override {
    const auto start = std::chrono::steady_clock::now();
    result_ = dst_->read();
    return milliseconds_since(start);
  }

  std::string verify() override {
    std::size_t wrong = 0;
    std::size_t first_wrong = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      if (result_[i] != expected_[i] && wrong++ == 0) first_wrong = i;
    }
    if (wrong == 0) return "";
    return std::to_string(wrong) + " of " + std::to_string(n_) + " values differ; first at " +
           std::to_string(first_wrong) + ": " + std::to_string(result_[first_wrong]) +
           ", expected " + std::to_string(expected_[first_wrong]);
  }

  double work(std::size_t n) const override { return 2.0 * sizeof(cl_uint) * n; }
  double bytes_moved(std::size_t n) const override { return 2.0 * sizeof(cl_uint) * n; }

 private:
  Method method_;
  clf::Runtime* runtime_ = nullptr;
  std::size_t n_ = 0;
  std::vector<cl_uint> input_, expected_, result_;
  std::optional<clf::DeviceBuffer<cl_uint>> src_, dst_;
  std::optional<clf::CLKernel> copy_;
};

}  // namespace

CLF_BENCH_CASES("copy", [] {
  std::vector<std::unique_ptr<BenchCase>> cases;
  cases.push_back(std::make_unique<CopyCase>(CopyCase::Method::kernel));
  cases.push_back(std::make_unique<CopyCase>(CopyCase::Method::enqueue_copy));
  return cases;
});

}  // namespace bench

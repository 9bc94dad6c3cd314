// Gruber's scans (docs/primitives.md cites the thesis), reference algorithms the benchmarks
// reproduce: Hillis-Steele and Blelloch in global memory, and the recursive block scan.
#include <algorithm>
#include <vector>

#include "framework/primitives/scan_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::scanning {

namespace {

constexpr std::size_t kBlocksWorkGroup = 256;  // Gruber's work-group size for the block scans

std::size_t launch_group(std::size_t n) {
  return std::min<std::size_t>(256, std::max<std::size_t>(n, 1));
}

// Hillis-Steele: pass 1 reads the input, every later pass the previous pass's output; the first
// target is chosen so that the last pass writes `out`.
template <typename T>
class NaiveScan : public Algorithm<T> {
 public:
  explicit NaiveScan(Runtime& runtime)
      : Algorithm<T>(runtime, "naive"),
        first_(this->kernel("kernels/primitives/scan/naive.cl", "naive_scan_first")),
        pass_(this->kernel("kernels/primitives/scan/naive.cl", "naive_scan_pass")) {}

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    std::size_t passes = 1;  // offsets 1, 2, 4, ... below n
    while ((std::size_t{1} << passes) < n) ++passes;
    DeviceBuffer<T>& temp = detail::ensure_buffer(temp_, this->runtime_, n);
    DeviceBuffer<T>* target = passes % 2 == 1 ? &out : &temp;
    DeviceBuffer<T>* other = passes % 2 == 1 ? &temp : &out;
    const Range range = Range::linear(n, 256);
    first_(range, in, *target, as_uint(n), cl_uint{type == ScanType::exclusive});
    for (std::size_t pass = 1; pass < passes; ++pass) {
      std::swap(target, other);
      pass_(range, *other, *target, as_uint(n), as_uint(std::size_t{1} << pass));
    }
  }

 private:
  CLKernel first_;
  CLKernel pass_;
  std::unique_ptr<DeviceBuffer<T>> temp_;
};

template <typename T>
class BlellochScan : public Algorithm<T> {
 public:
  explicit BlellochScan(Runtime& runtime)
      : Algorithm<T>(runtime, "blelloch"),
        load_(this->kernel("kernels/primitives/scan/blelloch.cl", "blelloch_load")),
        up_(this->kernel("kernels/primitives/scan/blelloch.cl", "blelloch_up")),
        down_(this->kernel("kernels/primitives/scan/blelloch.cl", "blelloch_down")),
        store_(this->kernel("kernels/primitives/scan/blelloch.cl", "blelloch_store")) {}

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    std::size_t padded = 2;  // at least one level, so the root is cleared
    while (padded < n) padded *= 2;
    DeviceBuffer<T>& work = detail::ensure_buffer(work_, this->runtime_, padded);
    load_(Range::linear(padded, 256), in, work, as_uint(n), as_uint(padded));
    std::size_t nodes = padded / 2;
    std::size_t offset = 1;
    for (; offset < padded; offset *= 2, nodes /= 2) {
      up_(Range::linear(nodes, launch_group(nodes)), work, as_uint(offset));
    }
    nodes = 1;
    for (offset = padded / 2; offset >= 1; offset /= 2, nodes *= 2) {
      down_(Range::linear(nodes, launch_group(nodes)), work, as_uint(offset),
            cl_uint{offset == padded / 2});
    }
    store_(Range::linear(n, 256), in, work, out, as_uint(n), cl_uint{type == ScanType::inclusive});
  }

 private:
  CLKernel load_;
  CLKernel up_;
  CLKernel down_;
  CLKernel store_;
  std::unique_ptr<DeviceBuffer<T>> work_;
};

// GPU Gems 3 / Gruber's recursive block scan, with or without 8-wide vectors.
template <typename T>
class BlocksScan : public Algorithm<T> {
 public:
  BlocksScan(Runtime& runtime, bool vectors)
      : Algorithm<T>(runtime, vectors ? "blocks-vec" : "blocks"),
        group_(std::min(kBlocksWorkGroup, runtime.device().max_work_group_size)),
        block_(2 * group_ * (vectors ? 8 : 1)),
        scan_(this->kernel(
            vectors ? "kernels/primitives/scan/blocks_vec.cl" : "kernels/primitives/scan/blocks.cl",
            vectors ? "scan_blocks_vec" : "scan_blocks")),
        add_(this->kernel("kernels/primitives/scan/blocks.cl", "add_block_sums")) {}

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    scan_level(0, in, out, n, type == ScanType::inclusive);
  }

 private:
  // Scans `n` values of `in` into `out` (the same buffer at the levels above 0, exclusive there)
  // using sums_[level] for the blocks' totals.
  void scan_level(std::size_t level, const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n,
                  bool inclusive) {
    const std::size_t blocks = ceil_div(n, block_);
    if (sums_.size() <= level) sums_.resize(level + 1);
    DeviceBuffer<T>& sums = detail::ensure_buffer(sums_[level], this->runtime_, blocks);
    const Range range = Range::linear(blocks * group_, group_);
    scan_(range, in, out, sums, as_uint(n), cl_uint{inclusive}, Local<T>{2 * group_});
    if (blocks == 1) return;
    scan_level(level + 1, sums, sums, blocks, false);
    add_(Range::linear(n, 256), out, sums, as_uint(n), as_uint(block_));
  }

  std::size_t group_;
  std::size_t block_;
  CLKernel scan_;
  CLKernel add_;
  std::vector<std::unique_ptr<DeviceBuffer<T>>> sums_;  // one per level
};

}  // namespace

template <typename T>
std::unique_ptr<Algorithm<T>> make_naive_scan(Runtime& runtime) {
  return std::make_unique<NaiveScan<T>>(runtime);
}
template <typename T>
std::unique_ptr<Algorithm<T>> make_blelloch_scan(Runtime& runtime) {
  return std::make_unique<BlellochScan<T>>(runtime);
}
template <typename T>
std::unique_ptr<Algorithm<T>> make_blocks_scan(Runtime& runtime, bool vectors) {
  return std::make_unique<BlocksScan<T>>(runtime, vectors);
}

#define CLF_INSTANTIATE_GLOBAL_SCANS(T)                                   \
  template std::unique_ptr<Algorithm<T>> make_naive_scan<T>(Runtime&);    \
  template std::unique_ptr<Algorithm<T>> make_blelloch_scan<T>(Runtime&); \
  template std::unique_ptr<Algorithm<T>> make_blocks_scan<T>(Runtime&, bool);
CLF_INSTANTIATE_GLOBAL_SCANS(std::int32_t)
CLF_INSTANTIATE_GLOBAL_SCANS(std::uint32_t)
CLF_INSTANTIATE_GLOBAL_SCANS(float)
#undef CLF_INSTANTIATE_GLOBAL_SCANS

}  // namespace clf::primitives::scanning

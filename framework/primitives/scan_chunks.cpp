// The chunked scan for CPU devices (kernels/primitives/scan/chunks.cl): a few long contiguous
// chunks, summed (the first scanned outright) and then scanned serially, two launches.
#include <type_traits>

#include "framework/primitives/scan_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::scanning {

namespace {

template <typename T>
class ChunkScan : public Algorithm<T> {
 public:
  ChunkScan(Runtime& runtime, const ScanConfig& config)
      : Algorithm<T>(runtime, "chunks"),
        chunks_(config.chunks),
        sums_kernel_(chunk_kernel("chunk_sums")),
        scan_kernel_(chunk_kernel("chunk_scan")) {}

  // The tuning table's chunks as the grid: one chunk more than work-items (chunks.cl).
  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    const std::size_t chunks = chunks_.chunks(this->runtime_.device(), n);
    DeviceBuffer<T>& sums = detail::ensure_buffer(sums_, this->runtime_, chunks);
    const Range grid = Range::linear(chunks, 1);
    const cl_uint inclusive = type == ScanType::inclusive;
    sums_kernel_(grid, in, out, sums, as_uint(n), inclusive);
    scan_kernel_(grid, in, out, sums, as_uint(n), inclusive);
  }

 private:
  CLKernel chunk_kernel(const char* name) {
    return this->kernel("kernels/primitives/scan/chunks.cl", name,
                        std::is_same_v<T, float> ? "" : "-DCHUNK_SCAN_SERIAL");
  }

  ChunkShape chunks_;
  CLKernel sums_kernel_;
  CLKernel scan_kernel_;
  std::unique_ptr<DeviceBuffer<T>> sums_;
};

}  // namespace

template <typename T>
std::unique_ptr<Algorithm<T>> make_chunk_scan(Runtime& runtime, const ScanConfig& config) {
  return std::make_unique<ChunkScan<T>>(runtime, config);
}

template std::unique_ptr<Algorithm<std::int32_t>> make_chunk_scan<std::int32_t>(Runtime&,
                                                                                const ScanConfig&);
template std::unique_ptr<Algorithm<std::uint32_t>> make_chunk_scan<std::uint32_t>(
    Runtime&, const ScanConfig&);
template std::unique_ptr<Algorithm<float>> make_chunk_scan<float>(Runtime&, const ScanConfig&);

}  // namespace clf::primitives::scanning

// Prefix sums (scan) on the device: inclusive and exclusive, over int32, uint32 and float.
//
//   clf::primitives::Scan<std::int32_t> scan(runtime);              // the fast default
//   scan.run(input, output, clf::primitives::ScanType::exclusive);  // DeviceBuffers, no copies
//   std::vector<float> sums = clf::primitives::inclusive_scan(values, "blocks");
//
// Variants, by name (scan_variants()), Gruber's first:
//   naive             Hillis-Steele in global memory: log2 n launches, ping-pong buffers
//   blelloch          work-efficient up-sweep/down-sweep in global memory (padded to 2^k)
//   blocks            recursive block scan in local memory: blocks, their sums, add back
//   blocks-vec        the same with 8-wide vectors: 16 values per work-item in registers
//   reduce-then-scan  tiles of values in registers: reduce, scan the sums, scan (3 launches)
//   lookback          single pass with decoupled look-back (needs forward progress between
//                     work-groups: NVIDIA GPUs only; elsewhere it throws clf::Error)
//   chunks            for CPUs: one long contiguous chunk per work-item, summed, then scanned
//                     serially with vector loads (2 launches, no local memory)
//   default           lookback where the device guarantees forward progress, else the
//                     tuning table's layout: chunks on CPUs, reduce-then-scan elsewhere
// A Scan object keeps its kernels and temporary buffers, so repeated calls allocate nothing
// (unless a larger input needs more). Input and output must be different buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/device.hpp"
#include "framework/primitives/scan_reference.hpp"
#include "framework/primitives/tuning.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

// Indices on the device are 32-bit; the largest n a scan or compaction accepts.
constexpr std::size_t kMaxScanElements = (std::size_t{1} << 31) - 1;

// Every variant name, "default" first.
const std::vector<std::string>& scan_variants();
// Whether the decoupled look-back scan ("lookback") runs on `device`: it needs forward progress
// between work-groups and NVIDIA's warp instructions (inline PTX), so NVIDIA GPUs only.
bool lookback_scan_runs_on(const DeviceInfo& device);
// The variants that can run on `device`: all but "lookback" where it cannot.
std::vector<std::string> scan_variants(const DeviceInfo& device);
// The variant that runs for `variant` on `device`: "default" becomes "lookback", or where that
// cannot run, "chunks" or "reduce-then-scan" by the config's layout (the tuning table's by
// default). Throws Error for an unknown name, or "lookback" where it cannot run.
std::string resolve_scan_variant(const std::string& variant, const DeviceInfo& device);
std::string resolve_scan_variant(const std::string& variant, const DeviceInfo& device,
                                 const ScanConfig& config);

template <typename T>
class Scan {
 public:
  // Builds the variant's kernels. Throws Error as resolve_scan_variant does.
  // The config defaults to the tuning table's for the device; throws Error for a shape it breaks.
  explicit Scan(Runtime& runtime, const std::string& variant = "default");
  Scan(Runtime& runtime, const std::string& variant, const ScanConfig& config);
  explicit Scan(const std::string& variant = "default") : Scan(Runtime::shared(), variant) {}
  ~Scan();
  Scan(Scan&&) noexcept;
  Scan& operator=(Scan&&) noexcept;

  // The variant that runs ("lookback", not "default").
  const std::string& variant() const;
  Runtime& runtime() const;

  // output[i] = input[0] + ... + input[i] (inclusive) or + input[i - 1] (exclusive, 0 at i = 0),
  // for the first `count` elements (all, when not given; then the sizes must match). Enqueues
  // the launches and returns without waiting. Throws Error for sizes that differ or are too
  // small, more than kMaxScanElements, the same buffer twice, or buffers of another runtime.
  void run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output, ScanType type);
  void run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output, std::size_t count, ScanType type);
  // Uploads, scans and downloads.
  std::vector<T> run(const std::vector<T>& input, ScanType type);

  void inclusive(const DeviceBuffer<T>& input, DeviceBuffer<T>& output) {
    run(input, output, ScanType::inclusive);
  }
  void exclusive(const DeviceBuffer<T>& input, DeviceBuffer<T>& output) {
    run(input, output, ScanType::exclusive);
  }

  class Algorithm;  // one per variant, in scan.cpp

 private:
  std::unique_ptr<Algorithm> algorithm_;
};

extern template class Scan<std::int32_t>;
extern template class Scan<std::uint32_t>;
extern template class Scan<float>;

// One-off scans of host data on Runtime::shared() (kernels are cached by the runtime, buffers
// are not: use a Scan object for repeated calls).
template <typename T>
std::vector<T> inclusive_scan(const std::vector<T>& input, const std::string& variant = "default");
template <typename T>
std::vector<T> exclusive_scan(const std::vector<T>& input, const std::string& variant = "default");

namespace detail {

using TileShape = clf::primitives::TileShape;

// Build options for kernels/primitives/scan/common.cl: element type T and the tile shape.
template <typename T>
std::string scan_build_options(const TileShape& shape);

// Groups for reduce-then-scan style kernels over `tiles` tiles: enough to fill the device,
// each taking `tiles_per_group` consecutive tiles (every group gets at least one).
struct GroupSplit {
  std::size_t groups = 0;
  std::size_t tiles_per_group = 0;
};
GroupSplit split_tiles(const DeviceInfo& device, std::size_t tiles);

// `slot` holding at least `count` elements: reallocated only when it is too small.
template <typename T>
DeviceBuffer<T>& ensure_buffer(std::unique_ptr<DeviceBuffer<T>>& slot, Runtime& runtime,
                               std::size_t count) {
  if (!slot || slot->size() < count) {
    slot.reset();  // free the old one first
    slot = std::make_unique<DeviceBuffer<T>>(runtime, count);
  }
  return *slot;
}

// Throws Error unless `count` elements fit in both buffers, both live on `runtime` and count is
// within kMaxScanElements. `what` names the operation in the message.
void check_buffers(const char* what, Runtime& runtime, const BufferBase& input,
                   std::size_t input_size, const BufferBase& output, std::size_t output_size,
                   std::size_t count);

}  // namespace detail

}  // namespace clf::primitives

// Stream compaction on the device: the elements that satisfy a predicate, in their order, or
// their indices (so app kernels can compact their own flag arrays: indices where flag != 0).
//
//   clf::primitives::Compact<float> compact(runtime);
//   std::size_t kept = compact.run(values, selected,
//   clf::primitives::Predicate<float>::greater(0.5f)); std::size_t live = compact_indices(flags);
//   // host vectors, on Runtime::shared()
//
// Built on the scan's tiles: each group counts its selected elements, the counts are scanned
// (clf::primitives::Scan), and each group writes its selected elements from its offset, ranked
// by a work-group scan. On CPUs (the tuning table's Layout::chunks) each work-item counts one
// long contiguous chunk, then writes its selected elements serially from the sum of the counts
// before it. The input is read twice; nothing else but the output is written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/primitives/scan_reference.hpp"

namespace clf::primitives {

template <typename T>
class Compact {
 public:
  // The config defaults to the tuning table's for the device.
  explicit Compact(Runtime& runtime);
  Compact(Runtime& runtime, const CompactConfig& config);
  Compact() : Compact(Runtime::shared()) {}
  ~Compact();
  Compact(Compact&&) noexcept;
  Compact& operator=(Compact&&) noexcept;

  Runtime& runtime() const;

  // Writes the selected elements of input[0, count) to output[0, k) in order and k to
  // *selected_count (device memory, one element), without waiting: for pipelines and timing.
  // `output` must hold at least `count` elements (all could be selected). Throws Error for sizes
  // that do not fit, more than kMaxScanElements, the same buffer twice, or another runtime.
  void run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output,
           DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
           const Predicate<T>& predicate);
  // The same over the whole input; waits and returns k.
  std::size_t run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output,
                  const Predicate<T>& predicate);
  // Uploads, compacts and downloads the selected elements.
  std::vector<T> run(const std::vector<T>& input, const Predicate<T>& predicate);

  // As run(), writing the indices i of the selected elements instead of the elements.
  void indices(const DeviceBuffer<T>& input, DeviceBuffer<std::uint32_t>& output,
               DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
               const Predicate<T>& predicate);
  std::size_t indices(const DeviceBuffer<T>& input, DeviceBuffer<std::uint32_t>& output,
                      const Predicate<T>& predicate = Predicate<T>::nonzero());
  std::vector<std::uint32_t> indices(const std::vector<T>& input,
                                     const Predicate<T>& predicate = Predicate<T>::nonzero());

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class Compact<std::int32_t>;
extern template class Compact<std::uint32_t>;
extern template class Compact<float>;

// One-off compactions of host data on Runtime::shared().
template <typename T>
std::vector<T> compact(const std::vector<T>& input, const Predicate<T>& predicate);
// Indices of the nonzero flags (an app kernel's flag array), in order.
template <typename T>
std::vector<std::uint32_t> compact_indices(const std::vector<T>& flags,
                                           const Predicate<T>& predicate = Predicate<T>::nonzero());

}  // namespace clf::primitives

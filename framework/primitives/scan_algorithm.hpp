// What the scan algorithms share (internal to framework/primitives/scan*.cpp): the base class
// of one variant's kernels and temporaries, and the factories Scan chooses from (one file per
// family: scan_global.cpp for Gruber's reference scans, scan_tiled.cpp for the tiled ones,
// scan_chunks.cpp for the CPU's).
#pragma once

#include <memory>
#include <string>

#include "framework/kernel.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

// One variant's kernels and temporary buffers.
template <typename T>
class Scan<T>::Algorithm {
 public:
  Algorithm(Runtime& runtime, std::string variant)
      : runtime_(runtime), variant_(std::move(variant)) {}
  virtual ~Algorithm() = default;
  // Scans in[0, n) into out; 0 < n <= kMaxScanElements, buffers checked and distinct.
  virtual void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n,
                   ScanType type) = 0;

  Runtime& runtime() const { return runtime_; }
  const std::string& variant() const { return variant_; }

 protected:
  CLKernel kernel(const char* file, const char* name, const std::string& options = "") {
    const std::string type = DeviceTypeName<T>::value;
    return CLKernel(runtime_, kernel_source(file), name,
                    "-DT=" + type + " -DAS_T=as_" + type + (options.empty() ? "" : " " + options));
  }

  Runtime& runtime_;
  std::string variant_;
};

namespace scanning {

template <typename T>
using Algorithm = typename Scan<T>::Algorithm;

inline cl_uint as_uint(std::size_t value) { return static_cast<cl_uint>(value); }

// Gruber's scans in global or local memory (scan_global.cpp).
template <typename T>
std::unique_ptr<Algorithm<T>> make_naive_scan(Runtime& runtime);
template <typename T>
std::unique_ptr<Algorithm<T>> make_blelloch_scan(Runtime& runtime);
template <typename T>
std::unique_ptr<Algorithm<T>> make_blocks_scan(Runtime& runtime, bool vectors);

// The tiled scans (scan_tiled.cpp): reduce-then-scan, and the single-pass look-back.
template <typename T>
std::unique_ptr<Algorithm<T>> make_reduce_then_scan(Runtime& runtime, const ScanConfig& config);
template <typename T>
std::unique_ptr<Algorithm<T>> make_lookback_scan(Runtime& runtime, const ScanConfig& config);

// The chunked scan for CPU devices (scan_chunks.cpp).
template <typename T>
std::unique_ptr<Algorithm<T>> make_chunk_scan(Runtime& runtime, const ScanConfig& config);

}  // namespace scanning

}  // namespace clf::primitives

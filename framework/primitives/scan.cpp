// Scan: a thin dispatcher that picks one algorithm by variant name and device (scan_global.cpp:
// Gruber's naive, blelloch and block scans; scan_tiled.cpp: reduce-then-scan and look-back),
// plus the helpers the tiled scans and compaction share.
#include "framework/primitives/scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <limits>

#include "framework/error.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/scan_algorithm.hpp"
#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

template <typename T>
const char* device_type() {
  return DeviceTypeName<T>::value;
}

}  // namespace

const std::vector<std::string>& scan_variants() {
  static const std::vector<std::string> names{"default",  "naive",      "blelloch",
                                              "blocks",   "blocks-vec", "reduce-then-scan",
                                              "lookback", "chunks"};
  return names;
}

bool lookback_scan_runs_on(const DeviceInfo& device) {
  return has_forward_progress(device) && device_class(device) == DeviceClass::nvidia_gpu;
}

std::vector<std::string> scan_variants(const DeviceInfo& device) {
  std::vector<std::string> names;
  for (const std::string& name : scan_variants()) {
    if (name != "lookback" || lookback_scan_runs_on(device)) names.push_back(name);
  }
  return names;
}

std::string resolve_scan_variant(const std::string& variant, const DeviceInfo& device) {
  return resolve_scan_variant(variant, device, tuning_for(device).scan);
}

std::string resolve_scan_variant(const std::string& variant, const DeviceInfo& device,
                                 const ScanConfig& config) {
  const auto& names = scan_variants();
  if (std::find(names.begin(), names.end(), variant) == names.end()) {
    throw unknown_variant("scan", variant, names);
  }
  if (variant == "default") {
    if (lookback_scan_runs_on(device)) return "lookback";
    return config.layout == Layout::chunks ? "chunks" : "reduce-then-scan";
  }
  if (variant == "lookback" && !lookback_scan_runs_on(device)) {
    throw Error(
        "scan variant 'lookback' runs on NVIDIA GPUs only: it needs forward progress "
        "between work-groups and NVIDIA's warp instructions, and " +
        device.name + " (" + device.vendor +
        ") is not one. Use 'default' or 'reduce-then-scan' there.");
  }
  return variant;
}

namespace detail {

template <typename T>
std::string scan_build_options(const TileShape& shape) {
  std::size_t row = 1;
  while (row * row < shape.work_group) row *= 2;  // rows = group / row <= row
  const std::string type = device_type<T>();
  return "-DT=" + type + " -DAS_T=as_" + type + " -DWG_SIZE=" + std::to_string(shape.work_group) +
         " -DSCAN_ROW=" + std::to_string(row) + " -DITEMS=" + std::to_string(shape.items);
}

GroupSplit split_tiles(const DeviceInfo& device, std::size_t tiles) {
  // Eight groups per compute unit fill a GPU; a CPU runs one group per core at a time.
  const std::size_t most = std::max<std::size_t>(1, device.compute_units) * 8;
  GroupSplit split;
  if (tiles == 0) return split;
  split.tiles_per_group = ceil_div(tiles, std::min(tiles, most));
  split.groups = ceil_div(tiles, split.tiles_per_group);
  return split;
}

void check_buffers(const char* what, Runtime& runtime, const BufferBase& input,
                   std::size_t input_size, const BufferBase& output, std::size_t output_size,
                   std::size_t count) {
  const std::string name(what);
  if (&input == &output) {
    throw Error(name + ": input and output are the same buffer; they must be different");
  }
  if (&input.runtime() != &runtime || &output.runtime() != &runtime) {
    throw Error(name + ": a buffer belongs to another runtime (device) than the " + name);
  }
  if (count > kMaxScanElements) {
    throw Error(name + ": " + std::to_string(count) + " elements is more than the " +
                std::to_string(kMaxScanElements) + " this implementation handles");
  }
  if (count > input_size) {
    throw Error(name + ": " + std::to_string(count) + " elements asked for, the input holds " +
                std::to_string(input_size));
  }
  if (count > output_size) {
    throw Error(name + ": " + std::to_string(count) + " elements asked for, the output holds " +
                std::to_string(output_size));
  }
}

template std::string scan_build_options<std::int32_t>(const TileShape&);
template std::string scan_build_options<std::uint32_t>(const TileShape&);
template std::string scan_build_options<float>(const TileShape&);

}  // namespace detail

namespace {

// The variant's algorithm: "default" is the look-back scan where it builds, else the config's
// layout.
template <typename T>
std::unique_ptr<scanning::Algorithm<T>> make_algorithm(Runtime& runtime, const std::string& variant,
                                                       const ScanConfig& config) {
  const std::string resolved = resolve_scan_variant(variant, runtime.device(), config);
  if (resolved == "naive") return scanning::make_naive_scan<T>(runtime);
  if (resolved == "blelloch") return scanning::make_blelloch_scan<T>(runtime);
  if (resolved == "blocks") return scanning::make_blocks_scan<T>(runtime, false);
  if (resolved == "blocks-vec") return scanning::make_blocks_scan<T>(runtime, true);
  if (resolved == "reduce-then-scan") return scanning::make_reduce_then_scan<T>(runtime, config);
  if (resolved == "chunks") return scanning::make_chunk_scan<T>(runtime, config);
  if (variant == "default") {
    // The look-back kernel is inline PTX; should a driver refuse it, the default still scans.
    try {
      return scanning::make_lookback_scan<T>(runtime, config);
    } catch (const Error& error) {
      std::cerr << "scan: the look-back kernel does not build on " << runtime.device_name()
                << "; using reduce-then-scan: " << error.what() << "\n";
      return scanning::make_reduce_then_scan<T>(runtime, config);
    }
  }
  return scanning::make_lookback_scan<T>(runtime, config);
}

}  // namespace

template <typename T>
Scan<T>::Scan(Runtime& runtime, const std::string& variant)
    : Scan(runtime, variant, tuning_for(runtime.device()).scan) {}

template <typename T>
Scan<T>::Scan(Runtime& runtime, const std::string& variant, const ScanConfig& config)
    : algorithm_(make_algorithm<T>(runtime, variant, config)) {}

template <typename T>
Scan<T>::~Scan() = default;
template <typename T>
Scan<T>::Scan(Scan&&) noexcept = default;
template <typename T>
Scan<T>& Scan<T>::operator=(Scan&&) noexcept = default;

template <typename T>
const std::string& Scan<T>::variant() const {
  return algorithm_->variant();
}

template <typename T>
Runtime& Scan<T>::runtime() const {
  return algorithm_->runtime();
}

template <typename T>
void Scan<T>::run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output, ScanType type) {
  if (input.size() != output.size()) {
    throw Error("scan: the input holds " + std::to_string(input.size()) + " elements, the output " +
                std::to_string(output.size()) + "; they must match (or give a count)");
  }
  run(input, output, input.size(), type);
}

template <typename T>
void Scan<T>::run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output, std::size_t count,
                  ScanType type) {
  detail::check_buffers("scan", runtime(), input, input.size(), output, output.size(), count);
  if (count == 0) return;
  algorithm_->run(input, output, count, type);
}

template <typename T>
std::vector<T> Scan<T>::run(const std::vector<T>& input, ScanType type) {
  if (input.size() > kMaxScanElements) {
    throw Error("scan: " + std::to_string(input.size()) + " elements is more than the " +
                std::to_string(kMaxScanElements) + " this implementation handles");
  }
  if (input.empty()) return {};
  DeviceBuffer<T> device_input(runtime(), input.size());
  DeviceBuffer<T> device_output(runtime(), input.size());
  device_input.write(input);
  run(device_input, device_output, type);
  return device_output.read();
}

template class Scan<std::int32_t>;
template class Scan<std::uint32_t>;
template class Scan<float>;

template <typename T>
std::vector<T> inclusive_scan(const std::vector<T>& input, const std::string& variant) {
  return Scan<T>(variant).run(input, ScanType::inclusive);
}

template <typename T>
std::vector<T> exclusive_scan(const std::vector<T>& input, const std::string& variant) {
  return Scan<T>(variant).run(input, ScanType::exclusive);
}

template std::vector<std::int32_t> inclusive_scan(const std::vector<std::int32_t>&,
                                                  const std::string&);
template std::vector<std::uint32_t> inclusive_scan(const std::vector<std::uint32_t>&,
                                                   const std::string&);
template std::vector<float> inclusive_scan(const std::vector<float>&, const std::string&);
template std::vector<std::int32_t> exclusive_scan(const std::vector<std::int32_t>&,
                                                  const std::string&);
template std::vector<std::uint32_t> exclusive_scan(const std::vector<std::uint32_t>&,
                                                   const std::string&);
template std::vector<float> exclusive_scan(const std::vector<float>&, const std::string&);

}  // namespace clf::primitives

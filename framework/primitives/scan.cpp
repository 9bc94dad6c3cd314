#include "framework/primitives/scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <limits>

#include "framework/error.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

constexpr std::size_t kBlocksWorkGroup = 256;  // Gruber's work-group size for the block scans

template <typename T>
const char* device_type() {
  return DeviceTypeName<T>::value;
}

cl_uint as_uint(std::size_t value) { return static_cast<cl_uint>(value); }

}  // namespace

const std::vector<std::string>& scan_variants() {
  static const std::vector<std::string> names{
      "default", "naive", "blelloch", "blocks", "blocks-vec", "reduce-then-scan", "lookback"};
  return names;
}

std::vector<std::string> scan_variants(const DeviceInfo& device) {
  std::vector<std::string> names;
  for (const std::string& name : scan_variants()) {
    if (name != "lookback" || has_forward_progress(device)) names.push_back(name);
  }
  return names;
}

std::string resolve_scan_variant(const std::string& variant, const DeviceInfo& device) {
  const auto& names = scan_variants();
  if (std::find(names.begin(), names.end(), variant) == names.end()) {
    throw unknown_variant("scan", variant, names);
  }
  if (variant == "default") {
    return has_forward_progress(device) ? "lookback" : "reduce-then-scan";
  }
  if (variant == "lookback" && !has_forward_progress(device)) {
    throw Error("scan variant 'lookback' needs forward progress between work-groups, which " +
                device.name + " (" + device.vendor +
                ") does not guarantee: a waiting work-group could starve the one it waits "
                "for and hang. Use 'default' or 'reduce-then-scan' there.");
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
    const std::string type = device_type<T>();
    return CLKernel(runtime_, kernel_source(file), name,
                    "-DT=" + type + " -DAS_T=as_" + type + (options.empty() ? "" : " " + options));
  }

  Runtime& runtime_;
  std::string variant_;
};

namespace {

template <typename T>
using Algorithm = typename Scan<T>::Algorithm;

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

template <typename T>
class ReduceThenScan : public Algorithm<T> {
 public:
  ReduceThenScan(Runtime& runtime, const ScanConfig& config)
      : Algorithm<T>(runtime, "reduce-then-scan"),
        shape_(config.tile),
        reduce_(tiled_kernel("rts_reduce")),
        scan_sums_(tiled_kernel("rts_scan_group_sums")),
        scan_(tiled_kernel("rts_scan")) {}

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    const detail::GroupSplit split =
        detail::split_tiles(this->runtime_.device(), ceil_div(n, shape_.tile()));
    DeviceBuffer<T>& sums = detail::ensure_buffer(sums_, this->runtime_, split.groups);
    const Range groups = Range::linear(split.groups * shape_.work_group, shape_.work_group);
    const cl_uint tiles_per_group = as_uint(split.tiles_per_group);
    reduce_(groups, in, sums, as_uint(n), tiles_per_group);
    scan_sums_(Range::linear(shape_.work_group, shape_.work_group), sums, as_uint(split.groups));
    scan_(groups, in, out, sums, as_uint(n), tiles_per_group, cl_uint{type == ScanType::inclusive});
  }

 private:
  CLKernel tiled_kernel(const char* name) {
    return CLKernel(this->runtime_, kernel_source("kernels/primitives/scan/reduce_then_scan.cl"),
                    name, detail::scan_build_options<T>(shape_));
  }

  detail::TileShape shape_;
  CLKernel reduce_;
  CLKernel scan_sums_;
  CLKernel scan_;
  std::unique_ptr<DeviceBuffer<T>> sums_;
};

template <typename T>
class LookbackScan : public Algorithm<T> {
 public:
  LookbackScan(Runtime& runtime, const ScanConfig& config)
      : Algorithm<T>(runtime, "lookback"),
        shape_(config.lookback_tile),
        scan_(runtime, kernel_source("kernels/primitives/scan/lookback.cl"), "lookback_scan",
              lookback_options(shape_, config.lookback_options)),
        ticket_(runtime, 1) {
    ticket_.write({0});
  }

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    const std::size_t tiles = ceil_div(n, shape_.tile());
    if (!status_ || status_->size() < tiles || epoch_ >= kLastEpoch) {
      // New or stale status words must read as "not published": all zero, epoch 0.
      detail::ensure_buffer(status_, this->runtime_, tiles);
      status_->write(std::vector<cl_ulong>(status_->size(), 0));
      epoch_ = 0;
    }
    ++epoch_;
    const cl_uint first_ticket = next_ticket_;
    next_ticket_ += as_uint(tiles);  // wraps like the device's counter
    scan_(Range::linear(tiles * shape_.work_group, shape_.work_group), in, out, *status_, ticket_,
          as_uint(n), first_ticket, epoch_, cl_uint{type == ScanType::inclusive});
  }

 private:
  // The kernel's warp operations are inline PTX (-DCLF_PTX): this variant runs only where
  // has_forward_progress() holds, that is on NVIDIA GPUs.
  static std::string lookback_options(const detail::TileShape& shape, const std::string& extra) {
    return detail::scan_build_options<T>(shape) + " -DCLF_PTX" + (extra.empty() ? "" : " " + extra);
  }

  static constexpr cl_uint kLastEpoch = (1U << 30) - 1;  // the status word keeps 30 bits

  detail::TileShape shape_;
  CLKernel scan_;
  DeviceBuffer<cl_uint> ticket_;
  std::unique_ptr<DeviceBuffer<cl_ulong>> status_;
  cl_uint next_ticket_ = 0;
  cl_uint epoch_ = 0;
};

template <typename T>
std::unique_ptr<Algorithm<T>> make_algorithm(Runtime& runtime, const std::string& variant,
                                             const ScanConfig& config) {
  config.check(runtime.device());
  const std::string resolved = resolve_scan_variant(variant, runtime.device());
  if (resolved == "naive") return std::make_unique<NaiveScan<T>>(runtime);
  if (resolved == "blelloch") return std::make_unique<BlellochScan<T>>(runtime);
  if (resolved == "blocks") return std::make_unique<BlocksScan<T>>(runtime, false);
  if (resolved == "blocks-vec") return std::make_unique<BlocksScan<T>>(runtime, true);
  if (resolved == "reduce-then-scan") return std::make_unique<ReduceThenScan<T>>(runtime, config);
  if (variant == "default") {
    // The look-back kernel is inline PTX; should a driver refuse it, the default still scans.
    try {
      return std::make_unique<LookbackScan<T>>(runtime, config);
    } catch (const Error& error) {
      std::cerr << "scan: the look-back kernel does not build on " << runtime.device_name()
                << "; using reduce-then-scan: " << error.what() << "\n";
      return std::make_unique<ReduceThenScan<T>>(runtime, config);
    }
  }
  return std::make_unique<LookbackScan<T>>(runtime, config);
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

// The tiled scans: reduce-then-scan (portable, three launches) and the single-pass scan with a
// decoupled look-back (NVIDIA GPUs), both cutting the input into tiles of a ScanConfig's shape.
#include <algorithm>
#include <vector>

#include "framework/primitives/scan_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::scanning {

namespace {

TileShape checked_tile(const DeviceInfo& device, const ScanConfig& config) {
  config.check_tile(device);
  return config.tile;
}

const ScanConfig& checked_lookback_tiles(const DeviceInfo& device, const ScanConfig& config) {
  config.check_lookback_tile(device);
  return config;
}

template <typename T>
class ReduceThenScan : public Algorithm<T> {
 public:
  ReduceThenScan(Runtime& runtime, const ScanConfig& config)
      : Algorithm<T>(runtime, "reduce-then-scan"),
        shape_(checked_tile(runtime.device(), config)),
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
        config_(checked_lookback_tiles(runtime.device(), config)),
        scan_(lookback_kernel(config_.lookback_tile, false)),
        ticket_(runtime, 1) {
    ticket_.write({0});
  }

  void run(const DeviceBuffer<T>& in, DeviceBuffer<T>& out, std::size_t n, ScanType type) override {
    const bool large = n >= config_.lookback_large_from;
    const detail::TileShape& shape = large ? config_.lookback_large_tile : config_.lookback_tile;
    const std::size_t tiles = ceil_div(n, shape.tile());
    // Pipelined groups on large inputs where configured, never more of them than tiles.
    const bool pipelined = large && config_.lookback_groups_per_cu != 0;
    const std::size_t groups =
        pipelined ? std::min(tiles, config_.lookback_groups_per_cu *
                                        std::max(1U, this->runtime_.device().compute_units))
                  : tiles;
    CLKernel& scan = large ? large_kernel(pipelined) : scan_;
    if (!status_ || status_->size() < tiles || epoch_ >= kLastEpoch) {
      // New or stale status words must read as "not published": all zero, epoch 0.
      detail::ensure_buffer(status_, this->runtime_, tiles);
      status_->write(std::vector<cl_ulong>(status_->size(), 0));
      epoch_ = 0;
    }
    ++epoch_;
    const cl_uint first_ticket = next_ticket_;
    // A pipelined group takes one ticket past the last tile; the counter wraps like this one.
    next_ticket_ += as_uint(pipelined ? tiles + groups : tiles);
    scan(Range::linear(groups * shape.work_group, shape.work_group), in, out, *status_, ticket_,
         as_uint(n), first_ticket, epoch_, cl_uint{type == ScanType::inclusive});
  }

 private:
  // The kernel for inputs from lookback_large_from on, built on the first of them (the small
  // tile's own where the shape and the launch are the same).
  CLKernel& large_kernel(bool pipelined) {
    const detail::TileShape& shape = config_.lookback_large_tile;
    if (!pipelined && shape.work_group == config_.lookback_tile.work_group &&
        shape.items == config_.lookback_tile.items) {
      return scan_;
    }
    if (!large_scan_) large_scan_ = std::make_unique<CLKernel>(lookback_kernel(shape, pipelined));
    return *large_scan_;
  }

  // The kernel's warp operations are inline PTX (-DCLF_PTX): this variant runs only where
  // lookback_scan_runs_on() holds, that is on NVIDIA GPUs.
  CLKernel lookback_kernel(const detail::TileShape& shape, bool pipelined) {
    const std::string& extra = config_.lookback_options;
    return CLKernel(
        this->runtime_, kernel_source("kernels/primitives/scan/lookback.cl"),
        pipelined ? "lookback_scan_pipelined" : "lookback_scan",
        detail::scan_build_options<T>(shape) + " -DCLF_PTX" + (extra.empty() ? "" : " " + extra));
  }

  static constexpr cl_uint kLastEpoch = (1U << 30) - 1;  // the status word keeps 30 bits

  ScanConfig config_;
  CLKernel scan_;                         // below lookback_large_from
  std::unique_ptr<CLKernel> large_scan_;  // from lookback_large_from, built on the first input
  DeviceBuffer<cl_uint> ticket_;
  std::unique_ptr<DeviceBuffer<cl_ulong>> status_;
  cl_uint next_ticket_ = 0;
  cl_uint epoch_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<Algorithm<T>> make_reduce_then_scan(Runtime& runtime, const ScanConfig& config) {
  return std::make_unique<ReduceThenScan<T>>(runtime, config);
}
template <typename T>
std::unique_ptr<Algorithm<T>> make_lookback_scan(Runtime& runtime, const ScanConfig& config) {
  return std::make_unique<LookbackScan<T>>(runtime, config);
}

#define CLF_INSTANTIATE_TILED_SCANS(T)                                                          \
  template std::unique_ptr<Algorithm<T>> make_reduce_then_scan<T>(Runtime&, const ScanConfig&); \
  template std::unique_ptr<Algorithm<T>> make_lookback_scan<T>(Runtime&, const ScanConfig&);
CLF_INSTANTIATE_TILED_SCANS(std::int32_t)
CLF_INSTANTIATE_TILED_SCANS(std::uint32_t)
CLF_INSTANTIATE_TILED_SCANS(float)
#undef CLF_INSTANTIATE_TILED_SCANS

}  // namespace clf::primitives::scanning

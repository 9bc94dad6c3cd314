// The primitives' tuning parameters, as data: one config struct per tunable primitive, passed to
// its constructor, and one table of defaults per kind of device (tuning.cpp). The routines read
// no environment; experiments (cl-bench, sort-probe) build configs of their own and pass them in.
// The figures behind each default are in docs/sort.md, docs/scan.md and docs/matmul.md.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "framework/device.hpp"

namespace clf::primitives {

// The kinds of device the table tells apart.
enum class DeviceClass { nvidia_gpu, other_gpu, cpu, other };
DeviceClass device_class(const DeviceInfo& device);
const char* to_string(DeviceClass device_class);

// How a tiled kernel cuts its input: work-items per group, values per work-item.
struct TileShape {
  std::size_t work_group = 256;
  std::size_t items = 16;
  std::size_t tile() const { return work_group * items; }
  // "128x32", as parse() reads it.
  std::string to_string() const;
  // Reads "WORKGROUPxITEMS"; throws Error when malformed.
  static TileShape parse(const std::string& text);
};

// How an algorithm lays its input over the device. tiles: many work-items of a work-group share
// each tile through local memory (GPUs). chunks: each work-item of a one-item work-group walks a
// long contiguous chunk with vector loads, no local memory and no barriers (CPUs, where a
// work-group runs on one core and its work-items in a loop; docs/primitives.md).
enum class Layout { tiles, chunks };
const char* to_string(Layout layout);

// The chunk layout's grid: `per_core` chunks per compute unit (a small multiple, so that a core
// slowed by other work does not hold the others back), each at least `min_items` long.
struct ChunkShape {
  std::size_t per_core = 4;
  std::size_t min_items = 16384;
  // How many chunks n values take on `device`: at least 1.
  std::size_t chunks(const DeviceInfo& device, std::size_t n) const;
};

struct ScanConfig {
  // What "default" runs where look-back cannot: reduce-then-scan (tiles) or chunks.
  Layout layout = Layout::tiles;
  ChunkShape chunks;
  // reduce-then-scan: a power-of-two work-group, 4, 8, 16 or 32 items.
  TileShape tile{128, 32};
  // lookback: a power-of-two work-group of at least 32, items a multiple of 4 up to 64; the
  // large tile from lookback_large_from values on, where half as many tiles to chain pays,
  // the smaller one below, where more tiles in flight do (docs/scan.md).
  TileShape lookback_tile{128, 32};
  TileShape lookback_large_tile{256, 32};
  std::size_t lookback_large_from = std::size_t{1} << 25;
  // From lookback_large_from on: one work-group per tile (0), or this many pipelined persistent
  // work-groups per compute unit (lookback.cl's lookback_scan_pipelined).
  std::size_t lookback_groups_per_cu = 0;
  // Extra build options of the look-back kernels (experiments: -DFIRST_DELAY=ns, -DBACKOFF=ns,
  // -DDELAY_MIN_TILES=n, -DWINDOW=tiles, -DPIPELINED_WINDOW=tiles).
  std::string lookback_options;
  // Throw Error naming the rule a shape breaks, or a work-group larger than `device` allows:
  // the reduce-then-scan tile, the look-back tiles, all.
  void check_tile(const DeviceInfo& device) const;
  void check_lookback_tile(const DeviceInfo& device) const;
  void check(const DeviceInfo& device) const;
};

struct CompactConfig {
  Layout layout = Layout::tiles;
  ChunkShape chunks;
  // The compaction kernels give each work-item consecutive values: 4, 8, 16 or 32 items.
  TileShape tile{256, 16};
  void check(const DeviceInfo& device) const;
};

struct ReduceConfig {
  // What the "default" reduction runs: vector loads over a device-filling grid of work-groups
  // with a local-memory tree (tiles), or one partial per chunk (chunks).
  Layout layout = Layout::tiles;
  ChunkShape chunks;
};

// How the radix sort ranks a tile by its digit (docs/sort.md): two 4-bit splits in local memory
// (portable), or warp multi-split (inline PTX on NVIDIA, emulated with barriers elsewhere).
enum class SortRanking { split, warp_match };

// Key-value tiles beyond the 48 KiB of local memory devices report: the shape, the local memory
// a tile's arrays may take (where keys, values and counters fit it, the ranked values get a local
// array of their own and go out with the keys; otherwise they follow the keys through the keys'
// array) and a register cap on NVIDIA (-clf-nv-maxnreg; 0: none).
struct LargeTiles {
  TileShape shape{0, 0};  // a work-group of 0: none
  std::size_t local_bytes = 0;
  unsigned registers = 0;
  bool enabled() const { return shape.work_group != 0; }
  // "512x16/98304/64", as parse() reads it, or "none".
  std::string to_string() const;
  // Reads "WORKGROUPxITEMS/BYTES/REGISTERS" or "none"; throws Error when malformed.
  static LargeTiles parse(const std::string& text);
};

struct SortConfig {
  // Tile kernels: work-items per group (a multiple of 32, up to 1024) and keys per work-item
  // (at least 8; a tile of at most 16384 keys), by key kind (uint32, int32, float32), keys only
  // and with values.
  std::size_t work_group = 256;
  std::array<std::size_t, 3> items{28, 28, 28};
  std::array<std::size_t, 3> items_with_values{20, 20, 20};
  // Unrolled per-item loops (arrays in registers on GPUs; PoCL compiles much faster without).
  bool unroll = true;
  SortRanking ranking = SortRanking::split;
  // Onesweep with warp ranking, keys only: the first pass unstable, its tiles placed by one global
  // atomic a digit instead of the look-back (radix_onesweep_unstable; 12 % faster a first pass,
  // 2.8 % a sort at 2^28 on the H200).
  bool unstable_first_pass = true;
  // Keys per work-item of the unstable first pass's tiles (0: as `items`); it needs fewer
  // registers than the stable passes, so larger tiles can pay there.
  std::size_t first_pass_items = 0;
  // Warp ranking: the tile's keys kept in their own bits from load to store, each use taking the
  // digit of the ordered bits, rather than mapped to ordered bits on load, by key kind (uint32's
  // bits are ordered either way). Needs one program per key kind.
  std::array<bool, 3> raw_tile_keys{false, false, false};
  // Warp ranking, key-value: tiles in more local memory than devices report, by key kind
  // (NVIDIA's driver reports 48 KiB but runs work-groups with more where the GPU has it), used
  // where a sort has one for every compute unit. A device whose compiler or driver refuses them
  // sorts in work_group x items_with_values instead.
  std::array<LargeTiles, 3> large_tiles_with_values{};
  // Onesweep key-value: the passes read and write keys and values interleaved, as (key, value)
  // pairs, between the caller's buffers (10 % faster a sort at 2^28 on the H200, for twice the
  // scratch memory; sorts that would take more than half the device's memory do without).
  bool pair_passes = true;
  // Onesweep: status words read at once per look-back step; global-histogram work-groups per
  // compute unit.
  std::size_t lookback_window = 4;
  std::size_t histogram_groups_per_cu = 8;
  // One program per key kind (the kind a compile-time constant) or one shared by the three
  // (PoCL compiles slowly).
  bool program_per_key_kind = true;
  // Extra build options of the radix kernels (experiments, e.g. -clf-nv-maxnreg=N).
  std::string build_options;
  // Throws Error naming the rule broken.
  void check() const;
};

// Tile sizes of the default matmul: a work-group of (bn / tn) x (bm / tm) work-items computes a
// bm x bn tile of C, stepping bk along K; each work-item computes tm x tn elements.
struct MatmulTiling {
  unsigned bm = 64;
  unsigned bn = 64;
  unsigned bk = 16;
  unsigned tm = 4;
  unsigned tn = 4;

  unsigned work_group_size() const { return (bm / tm) * (bn / tn); }
  // Bytes of local memory the kernel declares (two buffers of each piece).
  std::size_t local_bytes() const;
  // "128x128x16/8x8", as parse() reads it.
  std::string to_string() const;
  // Reads "BMxBNxBK/TMxTN" (e.g. "128x128x16/8x8"); throws Error when malformed.
  static MatmulTiling parse(const std::string& text);
  // Throws Error naming the rule broken (multiples of 4, tiles dividing, loads per work-item,
  // local memory and work-group size of `device`).
  void check(const DeviceInfo& device) const;
};

// Shape of the tf32x3 matmul (tensor cores): a work-group of warps_m x warps_n warps computes a
// bm() x bn() tile of C, stepping bk along K; each warp tiles_m x tiles_n fragments of 16 x 8.
// The products of partial_steps steps are summed on the tensor cores, then added in fp32 (0: all
// summed on the tensor cores, whose additions truncate).
struct Tf32x3Tiling {
  unsigned warps_m = 2;
  unsigned warps_n = 2;
  unsigned tiles_m = 4;
  unsigned tiles_n = 4;
  unsigned bk = 16;
  unsigned partial_steps = 4;

  unsigned bm() const { return 16 * tiles_m * warps_m; }
  unsigned bn() const { return 8 * tiles_n * warps_n; }
  unsigned work_group_size() const { return 32 * warps_m * warps_n; }
  // Bytes of local memory the kernel declares; `emulated`: with the scratch of the portable
  // build (devices without the mma instruction).
  std::size_t local_bytes(bool emulated) const;
  // "2x2/4x4x16/1" (warps, fragments per warp and depth, partial steps), as parse() reads it.
  std::string to_string() const;
  // Reads "WMxWN/TMxTNxBK/S"; throws Error when malformed.
  static Tf32x3Tiling parse(const std::string& text);
  // Throws Error naming the rule broken (BK a multiple of 8, loads per work-item, local memory
  // and work-group size of `device`).
  void check(const DeviceInfo& device) const;
};

struct MatmulConfig {
  MatmulTiling tiling;
  Tf32x3Tiling tf32x3;
  // The default variant is tf32x3 (on NVIDIA GPUs only), else register-tiles.
  bool tensor_cores = false;
};

// One row of the tuning table.
struct Tuning {
  SortConfig sort;
  ScanConfig scan;
  CompactConfig compact;
  ReduceConfig reduce;
  MatmulConfig matmul;
};

// The table's row for `device`.
const Tuning& tuning_for(const DeviceInfo& device);

}  // namespace clf::primitives

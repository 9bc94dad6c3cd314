#include "framework/primitives/tuning.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "framework/error.hpp"

namespace clf::primitives {

namespace {

bool mentions_nvidia(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text.find("nvidia") != std::string::npos;
}

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Throws unless `shape` has a power-of-two work-group of at least `min_group` that `device`
// allows and items that `items_ok` accepts (`items_text` says which).
template <typename ItemsOk>
void check_shape(const char* what, const TileShape& shape, const DeviceInfo& device,
                 std::size_t min_group, ItemsOk items_ok, const char* items_text) {
  if (shape.work_group < min_group || !is_power_of_two(shape.work_group) ||
      !items_ok(shape.items)) {
    throw Error(std::string(what) + " " + shape.to_string() + ": expected a power of two of at " +
                "least " + std::to_string(min_group) + " work-items times " + items_text);
  }
  if (device.max_work_group_size != 0 && shape.work_group > device.max_work_group_size) {
    throw Error(std::string(what) + ": a work-group of " + std::to_string(shape.work_group) +
                " is larger than " + device.name + " allows (" +
                std::to_string(device.max_work_group_size) + ")");
  }
}

bool four_to_thirty_two(std::size_t items) {
  return items == 4 || items == 8 || items == 16 || items == 32;
}

// What the radix sort's tile kernels take: a work-group of `group` with `fewest` to `most` keys
// per work-item; kSortTilesNeed says it.
bool sort_tiles_fit(std::size_t group, std::size_t fewest, std::size_t most) {
  return group != 0 && group % 32 == 0 && group <= 1024 && fewest >= 8 && group * most <= 16384;
}
constexpr const char* kSortTilesNeed =
    "a work-group of a multiple of 32 up to 1024, at least 8 items and a tile of at most 16384 "
    "keys";

// The defaults, by kind of device; docs/sort.md, docs/scan.md and docs/matmul.md have the
// measurements that chose them.
Tuning nvidia_gpu_tuning() {
  Tuning tuning;
  // From 2^21 values on, four pipelined work-groups of 256 x 32 a compute unit: 92-93 % of copy
  // at 2^28 on the H200 and 98 % on the H100, against 81 % and 90 % with one work-group per tile.
  tuning.scan.lookback_large_from = std::size_t{1} << 21;
  tuning.scan.lookback_groups_per_cu = 4;
  tuning.sort.ranking = SortRanking::warp_match;
  // Key-value tiles of 256 x 22: 4-5 % faster than 256 x 20 at 2^24 and 2^28 on the H200.
  tuning.sort.items_with_values = {22, 22, 22};
  // The unstable first pass in tiles of 256 x 32 (77 registers, 46 KiB): 0.86 ms against 0.93
  // at 2^28 on the H200, a sort 1.1-1.6 % faster at 2^26 and 2^28, the same at 2^20 and 2^24.
  tuning.sort.first_pass_items = 32;
  // int32 and float32 tile keys in their own bits: keys +8-10 % at 2^28 and +12-13 % at 2^24 on
  // the H200, +5-10 % and +14-17 % on the H100; with the values in registers, key-value int32 +6 %
  // and float32 +9 % on the H200, matching uint32 (H100: float32 +4 %, int32 -1 to -3 %;
  // docs/sort-log.md).
  tuning.sort.raw_tile_keys = {false, true, true};
  tuning.matmul.tiling = MatmulTiling{64, 128, 16, 8, 8};
  tuning.matmul.tensor_cores = true;
  return tuning;
}

// Hopper (compute capability 9.x: 227 KiB of local memory a work-group): key-value tiles of
// 512 x 16 with the values' own local array (87 KiB, more than the 48 KiB the driver reports,
// which it runs) under a register cap of 64, two work-groups an SM: on the H200 uint32 +2.5-4.1 %,
// int32 +4.6-4.9 % and float32 +2.8-3.0 % at 2^28 against 256 x 25 in 64 KiB (uint32) and
// 256 x 22 in 48 KiB (int32, float32), +0.4-3.0 % at 2^24, +12-16 % at 2^21; sorts with fewer
// such tiles than SMs keep 256 x 22 (docs/sort-log.md, fourteenth session).
Tuning nvidia_hopper_tuning() {
  Tuning tuning = nvidia_gpu_tuning();
  tuning.sort.large_tiles_with_values.fill(LargeTiles{TileShape{512, 16}, 98304, 64});
  return tuning;
}

// Other GPUs: the NVIDIA shapes, untested there, with the portable ranking (128 work-items and
// 24.5 KiB of local memory for matmul fit any current GPU) and the key-value tiles of before
// (256 x 22 and raw tile keys were measured with the warp ranking only).
Tuning other_gpu_tuning() {
  Tuning tuning = nvidia_gpu_tuning();
  tuning.sort.ranking = SortRanking::split;
  tuning.sort.items_with_values = SortConfig{}.items_with_values;
  tuning.sort.raw_tile_keys = SortConfig{}.raw_tile_keys;
  tuning.matmul.tensor_cores = false;
  return tuning;
}

// CPUs (measured with PoCL): scan, compaction and reduction in chunks, small sort tiles without
// unrolling, one sort program for the three key kinds, and a matmul tiling of 32x64x8/4x8.
Tuning cpu_tuning() {
  Tuning tuning;
  tuning.scan.layout = Layout::chunks;
  // The scan reads all but one of its G + 1 chunks twice: one chunk a core moves the least.
  tuning.scan.chunks.per_core = 1;
  tuning.compact.layout = Layout::chunks;
  tuning.reduce.layout = Layout::chunks;
  tuning.sort.work_group = 64;
  tuning.sort.items = {16, 16, 16};
  tuning.sort.items_with_values = {16, 16, 16};
  tuning.sort.unroll = false;
  tuning.sort.program_per_key_kind = false;
  tuning.matmul.tiling = MatmulTiling{32, 64, 8, 4, 8};
  return tuning;
}

// Accelerators and the unknown: the GPU sort and scan, a modest portable matmul tiling.
Tuning other_tuning() {
  Tuning tuning;
  tuning.matmul.tiling = MatmulTiling{64, 64, 16, 4, 4};
  return tuning;
}

}  // namespace

DeviceClass device_class(const DeviceInfo& device) {
  if (device.type == DeviceType::gpu) {
    return mentions_nvidia(device.vendor) || mentions_nvidia(device.platform_name)
               ? DeviceClass::nvidia_gpu
               : DeviceClass::other_gpu;
  }
  return device.type == DeviceType::cpu ? DeviceClass::cpu : DeviceClass::other;
}

const char* to_string(DeviceClass device_class) {
  switch (device_class) {
    case DeviceClass::nvidia_gpu:
      return "NVIDIA GPU";
    case DeviceClass::other_gpu:
      return "GPU";
    case DeviceClass::cpu:
      return "CPU";
    case DeviceClass::other:
      break;
  }
  return "other";
}

const Tuning& tuning_for(const DeviceInfo& device) {
  static const Tuning nvidia_gpu = nvidia_gpu_tuning();
  static const Tuning nvidia_hopper = nvidia_hopper_tuning();
  static const Tuning other_gpu = other_gpu_tuning();
  static const Tuning cpu = cpu_tuning();
  static const Tuning other = other_tuning();
  switch (device_class(device)) {
    case DeviceClass::nvidia_gpu:
      // Measured on the H200; other generations keep the common NVIDIA row.
      return device.nv_compute_capability / 10 == 9 ? nvidia_hopper : nvidia_gpu;
    case DeviceClass::other_gpu:
      return other_gpu;
    case DeviceClass::cpu:
      return cpu;
    case DeviceClass::other:
      break;
  }
  return other;
}

const char* to_string(Layout layout) { return layout == Layout::chunks ? "chunks" : "tiles"; }

std::size_t ChunkShape::chunks(const DeviceInfo& device, std::size_t n) const {
  const std::size_t most =
      std::max<std::size_t>(1, device.compute_units) * std::max<std::size_t>(1, per_core);
  const std::size_t length = std::max<std::size_t>(1, min_items);
  const std::size_t by_length = (n + length - 1) / length;
  return std::max<std::size_t>(1, std::min(most, by_length));
}

std::string TileShape::to_string() const {
  return std::to_string(work_group) + "x" + std::to_string(items);
}

TileShape TileShape::parse(const std::string& text) {
  unsigned long group = 0;
  unsigned long items = 0;
  char x = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%lu%c%lu%c", &group, &x, &items, &rest) != 3 || x != 'x') {
    throw Error("cannot read tile shape '" + text + "'; expected WORKGROUPxITEMS, e.g. 128x32");
  }
  return TileShape{group, items};
}

std::string LargeTiles::to_string() const {
  if (!enabled()) return "none";
  return shape.to_string() + "/" + std::to_string(local_bytes) + "/" + std::to_string(registers);
}

LargeTiles LargeTiles::parse(const std::string& text) {
  if (text == "none") return LargeTiles{};
  unsigned long group = 0;
  unsigned long items = 0;
  unsigned long bytes = 0;
  unsigned registers = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%lux%lu/%lu/%u%c", &group, &items, &bytes, &registers, &rest) !=
          4 ||
      group == 0) {
    throw Error("cannot read large tiles '" + text +
                "'; expected WORKGROUPxITEMS/BYTES/REGISTERS, e.g. 512x16/98304/64, or none");
  }
  return LargeTiles{TileShape{group, items}, bytes, registers};
}

void ScanConfig::check_tile(const DeviceInfo& device) const {
  check_shape("scan tile", tile, device, 1, four_to_thirty_two, "4, 8, 16 or 32");
}

void ScanConfig::check_lookback_tile(const DeviceInfo& device) const {
  const auto multiple_of_four = [](std::size_t items) {
    return items % 4 == 0 && items >= 4 && items <= 64;
  };
  check_shape("scan look-back tile", lookback_tile, device, 32, multiple_of_four,
              "a multiple of 4 up to 64");
  check_shape("scan look-back large tile", lookback_large_tile, device, 32, multiple_of_four,
              "a multiple of 4 up to 64");
  // The pipelined kernel parks a whole tile (4-byte values and a 4-byte offset per run of four)
  // in local memory, next to two small arrays of segment totals.
  const std::uint64_t parked = lookback_large_tile.tile() * 5 + 1024;
  if (lookback_groups_per_cu != 0 && device.local_memory_bytes != 0 &&
      parked > device.local_memory_bytes) {
    throw Error("scan look-back large tile " + lookback_large_tile.to_string() +
                ": pipelined work-groups park the tile in local memory and need " +
                std::to_string(parked) + " bytes, more than " + device.name + " has (" +
                std::to_string(device.local_memory_bytes) + ")");
  }
}

void ScanConfig::check(const DeviceInfo& device) const {
  check_tile(device);
  check_lookback_tile(device);
}

void CompactConfig::check(const DeviceInfo& device) const {
  check_shape("compaction tile", tile, device, 1, four_to_thirty_two, "4, 8, 16 or 32");
}

void SortConfig::check() const {
  const auto [fewest_keys, most_keys] = std::minmax_element(items.begin(), items.end());
  const auto [fewest_kv, most_kv] =
      std::minmax_element(items_with_values.begin(), items_with_values.end());
  std::size_t fewest = std::min(*fewest_keys, *fewest_kv);
  std::size_t most = std::max(*most_keys, *most_kv);
  if (first_pass_items != 0) {
    fewest = std::min(fewest, first_pass_items);
    most = std::max(most, first_pass_items);
  }
  if (!sort_tiles_fit(work_group, fewest, most)) {
    throw Error("sort: a work-group of " + std::to_string(work_group) + " and " +
                std::to_string(fewest) + " to " + std::to_string(most) +
                " items per work-item; the tile kernels need " + kSortTilesNeed);
  }
  if (!program_per_key_kind && (raw_tile_keys[0] || raw_tile_keys[1] || raw_tile_keys[2])) {
    throw Error(
        "sort: raw tile keys need one program per key kind (program_per_key_kind on): the "
        "kernels map them by the kind they were built for");
  }
  if (lookback_window == 0 || histogram_groups_per_cu == 0) {
    throw Error(
        "sort: the look-back window and the histogram work-groups per compute unit must "
        "be positive");
  }
  const char* const kinds[] = {"uint32", "int32", "float32"};
  for (std::size_t k = 0; k < 3; ++k) {
    const LargeTiles& large = large_tiles_with_values[k];
    if (!large.enabled()) continue;
    const std::string named =
        "sort: large key-value tiles " + large.to_string() + " for " + kinds[k] + " keys: ";
    const auto [group, items] = large.shape;
    if (!sort_tiles_fit(group, items, items)) throw Error(named + kSortTilesNeed);
    if (large.local_bytes < 49152 || large.local_bytes % 4 != 0) {
      throw Error(named + "local memory of a multiple of 4 bytes from 49152 on");
    }
    if (large.registers != 0 && (large.registers < 16 || large.registers > 255)) {
      throw Error(named + "a register cap of 0 (none) or 16 to 255");
    }
  }
}

}  // namespace clf::primitives

#include "apps/cl-bench/tuning_knobs.hpp"

#include <cstdlib>

#include "framework/environment.hpp"
#include "framework/error.hpp"

namespace bench {

namespace {

using clf::Error;

// A positive integer knob, or `fallback` when unset.
std::size_t size_knob(const KnobLookup& knobs, const char* name, std::size_t fallback) {
  const std::string text = knobs(name);
  if (text.empty()) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (value <= 0 || *end != '\0') {
    throw Error(std::string(name) + "='" + text + "' is not a positive integer");
  }
  return static_cast<std::size_t>(value);
}

// A 0/1 knob, or `fallback` when unset.
bool flag_knob(const KnobLookup& knobs, const char* name, bool fallback) {
  const std::string text = knobs(name);
  if (text.empty()) return fallback;
  if (text != "0" && text != "1") throw Error(std::string(name) + "='" + text + "' is not 0 or 1");
  return text == "1";
}

}  // namespace

KnobLookup environment_knobs() {
  return [](const char* name) { return clf::env_text(name); };
}

clf::primitives::SortConfig sort_config(const clf::DeviceInfo& device, const KnobLookup& knobs) {
  clf::primitives::SortConfig config = clf::primitives::tuning_for(device).sort;
  if (const std::string rank = knobs("CLF_SORT_RANK"); !rank.empty()) {
    if (rank != "split" && rank != "match") {
      throw Error("CLF_SORT_RANK='" + rank + "' (known: split, match)");
    }
    config.ranking = rank == "split" ? clf::primitives::SortRanking::split
                                     : clf::primitives::SortRanking::warp_match;
  }
  config.work_group = size_knob(knobs, "CLF_SORT_WG", config.work_group);
  for (std::size_t& items : config.items) items = size_knob(knobs, "CLF_SORT_ITEMS", items);
  config.items[2] = size_knob(knobs, "CLF_SORT_ITEMS_FLOAT", config.items[2]);
  for (std::size_t& items : config.items_with_values) {
    items = size_knob(knobs, "CLF_SORT_ITEMS_KV", items);
  }
  config.unstable_first_pass =
      flag_knob(knobs, "CLF_SORT_UNSTABLE_FIRST", config.unstable_first_pass);
  config.first_pass_items = size_knob(knobs, "CLF_SORT_ITEMS_FIRST", config.first_pass_items);
  for (bool& raw : config.raw_tile_keys) raw = flag_knob(knobs, "CLF_SORT_RAW_KEYS", raw);
  if (const std::string large = knobs("CLF_SORT_LARGE_KV"); !large.empty()) {
    config.large_tiles_with_values.fill(clf::primitives::LargeTiles::parse(large));
  }
  config.lookback_window = size_knob(knobs, "CLF_SORT_LOOKBACK", config.lookback_window);
  config.pair_passes = flag_knob(knobs, "CLF_SORT_PAIRS", config.pair_passes);
  config.histogram_groups_per_cu =
      size_knob(knobs, "CLF_SORT_HIST_GROUPS_PER_CU", config.histogram_groups_per_cu);
  config.build_options = knobs("CLF_SORT_OPTIONS");
  config.check();
  return config;
}

clf::primitives::ScanConfig scan_config(const clf::DeviceInfo& device, const KnobLookup& knobs) {
  clf::primitives::ScanConfig config = clf::primitives::tuning_for(device).scan;
  if (const std::string tile = knobs("CLF_SCAN_TILE"); !tile.empty()) {
    config.tile = clf::primitives::TileShape::parse(tile);
  }
  if (const std::string tile = knobs("CLF_SCAN_LOOKBACK_TILE"); !tile.empty()) {
    config.lookback_tile = clf::primitives::TileShape::parse(tile);  // at every size
    config.lookback_large_tile = config.lookback_tile;
  }
  config.lookback_options = knobs("CLF_SCAN_LOOKBACK_OPTIONS");
  config.lookback_groups_per_cu =
      size_knob(knobs, "CLF_SCAN_LOOKBACK_GROUPS_PER_CU", config.lookback_groups_per_cu);
  config.lookback_large_from =
      size_knob(knobs, "CLF_SCAN_LOOKBACK_LARGE_FROM", config.lookback_large_from);
  config.chunks.per_core = size_knob(knobs, "CLF_SCAN_CHUNKS_PER_CORE", config.chunks.per_core);
  config.chunks.min_items = size_knob(knobs, "CLF_SCAN_CHUNK_MIN", config.chunks.min_items);
  config.check(device);
  return config;
}

clf::primitives::MatmulConfig matmul_config(const clf::DeviceInfo& device,
                                            const KnobLookup& knobs) {
  clf::primitives::MatmulConfig config = clf::primitives::tuning_for(device).matmul;
  if (const std::string tiling = knobs("CLF_MATMUL_TILING"); !tiling.empty()) {
    config.tiling = clf::primitives::MatmulTiling::parse(tiling);
  }
  if (const std::string tiling = knobs("CLF_MATMUL_TF32X3"); !tiling.empty()) {
    config.tf32x3 = clf::primitives::Tf32x3Tiling::parse(tiling);
  }
  config.tiling.check(device);
  config.tf32x3.check(device);
  return config;
}

}  // namespace bench

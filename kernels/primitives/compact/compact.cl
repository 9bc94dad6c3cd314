// Stream compaction: the elements of in[] that satisfy a predicate, in their order, or their
// indices. Three steps around a scan of per-group counts: compact_count counts the selected
// elements of each group's tiles, the host scans the counts (exclusive), and compact_scatter
// ranks the selected elements of each tile (a work-group scan of per-work-item counts) and writes
// them from the group's offset. Tiles and groups are cut as in
// kernels/primitives/scan/reduce_then_scan.cl. Build options: those of
// kernels/primitives/scan/common.cl; WRITE_INDICES to write indices (uint) instead of the values.
#include "kernels/primitives/compact/predicate.cl"
#include "kernels/primitives/scan/common.cl"

#ifdef WRITE_INDICES
#define OUT_T uint
#else
#define OUT_T T
#endif

DEFINE_WG_EXCLUSIVE_SCAN(wg_exclusive_scan_uint, uint)

// One bit per item: bit k is set when items[k] (element first + k, below n) is selected.
inline uint selection_mask(const T* items, uint first, uint n, uint comparison, T value) {
  uint mask = 0;
#pragma unroll
  for (uint k = 0; k < ITEMS; ++k) {
    if (first + k < n && is_selected(items[k], comparison, value)) mask |= 1U << k;
  }
  return mask;
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void compact_count(
    const global T* in, global uint* group_counts, uint n, uint tiles_per_group, uint comparison,
    T value) {
  local uint scratch[WG_SIZE + SCAN_ROWS];
  const uint lid = get_local_id(0);
  const uint first_tile = get_group_id(0) * tiles_per_group;
  uint count = 0;
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint first = (first_tile + t) * TILE + lid * ITEMS;
    T items[ITEMS];
    load_items(in, first, n, items);
    count += popcount(selection_mask(items, first, n, comparison, value));
  }
  uint total;
  wg_exclusive_scan_uint(count, scratch, &total);
  if (lid == 0) group_counts[get_group_id(0)] = total;
}

// group_offsets: the exclusive scan of compact_count's counts. The last group also writes the
// number of selected elements to *selected_count.
kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void compact_scatter(
    const global T* in, const global uint* group_offsets, global OUT_T* out,
    global uint* selected_count, uint n, uint tiles_per_group, uint comparison, T value) {
  local uint scratch[WG_SIZE + SCAN_ROWS];
  const uint lid = get_local_id(0);
  const uint first_tile = get_group_id(0) * tiles_per_group;
  uint offset = group_offsets[get_group_id(0)];
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint tile_first = (first_tile + t) * TILE;
    if (tile_first >= n) break;  // the same for the whole group
    const uint first = tile_first + lid * ITEMS;
    T items[ITEMS];
    load_items(in, first, n, items);
    const uint mask = selection_mask(items, first, n, comparison, value);
    uint total;
    uint position = offset + wg_exclusive_scan_uint(popcount(mask), scratch, &total);
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) {
      if ((mask >> k) & 1U) {
#ifdef WRITE_INDICES
        out[position++] = first + k;
#else
        out[position++] = items[k];
#endif
      }
    }
    offset += total;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (get_group_id(0) == get_num_groups(0) - 1 && lid == 0) *selected_count = offset;
}

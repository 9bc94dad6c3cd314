// `reduce-then-scan`: the portable fast scan, three launches and no inter-group communication.
// The input is cut into tiles of TILE = WG_SIZE * ITEMS values (striped, see common.cl); group
// g owns `tiles_per_group` consecutive tiles. (1) each group sums its tiles; (2) one group scans
// those sums; (3) each group scans its tiles again, starting from its scanned sum. Reads the
// input twice.
#include "kernels/primitives/scan/common.cl"

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void rts_reduce(const global T* in,
                                                                            global T* group_sums,
                                                                            uint n,
                                                                            uint tiles_per_group) {
  local T scratch[WG_SIZE + SCAN_ROWS];
  const uint first_tile = get_group_id(0) * tiles_per_group;
  T sum = 0;
  for (uint t = 0; t < tiles_per_group; ++t) {
    T4 runs[CHUNKS];
    load_runs(in, (first_tile + t) * TILE, n, runs);
    sum += sum_runs(runs);
  }
  T total;
  wg_exclusive_scan(sum, scratch, &total);
  if (get_local_id(0) == 0) group_sums[get_group_id(0)] = total;
}

// One work-group: exclusive scan of values[0..count) in place, TILE values at a time.
kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void rts_scan_group_sums(
    global T* values, uint count) {
  local T scratch[WG_SIZE + SCAN_ROWS];
  const uint lid = get_local_id(0);
  T carry = 0;
  for (uint tile_first = 0; tile_first < count; tile_first += TILE) {
    T items[ITEMS];
    const uint first = tile_first + lid * ITEMS;
    load_items(values, first, count, items);
    T total;
    const T before = wg_exclusive_scan(sum_items(items), scratch, &total);
    scan_items(items, carry + before, 0);
    store_items(values, first, count, items);
    carry += total;
    barrier(CLK_LOCAL_MEM_FENCE);  // scratch is reused by the next chunk
  }
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void rts_scan(
    const global T* in, global T* out, const global T* group_prefixes, uint n, uint tiles_per_group,
    uint inclusive) {
  local TQ scratch[WG_SIZE + SCAN_ROWS];
  const uint first_tile = get_group_id(0) * tiles_per_group;
  T carry = group_prefixes[get_group_id(0)];
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint tile_first = (first_tile + t) * TILE;
    if (tile_first >= n) break;  // the same for the whole group
    T4 runs[CHUNKS];
    load_runs(in, tile_first, n, runs);
    T offsets[CHUNKS];
    const T total = scan_run_sums(runs, scratch, offsets);
    scan_runs(runs, offsets, carry, inclusive);
    store_runs(out, tile_first, n, runs);
    carry += total;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

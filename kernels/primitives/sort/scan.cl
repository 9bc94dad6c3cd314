// Exclusive prefix sum of uint counts, used by the radix sorts to turn digit histograms into
// scatter offsets. Blocks of SCAN_WG * SCAN_ITEMS elements are scanned in local memory; the host
// scans the block sums the same way (recursively) and adds them back.
#include "kernels/primitives/sort/common.cl"

#ifndef SCAN_WG
#define SCAN_WG 256
#endif
#define SCAN_ITEMS 8
#define SCAN_BLOCK (SCAN_WG * SCAN_ITEMS)

__kernel __attribute__((reqd_work_group_size(SCAN_WG, 1, 1))) void scan_blocks(
    __global uint* data, __global uint* block_sums, uint n) {
  __local uint scratch[SCAN_WG + 32];
  const uint lid = get_local_id(0);
  const ulong base = (ulong)get_group_id(0) * SCAN_BLOCK + (ulong)lid * SCAN_ITEMS;
  uint items[SCAN_ITEMS];
  uint sum = 0;
  for (uint i = 0; i < SCAN_ITEMS; ++i) {
    items[i] = base + i < n ? data[base + i] : 0;
    sum += items[i];
  }
  uint total;
  uint prefix = wg_exclusive_scan(sum, scratch, SCAN_WG, &total);
  for (uint i = 0; i < SCAN_ITEMS; ++i) {
    if (base + i < n) data[base + i] = prefix;
    prefix += items[i];
  }
  if (lid == 0) block_sums[get_group_id(0)] = total;
}

__kernel __attribute__((reqd_work_group_size(SCAN_WG, 1, 1))) void scan_add_block_offsets(
    __global uint* data, const __global uint* block_offsets, uint n) {
  const uint offset = block_offsets[get_group_id(0)];
  const ulong base = (ulong)get_group_id(0) * SCAN_BLOCK + get_local_id(0);
  for (uint i = 0; i < SCAN_ITEMS; ++i) {
    const ulong index = base + (ulong)i * SCAN_WG;
    if (index < n) data[index] += offset;
  }
}

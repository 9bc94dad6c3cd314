// `blocks`: the recursive block scan of GPU Gems 3 ch. 39 and Gruber's ScanBlocks/AddSums.
// Each work-group scans a block of 2 * get_local_size(0) values in local memory (Blelloch) and
// writes the block's sum; the host scans the sums the same way, recursively, and adds them back.
#include "kernels/primitives/scan/common.cl"

// Scans one block of in[] into out[] (which may be the same buffer): inclusive or exclusive, and
// sums[group] = the block's total. Values at or beyond n count as zero and are not written.
kernel void scan_blocks(const global T* in, global T* out, global T* sums, uint n, uint inclusive,
                        local T* shared) {
  const uint lid = get_local_id(0);
  const uint first = get_group_id(0) * 2 * get_local_size(0) + 2 * lid;
  const T a = first < n ? in[first] : (T)0;
  const T b = first + 1 < n ? in[first + 1] : (T)0;
  shared[2 * lid] = a;
  shared[2 * lid + 1] = b;
  const T total = local_blelloch_exclusive(shared);
  if (lid == 0) sums[get_group_id(0)] = total;
  if (first < n) out[first] = inclusive ? shared[2 * lid] + a : shared[2 * lid];
  if (first + 1 < n) out[first + 1] = inclusive ? shared[2 * lid + 1] + b : shared[2 * lid + 1];
}

// out[i] += sums[i / block], the scanned sums of the blocks before i's.
kernel void add_block_sums(global T* out, const global T* sums, uint n, uint block) {
  const uint i = get_global_id(0);
  if (i < n) out[i] += sums[i / block];
}

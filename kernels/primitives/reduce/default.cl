// The fast reduction, pass 1 of 2: a grid sized to the device (a few work-groups per compute
// unit) streams the input with 16-byte vector loads, four in flight per work-item and
// iteration (16 elements), so the loop is bound by memory bandwidth, not by latency. Each
// work-group leaves one partial; reduce_partials (common.cl) with one group finishes.
// The input buffer is 16-byte aligned (OpenCL aligns buffer bases to at least that).
#include "kernels/primitives/reduce/common.cl"

#define REDUCE_UNROLL 4

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP_SIZE, 1, 1))) void reduce_default(
    const __global T* input, uint n, __global ACC* partial_values, __global uint* partial_indices) {
  __local ACC scratch_values[REDUCE_GROUP_SIZE];
  __local uint scratch_indices[REDUCE_GROUP_SIZE];
  const __global T4* vectors = (const __global T4*)input;
  const uint vector_count = n / 4;
  const uint stride = get_global_size(0);
  uint v = get_global_id(0);
  Partial mine = partial_identity();

  // Whole rounds: REDUCE_UNROLL independent loads per work-item before any is used.
  for (; v + (REDUCE_UNROLL - 1) * stride < vector_count; v += REDUCE_UNROLL * stride) {
    T4 loaded[REDUCE_UNROLL];
#pragma unroll
    for (uint k = 0; k < REDUCE_UNROLL; ++k) loaded[k] = vectors[v + k * stride];
#pragma unroll
    for (uint k = 0; k < REDUCE_UNROLL; ++k) {
      mine = partial_combine(mine, partial_of4(loaded[k], 4 * (v + k * stride)));
    }
  }
  for (; v < vector_count; v += stride) {
    mine = partial_combine(mine, partial_of4(vectors[v], 4 * v));
  }
  // The last n % 4 elements, one per work-item.
  const uint tail = vector_count * 4 + get_global_id(0);
  if (tail < n) mine = partial_combine(mine, partial_of(input[tail], tail));

  mine = group_reduce(mine, scratch_values, scratch_indices);
  store_partial(mine, get_group_id(0), partial_values, partial_indices);
}

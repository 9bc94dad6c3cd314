// The textbook two-pass reduction, pass 1: a fixed grid of work-groups, each work-item combines
// one element per step of a grid-stride loop, then a tree in __local memory leaves one partial
// per group; reduce_partials (common.cl) with one group finishes. No vector loads, no unrolling,
// no device-specific sizing: the baseline the default variant is measured against.
#include "kernels/primitives/reduce/common.cl"

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP_SIZE, 1, 1))) void reduce_two_pass(
    const __global T* input, uint n, __global ACC* partial_values, __global uint* partial_indices) {
  __local ACC scratch_values[REDUCE_GROUP_SIZE];
  __local uint scratch_indices[REDUCE_GROUP_SIZE];
  Partial mine = partial_identity();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    mine = partial_combine(mine, partial_of(input[i], i));
  }
  mine = group_reduce(mine, scratch_values, scratch_indices);
  store_partial(mine, get_group_id(0), partial_values, partial_indices);
}

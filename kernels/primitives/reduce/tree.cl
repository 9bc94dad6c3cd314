// Kloosterman's max/min tree as a whole-buffer reduction: every work-item combines two
// elements (one from each half of its group's block of 2 * REDUCE_GROUP_SIZE), then the group
// halves its active work-items each step in __local memory. Each pass shrinks the data by
// 2 * REDUCE_GROUP_SIZE; the host repeats reduce_partials (common.cl) the same way until one
// value is left, so 2^28 elements take four launches.
#include "kernels/primitives/reduce/common.cl"

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP_SIZE, 1, 1))) void reduce_tree(
    const __global T* input, uint n, __global ACC* partial_values, __global uint* partial_indices) {
  __local ACC scratch_values[REDUCE_GROUP_SIZE];
  __local uint scratch_indices[REDUCE_GROUP_SIZE];
  const uint first = get_group_id(0) * 2 * REDUCE_GROUP_SIZE + get_local_id(0);
  const uint second = first + REDUCE_GROUP_SIZE;
  Partial mine = partial_identity();
  if (first < n) mine = partial_of(input[first], first);
  if (second < n) mine = partial_combine(mine, partial_of(input[second], second));
  mine = group_reduce(mine, scratch_values, scratch_indices);
  store_partial(mine, get_group_id(0), partial_values, partial_indices);
}

// `blelloch`: the work-efficient scan in global memory (Gruber's UpSweep/DownSweep): the input
// is copied into a work buffer padded with zeros to a power of two, reduced up a tree one level
// per launch, the root cleared, and swept down one level per launch, giving an exclusive scan.
#include "kernels/primitives/scan/common.cl"

// work[i] = in[i] below n, 0 up to `padded`.
kernel void blelloch_load(const global T* in, global T* work, uint n, uint padded) {
  const uint i = get_global_id(0);
  if (i < padded) work[i] = i < n ? in[i] : (T)0;
}

// One up-sweep level: each work-item adds a left child into its right sibling (the parent).
kernel void blelloch_up(global T* work, uint offset) {
  const uint right = (get_global_id(0) + 1) * (offset << 1) - 1;
  work[right] += work[right - offset];
}

// One down-sweep level: the parent's value goes to the left child, the parent plus the old left
// child to the right. `root` marks the first level, whose parent (the root) counts as zero: this
// clears it without a separate launch.
kernel void blelloch_down(global T* work, uint offset, uint root) {
  const uint right = (get_global_id(0) + 1) * (offset << 1) - 1;
  const T parent = root ? (T)0 : work[right];
  const T left = work[right - offset];
  work[right - offset] = parent;
  work[right] = parent + left;
}

// out = the exclusive scan in `work`, plus the input for an inclusive scan.
kernel void blelloch_store(const global T* in, const global T* work, global T* out, uint n,
                           uint inclusive) {
  const uint i = get_global_id(0);
  if (i < n) out[i] = inclusive ? work[i] + in[i] : work[i];
}

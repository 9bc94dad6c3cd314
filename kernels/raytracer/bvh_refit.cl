// Bottom-up bounds: each leaf walks towards the root; at every internal node the first child
// to arrive stops (atomic flag) and the second, which then knows both children are done,
// writes the union and goes on. No work-item waits for another, so this is safe without
// forward progress between work-groups. Child bounds are read through volatile pointers so the
// second arrival sees what the first wrote (not a stale cached copy), and the first arrival's
// writes are fenced for the whole device before its flag.
#include "kernels/primitives/common/device_fence.cl"
#include "shared/raytracer/raytracer.h"

__kernel void rt_bvh_refit(uint count, __global RtBvhNode* nodes, __global volatile uint* ready) {
  const uint i = get_global_id(0);
  if (i >= count || count < 2) return;
  volatile __global RtBvhNode* volatile_nodes = (volatile __global RtBvhNode*)nodes;
  int node = nodes[count - 1 + i].parent;
  while (node >= 0) {
    device_fence();
    if (atomic_inc(&ready[node]) == 0) return;
    device_fence();
    const int left = volatile_nodes[node].left;
    const int right = volatile_nodes[node].right;
    const float4 left_min = volatile_nodes[left].bounds_min;
    const float4 left_max = volatile_nodes[left].bounds_max;
    const float4 right_min = volatile_nodes[right].bounds_min;
    const float4 right_max = volatile_nodes[right].bounds_max;
    volatile_nodes[node].bounds_min = rt_min3(left_min, right_min);
    volatile_nodes[node].bounds_max = rt_max3(left_max, right_max);
    node = volatile_nodes[node].parent;
  }
}

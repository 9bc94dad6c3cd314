// The radix tree over the sorted Morton codes (Karras 2012): one work-item per internal node
// finds its range and split (rt_karras_node) and links its children. Leaves are written from
// the sorted sphere order; every node's `ready` flag is reset for the bottom-up pass.
#include "shared/raytracer/raytracer.h"

__kernel void rt_bvh_leaves(__global const RtSphere* spheres, __global const uint* sorted_indices,
                            uint count, __global RtBvhNode* nodes, __global uint* ready) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const uint sphere = sorted_indices[i];
  RtBvhNode leaf = rt_leaf_node(spheres[sphere], (int)sphere);
  // A lone sphere is the root; otherwise the parent is set by rt_bvh_internal.
  nodes[count - 1 + i] = leaf;
  if (i + 1 < count) ready[i] = 0;
}

__kernel void rt_bvh_internal(__global const uint* sorted_codes, uint count,
                              __global RtBvhNode* nodes) {
  const int i = get_global_id(0);
  const int n = (int)count;
  if (i >= n - 1) return;
  int left;
  int right;
  rt_karras_node(sorted_codes, n, i, &left, &right);
  rt_link_internal_node(nodes, i, left, right);
}

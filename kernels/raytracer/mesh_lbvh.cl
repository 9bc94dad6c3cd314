// A mesh's BVH built on the device (a linear BVH, Karras 2012): Morton codes of the triangles'
// box centres, sorted (the primitives' radix sort), a radix tree over them, bounds bottom-up
// (bvh_refit.cl), then the layout the mesh traversal reads (RtMeshNode: an internal node's
// children side by side, leaves of up to max_leaf_size triangles). Boxes are (min, max) float4
// pairs.
#include "shared/raytracer/raytracer.h"

__kernel void rt_lbvh_morton(__global const float4* primitive_boxes, uint count,
                             __global const float4* scene_box, __global uint* codes,
                             __global uint* indices) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 scene_min = scene_box[0];
  const float4 inverse_extent = rt_inverse_extent(scene_min, scene_box[1]);
  const float4 c = 0.5f * (primitive_boxes[2 * i] + primitive_boxes[2 * i + 1]);
  codes[i] = rt_morton_code(rt_vec(c.x, c.y, c.z), scene_min, inverse_extent);
  indices[i] = i;
}

// Leaf i holds the i-th triangle in Morton order; `sphere` carries its index.
__kernel void rt_lbvh_leaves(__global const float4* primitive_boxes,
                             __global const uint* sorted_indices, uint count,
                             __global RtBvhNode* nodes, __global uint* ready) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  nodes[count - 1 + i] = rt_box_leaf(primitive_boxes, sorted_indices[i]);
  if (i + 1 < count) ready[i] = 0;
}

// Internal node i: its children, and the sorted positions it covers (for the leaf collapse).
__kernel void rt_lbvh_internal(__global const uint* sorted_codes, uint count,
                               __global RtBvhNode* nodes, __global int2* ranges) {
  const int i = get_global_id(0);
  const int n = (int)count;
  if (i >= n - 1) return;
  int left;
  int right;
  int range_first;
  int range_last;
  rt_karras_node_range(sorted_codes, n, i, &left, &right, &range_first, &range_last);
  rt_link_internal_node(nodes, i, left, right);
  ranges[i] = (int2)(range_first, range_last);
}

// Radix-tree node k goes to position 0 (the root) or 1 + 2 * parent (+1 for a right child), so
// internal node i's children sit at 1 + 2i and 2 + 2i. A node over max_leaf_size triangles or
// fewer becomes a leaf of its whole range of sorted positions (a range is contiguous); the
// nodes below it are left in the array, never reached.
__kernel void rt_lbvh_layout(__global const RtBvhNode* nodes, __global const int2* ranges,
                             uint count, int max_leaf_size, __global RtMeshNode* mesh_nodes) {
  const int k = get_global_id(0);
  const int n = (int)count;
  if (k >= 2 * n - 1) return;
  const RtBvhNode node = nodes[k];
  const int parent = node.parent;  // -1 only at the root
  const int position = parent < 0 ? 0 : 1 + 2 * parent + (nodes[parent].right == k ? 1 : 0);
  RtMeshNode out;
  out.bounds_min = node.bounds_min;
  out.bounds_max = node.bounds_max;
  out.pad0 = 0;
  out.pad1 = 0;
  if (k >= n - 1) {
    out.first = k - (n - 1);
    out.count = 1;
  } else {
    const int2 range = ranges[k];
    const int size = range.y - range.x + 1;
    out.first = size <= max_leaf_size ? range.x : 1 + 2 * k;
    out.count = size <= max_leaf_size ? size : 0;
  }
  mesh_nodes[position] = out;
}

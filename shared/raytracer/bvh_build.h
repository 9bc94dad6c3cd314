// BVH construction (Karras 2012), shared by the device build and the host reference.
#ifndef SHARED_RAYTRACER_BVH_BUILD_H
#define SHARED_RAYTRACER_BVH_BUILD_H

#include "shared/raytracer/vector.h"

// Spreads the low 10 bits of v so that two zero bits separate each.
CLF_FUNCTION cl_uint rt_expand_bits(cl_uint v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

// The 30-bit Morton code of point p in the box scene_min + [0, 1/inverse_extent]^3.
CLF_FUNCTION cl_uint rt_morton_code(cl_float4 p, cl_float4 scene_min, cl_float4 inverse_extent) {
  const cl_float fx = (p.x - scene_min.x) * inverse_extent.x;
  const cl_float fy = (p.y - scene_min.y) * inverse_extent.y;
  const cl_float fz = (p.z - scene_min.z) * inverse_extent.z;
  const cl_uint x = (cl_uint)rt_fminf(rt_fmaxf(fx * 1024.0f, 0.0f), 1023.0f);
  const cl_uint y = (cl_uint)rt_fminf(rt_fmaxf(fy * 1024.0f, 0.0f), 1023.0f);
  const cl_uint z = (cl_uint)rt_fminf(rt_fmaxf(fz * 1024.0f, 0.0f), 1023.0f);
  return (rt_expand_bits(x) << 2) | (rt_expand_bits(y) << 1) | rt_expand_bits(z);
}

// 1 / extent per axis, with flat axes mapped to 0 (every code 0 there).
CLF_FUNCTION cl_float4 rt_inverse_extent(cl_float4 scene_min, cl_float4 scene_max) {
  const cl_float4 extent = rt_sub(scene_max, scene_min);
  return rt_vec(extent.x > 0.0f ? 1.0f / extent.x : 0.0f, extent.y > 0.0f ? 1.0f / extent.y : 0.0f,
                extent.z > 0.0f ? 1.0f / extent.z : 0.0f);
}

CLF_FUNCTION cl_int rt_count_leading_zeros(cl_uint v) {
#if defined(__OPENCL_VERSION__)
  return (cl_int)clz(v);
#else
  return v == 0 ? 32 : __builtin_clz(v);
#endif
}

// Length of the common prefix of sorted keys i and j, with equal codes told apart by index
// (Karras's tie-break), or -1 when j is outside [0, n).
CLF_FUNCTION cl_int rt_common_prefix(RT_GLOBAL const cl_uint* codes, cl_int n, cl_int i, cl_int j) {
  if (j < 0 || j >= n) return -1;
  const cl_uint a = codes[i];
  const cl_uint b = codes[j];
  if (a != b) return rt_count_leading_zeros(a ^ b);
  return 32 + rt_count_leading_zeros((cl_uint)i ^ (cl_uint)j);
}

// Internal node i of the radix tree over n sorted codes: its children (leaves offset by n - 1)
// and the range of sorted positions [*range_first, *range_last] below it.
CLF_FUNCTION void rt_karras_node_range(RT_GLOBAL const cl_uint* codes, cl_int n, cl_int i,
                                       cl_int* left, cl_int* right, cl_int* range_first,
                                       cl_int* range_last) {
  // Direction of the node's range: towards the neighbour sharing the longer prefix.
  const cl_int d =
      rt_common_prefix(codes, n, i, i + 1) - rt_common_prefix(codes, n, i, i - 1) > 0 ? 1 : -1;
  const cl_int delta_min = rt_common_prefix(codes, n, i, i - d);
  // Upper bound of the range's length, then its exact other end by binary search.
  cl_int length_max = 2;
  while (rt_common_prefix(codes, n, i, i + length_max * d) > delta_min) length_max *= 2;
  cl_int length = 0;
  for (cl_int t = length_max / 2; t >= 1; t /= 2) {
    if (rt_common_prefix(codes, n, i, i + (length + t) * d) > delta_min) length += t;
  }
  const cl_int j = i + length * d;
  // The split: the last position sharing more than the range's common prefix with i.
  const cl_int delta_node = rt_common_prefix(codes, n, i, j);
  cl_int s = 0;
  cl_int t = length;
  do {
    t = (t + 1) / 2;
    if (rt_common_prefix(codes, n, i, i + (s + t) * d) > delta_node) s += t;
  } while (t > 1);
  const cl_int split = i + s * d + (d < 0 ? d : 0);
  const cl_int first = i < j ? i : j;
  const cl_int last = i < j ? j : i;
  *left = first == split ? (n - 1) + split : split;
  *right = last == split + 1 ? (n - 1) + split + 1 : split + 1;
  *range_first = first;
  *range_last = last;
}

// Internal node i of the radix tree over n sorted codes: its children (leaves offset by n - 1).
CLF_FUNCTION void rt_karras_node(RT_GLOBAL const cl_uint* codes, cl_int n, cl_int i, cl_int* left,
                                 cl_int* right) {
  cl_int range_first;
  cl_int range_last;
  rt_karras_node_range(codes, n, i, left, right, &range_first, &range_last);
}

// Makes node i of a radix tree (2n - 1 nodes, internal ones first) the parent of its children;
// the root's parent is -1.
CLF_FUNCTION void rt_link_internal_node(RT_GLOBAL RtBvhNode* nodes, cl_int i, cl_int left,
                                        cl_int right) {
  nodes[i].left = left;
  nodes[i].right = right;
  nodes[i].sphere = -1;
  nodes[left].parent = i;
  nodes[right].parent = i;
  if (i == 0) nodes[0].parent = -1;
}

CLF_FUNCTION RtBvhNode rt_leaf_node(RtSphere sphere, cl_int sphere_index) {
  RtBvhNode leaf;
  const cl_float r = sphere.center_radius.w;
  const cl_float4 center =
      rt_vec(sphere.center_radius.x, sphere.center_radius.y, sphere.center_radius.z);
  leaf.bounds_min = rt_sub(center, rt_vec(r, r, r));
  leaf.bounds_max = rt_add(center, rt_vec(r, r, r));
  leaf.left = -1;
  leaf.right = -1;
  leaf.parent = -1;
  leaf.sphere = sphere_index;
  return leaf;
}

// The leaf of a mesh BVH's primitive (a triangle): its box, the (min, max) pair at
// primitive_boxes[2 * primitive], and its index in `sphere`.
CLF_FUNCTION RtBvhNode rt_box_leaf(RT_GLOBAL const cl_float4* primitive_boxes, cl_uint primitive) {
  RtBvhNode leaf;
  leaf.bounds_min = primitive_boxes[2 * primitive];
  leaf.bounds_max = primitive_boxes[2 * primitive + 1];
  leaf.left = -1;
  leaf.right = -1;
  leaf.parent = -1;
  leaf.sphere = (cl_int)primitive;
  return leaf;
}

#endif  // SHARED_RAYTRACER_BVH_BUILD_H

// The box around every sphere centre, for the Morton codes: each work-group reduces a strided
// share of the spheres in local memory (pass 1), then one work-group reduces the partial boxes
// (pass 2, the same kernel over `partial` boxes). Boxes are (min, max) float4 pairs.
#include "shared/raytracer/raytracer.h"

// The work-group's box of every work-item's (lo, hi), left in local_min[0] and local_max[0]
// (a tree in local memory; the work-group size is a power of two).
inline void reduce_box(float4 lo, float4 hi, __local float4* local_min, __local float4* local_max) {
  const uint lid = get_local_id(0);
  local_min[lid] = lo;
  local_max[lid] = hi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) {
      local_min[lid] = fmin(local_min[lid], local_min[lid + stride]);
      local_max[lid] = fmax(local_max[lid], local_max[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The work-group's box of every work-item's (lo, hi), written as the group's (min, max) pair.
inline void write_group_box(float4 lo, float4 hi, __global float4* boxes, __local float4* local_min,
                            __local float4* local_max) {
  reduce_box(lo, hi, local_min, local_max);
  if (get_local_id(0) == 0) {
    boxes[2 * get_group_id(0)] = local_min[0];
    boxes[2 * get_group_id(0) + 1] = local_max[0];
  }
}

__kernel void rt_bvh_bounds_spheres(__global const RtSphere* spheres, uint count,
                                    __global float4* boxes, __local float4* local_min,
                                    __local float4* local_max) {
  float4 lo = (float4)(RT_INFINITY, RT_INFINITY, RT_INFINITY, 0.0f);
  float4 hi = (float4)(-RT_INFINITY, -RT_INFINITY, -RT_INFINITY, 0.0f);
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const float4 c = (float4)(spheres[i].center_radius.xyz, 0.0f);
    lo = fmin(lo, c);
    hi = fmax(hi, c);
  }
  write_group_box(lo, hi, boxes, local_min, local_max);
}

// As rt_bvh_bounds_spheres, over the centres of (min, max) boxes (a mesh's triangles).
__kernel void rt_bvh_bounds_box_centres(__global const float4* primitive_boxes, uint count,
                                        __global float4* boxes, __local float4* local_min,
                                        __local float4* local_max) {
  float4 lo = (float4)(RT_INFINITY, RT_INFINITY, RT_INFINITY, 0.0f);
  float4 hi = (float4)(-RT_INFINITY, -RT_INFINITY, -RT_INFINITY, 0.0f);
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const float4 c = 0.5f * (primitive_boxes[2 * i] + primitive_boxes[2 * i + 1]);
    lo = fmin(lo, c);
    hi = fmax(hi, c);
  }
  write_group_box(lo, hi, boxes, local_min, local_max);
}

__kernel void rt_bvh_bounds_boxes(__global float4* boxes, uint count, __local float4* local_min,
                                  __local float4* local_max) {
  const uint lid = get_local_id(0);
  float4 lo = (float4)(RT_INFINITY, RT_INFINITY, RT_INFINITY, 0.0f);
  float4 hi = (float4)(-RT_INFINITY, -RT_INFINITY, -RT_INFINITY, 0.0f);
  for (uint i = lid; i < count; i += get_local_size(0)) {
    lo = fmin(lo, boxes[2 * i]);
    hi = fmax(hi, boxes[2 * i + 1]);
  }
  reduce_box(lo, hi, local_min, local_max);
  if (lid == 0) {
    boxes[0] = local_min[0];
    boxes[1] = local_max[0];
  }
}

// Morton code of each sphere centre in the scene box (boxes[0], boxes[1] from bvh_bounds.cl),
// with the sphere's index as the value the sort carries along.
#include "shared/raytracer/raytracer.h"

__kernel void rt_bvh_morton(__global const RtSphere* spheres, uint count,
                            __global const float4* boxes, __global uint* codes,
                            __global uint* indices) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 scene_min = boxes[0];
  const float4 inverse_extent = rt_inverse_extent(scene_min, boxes[1]);
  const float4 c = spheres[i].center_radius;
  codes[i] = rt_morton_code(rt_vec(c.x, c.y, c.z), scene_min, inverse_extent);
  indices[i] = i;
}

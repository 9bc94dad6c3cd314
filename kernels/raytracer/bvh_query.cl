// Test kernel: the nearest sphere along each of `count` rays, by the BVH (use_bvh = 1) or by
// testing every sphere, so tests can compare the two paths hit for hit.
#include "shared/raytracer/raytracer.h"

__kernel void rt_bvh_query(__global const RtBvhNode* nodes, __global const RtSphere* spheres,
                           uint sphere_count, __global const float4* origins,
                           __global const float4* directions, uint count, uint use_bvh,
                           __global RtHit* hits) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const RtHit none = rt_no_hit(RT_INFINITY);
  hits[i] = use_bvh
                ? rt_spheres_bvh(nodes, spheres, sphere_count, origins[i], directions[i], none, 0)
                : rt_spheres_brute(spheres, sphere_count, origins[i], directions[i], none, 0);
}

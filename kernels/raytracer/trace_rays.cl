// A batch of rays (apps/raytracer/ray_batch.hpp), one work-item each, traced with the renderer's
// rt_trace: what cl-raytracer rays times against Embree. origins[i].w is ray i's t_max.
#include "shared/raytracer/raytracer.h"

// The nearest surface along each ray.
__kernel void rt_trace_nearest(RtFrameParams params, RT_KERNEL_SCENE_PARAMETERS,
                               __global const float4* origins, __global const float4* directions,
                               uint count, __global RtHit* hits) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 origin = origins[i];
  hits[i] =
      rt_trace(RT_SCENE_ARGUMENTS, &params, (float4)(origin.xyz, 0.0f), directions[i], origin.w, 0);
}

// Whether anything blocks each ray (shadow rays: the first blocker found ends the search).
__kernel void rt_trace_occluded(RtFrameParams params, RT_KERNEL_SCENE_PARAMETERS,
                                __global const float4* origins, __global const float4* directions,
                                uint count, __global uint* occluded) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 origin = origins[i];
  const RtHit hit =
      rt_trace(RT_SCENE_ARGUMENTS, &params, (float4)(origin.xyz, 0.0f), directions[i], origin.w, 1);
  occluded[i] = hit.kind != RT_HIT_NONE ? 1u : 0u;
}

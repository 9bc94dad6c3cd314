// A batch of rays (apps/raytracer/ray_batch.hpp), one work-item each, traced with the renderer's
// rt_trace: what cl-raytracer rays times against Embree. origins[i].w is ray i's t_max. The
// scene parameters are spelt out (not RT_SCENE_PARAMETERS): the framework checks each buffer's
// element type by the name the kernel gives it.
#include "shared/raytracer/raytracer.h"

#define TRACE_RAYS_SCENE_PARAMETERS                                                           \
  __global const RtSphere *spheres, __global const RtPlane *planes,                           \
      __global const RtMaterial *materials, __global const RtLight *lights,                   \
      __global const RtBvhNode *nodes, __global const RtMeshNode *mesh_nodes,                 \
      __global const RtInstance *instances, __global const RtTriangle *triangles,             \
      __global const RtTriangleShading *triangle_shading, __global const RtTexture *textures, \
      __global const uint *texels, __global const RtEmitter *emitters

// The nearest surface along each ray.
__kernel void rt_trace_nearest(RtFrameParams params, TRACE_RAYS_SCENE_PARAMETERS,
                               __global const float4* origins, __global const float4* directions,
                               uint count, __global RtHit* hits) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 origin = origins[i];
  hits[i] =
      rt_trace(RT_SCENE_ARGUMENTS, &params, (float4)(origin.xyz, 0.0f), directions[i], origin.w, 0);
}

// Whether anything blocks each ray (shadow rays: the first blocker found ends the search).
__kernel void rt_trace_occluded(RtFrameParams params, TRACE_RAYS_SCENE_PARAMETERS,
                                __global const float4* origins, __global const float4* directions,
                                uint count, __global uint* occluded) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float4 origin = origins[i];
  const RtHit hit =
      rt_trace(RT_SCENE_ARGUMENTS, &params, (float4)(origin.xyz, 0.0f), directions[i], origin.w, 1);
  occluded[i] = hit.kind != RT_HIT_NONE ? 1u : 0u;
}

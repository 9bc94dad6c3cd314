// One work-item per pixel: the shared per-pixel routine of shared/raytracer/raytracer.h, added to
// the running sum of the frames accumulated so far and written as RGBA bytes.
#include "shared/raytracer/raytracer.h"

__kernel void rt_render(RtFrameParams params, __global const RtSphere* spheres,
                        __global const RtPlane* planes, __global const RtMaterial* materials,
                        __global const RtLight* lights, __global const RtBvhNode* nodes,
                        __global const RtMeshNode* mesh_nodes, __global const RtInstance* instances,
                        __global const RtTriangle* triangles,
                        __global const RtTriangleShading* triangle_shading,
                        __global const RtTexture* textures, __global const uint* texels,
                        __global float4* accumulation, __global uint* rgba) {
  const uint x = get_global_id(0);
  const uint y = get_global_id(1);
  if (x >= params.width || y >= params.height) return;
  const float4 color = rt_pixel(RT_SCENE_ARGUMENTS, &params, x, y);
  const uint pixel = y * params.width + x;
  float4 sum = accumulation[pixel];
  rgba[pixel] = rt_accumulate(color, &sum, params.frame_index);
  accumulation[pixel] = sum;
}

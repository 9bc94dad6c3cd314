// One work-item per pixel: the shared per-pixel routine of shared/raytracer/raytracer.h, added to
// the running sum of the frames accumulated so far and written as RGBA bytes. One kernel per
// mode, so the Whitted kernel does not carry the path tracer's registers. The rays traced are
// counted per work-group and added to ray_counts: three 64-bit counters (primary, shadow,
// secondary) as low and high words. A launch covers rows first_row .. end_row - 1 of the image (its
// global height covers them, rounded up to the work-group): one device's band when a frame is split
// across devices; pixels, random streams and accumulation are indexed by the pixel's place in the
// whole image.
#include "shared/raytracer/raytracer.h"

void add_to_counter(__global uint* counter, uint value) {
  const uint before = atomic_add(&counter[0], value);
  if (before + value < before) atomic_inc(&counter[1]);  // the low word wrapped
}

#define RT_RENDER_PARAMETERS                                                         \
  RtFrameParams params, uint first_row, uint end_row, RT_KERNEL_SCENE_PARAMETERS,    \
      __global float4 *accumulation, __global uint *rgba, __global uint *ray_counts, \
      __local uint *group_counts

#define RT_RENDER_ARGUMENTS \
  params, first_row, end_row, RT_SCENE_ARGUMENTS, accumulation, rgba, ray_counts, group_counts

// The frame in `mode` (a constant in each kernel below, so the other mode's code goes).
inline void render(uint mode, RT_RENDER_PARAMETERS) {
  params.mode = mode;
  const uint x = get_global_id(0);
  const uint y = first_row + get_global_id(1);
  const int first = get_local_id(0) == 0 && get_local_id(1) == 0;
  if (first) {
    group_counts[0] = 0;
    group_counts[1] = 0;
    group_counts[2] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  RtRayCounts counts = {0, 0, 0};
  if (x < params.width && y < end_row) {
    const float4 color = rt_pixel(RT_SCENE_ARGUMENTS, &params, x, y, &counts);
    const uint pixel = y * params.width + x;
    float4 sum = accumulation[pixel];
    rgba[pixel] = rt_accumulate(color, &sum, params.frame_index, mode);
    accumulation[pixel] = sum;
  }
  atomic_add(&group_counts[0], counts.primary);
  atomic_add(&group_counts[1], counts.shadow);
  atomic_add(&group_counts[2], counts.secondary);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first) {
    for (int k = 0; k < 3; ++k) {
      if (group_counts[k] != 0) add_to_counter(&ray_counts[2 * k], group_counts[k]);
    }
  }
}

__kernel void rt_render_whitted(RT_RENDER_PARAMETERS) {
  render(RT_MODE_WHITTED, RT_RENDER_ARGUMENTS);
}

__kernel void rt_render_path(RT_RENDER_PARAMETERS) { render(RT_MODE_PATH, RT_RENDER_ARGUMENTS); }

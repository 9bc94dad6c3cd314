// From radiance to the bytes of an image: frames averaged, then either clamped (Whitted, whose
// colours are meant as they are) or tone-mapped with ACES and encoded as sRGB (path tracing's
// radiance is unbounded and linear).
#ifndef SHARED_RAYTRACER_DISPLAY_H
#define SHARED_RAYTRACER_DISPLAY_H

#include "shared/raytracer/vector.h"

// A colour in [0, 1] as RGBA bytes, R in the lowest byte (the byte order of an RGBA image).
CLF_FUNCTION cl_uint rt_pack_rgba(cl_float4 color) {
  const cl_uint r = (cl_uint)(rt_fminf(rt_fmaxf(color.x, 0.0f), 1.0f) * 255.0f + 0.5f);
  const cl_uint g = (cl_uint)(rt_fminf(rt_fmaxf(color.y, 0.0f), 1.0f) * 255.0f + 0.5f);
  const cl_uint b = (cl_uint)(rt_fminf(rt_fmaxf(color.z, 0.0f), 1.0f) * 255.0f + 0.5f);
  return r | (g << 8) | (b << 16) | (0xFFu << 24);
}

// Narkowicz's fit of the ACES filmic curve, per channel.
CLF_FUNCTION cl_float rt_aces(cl_float x) {
  x = rt_fmaxf(x, 0.0f);
  return rt_fminf(x * (2.51f * x + 0.03f) / (x * (2.43f * x + 0.59f) + 0.14f), 1.0f);
}

// Linear [0, 1] to the sRGB transfer curve.
CLF_FUNCTION cl_float rt_srgb_encode(cl_float x) {
  return x <= 0.0031308f ? 12.92f * x : 1.055f * rt_powf(x, 1.0f / 2.4f) - 0.055f;
}

CLF_FUNCTION cl_float4 rt_tone_map(cl_float4 c) {
  return rt_vec(rt_srgb_encode(rt_aces(c.x)), rt_srgb_encode(rt_aces(c.y)),
                rt_srgb_encode(rt_aces(c.z)));
}

// The bytes of an averaged colour in a mode (RT_MODE_WHITTED or RT_MODE_PATH).
CLF_FUNCTION cl_uint rt_display(cl_float4 average, cl_uint mode) {
  return rt_pack_rgba(mode == RT_MODE_PATH ? rt_tone_map(average) : average);
}

// One pixel of a frame: its colour, added to the running sum of earlier frames (frame_index of
// them) and written averaged as RGBA. `accumulated` is the sum.
CLF_FUNCTION cl_uint rt_accumulate(cl_float4 color, cl_float4* accumulated, cl_uint frame_index,
                                   cl_uint mode) {
  if (frame_index == 0) {
    *accumulated = color;
  } else {
    *accumulated = rt_add(*accumulated, color);
  }
  return rt_display(rt_scale(*accumulated, 1.0f / (cl_float)(frame_index + 1)), mode);
}

#endif  // SHARED_RAYTRACER_DISPLAY_H

// Base-colour textures: bilinear filtering with repeat wrapping (glTF's default sampler).
#ifndef SHARED_RAYTRACER_TEXTURE_H
#define SHARED_RAYTRACER_TEXTURE_H

#include "shared/raytracer/mesh_types.h"
#include "shared/raytracer/vector.h"

// An sRGB-encoded channel in [0, 1] as linear light.
CLF_FUNCTION cl_float rt_srgb_decode(cl_float c) {
  return c <= 0.04045f ? c * (1.0f / 12.92f) : rt_powf((c + 0.055f) * (1.0f / 1.055f), 2.4f);
}

// A texel's colour as stored (sRGB, which the Whitted mode shows as it is), or as linear light
// (the path tracer, which works in linear light and encodes sRGB at the end).
CLF_FUNCTION cl_float4 rt_texel(RT_GLOBAL const cl_uint* texels, RtTexture texture, cl_uint x,
                                cl_uint y, cl_int linear) {
  const cl_uint rgba = texels[texture.offset + y * texture.width + x];
  const cl_float scale = 1.0f / 255.0f;
  cl_float4 c = rt_vec((cl_float)(rgba & 0xFFu) * scale, (cl_float)((rgba >> 8) & 0xFFu) * scale,
                       (cl_float)((rgba >> 16) & 0xFFu) * scale);
  if (linear) c = rt_vec(rt_srgb_decode(c.x), rt_srgb_decode(c.y), rt_srgb_decode(c.z));
  return c;
}

// The texture's colour at (u, v) (v = 0 at the top row): the four nearest texel centres,
// weighted by distance, wrapping around at the edges; linear: decoded from sRGB first.
CLF_FUNCTION cl_float4 rt_sample_texture(RT_GLOBAL const RtTexture* textures,
                                         RT_GLOBAL const cl_uint* texels, cl_int index, cl_float u,
                                         cl_float v, cl_int linear) {
  const RtTexture texture = textures[index];
  // Wrapped into [0, 1] first, so far-away coordinates cannot overflow the texel index, then
  // held in range (a NaN or infinite coordinate lands on the first texel, never outside).
  cl_float fx = (u - rt_floorf(u)) * (cl_float)texture.width - 0.5f;
  cl_float fy = (v - rt_floorf(v)) * (cl_float)texture.height - 0.5f;
  if (!(fx >= -0.5f && fx <= (cl_float)texture.width)) fx = -0.5f;
  if (!(fy >= -0.5f && fy <= (cl_float)texture.height)) fy = -0.5f;
  const cl_float x_floor = rt_floorf(fx);
  const cl_float y_floor = rt_floorf(fy);
  const cl_float ax = fx - x_floor;
  const cl_float ay = fy - y_floor;
  const cl_int w = (cl_int)texture.width;
  const cl_int h = (cl_int)texture.height;
  cl_int x0 = (cl_int)x_floor;
  cl_int y0 = (cl_int)y_floor;
  if (x0 < 0) x0 += w;
  if (y0 < 0) y0 += h;
  if (x0 >= w) x0 = w - 1;
  if (y0 >= h) y0 = h - 1;
  const cl_uint x1 = (cl_uint)(x0 + 1 < w ? x0 + 1 : 0);
  const cl_uint y1 = (cl_uint)(y0 + 1 < h ? y0 + 1 : 0);
  const cl_float4 top =
      rt_add(rt_scale(rt_texel(texels, texture, (cl_uint)x0, (cl_uint)y0, linear), 1.0f - ax),
             rt_scale(rt_texel(texels, texture, x1, (cl_uint)y0, linear), ax));
  const cl_float4 bottom =
      rt_add(rt_scale(rt_texel(texels, texture, (cl_uint)x0, y1, linear), 1.0f - ax),
             rt_scale(rt_texel(texels, texture, x1, y1, linear), ax));
  return rt_add(rt_scale(top, 1.0f - ay), rt_scale(bottom, ay));
}

#endif  // SHARED_RAYTRACER_TEXTURE_H

// What rays that leave the scene see: the background colour, or an environment image (an
// equirectangular panorama of linear radiance, rows from the top) all around the scene.
//
// Directions map to the image by azimuth and elevation: +y (up) is the top row, -y the bottom
// one; the middle row is the horizon, along which the image's centre column lies along +z (the
// built-in scenes' view direction) and its right half towards +x. sky_turn turns the image about
// +y (0.25: a quarter turn, what lay along +z now along +x).
#ifndef SHARED_RAYTRACER_SKY_H
#define SHARED_RAYTRACER_SKY_H

#include "shared/raytracer/vector.h"

// The environment image's coordinates of a unit direction: u across, wrapping at the back (-z),
// v down from the top, each in [0, 1].
CLF_FUNCTION void rt_sky_coordinates(const RtFrameParams* params, cl_float4 direction, cl_float* u,
                                     cl_float* v) {
  const cl_float turns =
      rt_atan2f(direction.x, direction.z) * (0.5f / RT_PI) + 0.5f - params->sky_turn;
  *u = turns - rt_floorf(turns);
  if (!(*u >= 0.0f && *u < 1.0f)) *u = 0.0f;  // not a number (or rounded up to 1)
  *v = rt_acosf(rt_fminf(rt_fmaxf(direction.y, -1.0f), 1.0f)) * (1.0f / RT_PI);
}

// The radiance arriving from the sky along -direction, for a ray leaving the scene along
// `direction`: bilinear between the four nearest texel centres (wrapping across, held at the top
// and bottom rows), times sky_intensity.
CLF_FUNCTION cl_float4 rt_sky(const RtFrameParams* params, RT_GLOBAL const cl_float4* sky,
                              cl_float4 direction) {
  if (params->sky_width == 0) return params->background;
  const cl_int width = (cl_int)params->sky_width;
  const cl_int height = (cl_int)params->sky_height;
  cl_float u, v;
  rt_sky_coordinates(params, direction, &u, &v);
  const cl_float fx = u * (cl_float)width - 0.5f;
  const cl_float fy = rt_fminf(rt_fmaxf(v * (cl_float)height - 0.5f, 0.0f), (cl_float)(height - 1));
  const cl_float x_floor = rt_floorf(fx);
  const cl_float y_floor = rt_floorf(fy);
  const cl_float ax = fx - x_floor;
  const cl_float ay = fy - y_floor;
  cl_int x0 = (cl_int)x_floor;
  if (x0 < 0) x0 += width;
  if (x0 >= width) x0 = width - 1;
  const cl_int x1 = x0 + 1 < width ? x0 + 1 : 0;
  const cl_int y0 = (cl_int)y_floor;
  const cl_int y1 = y0 + 1 < height ? y0 + 1 : y0;
  const cl_float4 top =
      rt_add(rt_scale(sky[y0 * width + x0], 1.0f - ax), rt_scale(sky[y0 * width + x1], ax));
  const cl_float4 bottom =
      rt_add(rt_scale(sky[y1 * width + x0], 1.0f - ax), rt_scale(sky[y1 * width + x1], ax));
  const cl_float4 texel = rt_add(rt_scale(top, 1.0f - ay), rt_scale(bottom, ay));
  return rt_scale(texel, params->sky_intensity);
}

#endif  // SHARED_RAYTRACER_SKY_H

// What rays that leave the scene see: the background colour, or an environment image (an
// equirectangular panorama of linear radiance, rows from the top) all around the scene.
//
// Directions map to the image by azimuth and elevation: +y (up) is the top row, -y the bottom
// one; the middle row is the horizon, along which the image's centre column lies along +z (the
// built-in scenes' view direction) and its right half towards +x. sky_turn turns the image about
// +y (0.25: a quarter turn, what lay along +z now along +x).
//
// The path tracer samples the image as a light: a texel with probability proportional to the
// mean luminance a lookup gives over it times the sine of its polar angle (the solid angle its
// row covers), then a point uniformly within it. sky_cdf holds the tables, built on the host with
// the image (EnvironmentImage, apps/raytracer/environment_image.cpp): sky_height running sums
// over the rows (the last 1), then per row sky_width running sums over its texels (each row's
// last 1).
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

// The first of the n running sums `cdf` that exceeds u (the last where none does).
CLF_FUNCTION cl_uint rt_sky_search(RT_GLOBAL const cl_float* cdf, cl_uint n, cl_float u) {
  cl_uint lo = 0;
  cl_uint hi = n - 1;
  while (lo < hi) {
    const cl_uint mid = (lo + hi) / 2;
    if (cdf[mid] <= u) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The density, per unit solid angle, of drawing the direction of image point (u, v) in texel
// (x, y): the texel's probability spread over its share of the image, over the solid angle per
// unit of image (2 pi^2 sin(polar angle)).
CLF_FUNCTION cl_float rt_sky_texel_pdf(const RtFrameParams* params,
                                       RT_GLOBAL const cl_float* sky_cdf, cl_uint x, cl_uint y,
                                       cl_float sin_polar) {
  if (!(sin_polar > 0.0f)) return 0.0f;
  const cl_uint width = params->sky_width;
  const cl_uint height = params->sky_height;
  const RT_GLOBAL cl_float* row = sky_cdf + height + y * width;
  const cl_float p_row = sky_cdf[y] - (y > 0 ? sky_cdf[y - 1] : 0.0f);
  const cl_float p_column = row[x] - (x > 0 ? row[x - 1] : 0.0f);
  return p_row * p_column * (cl_float)(width * height) / (2.0f * RT_PI * RT_PI * sin_polar);
}

// Light sampling's density per unit solid angle of `direction` (0 where the image is not
// sampled).
CLF_FUNCTION cl_float rt_sky_pdf(const RtFrameParams* params, RT_GLOBAL const cl_float* sky_cdf,
                                 cl_float4 direction) {
  if (!params->sky_sampled) return 0.0f;
  cl_float u, v;
  rt_sky_coordinates(params, direction, &u, &v);
  const cl_uint x =
      (cl_uint)rt_fminf(u * (cl_float)params->sky_width, (cl_float)(params->sky_width - 1));
  const cl_uint y =
      (cl_uint)rt_fminf(v * (cl_float)params->sky_height, (cl_float)(params->sky_height - 1));
  // The horizontal length, not sqrt(1 - y^2), which loses every digit near the poles.
  const cl_float sin_polar = rt_sqrtf(direction.x * direction.x + direction.z * direction.z);
  return rt_sky_texel_pdf(params, sky_cdf, x, y, sin_polar);
}

// A direction drawn from the image as a light (see the top), with its density in *pdf.
CLF_FUNCTION cl_float4 rt_sample_sky(const RtFrameParams* params, RT_GLOBAL const cl_float* sky_cdf,
                                     cl_float u1, cl_float u2, cl_float* pdf) {
  const cl_uint width = params->sky_width;
  const cl_uint height = params->sky_height;
  const cl_uint y = rt_sky_search(sky_cdf, height, u1);
  const RT_GLOBAL cl_float* row = sky_cdf + height + y * width;
  const cl_uint x = rt_sky_search(row, width, u2);
  // Where u1 and u2 fell within the chosen row and texel: the point within the texel.
  const cl_float row_low = y > 0 ? sky_cdf[y - 1] : 0.0f;
  const cl_float column_low = x > 0 ? row[x - 1] : 0.0f;
  const cl_float dy = rt_fminf(rt_fmaxf((u1 - row_low) / (sky_cdf[y] - row_low), 0.0f), 1.0f);
  const cl_float dx = rt_fminf(rt_fmaxf((u2 - column_low) / (row[x] - column_low), 0.0f), 1.0f);
  const cl_float u = ((cl_float)x + dx) / (cl_float)width;
  const cl_float v = ((cl_float)y + dy) / (cl_float)height;
  const cl_float azimuth = 2.0f * RT_PI * (u - 0.5f + params->sky_turn);
  const cl_float polar = RT_PI * v;
  const cl_float sin_polar = rt_sinf(polar);
  *pdf = rt_sky_texel_pdf(params, sky_cdf, x, y, sin_polar);
  return rt_vec(rt_sinf(azimuth) * sin_polar, rt_cosf(polar), rt_cosf(azimuth) * sin_polar);
}

#endif  // SHARED_RAYTRACER_SKY_H

// Random numbers and sample warps for the path tracer, identical on host and device: a PCG
// stream per sample (seeded from the pixel, the frame and the sample), uniform floats from its
// top 24 bits, and the directions the BSDFs and lights draw.
#ifndef SHARED_RAYTRACER_RANDOM_H
#define SHARED_RAYTRACER_RANDOM_H

#include "shared/raytracer/vector.h"

// The PCG hash (Jarzynski and Olano 2020): one LCG step, then PCG's output permutation.
CLF_FUNCTION cl_uint rt_hash(cl_uint x) {
  const cl_uint state = x * 747796405u + 2891336453u;
  const cl_uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// The stream of sample `sample` of pixel `pixel` in accumulated frame `frame`.
CLF_FUNCTION cl_uint rt_random_seed(cl_uint pixel, cl_uint frame, cl_uint sample) {
  return rt_hash(pixel ^ rt_hash(frame ^ rt_hash(sample + 0x9E3779B9u)));
}

// 32 uniform random bits; advances the stream.
CLF_FUNCTION cl_uint rt_random_bits(cl_uint* state) {
  *state = rt_hash(*state);
  return *state;
}

// A uniform float in [0, 1); advances the stream.
CLF_FUNCTION cl_float rt_random(cl_uint* state) {
  return (cl_float)(rt_random_bits(state) >> 8) * (1.0f / 16777216.0f);
}

// An orthonormal basis (t, b, n) around the unit vector n (Duff et al. 2017).
CLF_FUNCTION void rt_basis(cl_float4 n, cl_float4* t, cl_float4* b) {
  const cl_float sign = rt_copysignf(1.0f, n.z);
  const cl_float a = -1.0f / (sign + n.z);
  const cl_float c = n.x * n.y * a;
  *t = rt_vec(1.0f + sign * n.x * n.x * a, sign * c, -sign * n.x);
  *b = rt_vec(c, sign + n.y * n.y * a, -n.y);
}

// x t + y b + z n.
CLF_FUNCTION cl_float4 rt_from_basis(cl_float4 n, cl_float x, cl_float y, cl_float z) {
  cl_float4 t, b;
  rt_basis(n, &t, &b);
  return rt_add(rt_add(rt_scale(t, x), rt_scale(b, y)), rt_scale(n, z));
}

// A direction about n with density cos(theta) / pi.
CLF_FUNCTION cl_float4 rt_sample_cosine(cl_float4 n, cl_float u1, cl_float u2) {
  const cl_float r = rt_sqrtf(u1);
  const cl_float phi = 2.0f * RT_PI * u2;
  return rt_from_basis(n, r * rt_cosf(phi), r * rt_sinf(phi), rt_sqrtf(rt_fmaxf(0.0f, 1.0f - u1)));
}

// Linear rgb's luminance (Rec. 709 weights).
CLF_FUNCTION cl_float rt_luminance(cl_float4 c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

CLF_FUNCTION cl_float rt_max_component(cl_float4 c) { return rt_fmaxf(c.x, rt_fmaxf(c.y, c.z)); }

// The power heuristic (beta 2) weight of a strategy with density a against one with density b,
// as 1 / (1 + (b/a)^2): squaring a density seen at a grazing angle would overflow to infinity
// and give inf / inf.
CLF_FUNCTION cl_float rt_mis_weight(cl_float a, cl_float b) {
  if (!(a > 0.0f)) return 0.0f;
  const cl_float ratio = b / a;
  return 1.0f / (1.0f + ratio * ratio);
}

#endif  // SHARED_RAYTRACER_RANDOM_H

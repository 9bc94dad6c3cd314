// Area lights for the path tracer: every emissive sphere and triangle (as placed in the world)
// in one array, drawn in proportion to its power (luminance x area). A triangle's point is then
// drawn uniformly over its area; a sphere's uniformly over the cone of directions in which the
// shading point sees it (its visible cap: every point drawn can light the shading point), or
// over its whole surface from inside it. Densities are per unit solid angle seen from the
// shading point, the measure BSDF sampling's densities are in, for multiple importance sampling.
#ifndef SHARED_RAYTRACER_EMITTERS_H
#define SHARED_RAYTRACER_EMITTERS_H

#include "shared/raytracer/random.h"

typedef struct RtEmitter {
  cl_float4 v0;  // a triangle's corners in the world; a sphere's centre and radius in v0
  cl_float4 v1;
  cl_float4 v2;
  cl_float4 emission;  // emitted radiance (rgb), the same on both sides
  cl_int kind;         // RT_HIT_SPHERE or RT_HIT_TRIANGLE
  // This slot of the alias table (rt_pick_emitter): the chance that a draw landing on it keeps
  // this emitter, and the emitter it takes otherwise.
  cl_float keep;
  cl_uint alias;
  cl_int pad0;
} RtEmitter;
CLF_SHARED_STRUCT(RtEmitter)
#define RT_EMITTER_FIELDS(FIELD) \
  FIELD(v0) FIELD(v1) FIELD(v2) FIELD(emission) FIELD(kind) FIELD(keep) FIELD(alias) FIELD(pad0)

// A point drawn on the lights: where, its normal, what it emits and the density of its
// direction per unit solid angle, seen from the point it was drawn for.
typedef struct RtLightSample {
  cl_float4 point;
  cl_float4 normal;
  cl_float4 emission;
  cl_float pdf;
  cl_float pad0, pad1, pad2;
} RtLightSample;
#define RT_LIGHT_SAMPLE_FIELDS(FIELD) \
  FIELD(point) FIELD(normal) FIELD(emission) FIELD(pdf) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// The density per unit area of drawing a point uniformly over the emitters' areas, each in
// proportion to its power: the luminance of the point's emission over the total power.
CLF_FUNCTION cl_float rt_emitter_area_pdf(cl_float4 emission, cl_float total_power) {
  return total_power > 0.0f ? rt_luminance(emission) / total_power : 0.0f;
}

// An area density as one per unit solid angle, for a point `distance` away whose surface is at
// `cos_light` to the direction.
CLF_FUNCTION cl_float rt_area_to_solid_angle(cl_float area_pdf, cl_float distance,
                                             cl_float cos_light) {
  return area_pdf * distance * distance / rt_fmaxf(cos_light, 1e-6f);
}

// The cone of directions from `from` that meet the sphere (centre xyz, radius w): 1 - cos of its
// half-angle, written as sin^2 / (1 + cos) (1 - cos loses every digit for a small cone), with
// sin^2 in *sin2_max; 0 where `from` is inside the sphere.
CLF_FUNCTION cl_float rt_sphere_cone(cl_float4 center_radius, cl_float4 from, cl_float* sin2_max) {
  const cl_float4 center = rt_vec(center_radius.x, center_radius.y, center_radius.z);
  const cl_float4 to_center = rt_sub(center, from);
  const cl_float distance2 = rt_dot(to_center, to_center);
  const cl_float radius2 = center_radius.w * center_radius.w;
  *sin2_max = 0.0f;
  if (distance2 <= radius2) return 0.0f;
  *sin2_max = radius2 / distance2;
  return *sin2_max / (1.0f + rt_sqrtf(1.0f - *sin2_max));
}

// Light sampling's density, per unit solid angle from `from`, of a direction meeting an emissive
// sphere: the chance of picking the sphere (its power over the total) times the cone's uniform
// density; from inside the sphere, that of the uniform point `distance` away at `cos_light`.
CLF_FUNCTION cl_float rt_sphere_light_pdf(cl_float4 center_radius, cl_float4 emission,
                                          cl_float total_power, cl_float4 from, cl_float distance,
                                          cl_float cos_light) {
  const cl_float area_pdf = rt_emitter_area_pdf(emission, total_power);
  cl_float sin2_max;
  const cl_float cone = rt_sphere_cone(center_radius, from, &sin2_max);
  if (cone <= 0.0f) return rt_area_to_solid_angle(area_pdf, distance, cos_light);
  // (area_pdf 4 pi r^2) / (2 pi (1 - cos))
  return area_pdf * 2.0f * center_radius.w * center_radius.w / cone;
}

// An emitter in proportion to its power, from 32 random bits, by Walker's alias method (as
// pbrt's power light sampler): the high part of bits x count picks a slot uniformly, the low part
// keeps the slot's emitter or takes its alias. Each emitter's chance is right to about
// count / 2^32 of itself; a float cdf's bounds, rounded to 2^-24, drew emitters of small shares
// far from them (111 % off for the smallest of 2 x 10^5, tests/test_raytracer_emitters.cpp).
CLF_FUNCTION cl_uint rt_pick_emitter(RT_GLOBAL const RtEmitter* emitters, cl_uint count,
                                     cl_uint bits) {
  const cl_ulong scaled = (cl_ulong)bits * count;
  const cl_uint slot = (cl_uint)(scaled >> 32);
  const cl_float within = (cl_float)((cl_uint)scaled >> 8) * (1.0f / 16777216.0f);
  return within < emitters[slot].keep ? slot : emitters[slot].alias;
}

// A point of the sphere seen from `from` (outside it), in a direction uniform over the cone of
// directions that meet it. The direction makes angle theta with the axis to the centre; the
// point is where it first meets the sphere, at angle alpha from the axis seen from the centre:
// cos alpha = sin^2 theta / sin theta_max + cos theta sqrt(1 - sin^2 theta / sin^2 theta_max)
// (the triangle of `from`, centre and point, by the law of sines), so the point is built on the
// sphere rather than found by intersecting it.
CLF_FUNCTION cl_float4 rt_sample_sphere_cone(cl_float4 center_radius, cl_float4 from, cl_float cone,
                                             cl_float sin2_max, cl_float u1, cl_float u2) {
  const cl_float4 center = rt_vec(center_radius.x, center_radius.y, center_radius.z);
  const cl_float one_minus_cos = u1 * cone;
  const cl_float cos_theta = 1.0f - one_minus_cos;
  const cl_float sin2_theta = one_minus_cos * (2.0f - one_minus_cos);
  const cl_float share = rt_fminf(sin2_theta / sin2_max, 1.0f);
  const cl_float cos_alpha =
      sin2_theta / rt_sqrtf(sin2_max) + cos_theta * rt_sqrtf(rt_fmaxf(0.0f, 1.0f - share));
  const cl_float sin_alpha = rt_sqrtf(rt_fmaxf(0.0f, 1.0f - cos_alpha * cos_alpha));
  const cl_float phi = 2.0f * RT_PI * u2;
  const cl_float4 towards_from = rt_normalize(rt_sub(from, center));
  return rt_from_basis(towards_from, sin_alpha * rt_cosf(phi), sin_alpha * rt_sinf(phi), cos_alpha);
}

// A point on the lights for the shading point `from`: an emitter by power, then a point of it
// (see the top of this file).
CLF_FUNCTION RtLightSample rt_sample_emitters(RT_GLOBAL const RtEmitter* emitters, cl_uint count,
                                              cl_float total_power, cl_float4 from,
                                              cl_uint pick_bits, cl_float u1, cl_float u2) {
  const RtEmitter e = emitters[rt_pick_emitter(emitters, count, pick_bits)];
  RtLightSample out;
  out.emission = e.emission;
  const cl_float area_pdf = rt_emitter_area_pdf(e.emission, total_power);
  if (e.kind == RT_HIT_SPHERE) {
    cl_float sin2_max;
    const cl_float cone = rt_sphere_cone(e.v0, from, &sin2_max);
    if (cone > 0.0f) {
      out.normal = rt_sample_sphere_cone(e.v0, from, cone, sin2_max, u1, u2);
    } else {
      // Uniform on the whole sphere: z = 1 - 2 u1 is uniform in [-1, 1].
      const cl_float z = 1.0f - 2.0f * u1;
      const cl_float r = rt_sqrtf(rt_fmaxf(0.0f, 1.0f - z * z));
      const cl_float phi = 2.0f * RT_PI * u2;
      out.normal = rt_vec(r * rt_cosf(phi), r * rt_sinf(phi), z);
    }
    out.point = rt_add_scaled(rt_vec(e.v0.x, e.v0.y, e.v0.z), out.normal, e.v0.w);
  } else {
    // Uniform on the triangle: the square folded onto it (sqrt warp).
    const cl_float s = rt_sqrtf(u1);
    const cl_float b1 = 1.0f - s;
    const cl_float b2 = u2 * s;
    out.point =
        rt_add(rt_add(rt_scale(e.v0, 1.0f - b1 - b2), rt_scale(e.v1, b1)), rt_scale(e.v2, b2));
    out.normal = rt_normalize(rt_cross(rt_sub(e.v1, e.v0), rt_sub(e.v2, e.v0)));
  }
  const cl_float4 to_light = rt_sub(out.point, from);
  const cl_float distance = rt_sqrtf(rt_dot(to_light, to_light));
  const cl_float cos_light = rt_fabsf(rt_dot(out.normal, to_light)) / distance;
  out.pdf = e.kind == RT_HIT_SPHERE
                ? rt_sphere_light_pdf(e.v0, e.emission, total_power, from, distance, cos_light)
                : rt_area_to_solid_angle(area_pdf, distance, cos_light);
  return out;
}

#endif  // SHARED_RAYTRACER_EMITTERS_H

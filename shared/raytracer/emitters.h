// Area lights for the path tracer: every emissive sphere and triangle (as placed in the world)
// in one array, drawn in proportion to its power (luminance x area) and then uniformly over its
// area. Under that choice the density of a point on any emitter is its luminance over the
// total power, so a path that hits an emitter by chance knows the light-sampling density
// without a lookup (multiple importance sampling needs it).
#ifndef SHARED_RAYTRACER_EMITTERS_H
#define SHARED_RAYTRACER_EMITTERS_H

#include "shared/raytracer/random.h"

typedef struct RtEmitter {
  cl_float4 v0;  // a triangle's corners in the world; a sphere's centre and radius in v0
  cl_float4 v1;
  cl_float4 v2;
  cl_float4 emission;  // emitted radiance (rgb), the same on both sides
  cl_int kind;         // RT_HIT_SPHERE or RT_HIT_TRIANGLE
  cl_float cdf;        // the chance of drawing this emitter or one before it (the last: 1)
  cl_int pad0, pad1;
} RtEmitter;
CLF_SHARED_STRUCT(RtEmitter)
#define RT_EMITTER_FIELDS(FIELD) \
  FIELD(v0) FIELD(v1) FIELD(v2) FIELD(emission) FIELD(kind) FIELD(cdf) FIELD(pad0) FIELD(pad1)

// A point drawn on the lights: where, its normal, what it emits and its density per unit area.
typedef struct RtLightSample {
  cl_float4 point;
  cl_float4 normal;
  cl_float4 emission;
  cl_float area_pdf;
  cl_float pad0, pad1, pad2;
} RtLightSample;
#define RT_LIGHT_SAMPLE_FIELDS(FIELD) \
  FIELD(point) FIELD(normal) FIELD(emission) FIELD(area_pdf) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// The density per unit area of light sampling at a point emitting `emission`.
CLF_FUNCTION cl_float rt_emitter_area_pdf(cl_float4 emission, cl_float total_power) {
  return total_power > 0.0f ? rt_luminance(emission) / total_power : 0.0f;
}

// The first emitter whose cdf exceeds u (binary search).
CLF_FUNCTION cl_uint rt_pick_emitter(RT_GLOBAL const RtEmitter* emitters, cl_uint count,
                                     cl_float u) {
  cl_uint lo = 0;
  cl_uint hi = count - 1;
  while (lo < hi) {
    const cl_uint mid = (lo + hi) / 2;
    if (emitters[mid].cdf <= u) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

CLF_FUNCTION RtLightSample rt_sample_emitters(RT_GLOBAL const RtEmitter* emitters, cl_uint count,
                                              cl_float total_power, cl_float u_pick, cl_float u1,
                                              cl_float u2) {
  const RtEmitter e = emitters[rt_pick_emitter(emitters, count, u_pick)];
  RtLightSample out;
  out.emission = e.emission;
  out.area_pdf = rt_emitter_area_pdf(e.emission, total_power);
  if (e.kind == RT_HIT_SPHERE) {
    // Uniform on the whole sphere: z = 1 - 2 u1 is uniform in [-1, 1].
    const cl_float z = 1.0f - 2.0f * u1;
    const cl_float r = rt_sqrtf(rt_fmaxf(0.0f, 1.0f - z * z));
    const cl_float phi = 2.0f * RT_PI * u2;
    out.normal = rt_vec(r * rt_cosf(phi), r * rt_sinf(phi), z);
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
  return out;
}

#endif  // SHARED_RAYTRACER_EMITTERS_H

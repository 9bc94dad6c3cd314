// The path tracer's material model: glTF's metallic-roughness BSDF (a Lambert base under a GGX
// specular layer, Schlick's Fresnel, Smith's shadowing) mixed with a smooth dielectric (glass:
// exact Fresnel, refraction, total internal reflection) by the transmission share.
#ifndef SHARED_RAYTRACER_BSDF_H
#define SHARED_RAYTRACER_BSDF_H

#include "shared/raytracer/random.h"

// GGX roughness below this is drawn as this: a mirror-like metal stays a (very narrow) lobe, so
// light sampling still reaches it and no special delta case is needed.
#define RT_MIN_ALPHA 0.002f

// A surface point as the path tracer sees it.
typedef struct RtSurfacePoint {
  cl_float4 normal;      // shading normal, on the side the ray came from
  cl_float4 base_color;  // the material's colour times its texture
  cl_float metallic;
  cl_float alpha;  // GGX width (roughness squared)
  cl_float transmission;
  cl_float ior;
  cl_int front;  // the ray arrived from outside the surface (its normal was not turned)
  cl_int pad0, pad1, pad2;
} RtSurfacePoint;
// clang-format off
#define RT_SURFACE_POINT_FIELDS(FIELD) \
  FIELD(normal) FIELD(base_color) FIELD(metallic) FIELD(alpha) FIELD(transmission) FIELD(ior) \
  FIELD(front) FIELD(pad0) FIELD(pad1) FIELD(pad2)
// clang-format on

// A direction drawn from the BSDF: the weight f cos / pdf, the pdf (solid angle; 0 for the
// glass's delta lobes, which light sampling cannot reach) and the direction.
typedef struct RtBsdfSample {
  cl_float4 direction;
  cl_float4 weight;
  cl_float pdf;
  cl_int delta;
  cl_int pad0, pad1;
} RtBsdfSample;
#define RT_BSDF_SAMPLE_FIELDS(FIELD) \
  FIELD(direction) FIELD(weight) FIELD(pdf) FIELD(delta) FIELD(pad0) FIELD(pad1)

CLF_FUNCTION cl_float4 rt_lerp(cl_float4 a, cl_float4 b, cl_float t) {
  return rt_add(rt_scale(a, 1.0f - t), rt_scale(b, t));
}

// Specular reflectance at normal incidence: the dielectric's from its index, the metal's colour.
CLF_FUNCTION cl_float4 rt_f0(RtSurfacePoint s) {
  const cl_float r = (s.ior - 1.0f) / (s.ior + 1.0f);
  return rt_lerp(rt_vec(r * r, r * r, r * r), s.base_color, s.metallic);
}

// Schlick's Fresnel towards a grazing reflectance that fades out below F0 = 0.02 (as Filament
// does), so a surface of index 1 reflects nothing at all.
CLF_FUNCTION cl_float4 rt_schlick(cl_float4 f0, cl_float cosine) {
  const cl_float m = 1.0f - rt_fminf(rt_fmaxf(cosine, 0.0f), 1.0f);
  const cl_float m5 = m * m * m * m * m;
  const cl_float f90 = rt_fminf(50.0f * rt_max_component(f0), 1.0f);
  return rt_add(f0, rt_scale(rt_sub(rt_vec(f90, f90, f90), f0), m5));
}

CLF_FUNCTION cl_float rt_ggx_d(cl_float alpha, cl_float nh) {
  const cl_float a2 = alpha * alpha;
  const cl_float d = nh * nh * (a2 - 1.0f) + 1.0f;
  return a2 / (RT_PI * d * d);
}

CLF_FUNCTION cl_float rt_smith_g1(cl_float alpha, cl_float cosine) {
  const cl_float a2 = alpha * alpha;
  return 2.0f * cosine / (cosine + rt_sqrtf(a2 + (1.0f - a2) * cosine * cosine));
}

// The chance of drawing the specular lobe rather than the diffuse one, from their weights seen
// from v.
CLF_FUNCTION cl_float rt_specular_chance(RtSurfacePoint s, cl_float nv) {
  const cl_float specular = rt_luminance(rt_schlick(rt_f0(s), nv));
  const cl_float diffuse = (1.0f - s.metallic) * rt_luminance(s.base_color) * (1.0f - specular);
  if (diffuse <= 0.0f) return 1.0f;
  return rt_fminf(rt_fmaxf(specular / (specular + diffuse), 0.1f), 0.9f);
}

// The opaque part's f (times its share 1 - transmission) for light arriving along l and leaving
// along v, both pointing away from the surface; its sampling density in *pdf.
CLF_FUNCTION cl_float4 rt_bsdf_eval(RtSurfacePoint s, cl_float4 v, cl_float4 l, cl_float* pdf) {
  *pdf = 0.0f;
  const cl_float4 n = s.normal;
  const cl_float nl = rt_dot(n, l);
  const cl_float nv = rt_dot(n, v);
  const cl_float opaque = 1.0f - s.transmission;
  if (nl <= 0.0f || nv <= 0.0f || opaque <= 0.0f) return rt_vec(0.0f, 0.0f, 0.0f);
  const cl_float4 h = rt_normalize(rt_add(v, l));
  const cl_float nh = rt_fmaxf(rt_dot(n, h), 0.0f);
  const cl_float vh = rt_fmaxf(rt_dot(v, h), 1e-6f);
  const cl_float4 fresnel = rt_schlick(rt_f0(s), vh);
  const cl_float d = rt_ggx_d(s.alpha, nh);
  const cl_float g = rt_smith_g1(s.alpha, nv) * rt_smith_g1(s.alpha, nl);
  const cl_float4 specular = rt_scale(fresnel, d * g / (4.0f * nl * nv));
  // The diffuse base sees what the coat lets through at v (Ashikhmin-Shirley's simplification).
  const cl_float through = 1.0f - rt_max_component(rt_schlick(rt_f0(s), nv));
  const cl_float4 diffuse = rt_scale(s.base_color, (1.0f - s.metallic) * through / RT_PI);
  const cl_float chance = rt_specular_chance(s, nv);
  *pdf = opaque * (chance * d * nh / (4.0f * vh) + (1.0f - chance) * nl / RT_PI);
  return rt_scale(rt_add(specular, diffuse), opaque);
}

// The smooth dielectric: reflect with the Fresnel probability, else refract (radiance scaled by
// the squared ratio of the indices, the colour as the glass's tint).
CLF_FUNCTION RtBsdfSample rt_sample_glass(RtSurfacePoint s, cl_float4 v, cl_float u) {
  RtBsdfSample out;
  out.pdf = 0.0f;
  out.delta = 1;
  const cl_float4 n = s.normal;
  const cl_float cos_i = rt_fminf(rt_dot(n, v), 1.0f);
  const cl_float eta = s.front ? 1.0f / s.ior : s.ior;  // incident over transmitted index
  const cl_float sin2_t = eta * eta * (1.0f - cos_i * cos_i);
  cl_float fresnel = 1.0f;
  cl_float cos_t = 0.0f;
  if (sin2_t < 1.0f) {
    cos_t = rt_sqrtf(1.0f - sin2_t);
    const cl_float rs = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
    const cl_float rp = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
    fresnel = 0.5f * (rs * rs + rp * rp);
  }
  if (sin2_t >= 1.0f || u < fresnel) {
    out.direction = rt_sub(rt_scale(n, 2.0f * cos_i), v);
    out.weight = rt_vec(1.0f, 1.0f, 1.0f);
  } else {
    out.direction = rt_normalize(rt_add(rt_scale(v, -eta), rt_scale(n, eta * cos_i - cos_t)));
    out.weight = rt_scale(s.base_color, eta * eta);
  }
  return out;
}

// Draws a direction from the whole BSDF with three uniform numbers.
CLF_FUNCTION RtBsdfSample rt_sample_bsdf(RtSurfacePoint s, cl_float4 v, cl_float u_lobe,
                                         cl_float u1, cl_float u2) {
  if (u_lobe < s.transmission) return rt_sample_glass(s, v, u1);
  RtBsdfSample out;
  out.delta = 0;
  out.weight = rt_vec(0.0f, 0.0f, 0.0f);
  const cl_float4 n = s.normal;
  const cl_float nv = rt_dot(n, v);
  // The lobe is chosen again from u_lobe's remaining range, so no fourth number is needed.
  const cl_float u = (u_lobe - s.transmission) / (1.0f - s.transmission);
  if (u < rt_specular_chance(s, nv)) {
    // A GGX microfacet normal (density D cos), v mirrored about it.
    const cl_float a2 = s.alpha * s.alpha;
    const cl_float cos_h = rt_sqrtf((1.0f - u1) / (1.0f + (a2 - 1.0f) * u1));
    const cl_float sin_h = rt_sqrtf(rt_fmaxf(0.0f, 1.0f - cos_h * cos_h));
    const cl_float phi = 2.0f * RT_PI * u2;
    const cl_float4 h = rt_from_basis(n, sin_h * rt_cosf(phi), sin_h * rt_sinf(phi), cos_h);
    out.direction = rt_sub(rt_scale(h, 2.0f * rt_dot(v, h)), v);
  } else {
    out.direction = rt_sample_cosine(n, u1, u2);
  }
  const cl_float4 f = rt_bsdf_eval(s, v, out.direction, &out.pdf);
  if (out.pdf > 0.0f) {
    // The lobe choice by transmission is part of the density; its share cancels in f / pdf.
    out.weight = rt_scale(f, rt_dot(n, out.direction) / out.pdf);
  }
  return out;
}

#endif  // SHARED_RAYTRACER_BSDF_H

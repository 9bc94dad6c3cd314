// The path tracer: one path per sample from the camera, next-event estimation at every
// non-delta bounce (a shadow ray to each point light, one in a direction drawn from the
// environment image and one to a point drawn on the emissive surfaces, the last two weighted
// against BSDF sampling by the power heuristic), Russian roulette after three bounces. Unbiased up
// to params->max_depth bounces; frames average into the estimate.
#ifndef SHARED_RAYTRACER_PATH_H
#define SHARED_RAYTRACER_PATH_H

#include "shared/raytracer/shading.h"

#define RT_ROULETTE_DEPTH 3

CLF_FUNCTION RtSurfacePoint rt_surface_point(RtMaterial material, cl_float4 base_color,
                                             cl_float4 normal, cl_int front) {
  RtSurfacePoint s;
  s.normal = normal;
  s.base_color = base_color;
  s.metallic = rt_fminf(rt_fmaxf(material.metallic, 0.0f), 1.0f);
  s.alpha = rt_fmaxf(material.roughness * material.roughness, RT_MIN_ALPHA);
  s.transmission = rt_fminf(rt_fmaxf(material.transmission, 0.0f), 1.0f);
  s.ior = material.ior >= 1.0f ? material.ior : 1.0f;
  s.front = front;
  return s;
}

// Light arriving at s (seen from v) from the environment image, along a direction drawn from it
// as a light (sky.h) and weighted against BSDF sampling; the shadow ray starts at `origin`.
CLF_FUNCTION cl_float4 rt_sky_light(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                    RtSurfacePoint s, cl_float4 origin, cl_float4 v, cl_uint* rng,
                                    RtRayCounts* counts) {
  const cl_float4 none = rt_vec(0.0f, 0.0f, 0.0f);
  const cl_float u1 = rt_random(rng);
  const cl_float u2 = rt_random(rng);
  cl_float light_pdf;
  const cl_float4 l = rt_sample_sky(params, sky_cdf, u1, u2, &light_pdf);
  if (!(light_pdf > 0.0f) || rt_dot(s.normal, l) <= 0.0f) return none;
  cl_float bsdf_pdf;
  const cl_float4 f = rt_bsdf_eval(s, v, l, &bsdf_pdf);
  if (bsdf_pdf <= 0.0f) return none;
  ++counts->shadow;
  if (rt_trace(RT_SCENE_ARGUMENTS, params, origin, l, RT_INFINITY, 1).kind != RT_HIT_NONE)
    return none;
  const cl_float weight = rt_mis_weight(light_pdf, bsdf_pdf) * rt_dot(s.normal, l) / light_pdf;
  return rt_scale(rt_mul(f, rt_sky(params, sky, l)), weight);
}

// Light arriving at s (seen from v) straight from the lights, each shadow ray counted; shadow
// rays start `offset` off the surface. Point lights give the irradiance color x intensity at
// normal incidence, without distance falloff, as in the Whitted mode; emitters are sampled once,
// weighted against BSDF sampling.
CLF_FUNCTION cl_float4 rt_direct_light(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                       RtSurfacePoint s, cl_float4 point, cl_float offset,
                                       cl_float4 v, cl_uint* rng, RtRayCounts* counts) {
  cl_float4 sum = rt_vec(0.0f, 0.0f, 0.0f);
  const cl_float4 origin = rt_add_scaled(point, s.normal, offset);
  for (cl_uint i = 0; i < params->light_count; ++i) {
    const RtLight light = lights[i];
    const cl_float4 to_light = rt_sub(light.position, point);
    const cl_float distance = rt_sqrtf(rt_dot(to_light, to_light));
    const cl_float4 l = rt_scale(to_light, 1.0f / distance);
    cl_float pdf;
    const cl_float4 f = rt_bsdf_eval(s, v, l, &pdf);
    if (pdf <= 0.0f) continue;
    if (params->shadows) {
      ++counts->shadow;
      if (rt_trace(RT_SCENE_ARGUMENTS, params, origin, l, distance, 1).kind != RT_HIT_NONE)
        continue;
    }
    const cl_float4 irradiance = rt_scale(light.color, light.intensity * rt_dot(s.normal, l));
    sum = rt_add(sum, rt_scale(rt_mul(f, irradiance), RT_PI));
  }
  if (params->sky_sampled)
    sum = rt_add(sum, rt_sky_light(RT_SCENE_ARGUMENTS, params, s, origin, v, rng, counts));
  if (params->emitter_count == 0) return sum;
  const cl_uint pick_bits = rt_random_bits(rng);
  const cl_float u1 = rt_random(rng);
  const cl_float u2 = rt_random(rng);
  // Drawn for the offset origin, so the shadow ray meets the light's surface at the drawn point
  // (from the surface point it would run beside it and strike an oblique light short of it).
  const RtLightSample light = rt_sample_emitters(emitters, params->emitter_count,
                                                 params->emitter_power, origin, pick_bits, u1, u2);
  if (!(light.pdf > 0.0f)) return sum;
  const cl_float4 to_light = rt_sub(light.point, origin);
  const cl_float distance = rt_sqrtf(rt_dot(to_light, to_light));
  const cl_float4 l = rt_scale(to_light, 1.0f / distance);
  cl_float bsdf_pdf;
  const cl_float4 f = rt_bsdf_eval(s, v, l, &bsdf_pdf);
  if (bsdf_pdf <= 0.0f) return sum;
  ++counts->shadow;
  // Stops short of the light's own surface.
  const cl_float t_max = distance - rt_surface_offset(light.point, distance);
  if (rt_trace(RT_SCENE_ARGUMENTS, params, origin, l, t_max, 1).kind != RT_HIT_NONE) return sum;
  const cl_float weight = rt_mis_weight(light.pdf, bsdf_pdf) * rt_dot(s.normal, l) / light.pdf;
  return rt_add(sum, rt_scale(rt_mul(f, light.emission), weight));
}

// The radiance arriving along one camera ray, estimated by one path.
CLF_FUNCTION cl_float4 rt_path_radiance(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                        cl_float4 origin, cl_float4 direction, cl_uint* rng,
                                        RtRayCounts* counts) {
  cl_float4 radiance = rt_vec(0.0f, 0.0f, 0.0f);
  cl_float4 throughput = rt_vec(1.0f, 1.0f, 1.0f);
  cl_float bsdf_pdf = 0.0f;  // the density the last bounce drew `direction` with
  cl_int delta = 1;          // that bounce cannot be light-sampled (the camera, glass)
  for (cl_uint depth = 0;; ++depth) {
    const RtHit hit = rt_trace_bounce(RT_SCENE_ARGUMENTS, params, origin, direction, depth, counts);
    if (hit.kind == RT_HIT_NONE) {
      // The environment image is also reached by light sampling: weighted against it.
      const cl_float weight =
          delta ? 1.0f : rt_mis_weight(bsdf_pdf, rt_sky_pdf(params, sky_cdf, direction));
      radiance =
          rt_add(radiance, rt_scale(rt_mul(throughput, rt_sky(params, sky, direction)), weight));
      break;
    }
    const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
    const cl_float offset = rt_surface_offset(point, hit.t);
    cl_float4 normal;
    RtMaterial material;
    cl_float4 base_color;
    cl_int front;
    rt_surface(RT_SCENE_ARGUMENTS, hit, point, direction, 1, &normal, &material, &base_color,
               &front);
    if (rt_max_component(material.emission) > 0.0f) {
      // Emissive spheres and triangles are also reached by light sampling (planes and
      // textured emission are not: build_emitters).
      cl_float weight = 1.0f;
      if (!delta && params->emitter_count > 0 && hit.kind != RT_HIT_PLANE &&
          material.emissive_texture < 0) {
        // The density light sampling from this ray's origin would have drawn the direction with.
        const cl_float cos_light = rt_fabsf(rt_dot(normal, direction));
        const cl_float light_pdf =
            hit.kind == RT_HIT_SPHERE
                ? rt_sphere_light_pdf(spheres[hit.index].center_radius, material.emission,
                                      params->emitter_power, origin, hit.t, cos_light)
                : rt_area_to_solid_angle(
                      rt_emitter_area_pdf(material.emission, params->emitter_power), hit.t,
                      cos_light);
        weight = rt_mis_weight(bsdf_pdf, light_pdf);
      }
      radiance = rt_add(radiance, rt_scale(rt_mul(throughput, material.emission), weight));
    }
    if (depth >= params->max_depth) break;
    const RtSurfacePoint s = rt_surface_point(material, base_color, normal, front);
    const cl_float4 v = rt_scale(direction, -1.0f);
    if (s.transmission < 1.0f) {
      const cl_float4 direct =
          rt_direct_light(RT_SCENE_ARGUMENTS, params, s, point, offset, v, rng, counts);
      radiance = rt_add(radiance, rt_mul(throughput, direct));
    }
    const cl_float u_lobe = rt_random(rng);
    const cl_float u1 = rt_random(rng);
    const cl_float u2 = rt_random(rng);
    const RtBsdfSample next = rt_sample_bsdf(s, v, u_lobe, u1, u2);
    if (rt_max_component(next.weight) <= 0.0f) break;
    throughput = rt_mul(throughput, next.weight);
    bsdf_pdf = next.pdf;
    delta = next.delta;
    direction = next.direction;
    origin = rt_add_scaled(point, normal, rt_dot(direction, normal) > 0.0f ? offset : -offset);
    if (depth + 1 >= RT_ROULETTE_DEPTH) {
      const cl_float survive = rt_fminf(rt_max_component(throughput), 0.95f);
      if (rt_random(rng) >= survive) break;
      throughput = rt_scale(throughput, 1.0f / survive);
    }
  }
  return radiance;
}

// The average radiance of pixel (x, y) over aa x aa paths, each through a random point of the
// pixel, with random numbers of their own for frame params->frame_index.
CLF_FUNCTION cl_float4 rt_path_pixel(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_uint x,
                                     cl_uint y, RtRayCounts* counts) {
  const cl_uint aa = params->aa < 1 ? 1 : (params->aa > RT_MAX_AA ? RT_MAX_AA : params->aa);
  const cl_uint samples = aa * aa;
  cl_float4 sum = rt_vec(0.0f, 0.0f, 0.0f);
  for (cl_uint i = 0; i < samples; ++i) {
    cl_uint rng = rt_random_seed(y * params->width + x, params->frame_index, i);
    const cl_float u = ((cl_float)x + rt_random(&rng)) / (cl_float)params->width;
    const cl_float v = ((cl_float)y + rt_random(&rng)) / (cl_float)params->height;
    const cl_float4 direction = rt_primary_direction(&params->camera, u, v);
    sum = rt_add(sum, rt_path_radiance(RT_SCENE_ARGUMENTS, params, params->camera.position,
                                       direction, &rng, counts));
  }
  return rt_scale(sum, 1.0f / (cl_float)samples);
}

// Pixel (x, y) of one frame in params->mode, its rays added to counts.
CLF_FUNCTION cl_float4 rt_pixel(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_uint x,
                                cl_uint y, RtRayCounts* counts) {
  if (params->mode == RT_MODE_PATH) return rt_path_pixel(RT_SCENE_ARGUMENTS, params, x, y, counts);
  return rt_whitted_pixel(RT_SCENE_ARGUMENTS, params, x, y, counts);
}

#endif  // SHARED_RAYTRACER_PATH_H

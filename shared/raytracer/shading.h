// Tracing, shading (shadows, reflections) and a pixel's colour, as the renderer's kernel and
// the CPU reference compute them.
#ifndef SHARED_RAYTRACER_SHADING_H
#define SHARED_RAYTRACER_SHADING_H

#include "shared/raytracer/bsdf.h"
#include "shared/raytracer/emitters.h"
#include "shared/raytracer/intersect.h"
#include "shared/raytracer/intersect_mesh.h"
#include "shared/raytracer/sky.h"
#include "shared/raytracer/texture.h"

// Rays a sample traced, by kind.
typedef struct RtRayCounts {
  cl_uint primary;
  cl_uint shadow;
  cl_uint secondary;
} RtRayCounts;
#define RT_RAY_COUNTS_FIELDS(FIELD) FIELD(primary) FIELD(shadow) FIELD(secondary)

// Scene arrays as one record, so the functions below take one argument for them: spheres and
// their BVH (nodes), planes, materials, lights, the meshes (mesh_types.h): the two-level BVH's
// nodes, instances, triangles and their shading data, textures and their texels; the emissive
// surfaces (emitters.h); and the environment image's texels and sampling tables (sky.h).
#define RT_SCENE_PARAMETERS                                                                     \
  RT_GLOBAL const RtSphere *spheres, RT_GLOBAL const RtPlane *planes,                           \
      RT_GLOBAL const RtMaterial *materials, RT_GLOBAL const RtLight *lights,                   \
      RT_GLOBAL const RtBvhNode *nodes, RT_GLOBAL const RtMeshNode *mesh_nodes,                 \
      RT_GLOBAL const RtInstance *instances, RT_GLOBAL const RtTriangle *triangles,             \
      RT_GLOBAL const RtTriangleShading *triangle_shading, RT_GLOBAL const RtTexture *textures, \
      RT_GLOBAL const cl_uint *texels, RT_GLOBAL const RtEmitter *emitters,                     \
      RT_GLOBAL const cl_float4 *sky, RT_GLOBAL const cl_float *sky_cdf
#define RT_SCENE_ARGUMENTS                                                                       \
  spheres, planes, materials, lights, nodes, mesh_nodes, instances, triangles, triangle_shading, \
      textures, texels, emitters, sky, sky_cdf

#if defined(__OPENCL_VERSION__)
// The same arrays as a kernel's parameters, spelt with OpenCL's own type names: the framework
// checks each buffer's element type by the name the kernel gives it (uint, not cl_uint).
#define RT_KERNEL_SCENE_PARAMETERS                                                                 \
  __global const RtSphere *spheres, __global const RtPlane *planes,                                \
      __global const RtMaterial *materials, __global const RtLight *lights,                        \
      __global const RtBvhNode *nodes, __global const RtMeshNode *mesh_nodes,                      \
      __global const RtInstance *instances, __global const RtTriangle *triangles,                  \
      __global const RtTriangleShading *triangle_shading, __global const RtTexture *textures,      \
      __global const uint *texels, __global const RtEmitter *emitters, __global const float4 *sky, \
      __global const float *sky_cdf
#endif

// Nearest surface (spheres, triangles, then planes) before t_max.
CLF_FUNCTION RtHit rt_trace(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_float4 origin,
                            cl_float4 direction, cl_float t_max, cl_int any_hit) {
  RtHit hit = rt_no_hit(t_max);
  if (params->use_bvh) {
    hit = rt_spheres_bvh(nodes, spheres, params->sphere_count, origin, direction, hit, any_hit);
  } else {
    hit = rt_spheres_brute(spheres, params->sphere_count, origin, direction, hit, any_hit);
  }
  if (any_hit && hit.kind != RT_HIT_NONE) return hit;
  if (params->use_bvh) {
    hit = rt_instances_bvh(mesh_nodes, instances, triangles, params->instance_count, origin,
                           direction, hit, any_hit);
  } else {
    hit = rt_instances_brute(instances, triangles, params->instance_count, origin, direction, hit,
                             any_hit);
  }
  if (any_hit && hit.kind != RT_HIT_NONE) return hit;
  for (cl_uint i = 0; i < params->plane_count; ++i) {
    const cl_float t = rt_intersect_plane(planes[i], origin, direction, hit.t);
    if (t < hit.t) {
      hit.t = t;
      hit.kind = RT_HIT_PLANE;
      hit.index = (cl_int)i;
      if (any_hit) return hit;
    }
  }
  (void)materials;
  (void)lights;
  (void)triangle_shading;
  (void)textures;
  (void)texels;
  (void)emitters;
  (void)sky;
  (void)sky_cdf;
  return hit;
}

// The normal `n` (mesh space, unit length) bent by the normal map at (u, v): the map holds
// tangent-space normals (x along increasing u, y up the image, that is along decreasing v, z
// along n; glTF's convention), each channel c as 2c - 1, x and y times `scale`. The tangent
// frame comes from how the triangle's texture coordinates run across it, made orthogonal to n
// (per triangle; a file's own tangents are not read).
CLF_FUNCTION cl_float4 rt_normal_mapped(RT_GLOBAL const RtTexture* textures,
                                        RT_GLOBAL const cl_uint* texels, cl_int texture,
                                        cl_float scale, RtTriangle triangle,
                                        RtTriangleShading shading, cl_float u, cl_float v,
                                        cl_float4 n) {
  const cl_float4 edge1 = rt_sub(triangle.v1, triangle.v0);
  const cl_float4 edge2 = rt_sub(triangle.v2, triangle.v0);
  const cl_float du1 = shading.uv01.z - shading.uv01.x;
  const cl_float dv1 = shading.uv01.w - shading.uv01.y;
  const cl_float du2 = shading.uv2.x - shading.uv01.x;
  const cl_float dv2 = shading.uv2.y - shading.uv01.y;
  const cl_float determinant = du1 * dv2 - du2 * dv1;
  if (determinant == 0.0f) return n;  // no texture coordinates to orient the map by
  // d position / du, and minus d position / dv (the image's up).
  const cl_float4 along_u =
      rt_scale(rt_sub(rt_scale(edge1, dv2), rt_scale(edge2, dv1)), 1.0f / determinant);
  const cl_float4 up_image =
      rt_scale(rt_sub(rt_scale(edge1, du2), rt_scale(edge2, du1)), 1.0f / determinant);
  const cl_float4 tangent = rt_normalize(rt_sub(along_u, rt_scale(n, rt_dot(n, along_u))));
  cl_float4 bitangent = rt_cross(n, tangent);
  if (rt_dot(bitangent, up_image) < 0.0f) bitangent = rt_scale(bitangent, -1.0f);
  const cl_float4 texel = rt_sample_texture(textures, texels, texture, u, v, 0);
  const cl_float x = (2.0f * texel.x - 1.0f) * scale;
  const cl_float y = (2.0f * texel.y - 1.0f) * scale;
  const cl_float z = 2.0f * texel.z - 1.0f;
  const cl_float4 bent =
      rt_add(rt_add(rt_scale(tangent, x), rt_scale(bitangent, y)), rt_scale(n, z));
  return rt_dot(bent, bent) > 0.0f ? rt_normalize(bent) : n;
}

// A triangle's surface at a hit: the corner normals interpolated (and bent by a normal map) and
// turned to the side of the geometric normal that faces the viewer (so a smooth normal never
// points into the surface the ray came from), the instance's or the triangle's material with its
// maps applied: the base colour and emission times their textures (as linear light with
// `linear`), metallic and roughness times the metallic-roughness map.
CLF_FUNCTION void rt_triangle_surface(RT_GLOBAL const RtMaterial* materials,
                                      RT_GLOBAL const RtInstance* instances,
                                      RT_GLOBAL const RtTriangle* triangles,
                                      RT_GLOBAL const RtTriangleShading* triangle_shading,
                                      RT_GLOBAL const RtTexture* textures,
                                      RT_GLOBAL const cl_uint* texels, RtHit hit,
                                      cl_float4 direction, cl_int linear, cl_float4* normal,
                                      RtMaterial* material, cl_float4* base_color, cl_int* front) {
  const RtTriangle triangle = triangles[hit.index];
  const RtTriangleShading shading = triangle_shading[hit.index];
  const RtInstance instance = instances[hit.instance];
  *material = materials[instance.material >= 0 ? (cl_uint)instance.material : shading.material];
  const cl_float w = 1.0f - hit.u - hit.v;
  const cl_float u = w * shading.uv01.x + hit.u * shading.uv01.z + hit.v * shading.uv2.x;
  const cl_float v = w * shading.uv01.y + hit.u * shading.uv01.w + hit.v * shading.uv2.y;
  cl_float4 geometric = rt_normal_to_world(
      instance, rt_cross(rt_sub(triangle.v1, triangle.v0), rt_sub(triangle.v2, triangle.v0)));
  cl_float4 smooth = rt_normalize(rt_add(
      rt_add(rt_scale(shading.n0, w), rt_scale(shading.n1, hit.u)), rt_scale(shading.n2, hit.v)));
  if (material->normal_texture >= 0) {
    smooth = rt_normal_mapped(textures, texels, material->normal_texture, material->normal_scale,
                              triangle, shading, u, v, smooth);
  }
  smooth = rt_normal_to_world(instance, smooth);
  *front = rt_dot(geometric, direction) <= 0.0f;
  if (!*front) geometric = rt_scale(geometric, -1.0f);
  if (rt_dot(smooth, geometric) < 0.0f) smooth = rt_scale(smooth, -1.0f);
  *normal = smooth;
  *base_color = material->color;
  if (material->texture >= 0) {
    *base_color =
        rt_mul(*base_color, rt_sample_texture(textures, texels, material->texture, u, v, linear));
  }
  if (material->emissive_texture >= 0) {
    material->emission =
        rt_mul(material->emission,
               rt_sample_texture(textures, texels, material->emissive_texture, u, v, linear));
  }
  if (material->metallic_roughness_texture >= 0) {
    const cl_float4 texel =
        rt_sample_texture(textures, texels, material->metallic_roughness_texture, u, v, 0);
    material->roughness *= texel.y;
    material->metallic *= texel.z;
  }
}

// The surface at a hit point: its normal facing the viewer, material and colour there (textures
// as linear light with `linear`, else as stored), and whether the ray came from outside (front:
// the normal as the surface defines it faced it).
CLF_FUNCTION void rt_surface(RT_SCENE_PARAMETERS, RtHit hit, cl_float4 point, cl_float4 direction,
                             cl_int linear, cl_float4* normal, RtMaterial* material,
                             cl_float4* base_color, cl_int* front) {
  (void)lights;
  (void)nodes;
  (void)mesh_nodes;
  (void)emitters;
  (void)sky;
  (void)sky_cdf;
  if (hit.kind == RT_HIT_TRIANGLE) {
    rt_triangle_surface(materials, instances, triangles, triangle_shading, textures, texels, hit,
                        direction, linear, normal, material, base_color, front);
    return;
  }
  if (hit.kind == RT_HIT_SPHERE) {
    const RtSphere sphere = spheres[hit.index];
    const cl_float4 center =
        rt_vec(sphere.center_radius.x, sphere.center_radius.y, sphere.center_radius.z);
    *normal = rt_scale(rt_sub(point, center), 1.0f / sphere.center_radius.w);
    *material = materials[sphere.material];
    *base_color = material->color;
  } else {
    const RtPlane plane = planes[hit.index];
    *normal = plane.normal;
    *material = materials[plane.material];
    *base_color = material->color;
    if (plane.checker_size > 0.0f) {
      const cl_float inverse = 1.0f / plane.checker_size;
      const cl_int cell = (cl_int)rt_floorf(point.x * inverse) +
                          (cl_int)rt_floorf(point.y * inverse) +
                          (cl_int)rt_floorf(point.z * inverse);
      if (cell & 1) *base_color = plane.checker_color;
    }
  }
  *front = rt_dot(*normal, direction) <= 0.0f;
  if (!*front) *normal = rt_scale(*normal, -1.0f);
}

// Phong + Lambert at a surface point with normal n (facing the viewer), seen along `direction`,
// with hard shadows from every light (shadow rays start `offset` off the surface).
CLF_FUNCTION cl_float4 rt_shade(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                RtMaterial material, cl_float4 base_color, cl_float4 point,
                                cl_float offset, cl_float4 normal, cl_float4 direction,
                                RtRayCounts* counts) {
  cl_float4 color = rt_scale(base_color, material.ambient);
  const cl_float4 shadow_origin = rt_add_scaled(point, normal, offset);
  for (cl_uint i = 0; i < params->light_count; ++i) {
    const RtLight light = lights[i];
    const cl_float4 to_light = rt_sub(light.position, point);
    const cl_float distance = rt_sqrtf(rt_dot(to_light, to_light));
    const cl_float4 l = rt_scale(to_light, 1.0f / distance);
    const cl_float lambert = rt_dot(normal, l);
    if (lambert <= 0.0f) continue;
    if (params->shadows) {
      ++counts->shadow;
      const RtHit blocker = rt_trace(RT_SCENE_ARGUMENTS, params, shadow_origin, l, distance, 1);
      if (blocker.kind != RT_HIT_NONE) continue;
    }
    const cl_float4 radiance = rt_scale(light.color, light.intensity);
    cl_float4 lit = rt_scale(base_color, material.diffuse * lambert);
    const cl_float4 reflected = rt_reflect(l, normal);
    const cl_float highlight = rt_dot(reflected, direction);
    if (material.specular > 0.0f && highlight > 0.0f) {
      const cl_float s = material.specular * rt_powf(highlight, material.shininess);
      lit = rt_add(lit, rt_vec(s, s, s));
    }
    color = rt_add(color, rt_mul(lit, radiance));
  }
  return color;
}

// The nearest surface along the ray of bounce `depth` (0: the camera's), counted as a primary or
// a secondary ray.
CLF_FUNCTION RtHit rt_trace_bounce(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                   cl_float4 origin, cl_float4 direction, cl_uint depth,
                                   RtRayCounts* counts) {
  if (depth == 0) {
    ++counts->primary;
  } else {
    ++counts->secondary;
  }
  return rt_trace(RT_SCENE_ARGUMENTS, params, origin, direction, RT_INFINITY, 0);
}

// The colour seen along a primary ray (Whitted): each hit lit by the point lights plus what it
// emits, then one ray onwards: refracted through a transmissive surface (reflected where
// internal reflection is total), mirrored off a reflective one, up to params->max_depth
// bounces; the last bounce's surface counts as opaque and matte.
CLF_FUNCTION cl_float4 rt_radiance(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                   cl_float4 origin, cl_float4 direction, RtRayCounts* counts) {
  (void)sky_cdf;  // the image is seen, not sampled as a light
  cl_float4 color = rt_vec(0.0f, 0.0f, 0.0f);
  cl_float4 throughput = rt_vec(1.0f, 1.0f, 1.0f);
  for (cl_uint depth = 0; depth <= params->max_depth; ++depth) {
    const RtHit hit = rt_trace_bounce(RT_SCENE_ARGUMENTS, params, origin, direction, depth, counts);
    if (hit.kind == RT_HIT_NONE) {
      color = rt_add(color, rt_mul(rt_sky(params, sky, direction), throughput));
      break;
    }
    const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
    const cl_float offset = rt_surface_offset(point, hit.t);
    cl_float4 normal;
    RtMaterial material;
    cl_float4 base_color;
    cl_int front;
    rt_surface(RT_SCENE_ARGUMENTS, hit, point, direction, 0, &normal, &material, &base_color,
               &front);
    const cl_float4 surface =
        rt_add(material.emission, rt_shade(RT_SCENE_ARGUMENTS, params, material, base_color, point,
                                           offset, normal, direction, counts));
    const cl_int last = depth == params->max_depth;
    const cl_float transmission = last ? 0.0f : material.transmission;
    const cl_float reflectivity = last ? 0.0f : (1.0f - transmission) * material.reflectivity;
    color =
        rt_add(color, rt_scale(rt_mul(surface, throughput), 1.0f - transmission - reflectivity));
    if (transmission > 0.0f) {
      RtSurfacePoint glass;
      glass.normal = normal;
      glass.base_color = base_color;
      glass.ior = material.ior;
      glass.front = front;
      const RtBsdfSample refracted = rt_sample_glass(glass, rt_scale(direction, -1.0f), 1.0f);
      throughput = rt_scale(rt_mul(throughput, refracted.weight), transmission);
      direction = refracted.direction;
    } else if (reflectivity > 0.0f) {
      throughput = rt_scale(throughput, reflectivity);
      direction = rt_normalize(rt_reflect(direction, normal));
    } else {
      break;
    }
    origin = rt_add_scaled(point, normal, rt_dot(direction, normal) > 0.0f ? offset : -offset);
  }
  return color;
}

CLF_FUNCTION cl_float4 rt_primary_direction(const RtCamera* camera, cl_float u, cl_float v) {
  cl_float4 d = rt_add_scaled(camera->forward, camera->right, 2.0f * u - 1.0f);
  d = rt_add_scaled(d, camera->up, 1.0f - 2.0f * v);
  return rt_normalize(d);
}

// The average colour of pixel (x, y) over aa x aa samples, shifted by params->jitter.
CLF_FUNCTION cl_float4 rt_whitted_pixel(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_uint x,
                                        cl_uint y, RtRayCounts* counts) {
  const cl_uint aa = params->aa < 1 ? 1 : (params->aa > RT_MAX_AA ? RT_MAX_AA : params->aa);
  const cl_float step = 1.0f / (cl_float)aa;
  cl_float4 sum = rt_vec(0.0f, 0.0f, 0.0f);
  for (cl_uint sy = 0; sy < aa; ++sy) {
    for (cl_uint sx = 0; sx < aa; ++sx) {
      const cl_float u =
          ((cl_float)x + ((cl_float)sx + params->jitter.x) * step) / (cl_float)params->width;
      const cl_float v =
          ((cl_float)y + ((cl_float)sy + params->jitter.y) * step) / (cl_float)params->height;
      const cl_float4 direction = rt_primary_direction(&params->camera, u, v);
      sum = rt_add(
          sum, rt_radiance(RT_SCENE_ARGUMENTS, params, params->camera.position, direction, counts));
    }
  }
  return rt_scale(sum, step * step);
}

#endif  // SHARED_RAYTRACER_SHADING_H

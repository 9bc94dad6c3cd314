// The raytracer's scene types, intersection, BVH and shading, written once and compiled both as
// C++ (the CPU reference renderer, tests) and as OpenCL C (kernels/raytracer/*.cl), so host and
// device evaluate the same formulas in the same order.
//
// Conventions: vectors are cl_float4 with w unused (0); directions are unit length; a ray is
// o + t d for t in (RT_EPSILON, t_max). Host vectors have no operators, so the math goes through
// the rt_ helpers below. Pointers to scene arrays are RT_GLOBAL (__global on the device).
//
// The BVH is a Karras (2012) radix tree over spheres sorted by the Morton codes of their
// centres: n - 1 internal nodes (0 .. n - 2, node 0 the root) followed by n leaves
// (n - 1 .. 2n - 2; leaf n - 1 + i holds sorted sphere i). With one sphere, node 0 is its leaf.
#ifndef SHARED_RAYTRACER_H
#define SHARED_RAYTRACER_H

#include "shared/cl_types.h"

#if defined(__OPENCL_VERSION__)
#ifdef RT_NO_CONTRACT
// Tests build the kernels without multiply-add contraction, as the host compiles the reference.
#pragma OPENCL FP_CONTRACT OFF
#endif
#define RT_GLOBAL __global
#define rt_sqrtf sqrt
#define rt_powf pow
#define rt_fabsf fabs
#define rt_floorf floor
#define rt_fminf fmin
#define rt_fmaxf fmax
#else
#include <math.h>
#define RT_GLOBAL
#define rt_sqrtf sqrtf
#define rt_powf powf
#define rt_fabsf fabsf
#define rt_floorf floorf
#define rt_fminf fminf
#define rt_fmaxf fmaxf
#endif

// Offsets secondary rays from surfaces (scene units; scenes are built at scales of 1 .. 1000).
#define RT_EPSILON 1e-3f
#define RT_INFINITY 1e30f
// The BVH traversal stack; the tree's depth is at most 30 Morton bits + 32 index bits.
#define RT_STACK_SIZE 64
#define RT_MAX_DEPTH 16
#define RT_MAX_AA 8

#define RT_HIT_NONE 0
#define RT_HIT_SPHERE 1
#define RT_HIT_PLANE 2

typedef struct RtMaterial {
  cl_float4 color;        // rgb in [0, 1]
  cl_float ambient;       // share of the colour seen without any light
  cl_float diffuse;       // Lambert weight
  cl_float specular;      // Phong weight
  cl_float shininess;     // Phong exponent
  cl_float reflectivity;  // 0: matte, 1: perfect mirror
  cl_float pad0, pad1, pad2;
} RtMaterial;
CLF_SHARED_STRUCT(RtMaterial)
// clang-format off
#define RT_MATERIAL_FIELDS(FIELD) \
  FIELD(color) FIELD(ambient) FIELD(diffuse) FIELD(specular) FIELD(shininess) \
  FIELD(reflectivity) FIELD(pad0) FIELD(pad1) FIELD(pad2)
// clang-format on

typedef struct RtSphere {
  cl_float4 center_radius;  // xyz centre, w radius
  cl_uint material;
  cl_uint pad0, pad1, pad2;
} RtSphere;
CLF_SHARED_STRUCT(RtSphere)
#define RT_SPHERE_FIELDS(FIELD) \
  FIELD(center_radius) FIELD(material) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// The points p with dot(normal, p) = offset. With checker_size > 0 the plane alternates between
// the material's colour and checker_color in squares of that size.
typedef struct RtPlane {
  cl_float4 normal;  // unit length
  cl_float4 checker_color;
  cl_float offset;
  cl_float checker_size;
  cl_uint material;
  cl_uint pad0;
} RtPlane;
CLF_SHARED_STRUCT(RtPlane)
#define RT_PLANE_FIELDS(FIELD) \
  FIELD(normal) FIELD(checker_color) FIELD(offset) FIELD(checker_size) FIELD(material) FIELD(pad0)

typedef struct RtLight {
  cl_float4 position;
  cl_float4 color;  // rgb
  cl_float intensity;
  cl_float pad0, pad1, pad2;
} RtLight;
CLF_SHARED_STRUCT(RtLight)
#define RT_LIGHT_FIELDS(FIELD) \
  FIELD(position) FIELD(color) FIELD(intensity) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// A pinhole camera: the ray through image point (u, v) in [0, 1]^2 (v down) has direction
// forward + (2u - 1) right + (1 - 2v) up, with right and up scaled by the field of view.
typedef struct RtCamera {
  cl_float4 position;
  cl_float4 forward;
  cl_float4 right;
  cl_float4 up;
} RtCamera;
CLF_SHARED_STRUCT(RtCamera)
#define RT_CAMERA_FIELDS(FIELD) FIELD(position) FIELD(forward) FIELD(right) FIELD(up)

// Everything one frame needs besides the arrays.
typedef struct RtFrameParams {
  RtCamera camera;
  cl_float4 background;
  cl_float4 jitter;  // xy: sub-sample offset in [0, 1) (0.5 = centre), for accumulation
  cl_uint width;
  cl_uint height;
  cl_uint sphere_count;
  cl_uint plane_count;
  cl_uint light_count;
  cl_uint max_depth;    // reflection bounces after the primary hit
  cl_uint aa;           // aa x aa samples per pixel
  cl_uint use_bvh;      // 0: test every sphere
  cl_uint shadows;      // 0: every light reaches every point
  cl_uint frame_index;  // frames accumulated before this one (0: start over)
  cl_uint pad0, pad1;
} RtFrameParams;
CLF_SHARED_STRUCT(RtFrameParams)
// clang-format off
#define RT_FRAME_PARAMS_FIELDS(FIELD) \
  FIELD(camera) FIELD(background) FIELD(jitter) FIELD(width) FIELD(height) \
  FIELD(sphere_count) FIELD(plane_count) FIELD(light_count) FIELD(max_depth) FIELD(aa) \
  FIELD(use_bvh) FIELD(shadows) FIELD(frame_index) FIELD(pad0) FIELD(pad1)
// clang-format on

// A BVH node: bounds, children (internal) or sphere (leaf, left = -1), parent (-1 at the root).
typedef struct RtBvhNode {
  cl_float4 bounds_min;
  cl_float4 bounds_max;
  cl_int left;
  cl_int right;
  cl_int parent;
  cl_int sphere;
} RtBvhNode;
CLF_SHARED_STRUCT(RtBvhNode)
#define RT_BVH_NODE_FIELDS(FIELD) \
  FIELD(bounds_min) FIELD(bounds_max) FIELD(left) FIELD(right) FIELD(parent) FIELD(sphere)

// The nearest surface along a ray.
typedef struct RtHit {
  cl_float t;
  cl_int kind;   // RT_HIT_NONE, RT_HIT_SPHERE, RT_HIT_PLANE
  cl_int index;  // into the spheres or planes
  cl_int pad0;
} RtHit;
CLF_SHARED_STRUCT(RtHit)
#define RT_HIT_FIELDS(FIELD) FIELD(t) FIELD(kind) FIELD(index) FIELD(pad0)

// ---- vector helpers (w is carried as 0) ----

CLF_FUNCTION cl_float4 rt_vec(cl_float x, cl_float y, cl_float z) {
  cl_float4 v;
  v.x = x;
  v.y = y;
  v.z = z;
  v.w = 0.0f;
  return v;
}
CLF_FUNCTION cl_float4 rt_add(cl_float4 a, cl_float4 b) {
  return rt_vec(a.x + b.x, a.y + b.y, a.z + b.z);
}
CLF_FUNCTION cl_float4 rt_sub(cl_float4 a, cl_float4 b) {
  return rt_vec(a.x - b.x, a.y - b.y, a.z - b.z);
}
CLF_FUNCTION cl_float4 rt_mul(cl_float4 a, cl_float4 b) {
  return rt_vec(a.x * b.x, a.y * b.y, a.z * b.z);
}
CLF_FUNCTION cl_float4 rt_scale(cl_float4 a, cl_float s) {
  return rt_vec(a.x * s, a.y * s, a.z * s);
}
// a + s b, written as a product then a sum on both sides.
CLF_FUNCTION cl_float4 rt_add_scaled(cl_float4 a, cl_float4 b, cl_float s) {
  return rt_add(a, rt_scale(b, s));
}
CLF_FUNCTION cl_float rt_dot(cl_float4 a, cl_float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CLF_FUNCTION cl_float4 rt_cross(cl_float4 a, cl_float4 b) {
  return rt_vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
CLF_FUNCTION cl_float4 rt_normalize(cl_float4 a) {
  const cl_float length = rt_sqrtf(rt_dot(a, a));
  return length > 0.0f ? rt_scale(a, 1.0f / length) : a;
}
CLF_FUNCTION cl_float4 rt_min3(cl_float4 a, cl_float4 b) {
  return rt_vec(rt_fminf(a.x, b.x), rt_fminf(a.y, b.y), rt_fminf(a.z, b.z));
}
CLF_FUNCTION cl_float4 rt_max3(cl_float4 a, cl_float4 b) {
  return rt_vec(rt_fmaxf(a.x, b.x), rt_fmaxf(a.y, b.y), rt_fmaxf(a.z, b.z));
}
// d reflected about the unit normal n.
CLF_FUNCTION cl_float4 rt_reflect(cl_float4 d, cl_float4 n) {
  return rt_sub(d, rt_scale(n, 2.0f * rt_dot(d, n)));
}

// ---- intersection ----

// Distance along the ray to the sphere, or RT_INFINITY. The discriminant is computed from the
// ray's closest approach (r^2 - |oc - (oc.d) d|^2), which keeps precision for distant spheres.
CLF_FUNCTION cl_float rt_intersect_sphere(RtSphere sphere, cl_float4 origin, cl_float4 direction,
                                          cl_float t_max) {
  const cl_float4 center =
      rt_vec(sphere.center_radius.x, sphere.center_radius.y, sphere.center_radius.z);
  const cl_float radius = sphere.center_radius.w;
  const cl_float4 oc = rt_sub(origin, center);
  const cl_float b = rt_dot(oc, direction);
  const cl_float4 closest = rt_sub(oc, rt_scale(direction, b));
  const cl_float discriminant = radius * radius - rt_dot(closest, closest);
  if (discriminant < 0.0f) return RT_INFINITY;
  const cl_float root = rt_sqrtf(discriminant);
  cl_float t = -b - root;
  if (t <= RT_EPSILON) t = -b + root;
  return (t > RT_EPSILON && t < t_max) ? t : RT_INFINITY;
}

CLF_FUNCTION cl_float rt_intersect_plane(RtPlane plane, cl_float4 origin, cl_float4 direction,
                                         cl_float t_max) {
  const cl_float denominator = rt_dot(plane.normal, direction);
  if (rt_fabsf(denominator) < 1e-8f) return RT_INFINITY;
  const cl_float t = (plane.offset - rt_dot(plane.normal, origin)) / denominator;
  return (t > RT_EPSILON && t < t_max) ? t : RT_INFINITY;
}

// Slab test: whether the ray enters the box before t_max (inverse direction precomputed).
CLF_FUNCTION cl_float rt_intersect_box(cl_float4 box_min, cl_float4 box_max, cl_float4 origin,
                                       cl_float4 inverse_direction, cl_float t_max) {
#if defined(__OPENCL_VERSION__)
  // The same operations on whole float4s, and min/max as comparisons: no operand can be NaN
  // (finite bounds, origin and inverse direction), so the result is the one below, bit for bit,
  // without fmin/fmax's NaN handling and the scalar shuffles (on PoCL the traversal loop runs
  // scalar per work-item; this halves the cost of a box test there).
  const float4 t1 = (box_min - origin) * inverse_direction;
  const float4 t2 = (box_max - origin) * inverse_direction;
  const int4 t1_nearer = t1 < t2;
  const float4 t_near = select(t2, t1, t1_nearer);
  const float4 t_far = select(t1, t2, t1_nearer);
  const float enter_xy = t_near.x > t_near.y ? t_near.x : t_near.y;
  const float enter_z = t_near.z > 0.0f ? t_near.z : 0.0f;
  const float exit_xy = t_far.x < t_far.y ? t_far.x : t_far.y;
  const float exit_z = t_far.z < t_max ? t_far.z : t_max;
  const float t_enter = enter_xy > enter_z ? enter_xy : enter_z;
  const float t_exit = exit_xy < exit_z ? exit_xy : exit_z;
  return t_enter <= t_exit ? t_enter : RT_INFINITY;
#else
  const cl_float tx1 = (box_min.x - origin.x) * inverse_direction.x;
  const cl_float tx2 = (box_max.x - origin.x) * inverse_direction.x;
  const cl_float ty1 = (box_min.y - origin.y) * inverse_direction.y;
  const cl_float ty2 = (box_max.y - origin.y) * inverse_direction.y;
  const cl_float tz1 = (box_min.z - origin.z) * inverse_direction.z;
  const cl_float tz2 = (box_max.z - origin.z) * inverse_direction.z;
  const cl_float t_enter = rt_fmaxf(rt_fmaxf(rt_fminf(tx1, tx2), rt_fminf(ty1, ty2)),
                                    rt_fmaxf(rt_fminf(tz1, tz2), 0.0f));
  const cl_float t_exit = rt_fminf(rt_fminf(rt_fmaxf(tx1, tx2), rt_fmaxf(ty1, ty2)),
                                   rt_fminf(rt_fmaxf(tz1, tz2), t_max));
  return t_enter <= t_exit ? t_enter : RT_INFINITY;
#endif
}

CLF_FUNCTION RtHit rt_no_hit(cl_float t_max) {
  RtHit hit;
  hit.t = t_max;
  hit.kind = RT_HIT_NONE;
  hit.index = -1;
  hit.pad0 = 0;
  return hit;
}

// Nearest sphere by testing every one (the brute-force path). With any_hit the first
// blocker found ends the search (shadow rays).
CLF_FUNCTION RtHit rt_spheres_brute(RT_GLOBAL const RtSphere* spheres, cl_uint count,
                                    cl_float4 origin, cl_float4 direction, RtHit hit,
                                    cl_int any_hit) {
  for (cl_uint i = 0; i < count; ++i) {
    const cl_float t = rt_intersect_sphere(spheres[i], origin, direction, hit.t);
    if (t < hit.t) {
      hit.t = t;
      hit.kind = RT_HIT_SPHERE;
      hit.index = (cl_int)i;
      if (any_hit) return hit;
    }
  }
  return hit;
}

CLF_FUNCTION cl_float4 rt_inverse_direction(cl_float4 d) {
  // Zero components become huge, not infinite, so 0 * inverse stays finite in the slab test.
  return rt_vec(1.0f / (rt_fabsf(d.x) > 1e-20f ? d.x : 1e-20f),
                1.0f / (rt_fabsf(d.y) > 1e-20f ? d.y : 1e-20f),
                1.0f / (rt_fabsf(d.z) > 1e-20f ? d.z : 1e-20f));
}

// Nearest sphere through the BVH: the nearer child first, the other on a stack.
CLF_FUNCTION RtHit rt_spheres_bvh(RT_GLOBAL const RtBvhNode* nodes,
                                  RT_GLOBAL const RtSphere* spheres, cl_uint count,
                                  cl_float4 origin, cl_float4 direction, RtHit hit,
                                  cl_int any_hit) {
  if (count == 0) return hit;
  const cl_float4 inverse_direction = rt_inverse_direction(direction);
  cl_int stack[RT_STACK_SIZE];
  cl_int top = 0;
  cl_int node = 0;
  if (rt_intersect_box(nodes[0].bounds_min, nodes[0].bounds_max, origin, inverse_direction,
                       hit.t) >= RT_INFINITY) {
    return hit;
  }
  while (1) {
    const RtBvhNode current = nodes[node];
    if (current.left < 0) {
      const cl_float t = rt_intersect_sphere(spheres[current.sphere], origin, direction, hit.t);
      if (t < hit.t) {
        hit.t = t;
        hit.kind = RT_HIT_SPHERE;
        hit.index = current.sphere;
        if (any_hit) return hit;
      }
    } else {
      const cl_float t_left =
          rt_intersect_box(nodes[current.left].bounds_min, nodes[current.left].bounds_max, origin,
                           inverse_direction, hit.t);
      const cl_float t_right =
          rt_intersect_box(nodes[current.right].bounds_min, nodes[current.right].bounds_max, origin,
                           inverse_direction, hit.t);
      const cl_int left_in = t_left < RT_INFINITY;
      const cl_int right_in = t_right < RT_INFINITY;
      if (left_in && right_in) {
        const cl_int near_child = t_left <= t_right ? current.left : current.right;
        const cl_int far_child = t_left <= t_right ? current.right : current.left;
        if (top < RT_STACK_SIZE) stack[top++] = far_child;
        node = near_child;
        continue;
      }
      if (left_in) {
        node = current.left;
        continue;
      }
      if (right_in) {
        node = current.right;
        continue;
      }
    }
    // Pop nodes until one the ray still reaches before the nearest hit so far.
    cl_int found = 0;
    while (top > 0 && !found) {
      node = stack[--top];
      found = rt_intersect_box(nodes[node].bounds_min, nodes[node].bounds_max, origin,
                               inverse_direction, hit.t) < RT_INFINITY;
    }
    if (!found) return hit;
  }
}

// Scene arrays as one record, so the functions below take one argument for them.
#define RT_SCENE_PARAMETERS                                                   \
  RT_GLOBAL const RtSphere *spheres, RT_GLOBAL const RtPlane *planes,         \
      RT_GLOBAL const RtMaterial *materials, RT_GLOBAL const RtLight *lights, \
      RT_GLOBAL const RtBvhNode *nodes
#define RT_SCENE_ARGUMENTS spheres, planes, materials, lights, nodes

// Nearest surface (spheres, then planes) before hit.t.
CLF_FUNCTION RtHit rt_trace(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_float4 origin,
                            cl_float4 direction, cl_float t_max, cl_int any_hit) {
  RtHit hit = rt_no_hit(t_max);
  if (params->use_bvh) {
    hit = rt_spheres_bvh(nodes, spheres, params->sphere_count, origin, direction, hit, any_hit);
  } else {
    hit = rt_spheres_brute(spheres, params->sphere_count, origin, direction, hit, any_hit);
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
  return hit;
}

// Phong + Lambert at a surface point with normal n (facing the viewer), seen along `direction`,
// with hard shadows from every light.
CLF_FUNCTION cl_float4 rt_shade(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                RtMaterial material, cl_float4 base_color, cl_float4 point,
                                cl_float4 normal, cl_float4 direction) {
  cl_float4 color = rt_scale(base_color, material.ambient);
  const cl_float4 shadow_origin = rt_add_scaled(point, normal, RT_EPSILON);
  for (cl_uint i = 0; i < params->light_count; ++i) {
    const RtLight light = lights[i];
    const cl_float4 to_light = rt_sub(light.position, point);
    const cl_float distance = rt_sqrtf(rt_dot(to_light, to_light));
    const cl_float4 l = rt_scale(to_light, 1.0f / distance);
    const cl_float lambert = rt_dot(normal, l);
    if (lambert <= 0.0f) continue;
    if (params->shadows) {
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

// The colour seen along a primary ray: iterative reflections up to params->max_depth bounces,
// each hit fully lit; the last bounce's surface counts as matte.
CLF_FUNCTION cl_float4 rt_radiance(RT_SCENE_PARAMETERS, const RtFrameParams* params,
                                   cl_float4 origin, cl_float4 direction) {
  cl_float4 color = rt_vec(0.0f, 0.0f, 0.0f);
  cl_float throughput = 1.0f;
  for (cl_uint depth = 0; depth <= params->max_depth; ++depth) {
    const RtHit hit = rt_trace(RT_SCENE_ARGUMENTS, params, origin, direction, RT_INFINITY, 0);
    if (hit.kind == RT_HIT_NONE) {
      color = rt_add_scaled(color, params->background, throughput);
      break;
    }
    const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
    cl_float4 normal;
    RtMaterial material;
    cl_float4 base_color;
    if (hit.kind == RT_HIT_SPHERE) {
      const RtSphere sphere = spheres[hit.index];
      const cl_float4 center =
          rt_vec(sphere.center_radius.x, sphere.center_radius.y, sphere.center_radius.z);
      normal = rt_scale(rt_sub(point, center), 1.0f / sphere.center_radius.w);
      material = materials[sphere.material];
      base_color = material.color;
    } else {
      const RtPlane plane = planes[hit.index];
      normal = plane.normal;
      material = materials[plane.material];
      base_color = material.color;
      if (plane.checker_size > 0.0f) {
        const cl_float inverse = 1.0f / plane.checker_size;
        const cl_int cell = (cl_int)rt_floorf(point.x * inverse) +
                            (cl_int)rt_floorf(point.y * inverse) +
                            (cl_int)rt_floorf(point.z * inverse);
        if (cell & 1) base_color = plane.checker_color;
      }
    }
    if (rt_dot(normal, direction) > 0.0f) normal = rt_scale(normal, -1.0f);
    const cl_float4 surface =
        rt_shade(RT_SCENE_ARGUMENTS, params, material, base_color, point, normal, direction);
    const cl_float reflectivity = depth < params->max_depth ? material.reflectivity : 0.0f;
    color = rt_add_scaled(color, surface, throughput * (1.0f - reflectivity));
    if (reflectivity <= 0.0f) break;
    throughput *= reflectivity;
    direction = rt_normalize(rt_reflect(direction, normal));
    origin = rt_add_scaled(point, normal, RT_EPSILON);
  }
  return color;
}

CLF_FUNCTION cl_float4 rt_primary_direction(const RtCamera* camera, cl_float u, cl_float v) {
  cl_float4 d = rt_add_scaled(camera->forward, camera->right, 2.0f * u - 1.0f);
  d = rt_add_scaled(d, camera->up, 1.0f - 2.0f * v);
  return rt_normalize(d);
}

// The average colour of pixel (x, y) over aa x aa samples, shifted by params->jitter.
CLF_FUNCTION cl_float4 rt_pixel(RT_SCENE_PARAMETERS, const RtFrameParams* params, cl_uint x,
                                cl_uint y) {
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
      sum =
          rt_add(sum, rt_radiance(RT_SCENE_ARGUMENTS, params, params->camera.position, direction));
    }
  }
  return rt_scale(sum, step * step);
}

// A colour in [0, 1] as RGBA bytes, R in the lowest byte (the byte order of an RGBA image).
CLF_FUNCTION cl_uint rt_pack_rgba(cl_float4 color) {
  const cl_uint r = (cl_uint)(rt_fminf(rt_fmaxf(color.x, 0.0f), 1.0f) * 255.0f + 0.5f);
  const cl_uint g = (cl_uint)(rt_fminf(rt_fmaxf(color.y, 0.0f), 1.0f) * 255.0f + 0.5f);
  const cl_uint b = (cl_uint)(rt_fminf(rt_fmaxf(color.z, 0.0f), 1.0f) * 255.0f + 0.5f);
  return r | (g << 8) | (b << 16) | (0xFFu << 24);
}

// One pixel of a frame: its colour, added to the running sum of earlier frames (frame_index of
// them) and written averaged as RGBA. `accumulated` is the sum (its w counts frames).
CLF_FUNCTION cl_uint rt_accumulate(cl_float4 color, cl_float4* accumulated, cl_uint frame_index) {
  if (frame_index == 0) {
    *accumulated = color;
  } else {
    *accumulated = rt_add(*accumulated, color);
  }
  return rt_pack_rgba(rt_scale(*accumulated, 1.0f / (cl_float)(frame_index + 1)));
}

// ---- BVH construction (Karras 2012), shared by the device build and the host reference ----

// Spreads the low 10 bits of v so that two zero bits separate each.
CLF_FUNCTION cl_uint rt_expand_bits(cl_uint v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

// The 30-bit Morton code of point p in the box scene_min + [0, 1/inverse_extent]^3.
CLF_FUNCTION cl_uint rt_morton_code(cl_float4 p, cl_float4 scene_min, cl_float4 inverse_extent) {
  const cl_float fx = (p.x - scene_min.x) * inverse_extent.x;
  const cl_float fy = (p.y - scene_min.y) * inverse_extent.y;
  const cl_float fz = (p.z - scene_min.z) * inverse_extent.z;
  const cl_uint x = (cl_uint)rt_fminf(rt_fmaxf(fx * 1024.0f, 0.0f), 1023.0f);
  const cl_uint y = (cl_uint)rt_fminf(rt_fmaxf(fy * 1024.0f, 0.0f), 1023.0f);
  const cl_uint z = (cl_uint)rt_fminf(rt_fmaxf(fz * 1024.0f, 0.0f), 1023.0f);
  return (rt_expand_bits(x) << 2) | (rt_expand_bits(y) << 1) | rt_expand_bits(z);
}

// 1 / extent per axis, with flat axes mapped to 0 (every code 0 there).
CLF_FUNCTION cl_float4 rt_inverse_extent(cl_float4 scene_min, cl_float4 scene_max) {
  const cl_float4 extent = rt_sub(scene_max, scene_min);
  return rt_vec(extent.x > 0.0f ? 1.0f / extent.x : 0.0f, extent.y > 0.0f ? 1.0f / extent.y : 0.0f,
                extent.z > 0.0f ? 1.0f / extent.z : 0.0f);
}

CLF_FUNCTION cl_int rt_count_leading_zeros(cl_uint v) {
#if defined(__OPENCL_VERSION__)
  return (cl_int)clz(v);
#else
  return v == 0 ? 32 : __builtin_clz(v);
#endif
}

// Length of the common prefix of sorted keys i and j, with equal codes told apart by index
// (Karras's tie-break), or -1 when j is outside [0, n).
CLF_FUNCTION cl_int rt_common_prefix(RT_GLOBAL const cl_uint* codes, cl_int n, cl_int i, cl_int j) {
  if (j < 0 || j >= n) return -1;
  const cl_uint a = codes[i];
  const cl_uint b = codes[j];
  if (a != b) return rt_count_leading_zeros(a ^ b);
  return 32 + rt_count_leading_zeros((cl_uint)i ^ (cl_uint)j);
}

// Internal node i of the radix tree over n sorted codes: its children (leaves offset by n - 1).
CLF_FUNCTION void rt_karras_node(RT_GLOBAL const cl_uint* codes, cl_int n, cl_int i, cl_int* left,
                                 cl_int* right) {
  // Direction of the node's range: towards the neighbour sharing the longer prefix.
  const cl_int d =
      rt_common_prefix(codes, n, i, i + 1) - rt_common_prefix(codes, n, i, i - 1) > 0 ? 1 : -1;
  const cl_int delta_min = rt_common_prefix(codes, n, i, i - d);
  // Upper bound of the range's length, then its exact other end by binary search.
  cl_int length_max = 2;
  while (rt_common_prefix(codes, n, i, i + length_max * d) > delta_min) length_max *= 2;
  cl_int length = 0;
  for (cl_int t = length_max / 2; t >= 1; t /= 2) {
    if (rt_common_prefix(codes, n, i, i + (length + t) * d) > delta_min) length += t;
  }
  const cl_int j = i + length * d;
  // The split: the last position sharing more than the range's common prefix with i.
  const cl_int delta_node = rt_common_prefix(codes, n, i, j);
  cl_int s = 0;
  cl_int t = length;
  do {
    t = (t + 1) / 2;
    if (rt_common_prefix(codes, n, i, i + (s + t) * d) > delta_node) s += t;
  } while (t > 1);
  const cl_int split = i + s * d + (d < 0 ? d : 0);
  const cl_int first = i < j ? i : j;
  const cl_int last = i < j ? j : i;
  *left = first == split ? (n - 1) + split : split;
  *right = last == split + 1 ? (n - 1) + split + 1 : split + 1;
}

CLF_FUNCTION RtBvhNode rt_leaf_node(RtSphere sphere, cl_int sphere_index) {
  RtBvhNode leaf;
  const cl_float r = sphere.center_radius.w;
  const cl_float4 center =
      rt_vec(sphere.center_radius.x, sphere.center_radius.y, sphere.center_radius.z);
  leaf.bounds_min = rt_sub(center, rt_vec(r, r, r));
  leaf.bounds_max = rt_add(center, rt_vec(r, r, r));
  leaf.left = -1;
  leaf.right = -1;
  leaf.parent = -1;
  leaf.sphere = sphere_index;
  return leaf;
}

#endif  // SHARED_RAYTRACER_H

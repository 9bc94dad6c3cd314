// Ray intersection with spheres, planes and boxes, and the nearest sphere by brute force or
// through the BVH.
#ifndef SHARED_RAYTRACER_INTERSECT_H
#define SHARED_RAYTRACER_INTERSECT_H

#include "shared/raytracer/vector.h"

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
  if (t <= 0.0f) t = -b + root;
  return (t > 0.0f && t < t_max) ? t : RT_INFINITY;
}

CLF_FUNCTION cl_float rt_intersect_plane(RtPlane plane, cl_float4 origin, cl_float4 direction,
                                         cl_float t_max) {
  const cl_float denominator = rt_dot(plane.normal, direction);
  if (rt_fabsf(denominator) < 1e-8f) return RT_INFINITY;
  const cl_float t = (plane.offset - rt_dot(plane.normal, origin)) / denominator;
  return (t > 0.0f && t < t_max) ? t : RT_INFINITY;
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
  hit.instance = -1;
  hit.u = 0.0f;
  hit.v = 0.0f;
  hit.pad0 = 0;
  hit.pad1 = 0;
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

#endif  // SHARED_RAYTRACER_INTERSECT_H

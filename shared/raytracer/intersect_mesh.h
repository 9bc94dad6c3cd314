// Rays against triangle meshes: the triangle test, rays taken into an instance's mesh space,
// and the nearest triangle through the two-level BVH (instances over mesh BVHs) or by testing
// every triangle of every instance.
#ifndef SHARED_RAYTRACER_INTERSECT_MESH_H
#define SHARED_RAYTRACER_INTERSECT_MESH_H

#include "shared/raytracer/intersect.h"
#include "shared/raytracer/mesh_types.h"

// Möller-Trumbore: the distance along the ray to the triangle (or RT_INFINITY), with the
// barycentric coordinates of corners 1 and 2 in *u and *v. The direction need not be unit
// length: t is in its units (a ray taken into mesh space keeps its world t).
CLF_FUNCTION cl_float rt_intersect_triangle(RtTriangle triangle, cl_float4 origin,
                                            cl_float4 direction, cl_float t_max, cl_float* u,
                                            cl_float* v) {
  const cl_float4 edge1 = rt_sub(triangle.v1, triangle.v0);
  const cl_float4 edge2 = rt_sub(triangle.v2, triangle.v0);
  const cl_float4 p = rt_cross(direction, edge2);
  const cl_float determinant = rt_dot(edge1, p);
  if (determinant == 0.0f) return RT_INFINITY;  // parallel to the plane, or degenerate
  const cl_float inverse = 1.0f / determinant;
  const cl_float4 s = rt_sub(origin, triangle.v0);
  const cl_float bu = rt_dot(s, p) * inverse;
  if (!(bu >= 0.0f && bu <= 1.0f)) return RT_INFINITY;  // NaN (a sliver) fails too
  const cl_float4 q = rt_cross(s, edge1);
  const cl_float bv = rt_dot(direction, q) * inverse;
  if (!(bv >= 0.0f && bu + bv <= 1.0f)) return RT_INFINITY;
  const cl_float t = rt_dot(edge2, q) * inverse;
  if (!(t > 0.0f && t < t_max)) return RT_INFINITY;
  *u = bu;
  *v = bv;
  return t;
}

CLF_FUNCTION cl_float4 rt_to_mesh_direction(RtInstance instance, cl_float4 d) {
  return rt_vec(rt_dot(instance.world_to_mesh_x, d), rt_dot(instance.world_to_mesh_y, d),
                rt_dot(instance.world_to_mesh_z, d));
}

CLF_FUNCTION cl_float4 rt_to_mesh_point(RtInstance instance, cl_float4 p) {
  return rt_add(
      rt_to_mesh_direction(instance, p),
      rt_vec(instance.world_to_mesh_x.w, instance.world_to_mesh_y.w, instance.world_to_mesh_z.w));
}

// A mesh-space normal in the world (the transpose of world_to_mesh), unit length.
CLF_FUNCTION cl_float4 rt_normal_to_world(RtInstance instance, cl_float4 n) {
  const cl_float4 x = instance.world_to_mesh_x;
  const cl_float4 y = instance.world_to_mesh_y;
  const cl_float4 z = instance.world_to_mesh_z;
  return rt_normalize(rt_vec(x.x * n.x + y.x * n.y + z.x * n.z, x.y * n.x + y.y * n.y + z.y * n.z,
                             x.z * n.x + y.z * n.y + z.z * n.z));
}

// Tests triangles first .. first + count - 1 of `instance` against the (mesh-space) ray.
CLF_FUNCTION RtHit rt_triangles(RT_GLOBAL const RtTriangle* triangles, cl_int first, cl_int count,
                                cl_int instance, cl_float4 origin, cl_float4 direction, RtHit hit,
                                cl_int any_hit) {
  for (cl_int i = first; i < first + count; ++i) {
    cl_float u = 0.0f;
    cl_float v = 0.0f;
    const cl_float t = rt_intersect_triangle(triangles[i], origin, direction, hit.t, &u, &v);
    if (t < hit.t) {
      hit.t = t;
      hit.kind = RT_HIT_TRIANGLE;
      hit.index = i;
      hit.instance = instance;
      hit.u = u;
      hit.v = v;
      if (any_hit) return hit;
    }
  }
  return hit;
}

// Every triangle of every instance (the brute-force path and the reference for the BVH).
CLF_FUNCTION RtHit rt_instances_brute(RT_GLOBAL const RtInstance* instances,
                                      RT_GLOBAL const RtTriangle* triangles, cl_uint count,
                                      cl_float4 origin, cl_float4 direction, RtHit hit,
                                      cl_int any_hit) {
  for (cl_uint i = 0; i < count; ++i) {
    const RtInstance instance = instances[i];
    hit = rt_triangles(triangles, instance.triangle_first, instance.triangle_count, (cl_int)i,
                       rt_to_mesh_point(instance, origin),
                       rt_to_mesh_direction(instance, direction), hit, any_hit);
    if (any_hit && hit.kind == RT_HIT_TRIANGLE) return hit;
  }
  return hit;
}

// Marks, on the traversal stack, where a mesh's nodes end and the instance level resumes.
#define RT_STACK_INSTANCE_MARK (-1)

// The nearest triangle through the two-level BVH with one stack: an instance leaf takes the ray
// into that instance's mesh space and pushes a mark; popping the mark takes it back to the world.
CLF_FUNCTION RtHit rt_instances_bvh(RT_GLOBAL const RtMeshNode* nodes,
                                    RT_GLOBAL const RtInstance* instances,
                                    RT_GLOBAL const RtTriangle* triangles, cl_uint count,
                                    cl_float4 world_origin, cl_float4 world_direction, RtHit hit,
                                    cl_int any_hit) {
  if (count == 0) return hit;
  const cl_float4 world_inverse = rt_inverse_direction(world_direction);
  cl_float4 origin = world_origin;
  cl_float4 direction = world_direction;
  cl_float4 inverse_direction = world_inverse;
  cl_int stack[RT_MESH_STACK_SIZE];
  cl_int top = 0;
  cl_int instance = -1;  // -1: at the instance level, in world space
  cl_int node = 0;
  if (rt_intersect_box(nodes[0].bounds_min, nodes[0].bounds_max, origin, inverse_direction,
                       hit.t) >= RT_INFINITY) {
    return hit;
  }
  while (1) {
    const RtMeshNode current = nodes[node];
    cl_int next = -1;
    if (current.count == 0) {
      const cl_int left = current.first;
      const cl_int right = current.first + 1;
      const cl_float t_left = rt_intersect_box(nodes[left].bounds_min, nodes[left].bounds_max,
                                               origin, inverse_direction, hit.t);
      const cl_float t_right = rt_intersect_box(nodes[right].bounds_min, nodes[right].bounds_max,
                                                origin, inverse_direction, hit.t);
      if (t_left < RT_INFINITY && t_right < RT_INFINITY) {
        if (top < RT_MESH_STACK_SIZE) stack[top++] = t_left <= t_right ? right : left;
        next = t_left <= t_right ? left : right;
      } else if (t_left < RT_INFINITY) {
        next = left;
      } else if (t_right < RT_INFINITY) {
        next = right;
      }
    } else if (instance < 0) {
      instance = current.first;
      const RtInstance placed = instances[instance];
      origin = rt_to_mesh_point(placed, world_origin);
      direction = rt_to_mesh_direction(placed, world_direction);
      inverse_direction = rt_inverse_direction(direction);
      if (top < RT_MESH_STACK_SIZE) stack[top++] = RT_STACK_INSTANCE_MARK;
      if (rt_intersect_box(nodes[placed.root].bounds_min, nodes[placed.root].bounds_max, origin,
                           inverse_direction, hit.t) < RT_INFINITY) {
        next = placed.root;
      }
    } else {
      hit = rt_triangles(triangles, current.first, current.count, instance, origin, direction, hit,
                         any_hit);
      if (any_hit && hit.kind == RT_HIT_TRIANGLE) return hit;
    }
    if (next >= 0) {
      node = next;
      continue;
    }
    // Pop nodes until one the ray still reaches before the nearest hit so far.
    cl_int found = 0;
    while (top > 0 && !found) {
      node = stack[--top];
      if (node == RT_STACK_INSTANCE_MARK) {
        instance = -1;
        origin = world_origin;
        direction = world_direction;
        inverse_direction = world_inverse;
        continue;
      }
      found = rt_intersect_box(nodes[node].bounds_min, nodes[node].bounds_max, origin,
                               inverse_direction, hit.t) < RT_INFINITY;
    }
    if (!found) return hit;
  }
}

#endif  // SHARED_RAYTRACER_INTERSECT_MESH_H

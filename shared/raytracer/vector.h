// Vector helpers for the raytracer: host vectors have no operators, so its math goes through
// these (w is carried as 0).
#ifndef SHARED_RAYTRACER_VECTOR_H
#define SHARED_RAYTRACER_VECTOR_H

#include "shared/raytracer/types.h"

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
// How far a secondary ray starts off the surface it leaves (along the normal), and how far short
// of a point on a light a shadow ray stops, for a point found t along a ray. A computed point
// o + t d is only as exact as its coordinates and t allow, so the offset is a share of those: a
// model in millimetres and one in kilometres render alike.
CLF_FUNCTION cl_float rt_surface_offset(cl_float4 point, cl_float t) {
  const cl_float extent =
      rt_fmaxf(rt_fmaxf(rt_fabsf(point.x), rt_fabsf(point.y)), rt_fabsf(point.z));
  return RT_OFFSET_SHARE * (extent + t);
}
// d reflected about the unit normal n.
CLF_FUNCTION cl_float4 rt_reflect(cl_float4 d, cl_float4 n) {
  return rt_sub(d, rt_scale(n, 2.0f * rt_dot(d, n)));
}

#endif  // SHARED_RAYTRACER_VECTOR_H

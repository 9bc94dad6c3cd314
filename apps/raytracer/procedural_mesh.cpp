#include "apps/raytracer/procedural_mesh.hpp"

#include <cmath>
#include <string>

namespace raytracer {

void add_triangle(TriangleMesh& mesh, const cl_float4 (&corners)[3], const cl_float4 (&normals)[3],
                  const float (&uv)[3][2], cl_uint material) {
  RtTriangle t{};
  t.v0 = corners[0];
  t.v1 = corners[1];
  t.v2 = corners[2];
  RtTriangleShading s{};
  s.n0 = normals[0];
  s.n1 = normals[1];
  s.n2 = normals[2];
  s.uv01 = {{uv[0][0], uv[0][1], uv[1][0], uv[1][1]}};
  s.uv2 = {{uv[2][0], uv[2][1], 0, 0}};
  s.material = material;
  mesh.triangles.push_back(t);
  mesh.shading.push_back(s);
}

namespace {

cl_float4 sphere_point(int ring, int segment, int rings, int segments) {
  const float pi = 3.14159265358979f;
  const float theta = pi * static_cast<float>(ring) / static_cast<float>(rings);
  const float phi = 2 * pi * static_cast<float>(segment) / static_cast<float>(segments);
  return rt_vec(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
}

void add_sphere_triangle(TriangleMesh& mesh, cl_float4 a, cl_float4 b, cl_float4 c,
                         cl_uint material, bool smooth) {
  const cl_float4 flat = rt_normalize(rt_cross(rt_sub(b, a), rt_sub(c, a)));
  const cl_float4 corners[3] = {a, b, c};
  const cl_float4 normals[3] = {smooth ? a : flat, smooth ? b : flat, smooth ? c : flat};
  const float uv[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  add_triangle(mesh, corners, normals, uv, material);
}

}  // namespace

TriangleMesh make_sphere_mesh(int rings, int segments, cl_uint material, bool smooth) {
  TriangleMesh mesh;
  mesh.name = "sphere " + std::to_string(rings) + "x" + std::to_string(segments);
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      // Counter-clockwise seen from outside, so the flat normal points out.
      const cl_float4 p00 = sphere_point(r, s, rings, segments);
      const cl_float4 p01 = sphere_point(r, s + 1, rings, segments);
      const cl_float4 p10 = sphere_point(r + 1, s, rings, segments);
      const cl_float4 p11 = sphere_point(r + 1, s + 1, rings, segments);
      if (r > 0) add_sphere_triangle(mesh, p00, p01, p10, material, smooth);
      if (r + 1 < rings) add_sphere_triangle(mesh, p01, p11, p10, material, smooth);
    }
  }
  return mesh;
}

TriangleMesh make_quad_mesh(cl_uint material) {
  TriangleMesh mesh;
  mesh.name = "quad";
  const cl_float4 n = rt_vec(0, 0, 1);
  const cl_float4 normals[3] = {n, n, n};
  const cl_float4 lower[3] = {rt_vec(-1, -1, 0), rt_vec(1, -1, 0), rt_vec(1, 1, 0)};
  const float lower_uv[3][2] = {{0, 1}, {1, 1}, {1, 0}};
  add_triangle(mesh, lower, normals, lower_uv, material);
  const cl_float4 upper[3] = {rt_vec(-1, -1, 0), rt_vec(1, 1, 0), rt_vec(-1, 1, 0)};
  const float upper_uv[3][2] = {{0, 1}, {1, 0}, {0, 0}};
  add_triangle(mesh, upper, normals, upper_uv, material);
  return mesh;
}

}  // namespace raytracer

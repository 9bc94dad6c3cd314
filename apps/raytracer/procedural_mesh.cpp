#include "apps/raytracer/procedural_mesh.hpp"

#include <algorithm>
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

constexpr float kPi = 3.14159265358979f;

float length(cl_float4 v) { return rt_sqrtf(rt_dot(v, v)); }

// Whether an edge is a vanishing share of the longest (a pole's triangle of two equal corners).
bool degenerate(cl_float4 a, cl_float4 b, cl_float4 c) {
  const float ab = length(rt_sub(b, a)), bc = length(rt_sub(c, b)), ca = length(rt_sub(a, c));
  const float longest = std::max(ab, std::max(bc, ca));
  return std::min(ab, std::min(bc, ca)) <= 1e-6f * longest;
}

void add_surface_triangle(TriangleMesh& mesh, const cl_float4 (&corners)[3],
                          const cl_float4 (&smooth_normals)[3], bool smooth, cl_uint material) {
  if (degenerate(corners[0], corners[1], corners[2])) return;
  const cl_float4 flat =
      rt_normalize(rt_cross(rt_sub(corners[1], corners[0]), rt_sub(corners[2], corners[0])));
  const cl_float4 normals[3] = {smooth ? smooth_normals[0] : flat,
                                smooth ? smooth_normals[1] : flat,
                                smooth ? smooth_normals[2] : flat};
  const float uv[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  add_triangle(mesh, corners, normals, uv, material);
}

}  // namespace

void add_parametric_surface(TriangleMesh& mesh, int rows, int columns, const SurfacePoint& point,
                            bool smooth, cl_uint material) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      cl_float4 p[2][2], n[2][2];
      for (int dr = 0; dr < 2; ++dr) {
        for (int dc = 0; dc < 2; ++dc) {
          point(static_cast<float>(r + dr) / static_cast<float>(rows),
                static_cast<float>(c + dc) / static_cast<float>(columns), &p[dr][dc], &n[dr][dc]);
        }
      }
      add_surface_triangle(mesh, {p[0][0], p[0][1], p[1][0]}, {n[0][0], n[0][1], n[1][0]}, smooth,
                           material);
      add_surface_triangle(mesh, {p[0][1], p[1][1], p[1][0]}, {n[0][1], n[1][1], n[1][0]}, smooth,
                           material);
    }
  }
}

TriangleMesh make_sphere_mesh(int rings, int segments, cl_uint material, bool smooth) {
  TriangleMesh mesh;
  mesh.name = "sphere " + std::to_string(rings) + "x" + std::to_string(segments);
  // u from the north pole (y = 1) down, v around: counter-clockwise seen from outside.
  add_parametric_surface(
      mesh, rings, segments,
      [](float u, float v, cl_float4* p, cl_float4* n) {
        const float theta = kPi * u, phi = 2 * kPi * v;
        *p = rt_vec(std::sin(theta) * std::cos(phi), std::cos(theta),
                    std::sin(theta) * std::sin(phi));
        *n = *p;
      },
      smooth, material);
  return mesh;
}

TriangleMesh make_torus_mesh(float major_radius, float minor_radius, int rings, int segments,
                             cl_uint material) {
  TriangleMesh mesh;
  mesh.name = "torus " + std::to_string(rings) + "x" + std::to_string(segments);
  // u around the y axis, v around the tube.
  add_parametric_surface(
      mesh, rings, segments,
      [&](float u, float v, cl_float4* p, cl_float4* n) {
        const float theta = 2 * kPi * u, phi = 2 * kPi * v;
        *n =
            rt_vec(std::cos(phi) * std::cos(theta), std::sin(phi), std::cos(phi) * std::sin(theta));
        const float ring = major_radius + minor_radius * std::cos(phi);
        *p = rt_vec(ring * std::cos(theta), minor_radius * std::sin(phi), ring * std::sin(theta));
      },
      true, material);
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

// Meshes generated in code: test geometry and the large benchmark scene, so nothing has to be
// downloaded.
#pragma once

#include <functional>

#include "apps/raytracer/scene_mesh.hpp"

namespace raytracer {

// Appends one triangle (corners, corner normals, texture coordinates as (u, v) pairs).
void add_triangle(TriangleMesh& mesh, const cl_float4 (&corners)[3], const cl_float4 (&normals)[3],
                  const float (&uv)[3][2], cl_uint material);

// A surface's point and unit normal at (u, v) in [0, 1]^2.
using SurfacePoint = std::function<void(float u, float v, cl_float4* point, cl_float4* normal)>;

// The surface as rows x columns quads of two triangles each (degenerate ones, as at a pole, left
// out); smooth: corner normals from the surface, else every triangle's own.
void add_parametric_surface(TriangleMesh& mesh, int rows, int columns, const SurfacePoint& point,
                            bool smooth, cl_uint material);

// A unit sphere of rings x segments quads (poles as triangles), centred at the origin. smooth:
// corner normals are the sphere's; else every triangle's own (flat shading).
TriangleMesh make_sphere_mesh(int rings, int segments, cl_uint material, bool smooth);

// A ring around the y axis (smooth normals).
TriangleMesh make_torus_mesh(float major_radius, float minor_radius, int rings, int segments,
                             cl_uint material);

// The square [-1, 1]^2 at z = 0 facing +z, as two triangles; u runs along +x, v down from y = 1.
TriangleMesh make_quad_mesh(cl_uint material);

}  // namespace raytracer

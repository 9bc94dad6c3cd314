// Triangle meshes on the device: each mesh's triangles stored once, in the order of its own BVH's
// leaves, and placed in the world by instances (a mesh-to-world transform each). One node array
// holds the instance BVH (the top level, from node 0) followed by every mesh's BVH; node indices
// are absolute. Both levels are binned-SAH BVHs built on the host (apps/raytracer/sah_bvh.cpp).
#ifndef SHARED_RAYTRACER_MESH_TYPES_H
#define SHARED_RAYTRACER_MESH_TYPES_H

#include "shared/raytracer/types.h"

// A triangle's corners in its mesh's space (w unused).
typedef struct RtTriangle {
  cl_float4 v0;
  cl_float4 v1;
  cl_float4 v2;
} RtTriangle;
CLF_SHARED_STRUCT(RtTriangle)
#define RT_TRIANGLE_FIELDS(FIELD) FIELD(v0) FIELD(v1) FIELD(v2)

// What shading needs of a triangle (same index as its RtTriangle): unit corner normals in mesh
// space (the file's, or the flat normal where it has none), texture coordinates and material.
typedef struct RtTriangleShading {
  cl_float4 n0;
  cl_float4 n1;
  cl_float4 n2;
  cl_float4 uv01;  // u0, v0, u1, v1
  cl_float4 uv2;   // u2, v2 (zw unused)
  cl_uint material;
  cl_uint pad0, pad1, pad2;
} RtTriangleShading;
CLF_SHARED_STRUCT(RtTriangleShading)
#define RT_TRIANGLE_SHADING_FIELDS(FIELD) \
  FIELD(n0)                               \
  FIELD(n1) FIELD(n2) FIELD(uv01) FIELD(uv2) FIELD(material) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// A node of the instance BVH or of a mesh BVH. Internal nodes (count 0) have their children at
// first and first + 1; a leaf holds `count` primitives from `first`: triangles in a mesh BVH,
// exactly one instance in the instance BVH.
typedef struct RtMeshNode {
  cl_float4 bounds_min;
  cl_float4 bounds_max;
  cl_int first;
  cl_int count;
  cl_int pad0, pad1;
} RtMeshNode;
CLF_SHARED_STRUCT(RtMeshNode)
#define RT_MESH_NODE_FIELDS(FIELD) \
  FIELD(bounds_min) FIELD(bounds_max) FIELD(first) FIELD(count) FIELD(pad0) FIELD(pad1)

// A mesh placed in the world. world_to_mesh_* are the rows of the inverse placement (3x4: xyz
// linear part, w translation): rays are taken into mesh space, where the mesh BVH lives, and
// normals back out through its transpose.
typedef struct RtInstance {
  cl_float4 world_to_mesh_x;
  cl_float4 world_to_mesh_y;
  cl_float4 world_to_mesh_z;
  cl_int root;            // the mesh BVH's root node
  cl_int triangle_first;  // the mesh's triangles (the brute-force path tests them all)
  cl_int triangle_count;
  cl_int material;  // replaces every triangle's material; -1: the triangles' own
} RtInstance;
CLF_SHARED_STRUCT(RtInstance)
// clang-format off
#define RT_INSTANCE_FIELDS(FIELD) \
  FIELD(world_to_mesh_x) FIELD(world_to_mesh_y) FIELD(world_to_mesh_z) FIELD(root) \
  FIELD(triangle_first) FIELD(triangle_count) FIELD(material)
// clang-format on

// A base-colour texture: width x height RGBA8 texels (R in the low byte) from `offset` in the
// shared texel array, rows from the top of the image.
typedef struct RtTexture {
  cl_uint offset;
  cl_uint width;
  cl_uint height;
  cl_uint pad0;
} RtTexture;
CLF_SHARED_STRUCT(RtTexture)
#define RT_TEXTURE_FIELDS(FIELD) FIELD(offset) FIELD(width) FIELD(height) FIELD(pad0)

#endif  // SHARED_RAYTRACER_MESH_TYPES_H

// A scene's meshes flattened into the arrays the renderers trace (shared/raytracer/mesh_types.h):
// a binned-SAH BVH per mesh (built once, however many instances place it) and one over the
// instances' world boxes, in one node array.
#pragma once

#include <functional>
#include <vector>

#include "apps/raytracer/sah_bvh.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer {

struct MeshGeometry {
  std::vector<RtMeshNode> nodes;      // the instance BVH from node 0, then each mesh's BVH
  std::vector<RtInstance> instances;  // in the instance BVH's leaf order
  std::vector<RtTriangle> triangles;  // each mesh's, in its BVH's leaf order
  std::vector<RtTriangleShading> shading;
  std::vector<RtTexture> textures;
  std::vector<cl_uint> texels;
  int instance_depth = 0;  // depth of the instance BVH
  int mesh_depth = 0;      // depth of the deepest mesh BVH
};

// Builds one mesh's tree over its triangles' boxes: the host's binned SAH (build_sah_bvh) when
// none is given, or a device build (DeviceMeshBvhBuilder: linear BVH or PLOC).
using MeshBvhBuild = std::function<SahBvh(const std::vector<Box>&)>;

// Throws clf::Error naming the instance or mesh when one cannot be placed (a singular transform,
// a mesh index out of range, a material out of range) or the trees are too deep for the
// traversal stack. Instances of meshes without triangles are left out.
MeshGeometry build_mesh_geometry(const Scene& scene, const MeshBvhBuild& build_mesh_bvh = {});

// Triangles as placed in the world: each instance counts its mesh's.
std::size_t placed_triangle_count(const Scene& scene);

// The world box around the spheres and the placed meshes (planes are unbounded and left out);
// empty (min above max) when the scene has neither.
Box scene_bounds(const Scene& scene);

}  // namespace raytracer

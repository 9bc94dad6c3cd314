// Triangle meshes in a scene, as the renderers take them: each mesh's triangles once (mesh
// space), instances placing a mesh in the world, and the textures materials refer to. Meshes
// and textures are shared, so copying a scene does not copy its triangles.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "shared/raytracer/mesh_types.h"
#include "shared/raytracer/vector.h"

namespace raytracer {

struct TriangleMesh {
  std::string name;
  std::vector<RtTriangle> triangles;
  std::vector<RtTriangleShading> shading;  // one per triangle; materials index Scene::materials
};

// An affine mesh-to-world transform: the first three rows of a 4x4 matrix, row-major.
struct Transform {
  float m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  static Transform translation(float x, float y, float z);
  static Transform scale(float x, float y, float z);
  static Transform rotation(int axis, float radians);  // axis 0: x, 1: y, 2: z
  Transform operator*(const Transform& b) const;       // b first, then this
  cl_float4 apply_point(cl_float4 p) const;
  // Whether the linear part can be inverted (a zero scale flattens space: it cannot).
  bool invertible() const;
  // The inverse transform; throws clf::Error when the matrix is singular (not invertible()).
  Transform inverse() const;
};

struct MeshInstance {
  std::uint32_t mesh = 0;  // into Scene::meshes
  Transform transform;
  cl_int material = -1;  // replaces the mesh's materials; -1: keep them
};

// A placement as scene files write it: scale, then rotations about x, y and z, then translation.
// Kept as these numbers (not only as the matrix) so that a saved scene file says what was read.
struct MeshPlacement {
  float scale[3] = {1, 1, 1};
  float rotate_degrees[3] = {0, 0, 0};
  float translate[3] = {0, 0, 0};
  Transform transform() const;
};

// A model file a scene file names (its "meshes" list), loaded after the scene file is read
// (apps/raytracer/scene_source.hpp), since the model loaders are a library of their own.
struct MeshFileReference {
  std::string file;       // relative paths are resolved from the scene file's folder
  std::string json_path;  // where the scene file names it ("meshes[2]"), for errors
  MeshPlacement placement;
  cl_int material = -1;  // a material of the scene replacing the model's, -1: the model's
};

// RGBA8 texels (R in the low byte), rows from the top, as the files store the colours.
struct SceneTexture {
  std::string name;
  int width = 0;
  int height = 0;
  std::vector<cl_uint> rgba;
};

}  // namespace raytracer

// What the glTF and OBJ loaders share: a mesh builder, so that both give the same guarantees
// (unit normals everywhere, flat where the file has none; finite positions), and the handling of
// the warnings their libraries report, and the few vector operations they need.
#pragma once

#include <cstdint>
#include <string>

#include "apps/raytracer/model/model.hpp"

namespace raytracer::model {

Vec3 sub(Vec3 a, Vec3 b);
Vec3 cross(Vec3 a, Vec3 b);
// v scaled to unit length; `fallback` where v is zero or not finite.
Vec3 normalized_or(Vec3 v, Vec3 fallback);

// Adds each distinct line of a library's warning text to model.warnings.
void add_loader_warnings(Model& model, const std::string& text);

class MeshBuilder {
 public:
  explicit MeshBuilder(std::string name) { mesh_.name = std::move(name); }

  // A vertex with the file's normal; one that is zero or not finite becomes the average of its
  // triangles' normals when the mesh is finished.
  std::uint32_t add_vertex(Vec3 position, Vec3 normal, Vec2 texcoord);
  void add_triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t material);
  // A triangle with vertices of its own, all with the triangle's flat normal.
  void add_flat_triangle(const Vec3 (&positions)[3], const Vec2 (&texcoords)[3],
                         std::uint32_t material);
  std::size_t vertex_count() const { return mesh_.positions.size(); }

  // Throws clf::Error (naming the mesh) for a position that is not finite.
  Mesh finish();

 private:
  Mesh mesh_;
};

}  // namespace raytracer::model

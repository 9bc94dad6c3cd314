// Transforms, bounds and triangle counts of models, and the mesh builder the loaders share.
#include <algorithm>
#include <cmath>

#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"
#include "framework/error.hpp"

namespace raytracer::model {

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int col = 0; col < 4; ++col) {
    for (int row = 0; row < 4; ++row) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a.m[k * 4 + row] * b.m[col * 4 + k];
      r.m[col * 4 + row] = sum;
    }
  }
  return r;
}

Vec3 transform_point(const Mat4& t, Vec3 p) {
  const auto& m = t.m;
  return {m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
          m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
          m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]};
}

void Bounds::extend(Vec3 p) {
  min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
  max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
}

void Bounds::extend(const Bounds& b) {
  if (b.empty()) return;
  extend(b.min);
  extend(b.max);
}

Vec3 Bounds::center() const {
  return {(min.x + max.x) / 2, (min.y + max.y) / 2, (min.z + max.z) / 2};
}

Vec3 Bounds::size() const { return {max.x - min.x, max.y - min.y, max.z - min.z}; }

Bounds mesh_bounds(const Mesh& mesh) {
  Bounds b;
  for (const Vec3& p : mesh.positions) b.extend(p);
  return b;
}

Bounds world_bounds(const Model& model) {
  std::vector<Bounds> per_mesh;
  per_mesh.reserve(model.meshes.size());
  for (const Mesh& mesh : model.meshes) per_mesh.push_back(mesh_bounds(mesh));
  Bounds world;
  for (const Instance& instance : model.instances) {
    const Bounds& b = per_mesh.at(instance.mesh);
    if (b.empty()) continue;
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 p{corner & 1 ? b.max.x : b.min.x, corner & 2 ? b.max.y : b.min.y,
                   corner & 4 ? b.max.z : b.min.z};
      world.extend(transform_point(instance.transform, p));
    }
  }
  return world;
}

std::size_t instanced_triangle_count(const Model& model) {
  std::size_t n = 0;
  for (const Instance& instance : model.instances)
    n += model.meshes.at(instance.mesh).triangle_count();
  return n;
}

std::size_t stored_triangle_count(const Model& model) {
  std::size_t n = 0;
  for (const Mesh& mesh : model.meshes) n += mesh.triangle_count();
  return n;
}

Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec3 normalized_or(Vec3 v, Vec3 fallback) {
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (!(length > 0) || !std::isfinite(length)) return fallback;
  return {v.x / length, v.y / length, v.z / length};
}

namespace {

bool is_finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Marks a normal the file did not give usably; finish() replaces it.
const Vec3 kMissingNormal{0, 0, 0};

}  // namespace

std::uint32_t MeshBuilder::add_vertex(Vec3 position, Vec3 normal, Vec2 texcoord) {
  mesh_.positions.push_back(position);
  mesh_.normals.push_back(normalized_or(normal, kMissingNormal));
  mesh_.texcoords.push_back(texcoord);
  return static_cast<std::uint32_t>(mesh_.positions.size() - 1);
}

void MeshBuilder::add_triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                               std::uint32_t material) {
  mesh_.indices.insert(mesh_.indices.end(), {a, b, c});
  mesh_.triangle_materials.push_back(material);
}

void MeshBuilder::add_flat_triangle(const Vec3 (&positions)[3], const Vec2 (&texcoords)[3],
                                    std::uint32_t material) {
  const Vec3 normal = normalized_or(
      cross(sub(positions[1], positions[0]), sub(positions[2], positions[0])), {0, 1, 0});
  std::uint32_t v[3];
  for (int i = 0; i < 3; ++i) v[i] = add_vertex(positions[i], normal, texcoords[i]);
  add_triangle(v[0], v[1], v[2], material);
}

Mesh MeshBuilder::finish() {
  for (std::size_t i = 0; i < mesh_.positions.size(); ++i) {
    if (!is_finite(mesh_.positions[i])) {
      throw clf::Error("mesh '" + mesh_.name + "': vertex " + std::to_string(i) +
                       " has a position that is not finite");
    }
  }
  // Missing normals: the area-weighted average of the normals of the triangles using the vertex.
  std::vector<Vec3> sums(mesh_.positions.size());
  bool any_missing = false;
  for (const Vec3& n : mesh_.normals) any_missing |= n.x == 0 && n.y == 0 && n.z == 0;
  if (any_missing) {
    for (std::size_t t = 0; t + 2 < mesh_.indices.size(); t += 3) {
      const std::uint32_t* v = &mesh_.indices[t];
      const Vec3 face = cross(sub(mesh_.positions[v[1]], mesh_.positions[v[0]]),
                              sub(mesh_.positions[v[2]], mesh_.positions[v[0]]));
      for (int k = 0; k < 3; ++k) {
        sums[v[k]] = {sums[v[k]].x + face.x, sums[v[k]].y + face.y, sums[v[k]].z + face.z};
      }
    }
    for (std::size_t i = 0; i < mesh_.normals.size(); ++i) {
      const Vec3 n = mesh_.normals[i];
      if (n.x == 0 && n.y == 0 && n.z == 0) mesh_.normals[i] = normalized_or(sums[i], {0, 1, 0});
    }
  }
  return std::move(mesh_);
}

}  // namespace raytracer::model

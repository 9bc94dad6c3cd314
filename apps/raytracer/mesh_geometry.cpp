// build_mesh_geometry: mesh BVHs first (each mesh once), then the instance BVH over the
// instances' world boxes, then both in one node array with the instance BVH at node 0.
#include "apps/raytracer/mesh_geometry.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "apps/raytracer/sah_bvh.hpp"
#include "framework/error.hpp"

namespace raytracer {
namespace {

Box triangle_box(const RtTriangle& t) {
  Box b;
  for (const cl_float4& v : {t.v0, t.v1, t.v2}) {
    const float p[3] = {v.x, v.y, v.z};
    b.extend(p);
  }
  return b;
}

Box node_box(const RtMeshNode& n) {
  Box b;
  const float lo[3] = {n.bounds_min.x, n.bounds_min.y, n.bounds_min.z};
  const float hi[3] = {n.bounds_max.x, n.bounds_max.y, n.bounds_max.z};
  b.extend(lo);
  b.extend(hi);
  return b;
}

// The world box around a mesh-space box's eight corners.
Box transformed_box(const Transform& t, const Box& b) {
  Box world;
  for (int corner = 0; corner < 8; ++corner) {
    const cl_float4 p =
        t.apply_point(rt_vec(corner & 1 ? b.max[0] : b.min[0], corner & 2 ? b.max[1] : b.min[1],
                             corner & 4 ? b.max[2] : b.min[2]));
    const float q[3] = {p.x, p.y, p.z};
    world.extend(q);
  }
  return world;
}

// Where a mesh's tree and triangles went in the flattened arrays.
struct PlacedMesh {
  cl_int root = -1;  // in the mesh nodes (before the instance BVH is put in front)
  cl_int triangle_first = 0;
  cl_int triangle_count = 0;
  Box bounds;
};

PlacedMesh append_mesh(const TriangleMesh& mesh, std::size_t material_count,
                       const MeshBvhBuild& build_mesh_bvh, std::vector<RtMeshNode>& mesh_nodes,
                       MeshGeometry& geometry) {
  for (std::size_t i = 0; i < mesh.shading.size(); ++i) {
    if (mesh.shading[i].material >= material_count) {
      throw clf::Error("mesh '" + mesh.name + "': triangle " + std::to_string(i) +
                       " has material " + std::to_string(mesh.shading[i].material) +
                       ", but the scene has " + std::to_string(material_count));
    }
  }
  std::vector<Box> boxes;
  boxes.reserve(mesh.triangles.size());
  for (const RtTriangle& t : mesh.triangles) boxes.push_back(triangle_box(t));
  const SahBvh bvh = build_mesh_bvh ? build_mesh_bvh(boxes) : build_sah_bvh(boxes);
  PlacedMesh placed;
  placed.root = static_cast<cl_int>(mesh_nodes.size());
  placed.triangle_first = static_cast<cl_int>(geometry.triangles.size());
  placed.triangle_count = static_cast<cl_int>(mesh.triangles.size());
  placed.bounds = node_box(bvh.nodes[0]);
  for (const std::uint32_t t : bvh.order) {
    geometry.triangles.push_back(mesh.triangles[t]);
    geometry.shading.push_back(mesh.shading[t]);
  }
  for (RtMeshNode node : bvh.nodes) {
    node.first += node.count == 0 ? placed.root : placed.triangle_first;
    mesh_nodes.push_back(node);
  }
  geometry.mesh_depth = std::max(geometry.mesh_depth, bvh.depth);
  return placed;
}

RtInstance make_instance(const MeshInstance& instance, const PlacedMesh& mesh) {
  const Transform inverse = instance.transform.inverse();
  RtInstance r{};
  r.world_to_mesh_x = {{inverse.m[0][0], inverse.m[0][1], inverse.m[0][2], inverse.m[0][3]}};
  r.world_to_mesh_y = {{inverse.m[1][0], inverse.m[1][1], inverse.m[1][2], inverse.m[1][3]}};
  r.world_to_mesh_z = {{inverse.m[2][0], inverse.m[2][1], inverse.m[2][2], inverse.m[2][3]}};
  r.root = mesh.root;
  r.triangle_first = mesh.triangle_first;
  r.triangle_count = mesh.triangle_count;
  r.material = instance.material;
  return r;
}

void append_textures(const Scene& scene, MeshGeometry& geometry) {
  for (const auto& texture : scene.textures) {
    if (texture->width < 1 || texture->height < 1 ||
        texture->rgba.size() != static_cast<std::size_t>(texture->width) * texture->height) {
      throw clf::Error("texture '" + texture->name + "': " + std::to_string(texture->rgba.size()) +
                       " texels for " + std::to_string(texture->width) + "x" +
                       std::to_string(texture->height));
    }
    // Texels are found by 32-bit offsets on the device.
    if (geometry.texels.size() + texture->rgba.size() > std::numeric_limits<cl_uint>::max()) {
      throw clf::Error("texture '" + texture->name + "': the scene's textures pass 2^32 texels (" +
                       std::to_string(geometry.texels.size() + texture->rgba.size()) +
                       "), more than the renderer can address");
    }
    RtTexture t{};
    t.offset = static_cast<cl_uint>(geometry.texels.size());
    t.width = static_cast<cl_uint>(texture->width);
    t.height = static_cast<cl_uint>(texture->height);
    geometry.texels.insert(geometry.texels.end(), texture->rgba.begin(), texture->rgba.end());
    geometry.textures.push_back(t);
  }
  for (std::size_t i = 0; i < scene.materials.size(); ++i) {
    const RtMaterial& m = scene.materials[i];
    for (const cl_int t :
         {m.texture, m.metallic_roughness_texture, m.emissive_texture, m.normal_texture}) {
      if (t >= static_cast<cl_int>(scene.textures.size())) {
        throw clf::Error("material " + std::to_string(i) + ": texture " + std::to_string(t) +
                         " out of range (the scene has " + std::to_string(scene.textures.size()) +
                         ")");
      }
    }
  }
}

}  // namespace

std::size_t placed_triangle_count(const Scene& scene) {
  std::size_t n = 0;
  for (const MeshInstance& instance : scene.instances) {
    if (instance.mesh < scene.meshes.size()) n += scene.meshes[instance.mesh]->triangles.size();
  }
  return n;
}

Box scene_bounds(const Scene& scene) {
  Box bounds;
  for (const RtSphere& sphere : scene.spheres) {
    const cl_float4 c = sphere.center_radius;
    const float lo[3] = {c.x - c.w, c.y - c.w, c.z - c.w};
    const float hi[3] = {c.x + c.w, c.y + c.w, c.z + c.w};
    bounds.extend(lo);
    bounds.extend(hi);
  }
  std::vector<Box> mesh_boxes(scene.meshes.size());
  for (std::size_t i = 0; i < scene.meshes.size(); ++i) {
    for (const RtTriangle& t : scene.meshes[i]->triangles) mesh_boxes[i].extend(triangle_box(t));
  }
  for (const MeshInstance& instance : scene.instances) {
    if (instance.mesh >= mesh_boxes.size() || scene.meshes[instance.mesh]->triangles.empty())
      continue;
    bounds.extend(transformed_box(instance.transform, mesh_boxes[instance.mesh]));
  }
  return bounds;
}

MeshGeometry build_mesh_geometry(const Scene& scene, const MeshBvhBuild& build_mesh_bvh) {
  MeshGeometry geometry;
  append_textures(scene, geometry);
  std::vector<PlacedMesh> placed(scene.meshes.size());
  std::vector<RtMeshNode> mesh_nodes;
  std::vector<Box> instance_boxes;
  std::vector<RtInstance> instances;
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    const MeshInstance& instance = scene.instances[i];
    const std::string name = "instance " + std::to_string(i);
    if (instance.mesh >= scene.meshes.size()) {
      throw clf::Error(name + ": mesh " + std::to_string(instance.mesh) +
                       " out of range (the scene has " + std::to_string(scene.meshes.size()) + ")");
    }
    if (instance.material >= static_cast<cl_int>(scene.materials.size())) {
      throw clf::Error(name + ": material " + std::to_string(instance.material) + " out of range");
    }
    const TriangleMesh& mesh = *scene.meshes[instance.mesh];
    if (mesh.triangles.empty()) continue;
    PlacedMesh& m = placed[instance.mesh];
    if (m.root < 0)
      m = append_mesh(mesh, scene.materials.size(), build_mesh_bvh, mesh_nodes, geometry);
    try {
      instances.push_back(make_instance(instance, m));
    } catch (const clf::Error& error) {
      throw clf::Error(name + " (mesh '" + mesh.name + "'): " + error.what());
    }
    instance_boxes.push_back(transformed_box(instance.transform, m.bounds));
  }
  if (instances.empty()) return geometry;

  SahOptions one_per_leaf;
  one_per_leaf.max_leaf_size = 1;
  const SahBvh top = build_sah_bvh(instance_boxes, one_per_leaf);
  geometry.instance_depth = top.depth;
  if (geometry.instance_depth + 1 + geometry.mesh_depth > RT_MESH_STACK_SIZE) {
    throw clf::Error("the instance and mesh BVHs are " + std::to_string(geometry.instance_depth) +
                     " and " + std::to_string(geometry.mesh_depth) +
                     " levels deep: too deep for the traversal stack (" +
                     std::to_string(RT_MESH_STACK_SIZE) + ")");
  }
  const cl_int offset = static_cast<cl_int>(top.nodes.size());
  geometry.nodes = top.nodes;
  for (RtMeshNode node : mesh_nodes) {
    if (node.count == 0) node.first += offset;
    geometry.nodes.push_back(node);
  }
  for (const std::uint32_t i : top.order) {
    RtInstance instance = instances[i];
    instance.root += offset;
    geometry.instances.push_back(instance);
  }
  return geometry;
}

}  // namespace raytracer

// Raytracer mesh BVHs (host-built, binned SAH): every primitive in exactly one leaf, bounds that
// contain what is below them, bounded depth, and the two-level traversal finding the same
// nearest triangle as testing every triangle.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "apps/raytracer/device_mesh_bvh.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/procedural_mesh.hpp"
#include "apps/raytracer/render_settings.hpp"
#include "apps/raytracer/sah_bvh.hpp"
#include "framework/error.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;

bool contains(const RtMeshNode& outer, cl_float4 lo, cl_float4 hi) {
  return outer.bounds_min.x <= lo.x && outer.bounds_min.y <= lo.y && outer.bounds_min.z <= lo.z &&
         outer.bounds_max.x >= hi.x && outer.bounds_max.y >= hi.y && outer.bounds_max.z >= hi.z;
}

std::vector<Box> random_boxes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-10, 10), size(0, 0.5f);
  std::vector<Box> boxes(n);
  for (Box& b : boxes) {
    for (int a = 0; a < 3; ++a) {
      b.min[a] = position(rng);
      b.max[a] = b.min[a] + size(rng);
    }
  }
  return boxes;
}

// Checks the tree's invariants and returns its leaves' primitives in order.
std::vector<std::uint32_t> check_tree(const SahBvh& bvh, const std::vector<Box>& boxes,
                                      int max_leaf_size) {
  std::vector<std::uint32_t> seen;
  std::vector<std::pair<int, int>> stack{{0, 0}};
  int deepest = 0;
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    const RtMeshNode& node = bvh.nodes.at(index);
    if (node.count == 0) {
      for (int child : {node.first, node.first + 1}) {
        const RtMeshNode& c = bvh.nodes.at(child);
        EXPECT_TRUE(contains(node, c.bounds_min, c.bounds_max)) << "node " << index;
        stack.push_back({child, depth + 1});
      }
      continue;
    }
    EXPECT_LE(node.count, max_leaf_size);
    for (int i = node.first; i < node.first + node.count; ++i) {
      const std::uint32_t p = bvh.order.at(i);
      const Box& b = boxes[p];
      EXPECT_TRUE(contains(node, rt_vec(b.min[0], b.min[1], b.min[2]),
                           rt_vec(b.max[0], b.max[1], b.max[2])))
          << "leaf " << index << " primitive " << p;
      seen.push_back(p);
    }
  }
  EXPECT_EQ(deepest, bvh.depth);
  return seen;
}

TEST(RaytracerMeshBvh, TriangleTestGivesDistanceAndBarycentrics) {
  RtTriangle t{};
  t.v0 = rt_vec(0, 0, 5);
  t.v1 = rt_vec(2, 0, 5);
  t.v2 = rt_vec(0, 4, 5);
  float u = -1, v = -1;
  // Through the point 0.25 of the way to v1 and 0.5 to v2: (0.5, 2, 5), from z = 1.
  EXPECT_FLOAT_EQ(
      rt_intersect_triangle(t, rt_vec(0.5f, 2, 1), rt_vec(0, 0, 1), RT_INFINITY, &u, &v), 4.0f);
  EXPECT_FLOAT_EQ(u, 0.25f);
  EXPECT_FLOAT_EQ(v, 0.5f);
  // From behind (no back-face culling), and with a direction that is not unit length.
  EXPECT_FLOAT_EQ(
      rt_intersect_triangle(t, rt_vec(0.5f, 2, 9), rt_vec(0, 0, -2), RT_INFINITY, &u, &v), 2.0f);
  // Misses: beyond an edge, parallel to the plane, beyond t_max, behind the origin.
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(1.5f, 2, 1), rt_vec(0, 0, 1), RT_INFINITY, &u, &v),
            RT_INFINITY);
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(-0.1f, 1, 1), rt_vec(0, 0, 1), RT_INFINITY, &u, &v),
            RT_INFINITY);
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(0.5f, 2, 1), rt_vec(1, 0, 0), RT_INFINITY, &u, &v),
            RT_INFINITY);
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(0.5f, 2, 1), rt_vec(0, 0, 1), 3.9f, &u, &v),
            RT_INFINITY);
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(0.5f, 2, 6), rt_vec(0, 0, 1), RT_INFINITY, &u, &v),
            RT_INFINITY);
  // A degenerate triangle (a line) is never hit.
  t.v2 = rt_vec(1, 0, 5);
  EXPECT_EQ(rt_intersect_triangle(t, rt_vec(0.5f, 0, 1), rt_vec(0, 0, 1), RT_INFINITY, &u, &v),
            RT_INFINITY);
}

TEST(RaytracerMeshBvh, EveryPrimitiveInOneLeafAndBoundsContainChildren) {
  for (std::size_t n : {1u, 2u, 5u, 100u, 5000u}) {
    const std::vector<Box> boxes = random_boxes(n, static_cast<std::uint32_t>(n));
    const SahBvh bvh = build_sah_bvh(boxes);
    std::vector<std::uint32_t> seen = check_tree(bvh, boxes, 4);
    ASSERT_EQ(seen.size(), n);
    EXPECT_EQ(std::set<std::uint32_t>(seen.begin(), seen.end()).size(), n) << "n = " << n;
    EXPECT_EQ(bvh.nodes.size(), n <= 4 ? 1u : bvh.nodes.size());
  }
}

TEST(RaytracerMeshBvh, CoincidentPrimitivesSplitAtTheMedianWithBoundedDepth) {
  // 10000 identical boxes: SAH finds no split, the median keeps the tree balanced.
  const std::vector<Box> boxes(10000, random_boxes(1, 7)[0]);
  SahOptions one_per_leaf;
  one_per_leaf.max_leaf_size = 1;
  const SahBvh bvh = build_sah_bvh(boxes, one_per_leaf);
  EXPECT_EQ(check_tree(bvh, boxes, 1).size(), boxes.size());
  EXPECT_LE(bvh.depth, 14);  // ceil(log2(10000))
}

TEST(RaytracerMeshBvh, RejectsNoPrimitivesAndEmptyBoxes) {
  EXPECT_THROW(build_sah_bvh({}), clf::Error);
  EXPECT_THROW(build_sah_bvh({Box{}}), clf::Error);
}

// Two meshes, one placed three times (rotated, scaled, translated), the other once.
Scene instanced_scene() {
  Scene scene;
  scene.materials.push_back(make_material({1, 1, 1}, 0.1f, 0.8f, 0.5f, 32, 0));
  scene.meshes.push_back(std::make_shared<TriangleMesh>(make_sphere_mesh(12, 24, 0, true)));
  scene.meshes.push_back(std::make_shared<TriangleMesh>(make_quad_mesh(0)));
  scene.instances.push_back({0, Transform::translation(-2, 0, 5), -1});
  scene.instances.push_back({0,
                             Transform::translation(2, 0.5f, 6) * Transform::rotation(1, 0.7f) *
                                 Transform::scale(1, 2, 0.5f),
                             -1});
  scene.instances.push_back({0, Transform::translation(0, -1, 9) * Transform::scale(3, 3, 3), -1});
  scene.instances.push_back({1, Transform::translation(0, 0, 12) * Transform::scale(6, 6, 1), -1});
  return scene;
}

TEST(RaytracerMeshBvh, InstancedMeshIsStoredOnce) {
  const Scene scene = instanced_scene();
  const MeshGeometry g = build_mesh_geometry(scene);
  EXPECT_EQ(g.instances.size(), 4u);
  EXPECT_EQ(g.triangles.size(), scene.meshes[0]->triangles.size() + 2);
  EXPECT_LE(g.instance_depth + 1 + g.mesh_depth, RT_MESH_STACK_SIZE);
  // The instance BVH's leaves hold one instance each; mesh leaves index the triangle array.
  int instance_leaves = 0;
  for (int i = 0; i < 2 * 4 - 1; ++i) instance_leaves += g.nodes[i].count == 1;
  EXPECT_EQ(instance_leaves, 4);
}

// Walks the tree below `root` in g.nodes, checking that every child lies inside its parent,
// and calls leaf(node) for each leaf.
template <typename Leaf>
void walk_tree(const MeshGeometry& g, int root, const Leaf& leaf) {
  std::vector<int> stack{root};
  while (!stack.empty()) {
    const RtMeshNode& node = g.nodes.at(stack.back());
    stack.pop_back();
    if (node.count != 0) {
      leaf(node);
      continue;
    }
    for (int child : {node.first, node.first + 1}) {
      EXPECT_TRUE(contains(node, g.nodes.at(child).bounds_min, g.nodes.at(child).bounds_max));
      stack.push_back(child);
    }
  }
}

// A mesh tree's triangles (each inside its leaf's box), in leaf order.
std::vector<int> mesh_tree_triangles(const MeshGeometry& g, int root) {
  std::vector<int> triangles;
  walk_tree(g, root, [&](const RtMeshNode& node) {
    for (int t = node.first; t < node.first + node.count; ++t) {
      const RtTriangle& tri = g.triangles.at(t);
      EXPECT_TRUE(contains(node, rt_min3(rt_min3(tri.v0, tri.v1), tri.v2),
                           rt_max3(rt_max3(tri.v0, tri.v1), tri.v2)));
      triangles.push_back(t);
    }
  });
  return triangles;
}

TEST(RaytracerMeshBvh, FlattenedTreesPointWhereTheyShould) {
  // The instance tree over every instance once; each instance's mesh tree over exactly its
  // mesh's triangles; every box around what is below it (in the world, or in mesh space).
  for (const Scene& scene : {instanced_scene(), instances_scene(300, 5)}) {
    const MeshGeometry g = build_mesh_geometry(scene);
    std::vector<int> seen_instances;
    walk_tree(g, 0, [&](const RtMeshNode& node) {
      ASSERT_EQ(node.count, 1);
      seen_instances.push_back(node.first);
      const RtInstance& instance = g.instances.at(node.first);
      // The leaf's world box holds the mesh's box carried back into the world.
      Transform world_to_mesh;
      for (int c = 0; c < 4; ++c) {
        world_to_mesh.m[0][c] = instance.world_to_mesh_x.s[c];
        world_to_mesh.m[1][c] = instance.world_to_mesh_y.s[c];
        world_to_mesh.m[2][c] = instance.world_to_mesh_z.s[c];
      }
      const Transform mesh_to_world = world_to_mesh.inverse();
      const RtMeshNode& root = g.nodes.at(instance.root);
      for (int corner = 0; corner < 8; ++corner) {
        const cl_float4 p =
            mesh_to_world.apply_point(rt_vec(corner & 1 ? root.bounds_max.x : root.bounds_min.x,
                                             corner & 2 ? root.bounds_max.y : root.bounds_min.y,
                                             corner & 4 ? root.bounds_max.z : root.bounds_min.z));
        // Within 1e-3 (the transform went to the inverse and back in float).
        const cl_float4 slack = rt_vec(1e-3f, 1e-3f, 1e-3f);
        EXPECT_TRUE(contains(node, rt_add(p, slack), rt_sub(p, slack)))
            << "instance " << node.first << " corner " << corner;
      }
      std::vector<int> triangles = mesh_tree_triangles(g, instance.root);
      std::sort(triangles.begin(), triangles.end());
      ASSERT_EQ(triangles.size(), static_cast<std::size_t>(instance.triangle_count));
      for (int k = 0; k < instance.triangle_count; ++k) {
        ASSERT_EQ(triangles[k], instance.triangle_first + k);
      }
    });
    std::sort(seen_instances.begin(), seen_instances.end());
    ASSERT_EQ(seen_instances.size(), scene.instances.size());
    for (std::size_t k = 0; k < seen_instances.size(); ++k) EXPECT_EQ(seen_instances[k], int(k));
  }
}

RtHit nearest(const MeshGeometry& g, cl_float4 origin, cl_float4 direction, bool use_bvh) {
  const RtHit none = rt_no_hit(RT_INFINITY);
  const cl_uint n = static_cast<cl_uint>(g.instances.size());
  return use_bvh ? rt_instances_bvh(g.nodes.data(), g.instances.data(), g.triangles.data(), n,
                                    origin, direction, none, 0)
                 : rt_instances_brute(g.instances.data(), g.triangles.data(), n, origin, direction,
                                      none, 0);
}

// 3000 rays through the instanced scene (every tenth along the z axis) find through the trees
// what testing every triangle finds, and most of them hit a triangle.
void expect_traversal_matches_brute_force(const MeshGeometry& g) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> spread(-1, 1);
  int hits = 0;
  for (int i = 0; i < 3000; ++i) {
    const cl_float4 origin = rt_vec(spread(rng) * 4, spread(rng) * 4, spread(rng) * 2);
    cl_float4 direction = rt_normalize(rt_vec(spread(rng) * 0.6f, spread(rng) * 0.6f, 1));
    if (i % 10 == 0) direction = rt_vec(0, 0, 1);  // axis-aligned rays too
    const RtHit bvh = nearest(g, origin, direction, true);
    const RtHit brute = nearest(g, origin, direction, false);
    ASSERT_EQ(bvh.kind, brute.kind) << "ray " << i;
    ASSERT_EQ(bvh.t, brute.t) << "ray " << i;
    hits += bvh.kind == RT_HIT_TRIANGLE;
  }
  EXPECT_GT(hits, 1000);
}

TEST(RaytracerMeshBvh, TraversalFindsWhatTestingEveryTriangleFinds) {
  expect_traversal_matches_brute_force(build_mesh_geometry(instanced_scene()));
}

TEST(RaytracerMeshBvh, EveryTriangleIsReachable) {
  // A ray from just outside each triangle towards its centroid must stop there (or nearer).
  const Scene scene = instanced_scene();
  const MeshGeometry g = build_mesh_geometry(scene);
  for (std::size_t k = 0; k < g.instances.size(); ++k) {
    const RtInstance& instance = g.instances[k];
    for (int t = instance.triangle_first; t < instance.triangle_first + instance.triangle_count;
         ++t) {
      const RtTriangle& tri = g.triangles[t];
      const cl_float4 centroid = rt_scale(rt_add(rt_add(tri.v0, tri.v1), tri.v2), 1.0f / 3.0f);
      // In the instance's mesh space, from the side the triangle's normal points to.
      const cl_float4 normal =
          rt_normalize(rt_cross(rt_sub(tri.v1, tri.v0), rt_sub(tri.v2, tri.v0)));
      const cl_float4 origin = rt_add_scaled(centroid, normal, 0.05f);
      const cl_float4 direction = rt_scale(normal, -1.0f);
      // Walk the mesh BVH alone: an instance BVH of one leaf pointing at this instance.
      RtInstance identity = instance;
      identity.world_to_mesh_x = rt_vec(1, 0, 0);
      identity.world_to_mesh_y = rt_vec(0, 1, 0);
      identity.world_to_mesh_z = rt_vec(0, 0, 1);
      std::vector<RtMeshNode> nodes = g.nodes;
      nodes[0] = nodes[instance.root];
      nodes[0].first = 0;
      nodes[0].count = 1;
      const RtHit hit = rt_instances_bvh(nodes.data(), &identity, g.triangles.data(), 1, origin,
                                         direction, rt_no_hit(RT_INFINITY), 0);
      ASSERT_EQ(hit.kind, RT_HIT_TRIANGLE) << "instance " << k << " triangle " << t;
      EXPECT_LE(hit.t, 0.0501f) << "instance " << k << " triangle " << t;
    }
  }
}

// The instanced scene with 60 spheres among its meshes, some inside a mesh's box.
Scene instanced_scene_with_spheres() {
  Scene scene = instanced_scene();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> spread(-1, 1);
  for (int i = 0; i < 60; ++i) {
    const cl_float4 centre = rt_vec(spread(rng) * 4, spread(rng) * 3, 7 + spread(rng) * 4);
    const float radius = 0.2f + 0.3f * (spread(rng) + 1);
    scene.spheres.push_back(raytracer::make_sphere({centre.x, centre.y, centre.z}, radius, 0));
  }
  return scene;
}

// Spheres among meshes, as rt_trace walks them: the spheres' BVH, then the instance BVH with the
// nearest distance so far. Rays find what testing every sphere and every triangle finds, nearest
// and any hit, hitting both kinds.
TEST(RaytracerMeshBvh, SpheresAmongMeshesAreFoundThroughBothTrees) {
  const Scene scene = instanced_scene_with_spheres();
  const MeshGeometry g = build_mesh_geometry(scene);
  const std::vector<RtBvhNode> sphere_nodes = build_bvh_reference(scene.spheres);
  const cl_uint instances = static_cast<cl_uint>(g.instances.size());
  const cl_uint spheres = static_cast<cl_uint>(scene.spheres.size());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> spread(-1, 1);
  int sphere_hits = 0;
  int triangle_hits = 0;
  for (int i = 0; i < 4000; ++i) {
    const cl_float4 origin = rt_vec(spread(rng) * 4, spread(rng) * 4, spread(rng) * 2);
    const cl_float4 direction = rt_normalize(rt_vec(spread(rng) * 0.6f, spread(rng) * 0.6f, 1));
    for (const cl_int any_hit : {0, 1}) {
      const RtHit none = rt_no_hit(RT_INFINITY);
      RtHit trees = rt_spheres_bvh(sphere_nodes.data(), scene.spheres.data(), spheres, origin,
                                   direction, none, any_hit);
      if (!any_hit || trees.kind == RT_HIT_NONE) {
        trees = rt_instances_bvh(g.nodes.data(), g.instances.data(), g.triangles.data(), instances,
                                 origin, direction, trees, any_hit);
      }
      RtHit brute = rt_spheres_brute(scene.spheres.data(), spheres, origin, direction, none, 0);
      brute = rt_instances_brute(g.instances.data(), g.triangles.data(), instances, origin,
                                 direction, brute, 0);
      if (any_hit) {
        ASSERT_EQ(trees.kind == RT_HIT_NONE, brute.kind == RT_HIT_NONE) << "ray " << i;
        continue;
      }
      ASSERT_EQ(trees.kind, brute.kind) << "ray " << i;
      ASSERT_EQ(trees.t, brute.t) << "ray " << i;
      ASSERT_EQ(trees.index, brute.index) << "ray " << i;
      if (trees.kind == RT_HIT_TRIANGLE) {
        ASSERT_EQ(trees.instance, brute.instance) << "ray " << i;
      }
      sphere_hits += trees.kind == RT_HIT_SPHERE;
      triangle_hits += trees.kind == RT_HIT_TRIANGLE;
    }
  }
  EXPECT_GT(sphere_hits, 300);
  EXPECT_GT(triangle_hits, 1000);
}

TEST(RaytracerMeshBvh, BadInstancesNameWhatIsWrong) {
  Scene scene = instanced_scene();
  scene.instances[2].transform = Transform::scale(1, 0, 1);
  try {
    build_mesh_geometry(scene);
    FAIL() << "a singular transform was accepted";
  } catch (const clf::Error& error) {
    EXPECT_NE(std::string(error.what()).find("instance 2"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("singular"), std::string::npos) << error.what();
  }
  scene = instanced_scene();
  scene.instances[1].mesh = 7;
  EXPECT_THROW(build_mesh_geometry(scene), clf::Error);
  scene = instanced_scene();
  scene.instances[0].material = 3;
  EXPECT_THROW(build_mesh_geometry(scene), clf::Error);
}

// A device-built tree of leaves of at most 4: the tree's invariants, every primitive in exactly
// one leaf, and a depth the traversal stack holds.
void expect_each_primitive_once(const SahBvh& bvh, const std::vector<Box>& boxes) {
  const std::vector<std::uint32_t> seen = check_tree(bvh, boxes, 4);
  ASSERT_EQ(seen.size(), boxes.size());
  EXPECT_EQ(std::set<std::uint32_t>(seen.begin(), seen.end()).size(), boxes.size())
      << "n = " << boxes.size();
  EXPECT_LE(bvh.depth, 40) << "n = " << boxes.size();
}

// The device's linear BVH: the same invariants as the host's tree, and traversal through it
// finds what testing every triangle finds.
raytracer::DeviceMeshBvhBuilder& device_builder() {
  static raytracer::DeviceMeshBvhBuilder builder(clf_test::runtime());
  return builder;
}

TEST(RaytracerMeshBvh, DeviceLbvhHoldsEveryPrimitiveOnceInBoundedLeaves) {
  for (std::size_t n : {1u, 2u, 5u, 100u, 5000u}) {
    const std::vector<Box> boxes = random_boxes(n, static_cast<std::uint32_t>(n));
    ASSERT_NO_FATAL_FAILURE(expect_each_primitive_once(device_builder().build(boxes), boxes));
  }
  EXPECT_GE(device_builder().device_ms(), 0.0);
}

TEST(RaytracerMeshBvh, DeviceLbvhOfCoincidentPrimitivesIsBalanced) {
  const std::vector<Box> boxes(10000, random_boxes(1, 7)[0]);  // one Morton code for all
  const SahBvh bvh = device_builder().build(boxes);
  EXPECT_EQ(check_tree(bvh, boxes, 4).size(), boxes.size());
  EXPECT_LE(bvh.depth, 14);  // split by index: ceil(log2(10000 / 4)) + 2
  EXPECT_CLF_ERROR(device_builder().build({}), "no triangles");
}

TEST(RaytracerMeshBvh, TraversalOfDeviceTreesFindsWhatTestingEveryTriangleFinds) {
  expect_traversal_matches_brute_force(build_mesh_geometry(
      instanced_scene(),
      [](const std::vector<Box>& boxes) { return device_builder().build(boxes); }));
}

// PLOC on the device: the same invariants, a tree that costs less than the linear BVH's by the
// surface area heuristic, and traversal through it finds what testing every triangle finds.
raytracer::DeviceMeshBvhBuilder& ploc_builder() {
  static raytracer::DeviceMeshBvhBuilder builder(clf_test::runtime(), DeviceBvhMethod::ploc);
  return builder;
}

// The tree's SAH cost: nodes visited and primitives tested by a ray through the root, counting
// a node's box by its area relative to the root's (traversal and test costing the same).
double sah_cost(const SahBvh& bvh) {
  auto area = [](const RtMeshNode& n) {
    const float dx = n.bounds_max.x - n.bounds_min.x, dy = n.bounds_max.y - n.bounds_min.y,
                dz = n.bounds_max.z - n.bounds_min.z;
    return static_cast<double>(dx * dy + dy * dz + dz * dx);
  };
  double cost = 0;
  for (const RtMeshNode& node : bvh.nodes) cost += area(node) * std::max(node.count, 1);
  return cost / area(bvh.nodes.front());
}

TEST(RaytracerMeshBvh, DevicePlocHoldsEveryPrimitiveOnceInBoundedLeaves) {
  for (std::size_t n : {1u, 2u, 3u, 5u, 100u, 5000u}) {
    const std::vector<Box> boxes = random_boxes(n, static_cast<std::uint32_t>(n));
    const SahBvh bvh = ploc_builder().build(boxes);
    ASSERT_NO_FATAL_FAILURE(expect_each_primitive_once(bvh, boxes));
    if (n <= 4) {
      EXPECT_EQ(bvh.nodes.size(), 1u) << "one leaf holds " << n << " primitives";
    }
  }
  EXPECT_GE(ploc_builder().rounds(), 1);
}

TEST(RaytracerMeshBvh, DevicePlocOfCoincidentPrimitivesIsBalanced) {
  const std::vector<Box> boxes(10000, random_boxes(1, 7)[0]);  // every area the same
  const SahBvh bvh = ploc_builder().build(boxes);
  EXPECT_EQ(check_tree(bvh, boxes, 4).size(), boxes.size());
  EXPECT_LE(bvh.depth, 14);  // pairs merge each round: about log2(10000 / 4)
  EXPECT_CLF_ERROR(ploc_builder().build({}), "no triangles");
}

TEST(RaytracerMeshBvh, DevicePlocCostsLessThanTheLinearBvh) {
  const std::vector<Box> boxes = random_boxes(20000, 11);
  const double ploc = sah_cost(ploc_builder().build(boxes));
  const double lbvh = sah_cost(device_builder().build(boxes));
  const double sah = sah_cost(build_sah_bvh(boxes));
  EXPECT_LT(ploc, lbvh * 0.95) << "PLOC " << ploc << ", LBVH " << lbvh << ", host SAH " << sah;
  EXPECT_LT(ploc, sah * 1.15) << "PLOC " << ploc << ", host SAH " << sah;
}

TEST(RaytracerMeshBvh, TraversalOfDevicePlocTreesFindsWhatTestingEveryTriangleFinds) {
  expect_traversal_matches_brute_force(build_mesh_geometry(
      instanced_scene(),
      [](const std::vector<Box>& boxes) { return ploc_builder().build(boxes); }));
}

}  // namespace

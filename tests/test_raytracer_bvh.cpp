// Raytracer BVH: the device build equals the host build of the same algorithm node for node,
// and traversal finds the same nearest sphere as testing every sphere.
#include <gtest/gtest.h>

#include "raytracer_test_support.hpp"
#include "shared/random.h"

namespace {

using raytracer_test::renderer;
using namespace raytracer;

void expect_same_bvh(const std::vector<RtSphere>& spheres) {
  Scene scene;
  scene.spheres = spheres;
  scene.materials.push_back(make_material({1, 1, 1}, 0.1f, 0.8f, 0, 1, 0));
  renderer().set_scene(scene);
  const std::vector<RtBvhNode> device = renderer().read_bvh();
  const std::vector<RtBvhNode> host = build_bvh_reference(spheres);
  ASSERT_EQ(device.size(), host.size());
  for (std::size_t i = 0; i < host.size(); ++i) {
    SCOPED_TRACE("node " + std::to_string(i) + " of " + std::to_string(host.size()));
    EXPECT_EQ(device[i].left, host[i].left);
    EXPECT_EQ(device[i].right, host[i].right);
    EXPECT_EQ(device[i].parent, host[i].parent);
    EXPECT_EQ(device[i].sphere, host[i].sphere);
    EXPECT_EQ(device[i].bounds_min.x, host[i].bounds_min.x);
    EXPECT_EQ(device[i].bounds_max.y, host[i].bounds_max.y);
    EXPECT_EQ(device[i].bounds_max.z, host[i].bounds_max.z);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(RaytracerBvh, DeviceBuildEqualsHostBuild) {
  expect_same_bvh(builtin_scene("random:3000").spheres);
  expect_same_bvh(builtin_scene("seed").spheres);
}

TEST(RaytracerBvh, SmallAndDegenerateInputs) {
  expect_same_bvh({make_sphere({1, 2, 3}, 1, 0)});
  expect_same_bvh({make_sphere({1, 2, 3}, 1, 0), make_sphere({-1, 0, 3}, 0.5f, 0)});
  // Equal centres: equal Morton codes, told apart by index.
  std::vector<RtSphere> same(100, make_sphere({5, 5, 5}, 1, 0));
  for (std::size_t i = 0; i < same.size(); ++i) same[i].center_radius.w = 0.5f + 0.01f * i;
  expect_same_bvh(same);
}

TEST(RaytracerBvh, EveryLeafAppearsOnceAndBoundsContainChildren) {
  const std::vector<RtSphere> spheres = builtin_scene("random:5000").spheres;
  expect_same_bvh(spheres);
  const std::vector<RtBvhNode> nodes = renderer().read_bvh();
  std::vector<int> seen(spheres.size(), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].left < 0) {
      ++seen.at(nodes[i].sphere);
      continue;
    }
    for (int child : {nodes[i].left, nodes[i].right}) {
      EXPECT_LE(nodes[i].bounds_min.x, nodes[child].bounds_min.x);
      EXPECT_GE(nodes[i].bounds_max.z, nodes[child].bounds_max.z);
      EXPECT_EQ(nodes[child].parent, static_cast<int>(i));
    }
  }
  for (int count : seen) EXPECT_EQ(count, 1);
}

TEST(RaytracerBvh, TraversalFindsTheSameNearestHitAsBruteForce) {
  const Scene scene = builtin_scene("random:4000:7");
  renderer().set_scene(scene);
  const float side = 4.0f * std::cbrt(4000.0f);
  PhiloxState rng = philox_init(99, 0);
  std::vector<cl_float4> origins, directions;
  for (int i = 0; i < 3000; ++i) {
    // Origins inside and around the sphere cloud; directions uniform-ish over the sphere.
    const float x = (philox_next_float(&rng) - 0.5f) * 1.6f * side;
    const float y = (philox_next_float(&rng) - 0.3f) * 1.6f * side;
    const float z = (philox_next_float(&rng) - 0.5f) * 1.6f * side;
    origins.push_back(rt_vec(x, y, z));
    cl_float4 d = rt_vec(philox_next_float(&rng) - 0.5f, philox_next_float(&rng) - 0.5f,
                         philox_next_float(&rng) - 0.5f);
    if (i % 100 == 0) d = rt_vec(0, 0, 1);  // axis-aligned rays: zero components in the slab test
    directions.push_back(rt_normalize(d));
  }
  const std::vector<RtHit> bvh = renderer().query(origins, directions, true);
  const std::vector<RtHit> brute = renderer().query(origins, directions, false);
  int hits = 0;
  for (std::size_t i = 0; i < bvh.size(); ++i) {
    SCOPED_TRACE("ray " + std::to_string(i));
    EXPECT_EQ(bvh[i].kind, brute[i].kind);
    EXPECT_EQ(bvh[i].index, brute[i].index);
    EXPECT_EQ(bvh[i].t, brute[i].t);
    hits += brute[i].kind != RT_HIT_NONE;
    // And the host's brute force agrees on which sphere.
    if (i % 10 == 0) {
      const RtHit host =
          rt_spheres_brute(scene.spheres.data(), static_cast<cl_uint>(scene.spheres.size()),
                           origins[i], directions[i], rt_no_hit(RT_INFINITY), 0);
      EXPECT_EQ(host.index, brute[i].index);
    }
  }
  EXPECT_GT(hits, 300) << "many rays should hit something";
  EXPECT_LT(hits, 3000) << "some rays should miss";
}

}  // namespace

// A BVH over boxes by the surface area heuristic with binned splits (Wald 2007), built on the
// host: the tree of a static mesh (built once, traced every frame) and of the instances.
#pragma once

#include <cstdint>
#include <vector>

#include "shared/raytracer/mesh_types.h"
#include "shared/raytracer/vector.h"

namespace raytracer {

struct Box {
  float min[3] = {1e30f, 1e30f, 1e30f};
  float max[3] = {-1e30f, -1e30f, -1e30f};
  void extend(const Box& b);
  void extend(const float p[3]);
  float center(int axis) const { return 0.5f * (min[axis] + max[axis]); }
  float surface_area() const;  // 0 for an empty box
};

struct SahBvh {
  // Node 0 is the root. Internal nodes (count 0) have their children at first and first + 1; a
  // leaf holds order[first .. first + count - 1]. Indices are relative to this tree.
  std::vector<RtMeshNode> nodes;
  std::vector<std::uint32_t> order;  // primitive indices in leaf order
  int depth = 0;                     // edges from the root to the deepest leaf
};

struct SahOptions {
  int max_leaf_size = 4;  // a node of this many primitives or fewer is a leaf
  // Below this depth nodes split at the object median of their longest axis instead, which
  // bounds the depth by sah_depth + log2(primitives) (the traversal stack is finite).
  int sah_depth = 16;
};

// Throws clf::Error for no boxes or an empty one.
SahBvh build_sah_bvh(const std::vector<Box>& boxes, const SahOptions& options = {});

}  // namespace raytracer

// A mesh's BVH built on the device (linear BVH: Morton codes, radix sort, Karras tree, bounds
// bottom-up, leaves of up to four triangles) in the layout the mesh traversal reads, the same
// SahBvh a host SAH build gives. Faster to build than the host's binned SAH, slower to trace:
// for meshes that change, or that are too large to wait for (docs/raytracer.md has both).
#pragma once

#include <vector>

#include "apps/raytracer/sah_bvh.hpp"
#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/runtime.hpp"

namespace raytracer {

class DeviceMeshBvhBuilder {
 public:
  explicit DeviceMeshBvhBuilder(clf::Runtime& runtime, int max_leaf_size = 4);

  // The tree over `boxes` (one per triangle), read back to the host. Throws clf::Error for no
  // boxes, or more than the device's 32-bit indices hold.
  SahBvh build(const std::vector<Box>& boxes);
  // Milliseconds the device spent on the last build (events on a profiling runtime, else
  // wall-clock), uploads and read-back excluded.
  double device_ms() const { return device_ms_; }

 private:
  clf::Runtime& runtime_;
  int max_leaf_size_;
  clf::CLKernel centre_bounds_kernel_;
  clf::CLKernel bounds_boxes_kernel_;
  clf::CLKernel morton_kernel_;
  clf::CLKernel leaves_kernel_;
  clf::CLKernel internal_kernel_;
  clf::CLKernel refit_kernel_;
  clf::CLKernel layout_kernel_;
  clf::primitives::Sorter sorter_;
  double device_ms_ = 0;
};

// Edges from the root to the deepest leaf a traversal can reach.
int reachable_depth(const std::vector<RtMeshNode>& nodes);

}  // namespace raytracer

// A mesh's BVH built on the device, in the layout the mesh traversal reads (the same SahBvh a
// host SAH build gives), by one of two methods over the triangles in Morton order:
// - a linear BVH (Karras 2012: the radix tree of the Morton codes, bounds bottom-up, the layout
//   in one kernel): the fastest build, the slowest to trace;
// - PLOC (parallel locally-ordered clustering, Meister and Bittner 2018: neighbours in Morton
//   order merged by least surface area, round after round): a tree close to the host's binned
//   SAH, built in rounds of a few launches each, then laid out on the host.
// For meshes too large to wait for the host's SAH, or that change (docs/raytracer.md has the
// figures).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "apps/raytracer/sah_bvh.hpp"
#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/runtime.hpp"

namespace raytracer {

enum class DeviceBvhMethod { lbvh, ploc };

class DeviceMeshBvhBuilder {
 public:
  explicit DeviceMeshBvhBuilder(clf::Runtime& runtime,
                                DeviceBvhMethod method = DeviceBvhMethod::lbvh,
                                int max_leaf_size = 4);
  ~DeviceMeshBvhBuilder();

  DeviceBvhMethod method() const { return method_; }
  // The tree over `boxes` (one per triangle), read back to the host. Throws clf::Error for no
  // boxes, or more than the device's 32-bit indices hold.
  SahBvh build(const std::vector<Box>& boxes);
  // Milliseconds the device spent on the last build (events on a profiling runtime, else
  // wall-clock), uploads and read-back excluded; PLOC's rounds read a count back each.
  double device_ms() const { return device_ms_; }
  // PLOC's rounds in the last build (0 for the linear BVH).
  int rounds() const { return rounds_; }

 private:
  // The radix tree, laid out by the device into `nodes` (2n - 1) in traversal layout.
  void build_lbvh(const clf::DeviceBuffer<cl_float4>& primitive_boxes,
                  const clf::DeviceBuffer<cl_uint>& codes,
                  const clf::DeviceBuffer<cl_uint>& indices, cl_uint n,
                  clf::DeviceBuffer<RtMeshNode>& nodes);
  // The clustered tree into `tree` (2n - 1 RtBvhNode, root 0), built in rounds.
  void build_ploc(const clf::DeviceBuffer<cl_float4>& primitive_boxes,
                  const clf::DeviceBuffer<cl_uint>& indices, cl_uint n,
                  clf::DeviceBuffer<RtBvhNode>& tree);

  clf::Runtime& runtime_;
  DeviceBvhMethod method_;
  int max_leaf_size_;
  clf::CLKernel centre_bounds_kernel_;
  clf::CLKernel bounds_boxes_kernel_;
  clf::CLKernel morton_kernel_;
  clf::CLKernel leaves_kernel_;
  clf::CLKernel internal_kernel_;
  clf::CLKernel refit_kernel_;
  clf::CLKernel layout_kernel_;
  struct PlocKernels;  // built only for the PLOC method (kernels/raytracer/mesh_ploc.cl)
  std::unique_ptr<PlocKernels> ploc_;
  clf::primitives::Sorter sorter_;
  double device_ms_ = 0;
  int rounds_ = 0;
};

// A binary tree of `tree` (root 0, every parent's index below its children's, leaves holding
// one primitive in `sphere`) in the traversal layout: breadth-first, each internal node's
// children side by side, a subtree of max_leaf_size primitives or fewer one leaf.
SahBvh flatten_binary_tree(const std::vector<RtBvhNode>& tree, int max_leaf_size);

// Edges from the root to the deepest leaf a traversal can reach.
int reachable_depth(const std::vector<RtMeshNode>& nodes);

}  // namespace raytracer

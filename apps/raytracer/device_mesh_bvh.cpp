#include "apps/raytracer/device_mesh_bvh.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "apps/raytracer/centre_bounds.hpp"
#include "framework/error.hpp"
#include "framework/sources.hpp"

namespace raytracer {

namespace {

clf::CLKernel kernel(clf::Runtime& runtime, const char* file, const char* name) {
  return clf::CLKernel(runtime, clf::kernel_source(file), name);
}

}  // namespace

DeviceMeshBvhBuilder::DeviceMeshBvhBuilder(clf::Runtime& runtime, int max_leaf_size)
    : runtime_(runtime),
      max_leaf_size_(std::max(max_leaf_size, 1)),
      centre_bounds_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_bounds.cl", "rt_bvh_bounds_box_centres")),
      bounds_boxes_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_bounds.cl", "rt_bvh_bounds_boxes")),
      morton_kernel_(kernel(runtime, "kernels/raytracer/mesh_lbvh.cl", "rt_lbvh_morton")),
      leaves_kernel_(kernel(runtime, "kernels/raytracer/mesh_lbvh.cl", "rt_lbvh_leaves")),
      internal_kernel_(kernel(runtime, "kernels/raytracer/mesh_lbvh.cl", "rt_lbvh_internal")),
      refit_kernel_(kernel(runtime, "kernels/raytracer/bvh_refit.cl", "rt_bvh_refit")),
      layout_kernel_(kernel(runtime, "kernels/raytracer/mesh_lbvh.cl", "rt_lbvh_layout")),
      sorter_(runtime) {}

SahBvh DeviceMeshBvhBuilder::build(const std::vector<Box>& boxes) {
  if (boxes.empty()) throw clf::Error("device mesh BVH: no triangles");
  if (boxes.size() > static_cast<std::size_t>(std::numeric_limits<cl_int>::max() / 2)) {
    throw clf::Error("device mesh BVH: " + std::to_string(boxes.size()) +
                     " triangles, more than its 32-bit node indices hold");
  }
  const cl_uint n = static_cast<cl_uint>(boxes.size());
  std::vector<cl_float4> packed(2 * boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Box& b = boxes[i];
    packed[2 * i] = cl_float4{{b.min[0], b.min[1], b.min[2], 0.0f}};
    packed[2 * i + 1] = cl_float4{{b.max[0], b.max[1], b.max[2], 0.0f}};
  }
  clf::DeviceBuffer<cl_float4> primitive_boxes(runtime_, packed.size());
  primitive_boxes.write(packed);
  clf::DeviceBuffer<cl_float4> scene_box(runtime_, 2 * kCentreBoundsGroups);
  clf::DeviceBuffer<cl_uint> codes(runtime_, n);
  clf::DeviceBuffer<cl_uint> indices(runtime_, n);
  clf::DeviceBuffer<RtBvhNode> tree(runtime_, 2 * n - 1);
  clf::DeviceBuffer<cl_uint> ready(runtime_, std::max<cl_uint>(n - 1, 1));
  clf::DeviceBuffer<cl_int2> ranges(runtime_, std::max<cl_uint>(n - 1, 1));
  clf::DeviceBuffer<RtMeshNode> nodes(runtime_, 2 * n - 1);
  runtime_.finish();

  const auto start = std::chrono::steady_clock::now();
  runtime_.start_recording();
  launch_centre_bounds(centre_bounds_kernel_, bounds_boxes_kernel_, primitive_boxes, n, scene_box);
  morton_kernel_(clf::Range::linear(n, 256), primitive_boxes, n, scene_box, codes, indices);
  sorter_.sort(codes, indices);
  leaves_kernel_(clf::Range::linear(n, 256), primitive_boxes, indices, n, tree, ready);
  if (n > 1) {
    internal_kernel_(clf::Range::linear(n - 1, 256), codes, n, tree, ranges);
    refit_kernel_(clf::Range::linear(n, 256), n, tree, ready);
  }
  layout_kernel_(clf::Range::linear(2 * n - 1, 256), tree, ranges, n,
                 static_cast<cl_int>(max_leaf_size_), nodes);
  runtime_.finish();
  const std::vector<clf::Event> events = runtime_.stop_recording();
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  device_ms_ = runtime_.span_ms(events, wall_ms);

  SahBvh bvh;
  bvh.nodes = nodes.read();
  bvh.order = indices.read();
  bvh.depth = reachable_depth(bvh.nodes);
  return bvh;
}

int reachable_depth(const std::vector<RtMeshNode>& nodes) {
  int deepest = 0;
  std::vector<std::pair<cl_int, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    const RtMeshNode& node = nodes.at(static_cast<std::size_t>(index));
    if (node.count == 0) {
      stack.push_back({node.first, depth + 1});
      stack.push_back({node.first + 1, depth + 1});
    }
  }
  return deepest;
}

}  // namespace raytracer

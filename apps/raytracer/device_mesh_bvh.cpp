#include "apps/raytracer/device_mesh_bvh.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "apps/raytracer/centre_bounds.hpp"
#include "framework/error.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/sources.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

clf::CLKernel kernel(clf::Runtime& runtime, const char* file, const char* name) {
  return clf::CLKernel(runtime, clf::kernel_source(file), name);
}

// PLOC's search radius: neighbours this many places either side in Morton order. The paper's
// choice, where the tree's quality has levelled off and the search is still cheap.
constexpr cl_int kPlocRadius = 16;

}  // namespace

struct DeviceMeshBvhBuilder::PlocKernels {
  explicit PlocKernels(clf::Runtime& runtime)
      : leaves(kernel(runtime, "kernels/raytracer/mesh_ploc.cl", "rt_ploc_leaves")),
        nearest(kernel(runtime, "kernels/raytracer/mesh_ploc.cl", "rt_ploc_nearest")),
        flags(kernel(runtime, "kernels/raytracer/mesh_ploc.cl", "rt_ploc_flags")),
        merge(kernel(runtime, "kernels/raytracer/mesh_ploc.cl", "rt_ploc_merge")),
        compact(kernel(runtime, "kernels/raytracer/mesh_ploc.cl", "rt_ploc_compact")),
        scan(runtime) {}
  clf::CLKernel leaves;
  clf::CLKernel nearest;
  clf::CLKernel flags;
  clf::CLKernel merge;
  clf::CLKernel compact;
  clf::primitives::Scan<std::uint32_t> scan;
};

DeviceMeshBvhBuilder::DeviceMeshBvhBuilder(clf::Runtime& runtime, DeviceBvhMethod method,
                                           int max_leaf_size)
    : runtime_(runtime),
      method_(method),
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
      ploc_(method == DeviceBvhMethod::ploc ? std::make_unique<PlocKernels>(runtime) : nullptr),
      sorter_(runtime) {}

DeviceMeshBvhBuilder::~DeviceMeshBvhBuilder() = default;

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
  runtime_.finish();

  const auto start = std::chrono::steady_clock::now();
  runtime_.start_recording();
  launch_centre_bounds(centre_bounds_kernel_, bounds_boxes_kernel_, primitive_boxes, n, scene_box);
  morton_kernel_(clf::Range::linear(n, 256), primitive_boxes, n, scene_box, codes, indices);
  sorter_.sort(codes, indices);
  rounds_ = 0;
  if (method_ == DeviceBvhMethod::ploc) {
    clf::DeviceBuffer<RtBvhNode> tree(runtime_, 2 * n - 1);
    build_ploc(primitive_boxes, indices, n, tree);
    device_ms_ = runtime_.span_ms(runtime_.stop_recording(), clf::milliseconds_since(start));
    return flatten_binary_tree(tree.read(), max_leaf_size_);
  }
  clf::DeviceBuffer<RtMeshNode> nodes(runtime_, 2 * n - 1);
  build_lbvh(primitive_boxes, codes, indices, n, nodes);
  device_ms_ = runtime_.span_ms(runtime_.stop_recording(), clf::milliseconds_since(start));
  SahBvh bvh;
  bvh.nodes = nodes.read();
  bvh.order = indices.read();
  bvh.depth = reachable_depth(bvh.nodes);
  return bvh;
}

void DeviceMeshBvhBuilder::build_lbvh(const clf::DeviceBuffer<cl_float4>& primitive_boxes,
                                      const clf::DeviceBuffer<cl_uint>& codes,
                                      const clf::DeviceBuffer<cl_uint>& indices, cl_uint n,
                                      clf::DeviceBuffer<RtMeshNode>& nodes) {
  clf::DeviceBuffer<RtBvhNode> tree(runtime_, 2 * n - 1);
  clf::DeviceBuffer<cl_uint> ready(runtime_, std::max<cl_uint>(n - 1, 1));
  clf::DeviceBuffer<cl_int2> ranges(runtime_, std::max<cl_uint>(n - 1, 1));
  leaves_kernel_(clf::Range::linear(n, 256), primitive_boxes, indices, n, tree, ready);
  if (n > 1) {
    internal_kernel_(clf::Range::linear(n - 1, 256), codes, n, tree, ranges);
    refit_kernel_(clf::Range::linear(n, 256), n, tree, ready);
  }
  layout_kernel_(clf::Range::linear(2 * n - 1, 256), tree, ranges, n,
                 static_cast<cl_int>(max_leaf_size_), nodes);
  runtime_.finish();
}

void DeviceMeshBvhBuilder::build_ploc(const clf::DeviceBuffer<cl_float4>& primitive_boxes,
                                      const clf::DeviceBuffer<cl_uint>& indices, cl_uint n,
                                      clf::DeviceBuffer<RtBvhNode>& tree) {
  PlocKernels& k = *ploc_;
  // The clusters, in two pairs of arrays: each round compacts from one into the other.
  clf::DeviceBuffer<cl_int> cluster_nodes[2] = {{runtime_, n}, {runtime_, n}};
  clf::DeviceBuffer<cl_float4> cluster_boxes[2] = {{runtime_, 2 * n}, {runtime_, 2 * n}};
  clf::DeviceBuffer<cl_int> nearest(runtime_, n);
  clf::DeviceBuffer<cl_uint> merges(runtime_, n);
  clf::DeviceBuffer<cl_uint> keeps(runtime_, n);
  clf::DeviceBuffer<cl_uint> merge_offsets(runtime_, n);
  clf::DeviceBuffer<cl_uint> keep_offsets(runtime_, n);
  k.leaves(clf::Range::linear(n, 256), primitive_boxes, indices, n, tree, cluster_nodes[0],
           cluster_boxes[0]);
  cl_uint count = n;
  cl_int first_node = static_cast<cl_int>(n) - 2;  // the next round's first new node
  int from = 0;
  while (count > 1) {
    const clf::Range range = clf::Range::linear(count, 256);
    k.nearest(range, cluster_boxes[from], count, kPlocRadius, nearest);
    k.flags(range, nearest, count, merges, keeps);
    k.scan.run(merges, merge_offsets, count, clf::primitives::ScanType::exclusive);
    k.scan.run(keeps, keep_offsets, count, clf::primitives::ScanType::exclusive);
    k.merge(range, nearest, merges, merge_offsets, count, first_node, tree, cluster_nodes[from],
            cluster_boxes[from]);
    k.compact(range, keeps, keep_offsets, count, cluster_nodes[from], cluster_boxes[from],
              cluster_nodes[1 - from], cluster_boxes[1 - from]);
    // Pairs merged this round: the last offset plus the last flag (at least one pair merges:
    // the closest pair of neighbours is mutual).
    cl_uint last_offset = 0, last_merge = 0;
    merge_offsets.read_range(count - 1, &last_offset, 1);
    merges.read_range(count - 1, &last_merge, 1);
    const cl_uint merged = last_offset + last_merge;
    if (merged == 0) throw clf::Error("device mesh BVH (PLOC): a round merged no clusters");
    count -= merged;
    first_node -= static_cast<cl_int>(merged);
    from = 1 - from;
    ++rounds_;
  }
  runtime_.finish();
}

SahBvh flatten_binary_tree(const std::vector<RtBvhNode>& tree, int max_leaf_size) {
  if (tree.empty()) throw clf::Error("flatten_binary_tree: no nodes");
  // Primitives below each node, children before parents (their indices are higher).
  std::vector<cl_int> below(tree.size(), 1);
  for (std::size_t k = tree.size(); k-- > 0;) {
    const RtBvhNode& node = tree[k];
    if (node.left >= 0) {
      below[k] =
          below[static_cast<std::size_t>(node.left)] + below[static_cast<std::size_t>(node.right)];
    }
  }
  SahBvh bvh;
  bvh.nodes.reserve(tree.size());
  bvh.order.reserve(static_cast<std::size_t>(below[0]));
  std::vector<cl_int> source{0};  // the tree node each output node stands for
  std::vector<cl_int> stack;
  for (std::size_t out = 0; out < source.size(); ++out) {
    const cl_int k = source[out];
    const RtBvhNode& node = tree[static_cast<std::size_t>(k)];
    RtMeshNode mesh{};
    mesh.bounds_min = node.bounds_min;
    mesh.bounds_max = node.bounds_max;
    if (below[static_cast<std::size_t>(k)] <= max_leaf_size) {
      mesh.first = static_cast<cl_int>(bvh.order.size());
      mesh.count = below[static_cast<std::size_t>(k)];
      stack.assign(1, k);
      while (!stack.empty()) {
        const RtBvhNode& n = tree[static_cast<std::size_t>(stack.back())];
        stack.pop_back();
        if (n.left < 0) {
          bvh.order.push_back(static_cast<std::uint32_t>(n.sphere));
        } else {
          stack.push_back(n.right);
          stack.push_back(n.left);
        }
      }
    } else {
      mesh.first = static_cast<cl_int>(source.size());
      mesh.count = 0;
      source.push_back(node.left);
      source.push_back(node.right);
    }
    bvh.nodes.push_back(mesh);
  }
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

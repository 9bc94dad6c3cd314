// Binned SAH build: each node's primitives are binned by centroid into kBins slabs per axis and
// split at the bin boundary of least cost (area of each side times its primitives); where SAH
// finds no split (every centroid in one bin) or the node is deep, it splits at the median.
#include "apps/raytracer/sah_bvh.hpp"

#include <algorithm>
#include <numeric>

#include "framework/error.hpp"

namespace raytracer {

void Box::extend(const Box& b) {
  for (int a = 0; a < 3; ++a) {
    min[a] = std::min(min[a], b.min[a]);
    max[a] = std::max(max[a], b.max[a]);
  }
}

void Box::extend(const float p[3]) {
  for (int a = 0; a < 3; ++a) {
    min[a] = std::min(min[a], p[a]);
    max[a] = std::max(max[a], p[a]);
  }
}

float Box::surface_area() const {
  if (min[0] > max[0]) return 0;
  const float x = max[0] - min[0], y = max[1] - min[1], z = max[2] - min[2];
  return 2 * (x * y + y * z + z * x);
}

namespace {

constexpr int kBins = 16;

// Split after bin `last_left_bin` of `axis`, binned from `low` at `scale` bins per unit.
struct Split {
  int axis = -1;  // -1: none found
  int last_left_bin = 0;
  float low = 0;
  float scale = 0;
  float cost = 0;
  int bin(const Box& b) const {
    return std::min(kBins - 1, static_cast<int>((b.center(axis) - low) * scale));
  }
};

class SahBuilder {
 public:
  SahBuilder(const std::vector<Box>& boxes, const SahOptions& options)
      : boxes_(boxes), options_(options) {}

  SahBvh build() {
    bvh_.order.resize(boxes_.size());
    std::iota(bvh_.order.begin(), bvh_.order.end(), 0u);
    bvh_.nodes.reserve(2 * boxes_.size());
    bvh_.nodes.emplace_back();
    build_node(0, 0, static_cast<std::uint32_t>(boxes_.size()), 0);
    return std::move(bvh_);
  }

 private:
  void build_node(std::size_t node, std::uint32_t begin, std::uint32_t end, int depth) {
    Box bounds, centroids;
    for (std::uint32_t i = begin; i < end; ++i) {
      const Box& b = boxes_[bvh_.order[i]];
      bounds.extend(b);
      const float c[3] = {b.center(0), b.center(1), b.center(2)};
      centroids.extend(c);
    }
    RtMeshNode& n = bvh_.nodes[node];
    n = RtMeshNode{};
    n.bounds_min = rt_vec(bounds.min[0], bounds.min[1], bounds.min[2]);
    n.bounds_max = rt_vec(bounds.max[0], bounds.max[1], bounds.max[2]);
    bvh_.depth = std::max(bvh_.depth, depth);
    const std::uint32_t count = end - begin;
    if (count <= static_cast<std::uint32_t>(options_.max_leaf_size)) {
      n.first = static_cast<cl_int>(begin);
      n.count = static_cast<cl_int>(count);
      return;
    }
    const std::uint32_t middle = partition(begin, end, centroids, depth);
    const std::size_t left = bvh_.nodes.size();
    bvh_.nodes[node].first = static_cast<cl_int>(left);
    bvh_.nodes[node].count = 0;
    bvh_.nodes.emplace_back();
    bvh_.nodes.emplace_back();
    build_node(left, begin, middle, depth + 1);
    build_node(left + 1, middle, end, depth + 1);
  }

  // Reorders order[begin, end) into two non-empty halves and returns where the second starts.
  std::uint32_t partition(std::uint32_t begin, std::uint32_t end, const Box& centroids, int depth) {
    auto* first = bvh_.order.data() + begin;
    auto* last = bvh_.order.data() + end;
    if (depth < options_.sah_depth) {
      const Split split = best_split(begin, end, centroids);
      if (split.axis >= 0) {
        auto* middle = std::partition(first, last, [&](std::uint32_t p) {
          return split.bin(boxes_[p]) <= split.last_left_bin;
        });
        if (middle != first && middle != last) {
          return static_cast<std::uint32_t>(middle - first) + begin;
        }
      }
    }
    // The object median along the longest centroid axis (by index where all centroids coincide).
    int axis = 0;
    for (int a = 1; a < 3; ++a) {
      if (centroids.max[a] - centroids.min[a] > centroids.max[axis] - centroids.min[axis]) axis = a;
    }
    auto* middle = first + (last - first) / 2;
    std::nth_element(first, middle, last, [&](std::uint32_t a, std::uint32_t b) {
      const float ca = boxes_[a].center(axis), cb = boxes_[b].center(axis);
      return ca < cb || (ca == cb && a < b);
    });
    return static_cast<std::uint32_t>(middle - first) + begin;
  }

  Split best_split(std::uint32_t begin, std::uint32_t end, const Box& centroids) const {
    Split best;
    for (int axis = 0; axis < 3; ++axis) {
      const float extent = centroids.max[axis] - centroids.min[axis];
      if (!(extent > 0)) continue;
      Split binning;
      binning.axis = axis;
      binning.low = centroids.min[axis];
      binning.scale = kBins / extent;
      Box bin_bounds[kBins];
      std::uint32_t bin_count[kBins] = {};
      for (std::uint32_t i = begin; i < end; ++i) {
        const Box& b = boxes_[bvh_.order[i]];
        const int bin = binning.bin(b);
        bin_bounds[bin].extend(b);
        ++bin_count[bin];
      }
      // Costs of splitting after bin k: sweeps from the right, then from the left.
      float right_area[kBins];
      std::uint32_t right_count[kBins];
      Box sweep;
      std::uint32_t sweep_count = 0;
      for (int k = kBins - 1; k > 0; --k) {
        sweep.extend(bin_bounds[k]);
        sweep_count += bin_count[k];
        right_area[k] = sweep.surface_area();
        right_count[k] = sweep_count;
      }
      sweep = Box{};
      sweep_count = 0;
      for (int k = 0; k < kBins - 1; ++k) {
        sweep.extend(bin_bounds[k]);
        sweep_count += bin_count[k];
        if (sweep_count == 0 || right_count[k + 1] == 0) continue;
        const float cost = sweep.surface_area() * static_cast<float>(sweep_count) +
                           right_area[k + 1] * static_cast<float>(right_count[k + 1]);
        if (best.axis < 0 || cost < best.cost) {
          best = binning;
          best.last_left_bin = k;
          best.cost = cost;
        }
      }
    }
    return best;
  }

  const std::vector<Box>& boxes_;
  SahOptions options_;
  SahBvh bvh_;
};

}  // namespace

SahBvh build_sah_bvh(const std::vector<Box>& boxes, const SahOptions& options) {
  if (boxes.empty()) throw clf::Error("build_sah_bvh: no primitives");
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (boxes[i].min[0] > boxes[i].max[0]) {
      throw clf::Error("build_sah_bvh: primitive " + std::to_string(i) + " has an empty box");
    }
  }
  if (options.max_leaf_size < 1) throw clf::Error("build_sah_bvh: max_leaf_size must be >= 1");
  return SahBuilder(boxes, options).build();
}

}  // namespace raytracer

// A mesh's BVH built on the device by parallel locally-ordered clustering (PLOC, Meister and
// Bittner 2018): the triangles in Morton order start as one cluster each; every round, each
// cluster finds the neighbour within `radius` places whose merged box has the least surface
// area, mutual nearest neighbours merge into a new node, and the clusters left are compacted in
// order, until one is left, the root. Merging by area keeps PLOC's trees close to a full SAH
// build's (the radix tree of mesh_lbvh.cl splits by Morton bits alone).
//
// Nodes are RtBvhNode (left, right, parent; `sphere` the triangle of a leaf): leaf i (the i-th
// triangle in Morton order) at count - 1 + i, internal nodes from count - 2 down to the root at
// 0, each round's below the last round's, so a parent's index is below its children's. Cluster
// boxes are (min, max) float4 pairs.
#include "shared/raytracer/raytracer.h"

float ploc_half_area(float4 lo, float4 hi) {
  const float4 d = hi - lo;
  return d.x * d.y + d.y * d.z + d.z * d.x;
}

__kernel void rt_ploc_leaves(__global const float4* primitive_boxes,
                             __global const uint* sorted_indices, uint count,
                             __global RtBvhNode* nodes, __global int* cluster_nodes,
                             __global float4* cluster_boxes) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const RtBvhNode leaf = rt_box_leaf(primitive_boxes, sorted_indices[i]);
  nodes[count - 1 + i] = leaf;
  cluster_nodes[i] = (int)(count - 1 + i);
  cluster_boxes[2 * i] = leaf.bounds_min;
  cluster_boxes[2 * i + 1] = leaf.bounds_max;
}

// Whether neighbour j beats `best` for cluster i at equal area: the pair partner i ^ 1 first, so
// that coincident boxes (all areas equal) still merge half of the clusters every round, then the
// nearer place, then the lower one.
int ploc_breaks_tie(int i, int j, int best) {
  if (best < 0) return 1;
  if ((j == (i ^ 1)) != (best == (i ^ 1))) return j == (i ^ 1);
  if (abs(j - i) != abs(best - i)) return abs(j - i) < abs(best - i);
  return j < best;
}

__kernel void rt_ploc_nearest(__global const float4* cluster_boxes, uint count, int radius,
                              __global int* nearest) {
  const int i = get_global_id(0);
  const int n = (int)count;
  if (i >= n) return;
  const float4 lo = cluster_boxes[2 * i];
  const float4 hi = cluster_boxes[2 * i + 1];
  int best = -1;
  float best_area = INFINITY;
  for (int j = max(0, i - radius); j <= min(n - 1, i + radius); ++j) {
    if (j == i) continue;
    const float area =
        ploc_half_area(fmin(lo, cluster_boxes[2 * j]), fmax(hi, cluster_boxes[2 * j + 1]));
    if (area < best_area || (area == best_area && ploc_breaks_tie(i, j, best))) {
      best = j;
      best_area = area;
    }
  }
  nearest[i] = best;
}

// merges[i]: cluster i merges with its nearest (mutual nearest neighbours, i the lower); keeps[i]:
// cluster i stays a cluster (all but the higher of each merged pair).
__kernel void rt_ploc_flags(__global const int* nearest, uint count, __global uint* merges,
                            __global uint* keeps) {
  const int i = get_global_id(0);
  if (i >= (int)count) return;
  const int j = nearest[i];
  const int mutual = j >= 0 && nearest[j] == i;
  merges[i] = mutual && i < j ? 1u : 0u;
  keeps[i] = mutual && i > j ? 0u : 1u;
}

// The merged pairs' new nodes: pair k of the round (merge_offsets, an exclusive scan of merges)
// gets node first_node - k.
__kernel void rt_ploc_merge(__global const int* nearest, __global const uint* merges,
                            __global const uint* merge_offsets, uint count, int first_node,
                            __global RtBvhNode* nodes, __global int* cluster_nodes,
                            __global float4* cluster_boxes) {
  const int i = get_global_id(0);
  if (i >= (int)count || merges[i] == 0) return;
  const int j = nearest[i];
  const int node = first_node - (int)merge_offsets[i];
  const int left = cluster_nodes[i];
  const int right = cluster_nodes[j];
  RtBvhNode merged;
  merged.bounds_min = fmin(cluster_boxes[2 * i], cluster_boxes[2 * j]);
  merged.bounds_max = fmax(cluster_boxes[2 * i + 1], cluster_boxes[2 * j + 1]);
  merged.left = left;
  merged.right = right;
  merged.parent = -1;
  merged.sphere = -1;
  nodes[node] = merged;
  nodes[left].parent = node;
  nodes[right].parent = node;
  cluster_nodes[i] = node;  // cluster j is only read this round, and dropped by the compaction
  cluster_boxes[2 * i] = merged.bounds_min;
  cluster_boxes[2 * i + 1] = merged.bounds_max;
}

// The clusters kept, in order, into the other pair of arrays (keep_offsets: an exclusive scan of
// keeps).
__kernel void rt_ploc_compact(__global const uint* keeps, __global const uint* keep_offsets,
                              uint count, __global const int* cluster_nodes,
                              __global const float4* cluster_boxes, __global int* kept_nodes,
                              __global float4* kept_boxes) {
  const int i = get_global_id(0);
  if (i >= (int)count || keeps[i] == 0) return;
  const uint k = keep_offsets[i];
  kept_nodes[k] = cluster_nodes[i];
  kept_boxes[2 * k] = cluster_boxes[2 * i];
  kept_boxes[2 * k + 1] = cluster_boxes[2 * i + 1];
}

// The neighbour grid's construction, one launch per stage (a barrier() only synchronises one
// work-group, so stages that read what other work-groups wrote are separate launches):
// keys -> (radix sort, on the host side) -> each cell's first boid -> reorder.
#include "shared/boids/boids.h"

// Each boid's cell key, and the identity permutation the sort carries along.
__kernel void boids_cell_keys(__global const float4* position, BoidsRules rules, BoidsGrid grid,
                              uint n, __global uint* keys, __global uint* order) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  keys[i] = boids_cell_key(position[i], rules, grid);
  order[i] = i;
}

// first[c] = the sorted index of cell c's first boid, for every cell, empty ones included, and
// first[cell_count] = n: cell c is [first[c], first[c + 1]), and a row of adjacent cells is one
// contiguous range. Boid i fills the entries from just after the previous boid's cell up to its
// own, so every entry is written exactly once per step (no clearing, no races).
__kernel void boids_cell_first(__global const uint* sorted_keys, uint n, uint cell_count,
                               __global uint* first) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint key = sorted_keys[i];
  const uint from = i == 0 ? 0 : sorted_keys[i - 1] + 1;
  for (uint c = from; c <= key; ++c) first[c] = i;
  if (i == n - 1) {
    for (uint c = key + 1; c <= cell_count; ++c) first[c] = n;
  }
}

// The balanced alternative (GPUs, where one work-item filling a long run of empty cells would
// stall its neighbours): counts per cell, then an exclusive scan over cell_count + 1 entries
// gives the same first[] array.
__kernel void boids_clear_counts(uint entries, __global uint* counts) {
  const uint c = get_global_id(0);
  if (c < entries) counts[c] = 0;
}

// The first boid of each cell's run counts the run (as long as the cell's occupancy).
__kernel void boids_cell_counts(__global const uint* sorted_keys, uint n, __global uint* counts) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint key = sorted_keys[i];
  if (i > 0 && sorted_keys[i - 1] == key) return;
  uint end = i + 1;
  while (end < n && sorted_keys[end] == key) ++end;
  counts[key] = end - i;
}

// Gathers the state into cell order, so a cell's boids are contiguous in memory.
__kernel void boids_reorder(__global const uint* order, uint n, __global const float4* position,
                            __global const float4* velocity, __global const uint* id,
                            __global float4* sorted_position, __global float4* sorted_velocity,
                            __global uint* sorted_id) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint from = order[i];
  sorted_position[i] = position[from];
  sorted_velocity[i] = velocity[from];
  sorted_id[i] = id[from];
}

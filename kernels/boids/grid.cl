// The neighbour grid's construction, one launch per stage (a barrier() only synchronises one
// work-group, so stages that read what other work-groups wrote are separate launches):
// keys -> (radix sort, on the host side) -> clear the last step's cells -> cell ranges -> reorder.
#include "shared/boids.h"

// Each boid's cell key, and the identity permutation the sort carries along.
__kernel void boids_cell_keys(__global const float4* position, BoidsRules rules, BoidsGrid grid,
                              uint n, __global uint* keys, __global uint* order) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  keys[i] = boids_cell_key(position[i], rules, grid);
  order[i] = i;
}

// Every cell empty (start = end = 0); used once per grid layout.
__kernel void boids_clear_all_cells(uint cell_count, __global uint* cell_start,
                                    __global uint* cell_end) {
  const uint c = get_global_id(0);
  if (c >= cell_count) return;
  cell_start[c] = 0;
  cell_end[c] = 0;
}

// Empties only the cells the previous step filled: O(n), not O(cells), so sparse grids (many
// more cells than boids) cost nothing extra. `sorted_keys` are the previous step's keys.
__kernel void boids_clear_used_cells(__global const uint* sorted_keys, uint n,
                                     __global uint* cell_start, __global uint* cell_end) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint key = sorted_keys[i];
  if (i == 0 || sorted_keys[i - 1] != key) {  // one writer per cell
    cell_start[key] = 0;
    cell_end[key] = 0;
  }
}

// [start, end) of each non-empty cell in the sorted order.
__kernel void boids_cell_ranges(__global const uint* sorted_keys, uint n, __global uint* cell_start,
                                __global uint* cell_end) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint key = sorted_keys[i];
  if (i == 0 || sorted_keys[i - 1] != key) cell_start[key] = i;
  if (i == n - 1 || sorted_keys[i + 1] != key) cell_end[key] = i + 1;
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

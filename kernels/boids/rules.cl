// The rules: each boid gathers its neighbours from the old state and writes its new velocity
// (steering and speed clamp from shared/boids/boids.h); integrate then moves it. Neighbours are
// visited in a fixed order, so results are bit-for-bit reproducible on one device.
#include "shared/boids/boids.h"

// The first searched cell along one axis: 3 cells around the boid's cell, or 2 toward the
// boid's side of it.
inline int boids_search_start(int cell, float fraction, BoidsGrid grid) {
  if (grid.search_cells == 3) return cell - 1;
  return fraction < 0.5f ? cell - 1 : cell;
}

// Maps a searched cell coordinate into [0, G): wrapped, or -1 when outside a bounded box.
inline int boids_search_cell(int c, int side, int wrap) {
  if (c >= 0 && c < side) return c;
  if (!wrap) return -1;
  return c < 0 ? c + side : c - side;
}

// Adds the boids with sorted indices [begin, end), except boid i itself; a velocity is loaded
// only for boids within reach.
inline void boids_accumulate_range(BoidsSums* sums, uint begin, uint end, uint i, float4 p,
                                   __global const float4* position, __global const float4* velocity,
                                   BoidsRules rules, float reach2) {
  for (uint j = begin; j < end; ++j) {
    const float4 d = boids_offset(p, position[j], rules);
    if (j != i && boids_length2(d) < reach2) boids_accumulate(sums, d, velocity[j], rules);
  }
}

// Neighbours are visited row by row (z, then y ascending); the searched cells of a row are
// adjacent keys, so a row is one contiguous range of sorted boids, or two when it wraps
// around in x (visited in search order: the wrapped cell first on the left, last on the right).
__kernel void boids_rules_grid(__global const float4* position, __global const float4* velocity,
                               __global const uint* cell_first, BoidsRules rules, BoidsGrid grid,
                               uint n, __global float4* new_velocity) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = position[i];
  const int side = grid.cells_per_axis;
  const int span = grid.search_cells;
  float fx, fy, fz;
  const int x0 = boids_search_start(boids_cell_axis(p.x, rules, grid, &fx), fx, grid);
  const int y0 = boids_search_start(boids_cell_axis(p.y, rules, grid, &fy), fy, grid);
  int z0 = 0;
  int z_count = 1;
  if (rules.dims == 3) {
    z0 = boids_search_start(boids_cell_axis(p.z, rules, grid, &fz), fz, grid);
    z_count = span;
  }
  // The row's x extent inside [0, G), and the wrapped-around cell if any.
  int x_first = max(x0, 0);
  int x_last = min(x0 + span - 1, side - 1);
  int x_wrapped = -1;
  if (rules.wrap && x0 < 0) x_wrapped = x0 + side;
  if (rules.wrap && x0 + span - 1 >= side) x_wrapped = x0 + span - 1 - side;
  // Boids whose searched cells do not wrap need no nearest-image corrections: any neighbour
  // within the radius lies in those cells unwrapped, so the plain offset is the same number.
  BoidsRules search_rules = rules;
  search_rules.wrap = rules.wrap && (x0 < 0 || x0 + span > side || y0 < 0 || y0 + span > side ||
                                     (rules.dims == 3 && (z0 < 0 || z0 + span > side)));
  const float reach2 = boids_reach2(rules);
  BoidsSums sums = boids_sums_zero();
  for (int dz = 0; dz < z_count; ++dz) {
    const int z = rules.dims == 3 ? boids_search_cell(z0 + dz, side, rules.wrap) : 0;
    if (z < 0) continue;
    for (int dy = 0; dy < span; ++dy) {
      const int y = boids_search_cell(y0 + dy, side, rules.wrap);
      if (y < 0) continue;
      const uint row = (uint)side * ((uint)y + (uint)side * (uint)z);
      if (x_wrapped >= 0 && x0 < 0) {
        const uint cell = row + (uint)x_wrapped;
        boids_accumulate_range(&sums, cell_first[cell], cell_first[cell + 1], i, p, position,
                               velocity, search_rules, reach2);
      }
      boids_accumulate_range(&sums, cell_first[row + (uint)x_first],
                             cell_first[row + (uint)x_last + 1], i, p, position, velocity,
                             search_rules, reach2);
      if (x_wrapped >= 0 && x0 >= 0) {
        const uint cell = row + (uint)x_wrapped;
        boids_accumulate_range(&sums, cell_first[cell], cell_first[cell + 1], i, p, position,
                               velocity, search_rules, reach2);
      }
    }
  }
  new_velocity[i] = boids_new_velocity(p, velocity[i], sums, rules);
}

// The O(n^2) reference path: every other boid, in index order.
__kernel void boids_rules_brute(__global const float4* position, __global const float4* velocity,
                                BoidsRules rules, uint n, __global float4* new_velocity) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = position[i];
  const float reach2 = boids_reach2(rules);
  BoidsSums sums = boids_sums_zero();
  for (uint j = 0; j < n; ++j) {
    const float4 d = boids_offset(p, position[j], rules);
    if (j != i && boids_length2(d) < reach2) boids_accumulate(&sums, d, velocity[j], rules);
  }
  new_velocity[i] = boids_new_velocity(p, velocity[i], sums, rules);
}

// p' = p + v' dt and the walls: position updated in place, the (maybe reflected) velocity
// written to `velocity`.
__kernel void boids_integrate_step(__global float4* position, __global const float4* new_velocity,
                                   BoidsRules rules, uint n, __global float4* velocity) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float4 p = position[i];
  float4 v = new_velocity[i];
  boids_integrate(&p, &v, rules);
  position[i] = p;
  velocity[i] = v;
}

// The seeded initial state, as boids_initial_state defines it (the host computes the same).
__kernel void boids_init(ulong seed, BoidsRules rules, uint n, __global float4* position,
                         __global float4* velocity, __global uint* id) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float4 p, v;
  boids_initial_state(seed, i, rules, &p, &v);
  position[i] = p;
  velocity[i] = v;
  id[i] = i;
}

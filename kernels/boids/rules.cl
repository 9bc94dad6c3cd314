// The rules: each boid gathers its neighbours from the old state and writes its new velocity
// (steering and speed clamp from shared/boids.h); integrate then moves it. Neighbours are
// visited in a fixed order (cells z, y, x ascending from the lowest searched; boids in sorted
// order within a cell), so results are bit-for-bit reproducible on one device.
#include "shared/boids.h"

// The first searched cell along one axis, and how many: 3 around the cell, or 2 toward the
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

__kernel void boids_rules_grid(__global const float4* position, __global const float4* velocity,
                               __global const uint* cell_start, __global const uint* cell_end,
                               BoidsRules rules, BoidsGrid grid, uint n,
                               __global float4* new_velocity) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = position[i];
  const int side = grid.cells_per_axis;
  float fx, fy, fz;
  const int x0 = boids_search_start(boids_cell_axis(p.x, rules, grid, &fx), fx, grid);
  const int y0 = boids_search_start(boids_cell_axis(p.y, rules, grid, &fy), fy, grid);
  int z0 = 0;
  int z_count = 1;
  if (rules.dims == 3) {
    z0 = boids_search_start(boids_cell_axis(p.z, rules, grid, &fz), fz, grid);
    z_count = grid.search_cells;
  }
  BoidsSums sums = boids_sums_zero();
  for (int dz = 0; dz < z_count; ++dz) {
    const int z = rules.dims == 3 ? boids_search_cell(z0 + dz, side, rules.wrap) : 0;
    if (z < 0) continue;
    for (int dy = 0; dy < grid.search_cells; ++dy) {
      const int y = boids_search_cell(y0 + dy, side, rules.wrap);
      if (y < 0) continue;
      for (int dx = 0; dx < grid.search_cells; ++dx) {
        const int x = boids_search_cell(x0 + dx, side, rules.wrap);
        if (x < 0) continue;
        const uint cell = (uint)x + (uint)side * ((uint)y + (uint)side * (uint)z);
        const uint end = cell_end[cell];
        for (uint j = cell_start[cell]; j < end; ++j) {
          if (j == i) continue;
          boids_accumulate(&sums, boids_offset(p, position[j], rules), velocity[j], rules);
        }
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
  BoidsSums sums = boids_sums_zero();
  for (uint j = 0; j < n; ++j) {
    if (j == i) continue;
    boids_accumulate(&sums, boids_offset(p, position[j], rules), velocity[j], rules);
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

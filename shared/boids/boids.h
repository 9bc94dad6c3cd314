// The boids model (issue 6), written once for the host reference and the kernels: the rule
// parameters, the grid's geometry, the per-pair accumulation, the velocity and position update,
// the grid cell of a position and the seeded initial state.
//
// Positions and velocities are float4 with w = 0; in 2D z is 0 as well, and the 3-component
// arithmetic below keeps it 0 (offsets, sums and wrapping of a zero component stay zero).
#ifndef SHARED_BOIDS_H
#define SHARED_BOIDS_H

#include "shared/cl_types.h"
#include "shared/random.h"

#if defined(__OPENCL_VERSION__)
// No fused multiply-adds: the host reference rounds every product, so should the device.
#pragma OPENCL FP_CONTRACT OFF
#define BOIDS_SQRT(x) sqrt(x)
#define BOIDS_FABS(x) fabs(x)
#else
#include <math.h>
#define BOIDS_SQRT(x) sqrtf(x)
#define BOIDS_FABS(x) fabsf(x)
#endif

// The rules, changeable between steps without rebuilding anything.
typedef struct BoidsRules {
  cl_float4 goal;              // the point boids steer toward when goal_weight != 0
  cl_float cohesion_radius;    // r_c
  cl_float separation_radius;  // r_s
  cl_float alignment_radius;   // r_a
  cl_float cohesion_weight;    // w_c
  cl_float separation_weight;  // w_s
  cl_float alignment_weight;   // w_a
  cl_float goal_weight;        // w_g
  cl_float max_speed;
  cl_float dt;
  cl_float half_width;  // L: space is [-L, L)^d
  cl_int dims;          // 2 or 3
  cl_int wrap;          // 1: periodic, nearest-image distances; 0: reflecting walls
} BoidsRules;
CLF_SHARED_STRUCT(BoidsRules)
#define BOIDS_RULES_FIELDS(FIELD) \
  FIELD(goal)                     \
  FIELD(cohesion_radius)          \
  FIELD(separation_radius)        \
  FIELD(alignment_radius)         \
  FIELD(cohesion_weight)          \
  FIELD(separation_weight)        \
  FIELD(alignment_weight)         \
  FIELD(goal_weight) FIELD(max_speed) FIELD(dt) FIELD(half_width) FIELD(dims) FIELD(wrap)

// The uniform neighbour grid: cells_per_axis^dims cells of width 2L / cells_per_axis, keyed
// x + G (y + G z). search_cells per axis are visited: 3 (the cell and both neighbours; cells at
// least 1x the largest radius wide) or 2 (the cell and the neighbour on the boid's side; cells at
// least 2x the largest radius wide).
typedef struct BoidsGrid {
  cl_int cells_per_axis;
  cl_int search_cells;
  cl_float cells_per_unit;  // G / 2L
  cl_uint cell_count;
} BoidsGrid;
CLF_SHARED_STRUCT(BoidsGrid)
#define BOIDS_GRID_FIELDS(FIELD) \
  FIELD(cells_per_axis) FIELD(search_cells) FIELD(cells_per_unit) FIELD(cell_count)

// What one boid gathers from its neighbours before its velocity is updated.
typedef struct BoidsSums {
  cl_float4 cohesion_offset;     // sum of offsets p_j - p_i within r_c
  cl_float4 separation_offset;   // sum of offsets p_j - p_i within r_s
  cl_float4 alignment_velocity;  // sum of v_j within r_a
  cl_int cohesion_count;
  cl_int alignment_count;
} BoidsSums;
CLF_SHARED_STRUCT(BoidsSums)
#define BOIDS_SUMS_FIELDS(FIELD) \
  FIELD(cohesion_offset)         \
  FIELD(separation_offset) FIELD(alignment_velocity) FIELD(cohesion_count) FIELD(alignment_count)

CLF_FUNCTION BoidsSums boids_sums_zero(void) {
  BoidsSums s;
  s.cohesion_offset.x = s.cohesion_offset.y = s.cohesion_offset.z = s.cohesion_offset.w = 0.0f;
  s.separation_offset = s.cohesion_offset;
  s.alignment_velocity = s.cohesion_offset;
  s.cohesion_count = 0;
  s.alignment_count = 0;
  return s;
}

// One component of the offset from a to b: the nearest image in wrap mode. Positions lie in
// [-L, L), so b - a lies in (-2L, 2L) and one correction suffices.
CLF_FUNCTION cl_float boids_axis_offset(cl_float a, cl_float b, BoidsRules r) {
  cl_float d = b - a;
  if (r.wrap) {
    if (d > r.half_width) {
      d -= 2.0f * r.half_width;
    } else if (d < -r.half_width) {
      d += 2.0f * r.half_width;
    }
  }
  return d;
}

CLF_FUNCTION cl_float4 boids_offset(cl_float4 from, cl_float4 to, BoidsRules r) {
  cl_float4 d;
  d.x = boids_axis_offset(from.x, to.x, r);
  d.y = boids_axis_offset(from.y, to.y, r);
  d.z = boids_axis_offset(from.z, to.z, r);
  d.w = 0.0f;
  return d;
}

// The largest radius squared: pairs at least this far apart add nothing (kernels skip loading
// their velocities; the sums are the same either way, since adding d * 0 changes nothing).
CLF_FUNCTION cl_float boids_reach2(BoidsRules r) {
  cl_float reach = r.cohesion_radius;
  if (r.separation_radius > reach) reach = r.separation_radius;
  if (r.alignment_radius > reach) reach = r.alignment_radius;
  return reach * reach;
}

CLF_FUNCTION cl_float boids_length2(cl_float4 d) { return d.x * d.x + d.y * d.y + d.z * d.z; }

// Adds neighbour j (offset d = p_j - p_i, velocity v_j) to boid i's sums. "Within r" means
// strictly closer than r, so a radius of 0 sees no one. Branch-free (adding d * 0 leaves a sum
// unchanged), which CPU vectorisers and GPUs both prefer.
CLF_FUNCTION void boids_accumulate(BoidsSums* s, cl_float4 d, cl_float4 vj, BoidsRules r) {
  const cl_float d2 = boids_length2(d);
  const cl_int in_c = d2 < r.cohesion_radius * r.cohesion_radius ? 1 : 0;
  const cl_int in_s = d2 < r.separation_radius * r.separation_radius ? 1 : 0;
  const cl_int in_a = d2 < r.alignment_radius * r.alignment_radius ? 1 : 0;
  const cl_float c = (cl_float)in_c, sep = (cl_float)in_s, a = (cl_float)in_a;
  s->cohesion_offset.x += d.x * c;
  s->cohesion_offset.y += d.y * c;
  s->cohesion_offset.z += d.z * c;
  s->cohesion_count += in_c;
  s->separation_offset.x += d.x * sep;
  s->separation_offset.y += d.y * sep;
  s->separation_offset.z += d.z * sep;
  s->alignment_velocity.x += vj.x * a;
  s->alignment_velocity.y += vj.y * a;
  s->alignment_velocity.z += vj.z * a;
  s->alignment_count += in_a;
}

// +-1 for an infinite x, else 0: the direction of a vector with infinite components.
CLF_FUNCTION cl_float boids_infinite_sign(cl_float x) {
  return x == INFINITY ? 1.0f : (x == -INFINITY ? -1.0f : 0.0f);
}

// v scaled down to length max_speed if longer, in its direction. The length is taken over the
// largest component first, so no square overflows (x^2 + y^2 + z^2 is infinite from about
// 1.8e19: the scale became 0, the boid stopped, and an infinite component times 0 made NaN);
// infinite components give their signs' direction.
CLF_FUNCTION cl_float4 boids_limit_speed(cl_float4 v, cl_float max_speed) {
  if (v.x != v.x || v.y != v.y || v.z != v.z) return v;  // NaN: the state checks refuse it
  cl_float largest = BOIDS_FABS(v.x);
  if (BOIDS_FABS(v.y) > largest) largest = BOIDS_FABS(v.y);
  if (BOIDS_FABS(v.z) > largest) largest = BOIDS_FABS(v.z);
  if (largest == 0.0f) return v;
  cl_float4 unit;  // v / largest: components in [-1, 1], the largest +-1
  if (largest == INFINITY) {
    unit.x = boids_infinite_sign(v.x);
    unit.y = boids_infinite_sign(v.y);
    unit.z = boids_infinite_sign(v.z);
  } else {
    unit.x = v.x / largest;
    unit.y = v.y / largest;
    unit.z = v.z / largest;
  }
  const cl_float length = BOIDS_SQRT(unit.x * unit.x + unit.y * unit.y + unit.z * unit.z);
  // |v| = largest * length (length in [1, sqrt 3]); a product overflowing to inf is longer.
  if (largest * length > max_speed) {
    const cl_float scale = max_speed / length;
    v.x = unit.x * scale;
    v.y = unit.y * scale;
    v.z = unit.z * scale;
  }
  return v;
}

// v' = v + cohesion + separation + alignment + goal, scaled down to max_speed if longer.
// cohesion = w_c (mean p_j - p_i) = w_c (sum of offsets / count); separation = w_s sum (p_i - p_j).
CLF_FUNCTION cl_float4 boids_new_velocity(cl_float4 p, cl_float4 v, BoidsSums s, BoidsRules r) {
  cl_float4 out = v;
  if (s.cohesion_count > 0) {
    const cl_float count = (cl_float)s.cohesion_count;
    out.x += r.cohesion_weight * (s.cohesion_offset.x / count);
    out.y += r.cohesion_weight * (s.cohesion_offset.y / count);
    out.z += r.cohesion_weight * (s.cohesion_offset.z / count);
  }
  out.x -= r.separation_weight * s.separation_offset.x;
  out.y -= r.separation_weight * s.separation_offset.y;
  out.z -= r.separation_weight * s.separation_offset.z;
  if (s.alignment_count > 0) {
    const cl_float count = (cl_float)s.alignment_count;
    out.x += r.alignment_weight * (s.alignment_velocity.x / count);
    out.y += r.alignment_weight * (s.alignment_velocity.y / count);
    out.z += r.alignment_weight * (s.alignment_velocity.z / count);
  }
  if (r.goal_weight != 0.0f) {
    // Straight toward the goal point (not through the wrap).
    const cl_float gx = r.goal.x - p.x;
    const cl_float gy = r.goal.y - p.y;
    const cl_float gz = r.dims == 3 ? r.goal.z - p.z : 0.0f;
    const cl_float length = BOIDS_SQRT(gx * gx + gy * gy + gz * gz);
    if (length > 0.0f) {
      out.x += r.goal_weight * (gx / length);
      out.y += r.goal_weight * (gy / length);
      out.z += r.goal_weight * (gz / length);
    }
  }
  out = boids_limit_speed(out, r.max_speed);
  out.w = 0.0f;
  return out;
}

// Keeps one coordinate in the box after a move of at most L (Simulation checks max_speed dt
// <= L). Wrap: [-L, L), exact (Sterbenz). Bounded: reflected off the wall, velocity reversed.
CLF_FUNCTION void boids_confine_axis(cl_float* p, cl_float* v, BoidsRules r) {
  const cl_float L = r.half_width;
  if (r.wrap) {
    if (*p >= L) {
      *p -= 2.0f * L;
    } else if (*p < -L) {
      *p += 2.0f * L;
    }
  } else {
    if (*p > L) {
      *p = 2.0f * L - *p;
      *v = -*v;
    } else if (*p < -L) {
      *p = -2.0f * L - *p;
      *v = -*v;
    }
  }
}

// p' = p + v' dt, then back into the box. (OpenCL C cannot take a vector element's address,
// hence the scalar copies.)
CLF_FUNCTION void boids_integrate(cl_float4* p, cl_float4* v, BoidsRules r) {
  cl_float4 u = *v;
  cl_float x = p->x + u.x * r.dt, y = p->y + u.y * r.dt, z = p->z + u.z * r.dt;
  cl_float vx = u.x, vy = u.y, vz = u.z;
  boids_confine_axis(&x, &vx, r);
  boids_confine_axis(&y, &vy, r);
  if (r.dims == 3) boids_confine_axis(&z, &vz, r);
  p->x = x;
  p->y = y;
  p->z = z;
  v->x = vx;
  v->y = vy;
  v->z = vz;
}

// The grid cell along one axis of coordinate x, clamped into [0, G) (bounded mode allows x = L),
// and the position inside the cell in [0, 1) (which half decides the 2-cell search).
CLF_FUNCTION cl_int boids_cell_axis(cl_float x, BoidsRules r, BoidsGrid g, cl_float* fraction) {
  cl_float scaled = (x + r.half_width) * g.cells_per_unit;
  if (!(scaled > 0.0f)) scaled = 0.0f;  // also maps NaN to 0, keeping keys in range
  // And infinity (a state gone non-finite) to G: converting it to an int is undefined.
  if (scaled > (cl_float)g.cells_per_axis) scaled = (cl_float)g.cells_per_axis;
  cl_int cell = (cl_int)scaled;
  if (cell > g.cells_per_axis - 1) cell = g.cells_per_axis - 1;
  *fraction = scaled - (cl_float)cell;
  return cell;
}

CLF_FUNCTION cl_uint boids_cell_key(cl_float4 p, BoidsRules r, BoidsGrid g) {
  cl_float fraction;
  const cl_uint cx = (cl_uint)boids_cell_axis(p.x, r, g, &fraction);
  const cl_uint cy = (cl_uint)boids_cell_axis(p.y, r, g, &fraction);
  const cl_uint cz = r.dims == 3 ? (cl_uint)boids_cell_axis(p.z, r, g, &fraction) : 0u;
  const cl_uint side = (cl_uint)g.cells_per_axis;
  return cx + side * (cy + side * cz);
}

// Boid `index`'s initial state under `seed`: Philox stream `index`, numbers drawn in the order
// position x, y[, z], velocity x, y[, z]; each u in [0, 1) becomes 2u - 1 in [-1, 1) (exact).
// Positions are that times L (uniform over the box), velocities that as is.
CLF_FUNCTION void boids_initial_state(cl_ulong seed, cl_uint index, BoidsRules r,
                                      cl_float4* position, cl_float4* velocity) {
  PhiloxState rng = philox_init(seed, index);
  cl_float4 p;
  cl_float4 v;
  p.x = r.half_width * (2.0f * philox_next_float(&rng) - 1.0f);
  p.y = r.half_width * (2.0f * philox_next_float(&rng) - 1.0f);
  p.z = r.dims == 3 ? r.half_width * (2.0f * philox_next_float(&rng) - 1.0f) : 0.0f;
  p.w = 0.0f;
  v.x = 2.0f * philox_next_float(&rng) - 1.0f;
  v.y = 2.0f * philox_next_float(&rng) - 1.0f;
  v.z = r.dims == 3 ? 2.0f * philox_next_float(&rng) - 1.0f : 0.0f;
  v.w = 0.0f;
  *position = p;
  *velocity = v;
}

// How a frame is drawn: 2D maps the box onto the image; 3D rotates (right, up, forward are the
// camera's axes in world space) and projects with perspective from `distance` in front of the
// box's centre, `focal` pixels per unit at unit depth.
typedef struct BoidsView {
  cl_float4 right;
  cl_float4 up;
  cl_float4 forward;
  cl_float distance;
  cl_float focal;
  cl_int width;
  cl_int height;
  cl_int point_radius;  // each boid is a (2 r + 1)^2-pixel square
} BoidsView;
CLF_SHARED_STRUCT(BoidsView)
#define BOIDS_VIEW_FIELDS(FIELD) \
  FIELD(right)                   \
  FIELD(up)                      \
  FIELD(forward) FIELD(distance) FIELD(focal) FIELD(width) FIELD(height) FIELD(point_radius)

#endif  // SHARED_BOIDS_H

// The boids' shared structs for the layout check (shared/struct_layouts.h says how).
#ifndef SHARED_BOIDS_STRUCT_LAYOUTS_H
#define SHARED_BOIDS_STRUCT_LAYOUTS_H

#include "shared/boids/boids.h"

#define BOIDS_STRUCTS(STRUCT)            \
  STRUCT(BoidsRules, BOIDS_RULES_FIELDS) \
  STRUCT(BoidsGrid, BOIDS_GRID_FIELDS)   \
  STRUCT(BoidsSums, BOIDS_SUMS_FIELDS)   \
  STRUCT(BoidsView, BOIDS_VIEW_FIELDS)

#endif  // SHARED_BOIDS_STRUCT_LAYOUTS_H

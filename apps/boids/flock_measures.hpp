// What a flock looks like at the end of a run, in a few numbers a parameter sweep can compare:
// how aligned it is, how fast it flies, how crowded it is and into how many groups it fell.
// Computed on the host, on all its cores in fixed pieces added in a fixed order, so the same
// state gives the same numbers whatever device produced it and however many threads ran them.
#pragma once

#include <cstddef>

#include "apps/boids/simulation.hpp"

namespace boids {

struct FlockMeasures {
  // |mean of the unit headings v/|v||: 1 when all fly the same way, about 1/sqrt(N) when random.
  double polarisation = 0.0;
  double mean_speed = 0.0;
  // Other boids within `radius` (distance strictly less), averaged over all boids.
  double mean_neighbours = 0.0;
  // Distance to the nearest other boid, averaged over the boids that have one within `radius`
  // (NaN when none has).
  double mean_nearest_distance = 0.0;
  // The fraction of boids with no other boid within `radius`.
  double isolated_fraction = 0.0;
  // Connected groups when boids closer than `radius` are linked (an isolated boid is a group).
  std::size_t groups = 0;
};

// Distances are those of the model: nearest image in wrap mode, plain in a bounded box. Runs a
// cell grid on the host: O(N + pairs within radius).
FlockMeasures measure_flock(const State& state, const BoidsRules& rules, float radius);

// The radius the sweep measures with: the largest of the three rule radii (the interaction range).
float interaction_radius(const BoidsRules& rules);

}  // namespace boids

// The neighbour grid against brute force on the device, and its determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <tuple>

#include "apps/boids/simulation.hpp"
#include "test_support.hpp"

namespace {

struct GridCase {
  int dims;
  int wrap;
  int cell_width;
  std::size_t n;
  float half_width = 0.0f;  // 0: a density with tens of neighbours per boid
};

std::string case_name(const testing::TestParamInfo<GridCase>& info) {
  const GridCase& c = info.param;
  return std::to_string(c.dims) + "D_" + (c.wrap ? "wrap" : "bounded") + "_width" +
         std::to_string(c.cell_width) + "_n" + std::to_string(c.n) +
         (c.half_width > 0.0f ? "_small_box" : "");
}

class BoidsGridVsBrute : public testing::TestWithParam<GridCase> {};

// One step from the same seeded state: every velocity within 1e-5 relative.
TEST_P(BoidsGridVsBrute, OneStepGivesTheSameVelocities) {
  const GridCase& c = GetParam();
  BoidsRules rules = boids::default_rules(c.dims);
  rules.wrap = c.wrap;
  // Denser than the default so that boids have tens of neighbours: 0.1 per unit volume in 3D,
  // 0.5 per unit area in 2D.
  rules.half_width = c.dims == 3 ? boids::half_width_for_density(c.n, 3, 0.1, 1.0)
                                 : boids::half_width_for_density(c.n, 2, 0.5, 1.0);
  if (c.half_width > 0.0f) rules.half_width = c.half_width;
  clf::Runtime& runtime = clf_test::runtime();
  boids::Simulation grid(runtime, rules, c.n, 11, boids::Method{false, c.cell_width});
  boids::Simulation brute(runtime, rules, c.n, 11, boids::Method{true, 1});
  const boids::State before = brute.state();
  grid.step();
  brute.step();
  const boids::State g = grid.state();
  const boids::State b = brute.state();
  ASSERT_EQ(g.size(), c.n);
  int failures = 0;
  std::size_t changed = 0;
  for (std::size_t i = 0; i < c.n && failures < 5; ++i) {
    const double dx = g.velocity[i].x - b.velocity[i].x, dy = g.velocity[i].y - b.velocity[i].y,
                 dz = g.velocity[i].z - b.velocity[i].z;
    const double speed = std::sqrt(double(b.velocity[i].x) * b.velocity[i].x +
                                   double(b.velocity[i].y) * b.velocity[i].y +
                                   double(b.velocity[i].z) * b.velocity[i].z);
    if (std::sqrt(dx * dx + dy * dy + dz * dz) > 1e-5 * speed) {
      ADD_FAILURE() << "boid " << i << ": grid (" << g.velocity[i].x << ", " << g.velocity[i].y
                    << ", " << g.velocity[i].z << ") vs brute (" << b.velocity[i].x << ", "
                    << b.velocity[i].y << ", " << b.velocity[i].z << ")";
      ++failures;
    }
    // Speeds of the initial state are up to sqrt(d) and get clamped to 1; count boids whose
    // velocity changed by more than the clamp alone would do, i.e. that had neighbours.
    const float bx = before.velocity[i].x, by = before.velocity[i].y;
    const float scale =
        1.0f /
        std::max(1.0f, std::sqrt(bx * bx + by * by + before.velocity[i].z * before.velocity[i].z));
    if (std::fabs(b.velocity[i].x - bx * scale) > 1e-3f) ++changed;
  }
  // The test means something only if most boids had neighbours.
  EXPECT_GT(changed, c.n / 2);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BoidsGridVsBrute,
    testing::Values(GridCase{2, 1, 1, 20000}, GridCase{3, 1, 1, 20000}, GridCase{2, 1, 2, 5000},
                    GridCase{3, 1, 2, 5000}, GridCase{2, 0, 1, 5000}, GridCase{3, 0, 1, 5000},
                    GridCase{2, 0, 2, 5000}, GridCase{3, 0, 2, 20000},
                    // The fewest cells the wrap allows (3, resp. 2, per axis): every boid's
                    // search wraps, and each cell must still be visited once.
                    GridCase{3, 1, 1, 3000, 8.0f}, GridCase{2, 1, 2, 300, 10.5f},
                    // Bounded boxes narrower than a radius: one cell holding every boid.
                    GridCase{2, 0, 1, 300, 2.0f}, GridCase{3, 0, 2, 300, 2.0f}),
    case_name);

TEST(BoidsGrid, SameSeedGivesBitIdenticalRuns) {
  BoidsRules rules = boids::default_rules(3);
  rules.half_width = boids::half_width_for_density(20000, 3, 0.1, 1.0);
  auto run = [&] {
    boids::Simulation simulation(clf_test::runtime(), rules, 20000, 3, boids::Method{false, 1});
    for (int step = 0; step < 5; ++step) simulation.step();
    return simulation.state();
  };
  const boids::State first = run();
  const boids::State second = run();
  EXPECT_EQ(
      std::memcmp(first.position.data(), second.position.data(), first.size() * sizeof(cl_float4)),
      0);
  EXPECT_EQ(
      std::memcmp(first.velocity.data(), second.velocity.data(), first.size() * sizeof(cl_float4)),
      0);
}

// Both ways of finding cell ranges give the same array, hence bit-identical steps.
TEST(BoidsGrid, FillAndScanRangesGiveIdenticalSteps) {
  for (int dims : {2, 3}) {
    BoidsRules rules = boids::default_rules(dims);
    rules.half_width = boids::half_width_for_density(8000, dims);  // the default: sparse cells
    auto run = [&](boids::CellRanges ranges) {
      boids::Simulation simulation(clf_test::runtime(), rules, 8000, 4,
                                   boids::Method{false, 1, ranges});
      EXPECT_EQ(simulation.cell_ranges(), ranges);
      for (int step = 0; step < 3; ++step) simulation.step();
      return simulation.state();
    };
    const boids::State fill = run(boids::CellRanges::fill);
    const boids::State scan = run(boids::CellRanges::scan);
    EXPECT_EQ(
        std::memcmp(fill.velocity.data(), scan.velocity.data(), fill.size() * sizeof(cl_float4)), 0)
        << dims << "D";
  }
}

TEST(BoidsGrid, LayoutFollowsTheRadiusAndCellWidth) {
  BoidsRules rules = boids::default_rules(3);
  rules.half_width = 50.0f;  // 100 wide, largest radius 5
  const BoidsGrid one = boids::make_grid(rules, 1, 1ull << 40);
  EXPECT_EQ(one.cells_per_axis, 19);  // 100 / (5 + margin) = 19.99..
  EXPECT_EQ(one.search_cells, 3);
  EXPECT_EQ(one.cell_count, 19u * 19u * 19u);
  const BoidsGrid two = boids::make_grid(rules, 2, 1ull << 40);
  EXPECT_EQ(two.cells_per_axis, 9);
  EXPECT_EQ(two.search_cells, 2);
  // Cells are widened to fit a cell budget.
  EXPECT_LE(boids::make_grid(rules, 1, 1000).cell_count, 1000u);
  // Too small a box for the wrap-around search is refused, naming the option.
  rules.half_width = 7.0f;  // 14 wide: 2 cells of width 5
  EXPECT_CLF_ERROR(boids::make_grid(rules, 1, 1ull << 40), "box is too small", "--box", "needs 3");
  rules.wrap = 0;  // bounded boxes need no wrap-around neighbours
  EXPECT_EQ(boids::make_grid(rules, 1, 1ull << 40).cells_per_axis, 2);
  rules.half_width = 2.0f;  // narrower than a radius: one cell, every boid searched
  EXPECT_EQ(boids::make_grid(rules, 2, 1ull << 40).cells_per_axis, 1);
}

// Only the remedies that apply are suggested, with the smallest --box that works; the default
// box of few boids is that smallest box (the default density's was too small: run --n 20).
TEST(BoidsGrid, ASmallBoxSuggestsWhatWouldFitIt) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 6.0f;
  try {
    boids::make_grid(rules, 1, 1ull << 40);
    ADD_FAILURE() << "a box 12 wide for radius 5 was taken";
  } catch (const clf::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("Use --box 7.50732 or more, smaller radii, --bounded or --brute"),
              std::string::npos)
        << message;
  }
  rules.half_width = 8.0f;  // 16 wide: 3 cells of width 5, but not 2 of width 10
  EXPECT_CLF_ERROR(boids::make_grid(rules, 2, 1ull << 40),
                   "Use --box 10.0098 or more, --cell-width 1,");
  rules.half_width = 7.50732f;
  EXPECT_EQ(boids::make_grid(rules, 1, 1ull << 40).cells_per_axis, 3);
  rules.half_width = 10.0098f;
  EXPECT_EQ(boids::make_grid(rules, 2, 1ull << 40).cells_per_axis, 2);

  // The smallest default box takes either cell width's grid.
  for (float radius : {0.5f, 3.0f, 5.0f, 40.0f, 1000.0f}) {
    rules.cohesion_radius = rules.separation_radius = rules.alignment_radius = radius;
    rules.half_width = boids::smallest_default_half_width(rules);
    for (int width : {1, 2}) {
      EXPECT_NO_THROW(boids::make_grid(rules, width, 1ull << 40)) << radius << ", " << width;
    }
  }
}

}  // namespace

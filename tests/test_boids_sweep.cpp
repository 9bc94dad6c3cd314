// cl-boids sweep: the flock measures against a brute-force count, the grid of runs and its
// errors, and runs spread over two runtimes giving what one runtime gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "apps/boids/flock_measures.hpp"
#include "apps/boids/sweep.hpp"
#include "test_support.hpp"

namespace {

// O(N^2): every pair, nearest image through boids_offset, groups by repeated relabelling.
boids::FlockMeasures brute_force_measures(const boids::State& state, const BoidsRules& rules,
                                          float radius) {
  const std::size_t n = state.size();
  boids::FlockMeasures m;
  std::vector<std::size_t> label(n);
  std::iota(label.begin(), label.end(), std::size_t{0});
  std::size_t pairs = 0, with_neighbour = 0;
  double nearest_sum = 0.0;
  std::vector<std::pair<std::size_t, std::size_t>> links;
  for (std::size_t i = 0; i < n; ++i) {
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const cl_float4 d = boids_offset(state.position[i], state.position[j], rules);
      const double distance = std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z);
      if (distance >= radius) continue;
      ++pairs;
      nearest = std::min(nearest, distance);
      links.emplace_back(i, j);
    }
    if (nearest < radius) ++with_neighbour, nearest_sum += nearest;
  }
  for (bool changed = true; changed;) {  // labels flow to the smallest index of each group
    changed = false;
    for (auto [a, b] : links) {
      const std::size_t low = std::min(label[a], label[b]);
      if (label[a] != low || label[b] != low) label[a] = label[b] = low, changed = true;
    }
  }
  for (std::size_t i = 0; i < n; ++i) m.groups += label[i] == i ? 1 : 0;
  m.mean_neighbours = double(pairs) / n;
  m.mean_nearest_distance = nearest_sum / with_neighbour;
  m.isolated_fraction = double(n - with_neighbour) / n;
  return m;
}

TEST(BoidsFlockMeasures, AgreeWithBruteForceInEveryBoxKind) {
  for (int dims : {2, 3}) {
    for (int wrap : {1, 0}) {
      BoidsRules rules = boids::default_rules(dims);
      rules.wrap = wrap;
      rules.half_width = dims == 2 ? 40.0f : 14.0f;  // a few neighbours each, some alone
      const boids::State state = boids::reference_initial_state(700, 5, rules);
      for (float radius : {3.0f, 5.0f, 30.0f}) {  // 30: one or two cells per axis
        SCOPED_TRACE("dims " + std::to_string(dims) + " wrap " + std::to_string(wrap) + " radius " +
                     std::to_string(radius));
        const boids::FlockMeasures grid = boids::measure_flock(state, rules, radius);
        const boids::FlockMeasures brute = brute_force_measures(state, rules, radius);
        EXPECT_EQ(grid.groups, brute.groups);
        EXPECT_DOUBLE_EQ(grid.mean_neighbours, brute.mean_neighbours);
        EXPECT_NEAR(grid.mean_nearest_distance, brute.mean_nearest_distance, 1e-9);
        EXPECT_DOUBLE_EQ(grid.isolated_fraction, brute.isolated_fraction);
        EXPECT_GT(brute.mean_neighbours, 0.0);
      }
    }
  }
}

TEST(BoidsFlockMeasures, AlignedFlocksAndSeparateGroups) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 50.0f;
  boids::State state;
  // Two groups of three at opposite corners, linked only through the wrap within each group.
  for (float x : {-49.5f, 49.0f, 48.0f, 10.0f, 11.0f, 12.0f}) {
    state.position.push_back({{x, x > 0.0f && x < 20.0f ? 0.0f : 5.0f, 0.0f, 0.0f}});
    state.velocity.push_back({{0.6f, 0.8f, 0.0f, 0.0f}});  // all speed 1, the same heading
  }
  const boids::FlockMeasures m = boids::measure_flock(state, rules, 1.6f);
  EXPECT_DOUBLE_EQ(m.polarisation, 1.0);
  EXPECT_NEAR(m.mean_speed, 1.0, 1e-7);
  EXPECT_EQ(m.groups, 2u);  // {-49.5, 49, 48} through the wrap, {10, 11, 12}
  EXPECT_DOUBLE_EQ(m.isolated_fraction, 0.0);
  state.velocity[0] = {{-0.6f, -0.8f, 0.0f, 0.0f}};  // one turned round: 4/6 net
  state.velocity[1] = {{0.0f, 0.0f, 0.0f, 0.0f}};    // one at rest: no heading
  EXPECT_NEAR(boids::measure_flock(state, rules, 0.5f).polarisation, 3.0 / 6.0, 1e-7);
  EXPECT_EQ(boids::measure_flock(state, rules, 0.5f).groups, 6u);
  EXPECT_TRUE(std::isnan(boids::measure_flock(state, rules, 0.5f).mean_nearest_distance));
  EXPECT_EQ(boids::measure_flock(state, rules, 0.0f).groups, 6u);
}

// A flock large enough for the neighbour pass to run on several threads (where the machine has
// them): 500 chains of 100 boids one unit apart, each chain far from the others, in the boids'
// order shuffled. Every chain is one group however the threads' links interleave.
TEST(BoidsFlockMeasures, ChainsOfALargeFlockAreOneGroupEach) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 1000.0f;
  rules.wrap = 0;
  constexpr int kChains = 500, kLength = 100;
  boids::State state;
  std::vector<int> order(kChains * kLength);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  for (int k : order) {
    const float x = -950.0f + static_cast<float>(k % kLength);
    const float y = -950.0f + 4.0f * static_cast<float>(k / kLength);  // chains 4 apart
    state.position.push_back({{x, y, 0.0f, 0.0f}});
    state.velocity.push_back({{1.0f, 0.0f, 0.0f, 0.0f}});
  }
  const boids::FlockMeasures m = boids::measure_flock(state, rules, 1.5f);
  EXPECT_EQ(m.groups, static_cast<std::size_t>(kChains));
  EXPECT_DOUBLE_EQ(m.mean_neighbours, (2.0 * (kLength - 2) + 2.0) / kLength);
  EXPECT_DOUBLE_EQ(m.mean_nearest_distance, 1.0);
  EXPECT_DOUBLE_EQ(m.isolated_fraction, 0.0);
  const boids::FlockMeasures again = boids::measure_flock(state, rules, 1.5f);
  EXPECT_EQ(again.groups, m.groups);
  EXPECT_EQ(again.mean_nearest_distance, m.mean_nearest_distance);
}

TEST(BoidsSweepPlan, ListsAndRangesExpandInOrder) {
  EXPECT_EQ(boids::parse_whole_numbers("1-3,7,10-11", "--seeds"),
            (std::vector<std::uint64_t>{1, 2, 3, 7, 10, 11}));
  EXPECT_EQ(boids::parse_numbers("0.5,1,2", "--set rs"), (std::vector<double>{0.5, 1, 2}));
  const std::vector<double> range = boids::parse_numbers("0.1:0.3:0.1", "--set ws");
  ASSERT_EQ(range.size(), 3u);
  EXPECT_NEAR(range[2], 0.3, 1e-12);

  boids::SweepOptions options;
  options.counts = "300,400";
  options.dims = "2,3";
  options.seeds = "4-5";
  options.sets = {"separation-radius=1,2", "wa=0.05:0.15:0.05"};
  options.base.ws = 0.25f;
  const boids::SweepPlan plan = boids::make_sweep_plan(options);
  ASSERT_EQ(plan.runs.size(), 2u * 2 * 2 * 3 * 2);
  // Seeds fastest, then the last --set, the first --set, dims, count.
  EXPECT_EQ(plan.runs[0].seed, 4u);
  EXPECT_EQ(plan.runs[1].seed, 5u);
  EXPECT_FLOAT_EQ(plan.runs[2].rules.alignment_weight, 0.1f);
  EXPECT_FLOAT_EQ(plan.runs[6].rules.separation_radius, 2.0f);
  EXPECT_EQ(plan.runs[12].rules.dims, 3);
  EXPECT_EQ(plan.runs[24].count, 400u);
  EXPECT_FLOAT_EQ(plan.runs[24].rules.separation_weight, 0.25f);  // the fixed base
  EXPECT_FLOAT_EQ(plan.runs[24].rules.half_width, boids::half_width_for_density(400, 2));
}

TEST(BoidsSweepPlan, BadOptionsAreNamedWithTheirValue) {
  auto plan_with = [](auto change) {
    boids::SweepOptions options;
    change(options);
    return [options] { boids::make_sweep_plan(options); };
  };
  using O = boids::SweepOptions;
  clf_test::expect_error(plan_with([](O& o) { o.counts = "100,abc"; }), "--count '100,abc'");
  clf_test::expect_error(plan_with([](O& o) { o.counts = "0"; }), "--count '0'");
  clf_test::expect_error(plan_with([](O& o) { o.seeds = "8-1"; }), "'8-1' runs backwards");
  clf_test::expect_error(plan_with([](O& o) { o.dims = "2,4"; }), "--dims '2,4': 4 is not 2 or 3");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"separation=1,2"}; }),
                         "separation-radius or separation-weight");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"rs"}; }), "expected NAME=VALUES");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"rs=1,x"}; }), "--set rs '1,x'");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"rs=1", "rs=2"}; }), "already swept");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"ra=2:1:1"}; }), "STOP >= START");
  // A run the model refuses is named with its values and the rule's option.
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"rs=1,-1"}; }), "rs=-1, seed=1): --rs");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"box=5"}; }), "box is too small");
  clf_test::expect_error(plan_with([](O& o) { o.sets = {"box=50,0"}; }),
                         "box=0, seed=1): --box (half width L) must be a finite number > 0, got 0");
}

std::unique_ptr<clf::DeviceSet> runtimes_on_one_device(std::size_t count) {
  std::vector<std::unique_ptr<clf::Runtime>> runtimes;
  for (std::size_t i = 0; i < count; ++i) {
    runtimes.push_back(
        std::make_unique<clf::Runtime>(clf_test::runtime().device(), clf::DeviceRequest{}));
  }
  return std::make_unique<clf::DeviceSet>(std::move(runtimes));
}

// The CSV without the columns that say where and how fast a run went.
std::string outcome_columns(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, kept;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (f == 19 || f == 20 || f == 21) continue;  // device, device_name, steps_per_s
      kept += fields[f] + ",";
    }
    kept += "\n";
  }
  return kept;
}

TEST(BoidsSweep, TwoDevicesGiveWhatOneGivesAndWhatARunGives) {
  boids::SweepOptions options;
  options.counts = "500";
  options.dims = "2,3";
  options.seeds = "1-3";
  options.sets = {"ws=0.05,0.2"};
  options.steps = 6;
  options.base.box = 12.0f;
  const boids::SweepPlan plan = boids::make_sweep_plan(options);
  const std::vector<boids::SweepResult> one = boids::run_sweep(plan, *runtimes_on_one_device(1));
  std::vector<std::size_t> order;
  std::size_t rows_at_first_call = 0;
  const std::vector<boids::SweepResult> two =
      boids::run_sweep(plan, *runtimes_on_one_device(2),
                       [&](std::size_t done, const std::vector<boids::SweepResult>& so_far) {
                         order.push_back(done);
                         if (done == 1) {
                           const std::string csv = boids::sweep_csv(plan, so_far);
                           rows_at_first_call = std::count(csv.begin(), csv.end(), '\n') - 1;
                         }
                       });
  EXPECT_EQ(rows_at_first_call, 1u);  // a checkpoint holds the finished runs alone
  ASSERT_EQ(order.size(), plan.runs.size());
  EXPECT_EQ(order.back(), plan.runs.size());  // the progress counts every run once
  const std::string one_csv = boids::sweep_csv(plan, one);
  EXPECT_EQ(outcome_columns(one_csv), outcome_columns(boids::sweep_csv(plan, two)));
  for (const boids::SweepResult& r : two) EXPECT_LT(r.device, 2u);

  // Run 5 (dims 2, ws 0.2, seed 2) by hand: the same simulation measured the same way.
  const boids::SweepRun& run = plan.runs[4];
  ASSERT_EQ(run.seed, 2u);
  ASSERT_FLOAT_EQ(run.rules.separation_weight, 0.2f);
  boids::Simulation simulation(clf_test::runtime(), run.rules, run.count, run.seed, run.method);
  for (int s = 0; s < 6; ++s) simulation.step();
  const boids::FlockMeasures expected =
      boids::measure_flock(simulation.state(), run.rules, boids::interaction_radius(run.rules));
  EXPECT_EQ(one[4].measures.polarisation, expected.polarisation);
  EXPECT_EQ(one[4].measures.groups, expected.groups);
  EXPECT_EQ(one[4].measures.mean_nearest_distance, expected.mean_nearest_distance);
  // Different separation weights must show in the outcome (the measures see the rules).
  EXPECT_NE(one[0].measures.mean_nearest_distance, one[3].measures.mean_nearest_distance);
}

TEST(BoidsSweep, CommandWritesOneRowPerRunAndASummary) {
  boids::SweepOptions options;
  options.counts = "200";
  options.seeds = "1-4";
  options.steps = 3;
  options.base.box = 20.0f;
  options.csv_file = testing::TempDir() + "boids_sweep/runs.csv";
  std::ostringstream out, log;
  ASSERT_EQ(boids::sweep_command(options, *runtimes_on_one_device(2), out, log), 0);
  std::ifstream csv(options.csv_file);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(csv, line)) ++lines;
  EXPECT_EQ(lines, 5u);
  EXPECT_NE(out.str().find("4 runs of 3 steps on 2 devices"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("runs/s"), std::string::npos);
  EXPECT_NE(log.str().find("4/4 runs"), std::string::npos) << log.str();
}

// A run too large for a device is refused before the first run starts (it failed only when its
// turn came, in a DeviceBuffer, after the runs before it).
TEST(BoidsSweep, ACountTooLargeForADeviceIsRefusedBeforeAnyRun) {
  boids::SweepOptions options;
  options.counts = "200,1099511627776";
  options.steps = 3;
  std::ostringstream out, log;
  clf_test::expect_error_naming(
      [&] { boids::sweep_command(options, *runtimes_on_one_device(2), out, log); },
      {"run 2: --count 1099511627776 is more than device ", " holds ("});
  EXPECT_EQ(log.str().find("1/2 runs"), std::string::npos) << log.str();
}

// The CSV's folder is checked before the first run (it was tried at the end only).
TEST(BoidsSweep, AnUnwritableCsvIsRefusedBeforeAnyRun) {
  boids::SweepOptions options;
  options.counts = "200";
  options.steps = 3;
  options.csv_file = "/proc/sweep.csv";
  std::ostringstream out, log;
  clf_test::expect_error_naming(
      [&] { boids::sweep_command(options, *runtimes_on_one_device(1), out, log); },
      {"--csv /proc/sweep.csv: cannot create a file in /proc"});
  EXPECT_EQ(log.str().find("runs"), std::string::npos) << log.str();
}

}  // namespace

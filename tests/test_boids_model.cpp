// The boids model on the device against the CPU reference (shared/boids/boids.h on both sides).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>

#include "apps/boids/simulation.hpp"
#include "test_support.hpp"

namespace {

// |a - b| <= tolerance * max(|b|, floor), per boid, over x, y, z.
void expect_close(const std::vector<cl_float4>& actual, const std::vector<cl_float4>& expected,
                  double tolerance, double floor, const char* what) {
  ASSERT_EQ(actual.size(), expected.size());
  int failures = 0;
  for (std::size_t i = 0; i < actual.size() && failures < 5; ++i) {
    const double dx = actual[i].x - expected[i].x, dy = actual[i].y - expected[i].y,
                 dz = actual[i].z - expected[i].z;
    const double error = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double size =
        std::sqrt(double(expected[i].x) * expected[i].x + double(expected[i].y) * expected[i].y +
                  double(expected[i].z) * expected[i].z);
    if (error > tolerance * std::max(size, floor)) {
      ADD_FAILURE() << what << " of boid " << i << ": got (" << actual[i].x << ", " << actual[i].y
                    << ", " << actual[i].z << "), expected (" << expected[i].x << ", "
                    << expected[i].y << ", " << expected[i].z << ")";
      ++failures;
    }
  }
}

bool same_bits(const std::vector<cl_float4>& a, const std::vector<cl_float4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(cl_float4)) == 0;
}

TEST(BoidsModel, InitialStateIsTheReferenceBitForBit) {
  for (int dims : {2, 3}) {
    BoidsRules rules = boids::default_rules(dims);
    rules.half_width = boids::half_width_for_density(3000, dims);
    boids::Simulation simulation(clf_test::runtime(), rules, 3000, 42, boids::Method{true, 1});
    const boids::State device = simulation.state();
    const boids::State host = boids::reference_initial_state(3000, 42, rules);
    EXPECT_TRUE(same_bits(device.position, host.position)) << dims << "D positions";
    EXPECT_TRUE(same_bits(device.velocity, host.velocity)) << dims << "D velocities";
    for (const cl_float4& p : host.position) {
      ASSERT_TRUE(p.x >= -rules.half_width && p.x < rules.half_width);
      if (dims == 2) {
        ASSERT_EQ(p.z, 0.0f);
      }
    }
    // Another seed gives another flock.
    EXPECT_FALSE(
        same_bits(boids::reference_initial_state(3000, 43, rules).position, host.position));
  }
}

TEST(BoidsModel, BruteForceStepsMatchTheCpuReference) {
  for (int dims : {2, 3}) {
    for (int wrap : {1, 0}) {
      BoidsRules rules = boids::default_rules(dims);
      rules.wrap = wrap;
      rules.half_width = dims == 2 ? 60.0f : 20.0f;  // dense enough for many neighbours
      rules.goal_weight = 0.05f;
      rules.goal.x = 3.0f;
      rules.goal.y = -2.0f;
      rules.goal.z = dims == 3 ? 1.0f : 0.0f;
      boids::Simulation simulation(clf_test::runtime(), rules, 2000, 7, boids::Method{true, 1});
      boids::State expected = boids::reference_initial_state(2000, 7, rules);
      for (int step = 0; step < 3; ++step) {
        simulation.step();
        expected = boids::reference_step(expected, rules);
      }
      const boids::State actual = simulation.state();
      SCOPED_TRACE(std::to_string(dims) + "D " + (wrap ? "wrap" : "bounded"));
      expect_close(actual.velocity, expected.velocity, 1e-4, 0.1, "velocity");
      expect_close(actual.position, expected.position, 1e-5, rules.half_width, "position");
    }
  }
}

// Two boids 2 apart through the wrap (x = L - 1 and x = -L + 1) see each other: cohesion pulls
// with w_c * 2, separation pushes with w_s * 2, so v_x = +-(0.02 - 0.2). Bounded: 2L - 2 apart,
// no interaction.
TEST(BoidsModel, NeighboursAcrossTheWrapInteract) {
  for (int dims : {2, 3}) {
    for (int wrap : {1, 0}) {
      for (const boids::Method method :
           {boids::Method{true, 1}, boids::Method{false, 1}, boids::Method{false, 2}}) {
        BoidsRules rules = boids::default_rules(dims);
        rules.wrap = wrap;
        rules.half_width = 40.0f;
        boids::State state;
        state.position = {cl_float4{{rules.half_width - 1.0f, 0.5f, dims == 3 ? -0.5f : 0.0f, 0}},
                          cl_float4{{-rules.half_width + 1.0f, 0.5f, dims == 3 ? -0.5f : 0.0f, 0}}};
        state.velocity = {cl_float4{{0, 0, 0, 0}}, cl_float4{{0, 0, 0, 0}}};
        boids::Simulation simulation(clf_test::runtime(), rules, state, method);
        simulation.step();
        const boids::State after = simulation.state();
        const boids::State reference = boids::reference_step(state, rules);
        SCOPED_TRACE(
            std::to_string(dims) + "D " + (wrap ? "wrap" : "bounded") +
            (method.brute ? " brute" : " grid " + std::to_string(method.cell_width_factor)));
        const float expected = wrap ? 0.01f * 2.0f - 0.1f * 2.0f : 0.0f;
        EXPECT_NEAR(after.velocity[0].x, expected, 1e-6);
        EXPECT_NEAR(after.velocity[1].x, -expected, 1e-6);
        EXPECT_NEAR(reference.velocity[0].x, expected, 1e-6);
        EXPECT_EQ(after.velocity[0].y, 0.0f);
        // Boid 0 moved left, away from the wall it is near; positions stay in the box.
        EXPECT_NEAR(after.position[0].x, rules.half_width - 1.0f + expected * rules.dt, 1e-5);
      }
    }
  }
}

TEST(BoidsModel, WrapAndWallsKeepBoidsInTheBox) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 10.0f;
  rules.dt = 1.0f;
  boids::State state;
  state.position = {cl_float4{{9.5f, -9.5f, 0, 0}}};
  state.velocity = {cl_float4{{0.6f, -0.8f, 0, 0}}};  // speed 1, crosses both walls
  for (int wrap : {1, 0}) {
    rules.wrap = wrap;
    boids::Simulation simulation(clf_test::runtime(), rules, state, boids::Method{true, 1});
    simulation.step();
    const boids::State after = simulation.state();
    if (wrap) {
      EXPECT_FLOAT_EQ(after.position[0].x, -9.9f);
      EXPECT_FLOAT_EQ(after.position[0].y, 9.7f);
      EXPECT_FLOAT_EQ(after.velocity[0].x, 0.6f);
    } else {
      EXPECT_FLOAT_EQ(after.position[0].x, 9.9f);  // 10.1 reflected
      EXPECT_FLOAT_EQ(after.position[0].y, -9.7f);
      EXPECT_FLOAT_EQ(after.velocity[0].x, -0.6f);  // into the wall: reversed
      EXPECT_FLOAT_EQ(after.velocity[0].y, 0.8f);
    }
  }
}

// New rules (radii that change the grid, weights, bounded walls) apply on the next step,
// without compiling anything.
TEST(BoidsModel, RuleChangesTakeEffectOnTheNextStep) {
  clf::Runtime& runtime = clf_test::runtime();
  BoidsRules rules = boids::default_rules(3);
  rules.half_width = 25.0f;
  boids::Simulation simulation(runtime, rules, 3000, 5, boids::Method{false, 1});
  simulation.step();
  boids::State expected = simulation.state();
  auto programs_made = [&] {
    const clf::ProgramCacheStats stats = runtime.program_cache_stats();
    return stats.builds + stats.disk_hits;
  };
  const unsigned made = programs_made();
  rules.cohesion_radius = 7.0f;
  rules.separation_weight = 0.3f;
  rules.wrap = 0;
  const int old_cells = simulation.grid().cells_per_axis;
  simulation.set_rules(rules);
  EXPECT_NE(simulation.grid().cells_per_axis, old_cells);
  simulation.step();
  expected = boids::reference_step(expected, rules);
  expect_close(simulation.state().velocity, expected.velocity, 1e-4, 0.1, "velocity");
  EXPECT_EQ(programs_made(), made);
  // A bad value is refused and the old rules stay.
  BoidsRules bad = rules;
  bad.separation_radius = -1.0f;
  EXPECT_CLF_ERROR(simulation.set_rules(bad), "--rs", "-1");
  EXPECT_EQ(simulation.rules().separation_radius, rules.separation_radius);
  BoidsRules other_box = rules;
  other_box.half_width = 30.0f;
  EXPECT_CLF_ERROR(simulation.set_rules(other_box), "--box", "new simulation");
}

double length(const cl_float4& v) {
  return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
}

// Huge weights: the speed limit keeps the velocity's direction at max_speed. The squared speed
// overflowed from about 1.8e19: the boid stopped, or an infinite component times the zero scale
// made NaN (which --dump wrote as -nan).
TEST(BoidsModel, TheSpeedLimitHoldsForHugeVelocities) {
  BoidsRules rules = boids::default_rules(3);
  BoidsSums sums = boids_sums_zero();
  sums.separation_offset.x = 1.0f;  // |(1, 2, -2)| = 3
  sums.separation_offset.y = 2.0f;
  sums.separation_offset.z = -2.0f;
  const cl_float4 origin{};
  for (float weight : {1e20f, 1e30f, 1e38f}) {
    rules.separation_weight = weight;
    const cl_float4 v = boids_new_velocity(origin, origin, sums, rules);
    EXPECT_NEAR(length(v), 1.0, 1e-6) << weight;
    EXPECT_NEAR(v.x, -1.0 / 3, 1e-6) << weight;  // against the offsets
    EXPECT_NEAR(v.y, -2.0 / 3, 1e-6) << weight;
    EXPECT_NEAR(v.z, 2.0 / 3, 1e-6) << weight;
  }
  rules.separation_weight = 3e38f;  // (-3e38, -inf, inf): the direction of the infinite parts
  const cl_float4 v = boids_new_velocity(origin, origin, sums, rules);
  EXPECT_NEAR(length(v), 1.0, 1e-6);
  EXPECT_EQ(v.x, 0.0f);
  EXPECT_NEAR(v.y, -std::sqrt(0.5), 1e-6);
  // A speed too small to square still obeys a limit of 0.
  rules = boids::default_rules(3);
  rules.max_speed = 0.0f;
  cl_float4 slow{};
  slow.x = 1e-25f;
  EXPECT_EQ(boids_new_velocity(origin, slow, boids_sums_zero(), rules).x, 0.0f);

  // On the device: crowded boids keep flying at max_speed, and the state stays finite.
  for (float weight : {1e20f, 3e38f}) {
    rules = boids::default_rules(2);
    rules.half_width = 15.0f;
    rules.separation_weight = weight;
    boids::Simulation simulation(clf_test::runtime(), rules, 400, 3);
    for (int s = 0; s < 3; ++s) simulation.step();
    const boids::State state = simulation.state();
    double speeds = 0.0;
    for (const cl_float4& velocity : state.velocity) speeds += length(velocity);
    EXPECT_GT(speeds / state.size(), 0.9) << weight;
    EXPECT_NO_THROW(boids::validate_state(state, rules)) << weight;
  }
}

// Opposite huge weights overflow the sums themselves (inf - inf = NaN, then infinite
// positions): the state is lost (the dump refuses it) but every key stays inside the grid. An
// infinite coordinate's cell was an undefined float-to-int conversion: key 2^31 and a crash.
TEST(BoidsModel, ANonFiniteStateKeepsItsKeysInTheGrid) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 15.0f;
  const BoidsGrid grid = boids::make_grid(rules, 1, ~0ull);
  for (float x : {INFINITY, -INFINITY, NAN, 1e30f}) {
    cl_float4 p{};
    p.x = x;
    p.y = -x;
    EXPECT_LT(boids_cell_key(p, rules, grid), grid.cell_count) << x;
  }
  rules.separation_weight = 3e38f;
  rules.cohesion_weight = -3e38f;
  boids::Simulation simulation(clf_test::runtime(), rules, 400, 1);
  for (int s = 0; s < 5; ++s) simulation.step();
  EXPECT_ANY_THROW(boids::validate_state(simulation.state(), rules));
}

// More boids than the device holds are refused by --n before any buffer is allocated for them
// (2^40 boids' buffers failed first, in DeviceBuffer, naming no option).
TEST(BoidsModel, MoreBoidsThanTheDeviceHoldsAreRefusedByName) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = boids::half_width_for_density(std::size_t{1} << 40, 2);
  EXPECT_CLF_ERROR(boids::Simulation(clf_test::runtime(), rules, std::size_t{1} << 40, 1),
                   "--n 1099511627776 is more than this device holds (");
}

// A first step builds the sort's and the scan's kernels; the warm-up builds them (and `run`
// warms up before its timed loop), so that the steps timed after it build nothing.
TEST(BoidsModel, AWarmUpBuildsWhatTheFirstStepWouldBuild) {
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 20.0f;
  clf::DeviceRequest request;
  request.quiet = true;
  for (const boids::CellRanges ranges : {boids::CellRanges::fill, boids::CellRanges::scan}) {
    const boids::Method method{false, 1, ranges};
    auto programs_made = [](const clf::Runtime& runtime) {
      const clf::ProgramCacheStats stats = runtime.program_cache_stats();
      return stats.builds + stats.disk_hits;
    };
    clf::Runtime cold(clf_test::runtime().device(), request);  // nothing built in this process
    boids::Simulation unwarmed(cold, rules, 300, 1, method);
    const unsigned before_first_step = programs_made(cold);
    unwarmed.step();
    EXPECT_GT(programs_made(cold), before_first_step) << "the first step built nothing";

    clf::Runtime runtime(clf_test::runtime().device(), request);
    boids::warm_up(runtime, rules, 300, method);
    const unsigned warmed = programs_made(runtime);
    boids::Simulation simulation(runtime, rules, 300, 1, method);
    simulation.step();
    simulation.step();
    EXPECT_EQ(programs_made(runtime), warmed) << boids::to_string(ranges);
  }
}

// A long run's profiling events are folded into the totals as it goes, so the recorder's memory
// stays flat (it held every event to the end: some 6 KB a step), and the totals still count
// every event recorded.
TEST(BoidsStageRecorder, FoldsEventsIntoTheTotalsAsStepsGoBy) {
  clf::Runtime& runtime = clf_test::runtime();
  BoidsRules rules = boids::default_rules(2);
  rules.half_width = 20.0f;
  boids::Simulation simulation(runtime, rules, 200, 1);
  runtime.start_recording();
  simulation.step();
  const std::vector<clf::Event> step_events = runtime.stop_recording();
  ASSERT_FALSE(step_events.empty());
  double step_ms = 0.0;
  for (const clf::Event& event : step_events) {
    event.wait();
    step_ms += event.duration_ms();
  }
  const std::size_t most_held = 2 * boids::StageRecorder::kFoldSteps * boids::kStageCount;
  boids::StageRecorder recorder;
  const std::size_t records = 1000;
  for (std::size_t r = 0; r < records; ++r) {
    recorder.add(static_cast<int>(r % boids::kStageCount), step_events);
    ASSERT_LT(recorder.held_records(), most_held) << "after " << r + 1 << " records";
  }
  const std::array<double, boids::kStageCount> totals = recorder.totals_ms();
  EXPECT_EQ(totals, recorder.totals_ms());
  for (int stage = 0; stage < boids::kStageCount; ++stage) {
    const std::size_t stage_records = records / boids::kStageCount + (stage < 4 ? 1 : 0);
    EXPECT_NEAR(totals[stage], stage_records * step_ms, 1e-9 * records * step_ms) << stage;
  }

  // Through Simulation::step: every stage timed, the memory bounded.
  boids::StageRecorder stepped;
  for (int s = 0; s < 300; ++s) simulation.step(&stepped);
  EXPECT_LT(stepped.held_records(), most_held);
  for (double total : stepped.totals_ms()) EXPECT_GT(total, 0.0);
}

}  // namespace

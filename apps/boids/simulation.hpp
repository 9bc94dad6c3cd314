// The boids model on a device: a Simulation owns the state and the grid, steps it on the
// neighbour grid (or brute force), and takes new rules between steps without rebuilding kernels.
// A CPU reference (brute force, the same shared/boids/boids.h functions) checks it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/primitives/sort.hpp"
#include "shared/boids/boids.h"

namespace boids {

// Positions and velocities, one per boid, in boid order (w = 0; z = 0 in 2D).
struct State {
  std::vector<cl_float4> position;
  std::vector<cl_float4> velocity;
  std::size_t size() const { return position.size(); }
};

// The defaults: r_c = 5, r_s = 3, r_a = 5, w_c = 0.01, w_s = 0.1, w_a = 0.1, w_g = 0,
// max_speed = 1, dt = 0.2, wrap, goal at the origin; half_width from default_half_width().
BoidsRules default_rules(int dims);

// L such that n boids in (2L)^d have the density of `per_width_count` boids in a cube (square)
// `width` wide: the default 5000 in 200, the dense bench 1 per unit volume (1 in 1).
float half_width_for_density(std::size_t n, int dims, double per_width_count = 5000.0,
                             double width = 200.0);

// The smallest default L for these radii: a box 4 x the largest radius wide (and a hair), which
// the neighbour grid takes with either cell width, wrapped or not. Default boxes of few boids
// are widened to it: the default density's box would hold too few cells (run --n 20).
float smallest_default_half_width(const BoidsRules& rules);

// Throws clf::Error naming the option (--rc, --box, ...) when a rule is out of range.
void validate_rules(const BoidsRules& rules);

// The grid for these rules: cells at least cell_width_factor (1 or 2) times the largest radius
// wide (plus a rounding margin); 3 cells searched per axis for factor 1, 2 for factor 2. Cells
// may be widened so that the grid fits `max_cells`. Throws clf::Error when the box is too small
// for the wrap-around search (fewer than 3, resp. 2, cells per axis).
BoidsGrid make_grid(const BoidsRules& rules, int cell_width_factor, std::uint64_t max_cells);

// How cells' first boids are found after the sort. fill: each cell's first boid writes the
// entries of the empty cells before it (O(N + cells), but one work-item may fill a long gap:
// fine on CPUs); scan: counts per cell and an exclusive scan (balanced: GPUs). automatic: scan
// on GPUs, fill elsewhere.
enum class CellRanges { automatic, fill, scan };

// How a step's neighbours are found.
struct Method {
  bool brute = false;         // O(n^2) on the device
  int cell_width_factor = 1;  // 1: 3^d cells searched; 2: 2^d cells searched
  CellRanges ranges = CellRanges::automatic;
};
// "auto", "fill", "scan" and back; parse throws clf::Error naming --ranges.
CellRanges parse_cell_ranges(const std::string& name);
const char* to_string(CellRanges ranges);

// Device time per stage, summed over the steps recorded (ms); needs a profiling runtime.
enum Stage { kKeys, kSort, kRanges, kReorder, kRules, kIntegrate, kStageCount };
const char* stage_name(int stage);

// Events are folded into the totals as steps go by (the older half once 2 x kFoldSteps steps'
// are held), so that a long run's memory stays flat: each holds a driver event and the launch's
// kernel, device and sizes as text, some 6 KB a step in all.
class StageRecorder {
 public:
  static constexpr std::size_t kFoldSteps = 64;

  void add(int stage, std::vector<clf::Event> events);
  // Waits for the recorded commands; per-stage totals in ms.
  std::array<double, kStageCount> totals_ms() const;
  // Stage records not folded into the totals yet (at most 2 x kFoldSteps steps').
  std::size_t held_records() const { return held_.size(); }

 private:
  using Record = std::pair<int, std::vector<clf::Event>>;  // a stage's launches
  using Records = std::vector<Record>;
  // Waits for the records' commands and adds their device times to `totals`.
  static void add_durations(Records::const_iterator first, Records::const_iterator last,
                            std::array<double, kStageCount>& totals);

  std::array<double, kStageCount> folded_ms_{};
  Records held_;
};

class Simulation {
 public:
  // `rules` validated; the seeded initial state (boids_initial_state) made on the device.
  Simulation(clf::Runtime& runtime, const BoidsRules& rules, std::size_t count, std::uint64_t seed,
             const Method& method = {});
  // From a given state (validated: inside the box, finite).
  Simulation(clf::Runtime& runtime, const BoidsRules& rules, const State& initial,
             const Method& method = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Both take effect on the next step; nothing is recompiled. Throw clf::Error for bad values
  // (the simulation keeps its old settings then), and set_rules for a change of dims or L (the
  // state lives in that box: make a new Simulation, which reuses the built kernels).
  void set_rules(const BoidsRules& rules);
  void set_method(const Method& method);

  // One synchronous step; with a recorder (profiling runtime) the stages' events go there.
  void step(StageRecorder* recorder = nullptr);

  std::size_t size() const { return count_; }
  const BoidsRules& rules() const { return rules_; }
  const BoidsGrid& grid() const { return grid_; }
  const Method& method() const { return method_; }
  clf::Runtime& runtime() const { return *runtime_; }
  std::size_t steps_done() const { return steps_done_; }
  // The cell-range method that runs (automatic resolved for the device).
  CellRanges cell_ranges() const;

  // The state in boid order (downloads and un-permutes).
  State state() const;
  // The device state in the current (cell) order, for drawing.
  const clf::DeviceBuffer<cl_float4>& device_positions() const { return position_[current_]; }
  const clf::DeviceBuffer<cl_float4>& device_velocities() const { return velocity_[current_]; }

  // The most boids this device holds (memory and sort limits), for --n checks and bench.
  static std::size_t max_boids(clf::Runtime& runtime);

 private:
  struct Kernels;
  void allocate_cells();
  std::size_t work_group(const clf::CLKernel& kernel) const;

  clf::Runtime* runtime_;
  BoidsRules rules_;
  Method method_;
  BoidsGrid grid_{};
  std::size_t count_;
  std::size_t steps_done_ = 0;
  std::shared_ptr<Kernels> kernels_;
  clf::primitives::Sorter sorter_;
  int current_ = 0;
  std::array<clf::DeviceBuffer<cl_float4>, 2> position_;
  std::array<clf::DeviceBuffer<cl_float4>, 2> velocity_;
  std::array<clf::DeviceBuffer<cl_uint>, 2> id_;
  clf::DeviceBuffer<cl_uint> keys_;
  clf::DeviceBuffer<cl_uint> order_;
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> cell_first_;   // cell_count + 1 entries
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> cell_counts_;  // for CellRanges::scan
  std::unique_ptr<clf::primitives::Scan<cl_uint>> scan_;
};

// Two steps of a throwaway flock of `count` boids under these rules and method: builds what a
// first step builds lazily (the sort's and the scan's kernels, their temporaries), so that the
// steps a command then times on this runtime measure stepping alone.
void warm_up(clf::Runtime& runtime, const BoidsRules& rules, std::size_t count,
             const Method& method);

// The CPU reference: the seeded initial state and one brute-force step, with the same
// shared/boids/boids.h functions the kernels use.
State reference_initial_state(std::size_t count, std::uint64_t seed, const BoidsRules& rules);
State reference_step(const State& state, const BoidsRules& rules);

// Throws clf::Error when a boid is not finite or outside the box, naming it as line lines[i] of
// `source` when given (--init files), else by index.
void validate_state(const State& state, const BoidsRules& rules, const std::string& source = "",
                    const std::vector<std::size_t>* lines = nullptr);

}  // namespace boids

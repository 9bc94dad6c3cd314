#include "apps/boids/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace boids {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

void require(bool ok, const std::string& message) {
  if (!ok) throw clf::Error(message);
}

float largest_radius(const BoidsRules& r) {
  return std::max({r.cohesion_radius, r.separation_radius, r.alignment_radius});
}

// The cells per axis the search needs: 3 (cell width 1) or 2 (cell width 2) around the wrap.
// Bounded, one: a single cell narrower than the radius holds every boid, and all are searched.
std::int64_t cells_needed(const BoidsRules& r, int cell_width_factor) {
  return r.wrap ? (cell_width_factor == 1 ? 3 : 2) : 1;
}

// The smallest L whose grid holds the cells needed, with room for make_grid's rounding margin.
double half_width_needed(const BoidsRules& r, int cell_width_factor) {
  return cells_needed(r, cell_width_factor) * cell_width_factor * largest_radius(r) / 2.0 *
         (1.0 + 1.0 / 1024);
}

}  // namespace

BoidsRules default_rules(int dims) {
  BoidsRules r{};
  r.goal.x = r.goal.y = r.goal.z = r.goal.w = 0.0f;
  r.cohesion_radius = 5.0f;
  r.separation_radius = 3.0f;
  r.alignment_radius = 5.0f;
  r.cohesion_weight = 0.01f;
  r.separation_weight = 0.1f;
  r.alignment_weight = 0.1f;
  r.goal_weight = 0.0f;
  r.max_speed = 1.0f;
  r.dt = 0.2f;
  r.half_width = 100.0f;
  r.dims = dims;
  r.wrap = 1;
  return r;
}

float half_width_for_density(std::size_t n, int dims, double per_width_count, double width) {
  // (2L)^d / n = width^d / per_width_count
  const double box_width = width * std::pow(static_cast<double>(n) / per_width_count, 1.0 / dims);
  return static_cast<float>(box_width / 2.0);
}

float smallest_default_half_width(const BoidsRules& rules) {
  BoidsRules wrapped = rules;
  wrapped.wrap = 1;
  return static_cast<float>(std::max(half_width_needed(wrapped, 1), half_width_needed(wrapped, 2)));
}

void validate_rules(const BoidsRules& r) {
  require(r.dims == 2 || r.dims == 3, "--dims must be 2 or 3, got " + std::to_string(r.dims));
  const struct {
    const char* option;
    float value;
  } non_negative[] = {{"--rc (cohesion radius)", r.cohesion_radius},
                      {"--rs (separation radius)", r.separation_radius},
                      {"--ra (alignment radius)", r.alignment_radius},
                      {"--max-speed", r.max_speed},
                      {"--dt", r.dt}};
  for (const auto& check : non_negative) {
    require(
        std::isfinite(check.value) && check.value >= 0.0f,
        std::string(check.option) + " must be a finite number >= 0, got " + number(check.value));
  }
  const struct {
    const char* option;
    float value;
  } finite[] = {{"--wc (cohesion weight)", r.cohesion_weight},
                {"--ws (separation weight)", r.separation_weight},
                {"--wa (alignment weight)", r.alignment_weight},
                {"--wg (goal weight)", r.goal_weight},
                {"--goal x", r.goal.x},
                {"--goal y", r.goal.y},
                {"--goal z", r.goal.z}};
  for (const auto& check : finite) {
    require(std::isfinite(check.value),
            std::string(check.option) + " must be finite, got " + number(check.value));
  }
  require(std::isfinite(r.half_width) && r.half_width > 0.0f,
          "--box (half width L) must be a finite number > 0, got " + number(r.half_width));
  require(static_cast<double>(r.max_speed) * r.dt <= r.half_width,
          "--max-speed x --dt = " + number(static_cast<double>(r.max_speed) * r.dt) +
              " must not exceed the box's half width L = " + number(r.half_width) +
              " (a boid may move at most L per step)");
}

BoidsGrid make_grid(const BoidsRules& rules, int cell_width_factor, std::uint64_t max_cells) {
  require(cell_width_factor == 1 || cell_width_factor == 2,
          "--cell-width must be 1 or 2, got " + std::to_string(cell_width_factor));
  const double width = 2.0 * rules.half_width;
  const double radius = largest_radius(rules);
  // Cells a little wider than asked for, so that rounding in cell coordinates and offsets
  // (about width 2^-23) can never hide a neighbour within the radius.
  const double margin = cell_width_factor * width * std::ldexp(1.0, -19);
  const double min_cell_width = cell_width_factor * radius + margin;
  const std::int64_t needed = cells_needed(rules, cell_width_factor);
  std::int64_t side = radius > 0.0 ? static_cast<std::int64_t>(std::floor(width / min_cell_width))
                                   : needed;  // no radius: nobody is a neighbour, any grid works
  if (!rules.wrap) side = std::max<std::int64_t>(side, 1);  // see cells_needed
  if (side < needed) {
    // Wrapped, with a given --box: a default box is never this small.
    const bool narrower_cells_fit =
        cell_width_factor == 2 && rules.half_width >= half_width_needed(rules, 1);
    throw clf::Error(
        "the box is too small for the neighbour grid: --box L = " + number(rules.half_width) +
        " makes it " + number(width) + " wide, which holds " + std::to_string(side) +
        " cells per axis at least " + number(min_cell_width) + " wide (" +
        std::to_string(cell_width_factor) + "x the largest radius " + number(radius) +
        "); wrap mode with --cell-width " + std::to_string(cell_width_factor) + " needs " +
        std::to_string(needed) + ". Use --box " +
        number(half_width_needed(rules, cell_width_factor)) + " or more" +
        (narrower_cells_fit ? ", --cell-width 1" : "") + ", smaller radii, --bounded or --brute");
  }
  // Widen cells until the grid fits (wider cells are still correct, only slower).
  const std::uint64_t cap = std::min<std::uint64_t>(max_cells, (1ull << 31) - 2);  // scan limit
  auto cells = [&](std::int64_t s) {
    std::uint64_t c = 1;
    for (int d = 0; d < rules.dims; ++d) c *= static_cast<std::uint64_t>(s);
    return c;
  };
  const std::int64_t axis_cap = std::max<std::int64_t>(
      1,
      static_cast<std::int64_t>(std::floor(std::pow(static_cast<double>(cap), 1.0 / rules.dims))));
  side = std::min(side, axis_cap);
  while (side > 1 && cells(side) > cap) --side;
  require(side >= needed && cells(side) <= cap,
          "the neighbour grid does not fit the device: " + std::to_string(cells(needed)) +
              " cells needed, at most " + std::to_string(cap) + " fit");
  BoidsGrid grid{};
  grid.cells_per_axis = static_cast<cl_int>(side);
  grid.search_cells = cell_width_factor == 1 ? 3 : 2;
  grid.cells_per_unit = static_cast<cl_float>(static_cast<double>(side) / width);
  grid.cell_count = static_cast<cl_uint>(cells(side));
  return grid;
}

CellRanges parse_cell_ranges(const std::string& name) {
  if (name == "auto") return CellRanges::automatic;
  if (name == "fill") return CellRanges::fill;
  if (name == "scan") return CellRanges::scan;
  throw clf::Error("--ranges must be auto, fill or scan, got '" + name + "'");
}

const char* to_string(CellRanges ranges) {
  switch (ranges) {
    case CellRanges::fill:
      return "fill";
    case CellRanges::scan:
      return "scan";
    default:
      return "auto";
  }
}

const char* stage_name(int stage) {
  static const char* const names[kStageCount] = {"keys",    "sort",  "cell ranges",
                                                 "reorder", "rules", "integrate"};
  return stage >= 0 && stage < kStageCount ? names[stage] : "?";
}

void StageRecorder::add_durations(Records::const_iterator first, Records::const_iterator last,
                                  std::array<double, kStageCount>& totals) {
  for (; first != last; ++first) {
    for (const clf::Event& event : first->second) {
      event.wait();
      totals[first->first] += event.duration_ms();
    }
  }
}

void StageRecorder::add(int stage, std::vector<clf::Event> events) {
  held_.emplace_back(stage, std::move(events));
  // The older half only: those commands are done (or nearly), so the queue is not drained.
  const std::ptrdiff_t half = kFoldSteps * kStageCount;
  if (held_.size() >= 2 * static_cast<std::size_t>(half)) {
    add_durations(held_.begin(), held_.begin() + half, folded_ms_);
    held_.erase(held_.begin(), held_.begin() + half);
  }
}

std::array<double, kStageCount> StageRecorder::totals_ms() const {
  std::array<double, kStageCount> totals = folded_ms_;
  add_durations(held_.begin(), held_.end(), totals);
  return totals;
}

struct Simulation::Kernels {
  explicit Kernels(clf::Runtime& runtime)
      : cell_keys(runtime, clf::kernel_source("kernels/boids/grid.cl"), "boids_cell_keys"),
        cell_first(runtime, clf::kernel_source("kernels/boids/grid.cl"), "boids_cell_first"),
        clear_counts(runtime, clf::kernel_source("kernels/boids/grid.cl"), "boids_clear_counts"),
        cell_counts(runtime, clf::kernel_source("kernels/boids/grid.cl"), "boids_cell_counts"),
        reorder(runtime, clf::kernel_source("kernels/boids/grid.cl"), "boids_reorder"),
        rules_grid(runtime, clf::kernel_source("kernels/boids/rules.cl"), "boids_rules_grid"),
        rules_brute(runtime, clf::kernel_source("kernels/boids/rules.cl"), "boids_rules_brute"),
        integrate(runtime, clf::kernel_source("kernels/boids/rules.cl"), "boids_integrate_step"),
        init(runtime, clf::kernel_source("kernels/boids/rules.cl"), "boids_init") {}
  clf::CLKernel cell_keys, cell_first, clear_counts, cell_counts, reorder;
  clf::CLKernel rules_grid, rules_brute, integrate, init;
};

std::size_t Simulation::max_boids(clf::Runtime& runtime) {
  const clf::DeviceInfo& device = runtime.device();
  // Per boid: 2 x (position, velocity, id) + keys + order = 72 bytes, plus the sort's
  // temporaries (about as much again) and the grid; keep to a quarter of global memory.
  const std::uint64_t by_memory = device.global_memory_bytes / 4 / 144;
  const std::uint64_t by_allocation = device.max_allocation_bytes / sizeof(cl_float4);
  clf::primitives::Sorter sorter(runtime);
  return static_cast<std::size_t>(std::min<std::uint64_t>(
      {by_memory, by_allocation, sorter.max_keys(true), std::numeric_limits<cl_uint>::max()}));
}

namespace {

// --n within [1, the device's limit], checked before anything is allocated or built for it
// (buffers too large for the device failed first, with a message that did not name --n).
std::size_t checked_count(clf::Runtime& runtime, std::size_t count) {
  require(count >= 1, "--n must be at least 1, got " + std::to_string(count));
  const std::size_t limit = Simulation::max_boids(runtime);
  require(count <= limit, "--n " + std::to_string(count) + " is more than this device holds (" +
                              std::to_string(limit) + ")");
  return count;
}

std::uint64_t max_cells_for(clf::Runtime& runtime) {
  const clf::DeviceInfo& device = runtime.device();
  return std::min<std::uint64_t>(device.max_allocation_bytes / sizeof(cl_uint),
                                 device.global_memory_bytes / 8 / (2 * sizeof(cl_uint)));
}

}  // namespace

Simulation::Simulation(clf::Runtime& runtime, const BoidsRules& rules, std::size_t count,
                       std::uint64_t seed, const Method& method)
    : runtime_(&runtime),
      rules_(rules),
      method_(method),
      count_(checked_count(runtime, count)),
      kernels_(std::make_shared<Kernels>(runtime)),
      sorter_(runtime),
      position_{clf::DeviceBuffer<cl_float4>(runtime, std::max<std::size_t>(count, 1)),
                clf::DeviceBuffer<cl_float4>(runtime, std::max<std::size_t>(count, 1))},
      velocity_{clf::DeviceBuffer<cl_float4>(runtime, std::max<std::size_t>(count, 1)),
                clf::DeviceBuffer<cl_float4>(runtime, std::max<std::size_t>(count, 1))},
      id_{clf::DeviceBuffer<cl_uint>(runtime, std::max<std::size_t>(count, 1)),
          clf::DeviceBuffer<cl_uint>(runtime, std::max<std::size_t>(count, 1))},
      keys_(runtime, std::max<std::size_t>(count, 1)),
      order_(runtime, std::max<std::size_t>(count, 1)) {
  validate_rules(rules_);
  if (!method_.brute) grid_ = make_grid(rules_, method_.cell_width_factor, max_cells_for(runtime));
  kernels_->init(clf::Range::linear(count_, work_group(kernels_->init)), cl_ulong(seed), rules_,
                 cl_uint(count_), position_[0], velocity_[0], id_[0]);
  if (!method_.brute) allocate_cells();
}

Simulation::Simulation(clf::Runtime& runtime, const BoidsRules& rules, const State& initial,
                       const Method& method)
    : Simulation(runtime, rules, std::max<std::size_t>(initial.size(), 1), 0, method) {
  require(initial.size() >= 1, "the initial state has no boids (N = 0)");
  require(initial.velocity.size() == initial.size(),
          "the initial state has " + std::to_string(initial.size()) + " positions but " +
              std::to_string(initial.velocity.size()) + " velocities");
  validate_state(initial, rules_);
  position_[0].write(initial.position);
  velocity_[0].write(initial.velocity);
}

Simulation::~Simulation() = default;

std::size_t Simulation::work_group(const clf::CLKernel& kernel) const {
  return std::min<std::size_t>(256, kernel.max_work_group_size());
}

CellRanges Simulation::cell_ranges() const {
  if (method_.ranges != CellRanges::automatic) return method_.ranges;
  return runtime_->device().type == clf::DeviceType::gpu ? CellRanges::scan : CellRanges::fill;
}

void Simulation::allocate_cells() {
  // The scan wants input and output of the same size, so both hold exactly cell_count + 1.
  const std::size_t entries = static_cast<std::size_t>(grid_.cell_count) + 1;
  if (!cell_first_ || cell_first_->size() != entries) {
    cell_first_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(*runtime_, entries);
    cell_counts_.reset();
  }
  if (cell_ranges() == CellRanges::scan) {
    if (!cell_counts_)
      cell_counts_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(*runtime_, entries);
    if (!scan_) scan_ = std::make_unique<clf::primitives::Scan<cl_uint>>(*runtime_);
  }
}

void Simulation::set_rules(const BoidsRules& rules) {
  validate_rules(rules);
  // The state lives in the box of these dimensions; another box needs a new Simulation.
  require(rules.dims == rules_.dims && rules.half_width == rules_.half_width,
          "changing --dims or --box needs a new simulation (reset), not new rules");
  if (!method_.brute) {
    const BoidsGrid grid = make_grid(rules, method_.cell_width_factor, max_cells_for(*runtime_));
    grid_ = grid;
    allocate_cells();
  }
  rules_ = rules;
}

void Simulation::set_method(const Method& method) {
  if (!method.brute) {
    const BoidsGrid grid = make_grid(rules_, method.cell_width_factor, max_cells_for(*runtime_));
    grid_ = grid;
    method_ = method;
    allocate_cells();
  }
  method_ = method;
}

void Simulation::step(StageRecorder* recorder) {
  auto stage = [&](int which, auto&& launch) {
    if (recorder) runtime_->start_recording();
    launch();
    if (recorder) recorder->add(which, runtime_->stop_recording());
  };
  Kernels& k = *kernels_;
  const cl_uint n = static_cast<cl_uint>(count_);
  if (!method_.brute) {
    stage(kKeys, [&] {
      k.cell_keys(clf::Range::linear(n, work_group(k.cell_keys)), position_[current_], rules_,
                  grid_, n, keys_, order_);
    });
    // Cell ids: the sort needs only their bits (two passes for up to 65536 cells, not four).
    stage(kSort,
          [&] { sorter_.sort(keys_, order_, clf::primitives::KeyBits::below(grid_.cell_count)); });
    stage(kRanges, [&] {
      if (cell_ranges() == CellRanges::scan) {
        const cl_uint entries = grid_.cell_count + 1;
        k.clear_counts(clf::Range::linear(entries, work_group(k.clear_counts)), entries,
                       *cell_counts_);
        k.cell_counts(clf::Range::linear(n, work_group(k.cell_counts)), keys_, n, *cell_counts_);
        scan_->exclusive(*cell_counts_, *cell_first_);
      } else {
        k.cell_first(clf::Range::linear(n, work_group(k.cell_first)), keys_, n, grid_.cell_count,
                     *cell_first_);
      }
    });
    const int sorted = 1 - current_;
    stage(kReorder, [&] {
      k.reorder(clf::Range::linear(n, work_group(k.reorder)), order_, n, position_[current_],
                velocity_[current_], id_[current_], position_[sorted], velocity_[sorted],
                id_[sorted]);
    });
    current_ = sorted;
  }
  const int scratch = 1 - current_;
  stage(kRules, [&] {
    if (method_.brute) {
      k.rules_brute(clf::Range::linear(n, work_group(k.rules_brute)), position_[current_],
                    velocity_[current_], rules_, n, velocity_[scratch]);
    } else {
      k.rules_grid(clf::Range::linear(n, work_group(k.rules_grid)), position_[current_],
                   velocity_[current_], *cell_first_, rules_, grid_, n, velocity_[scratch]);
    }
  });
  stage(kIntegrate, [&] {
    k.integrate(clf::Range::linear(n, work_group(k.integrate)), position_[current_],
                velocity_[scratch], rules_, n, velocity_[current_]);
  });
  ++steps_done_;
}

State Simulation::state() const {
  const std::vector<cl_float4> position = position_[current_].read();
  const std::vector<cl_float4> velocity = velocity_[current_].read();
  const std::vector<cl_uint> id = id_[current_].read();
  State out;
  out.position.resize(count_);
  out.velocity.resize(count_);
  for (std::size_t i = 0; i < count_; ++i) {
    out.position[id[i]] = position[i];
    out.velocity[id[i]] = velocity[i];
  }
  return out;
}

void warm_up(clf::Runtime& runtime, const BoidsRules& rules, std::size_t count,
             const Method& method) {
  Simulation simulation(runtime, rules, count, 1, method);
  simulation.step();
  simulation.step();
  runtime.finish();
}

State reference_initial_state(std::size_t count, std::uint64_t seed, const BoidsRules& rules) {
  State state;
  state.position.resize(count);
  state.velocity.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    boids_initial_state(seed, static_cast<cl_uint>(i), rules, &state.position[i],
                        &state.velocity[i]);
  }
  return state;
}

State reference_step(const State& state, const BoidsRules& rules) {
  const std::size_t n = state.size();
  State next = state;
  for (std::size_t i = 0; i < n; ++i) {
    BoidsSums sums = boids_sums_zero();
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      boids_accumulate(&sums, boids_offset(state.position[i], state.position[j], rules),
                       state.velocity[j], rules);
    }
    next.velocity[i] = boids_new_velocity(state.position[i], state.velocity[i], sums, rules);
  }
  for (std::size_t i = 0; i < n; ++i) boids_integrate(&next.position[i], &next.velocity[i], rules);
  return next;
}

void validate_state(const State& state, const BoidsRules& rules, const std::string& source,
                    const std::vector<std::size_t>* lines) {
  const float L = rules.half_width;
  const char* axis_names = "xyz";
  for (std::size_t i = 0; i < state.size(); ++i) {
    auto where = [&] {
      if (lines && i < lines->size()) return source + ":" + std::to_string((*lines)[i]) + ": ";
      return (source.empty() ? std::string() : source + ": ") + "boid " + std::to_string(i) + ": ";
    };
    const float p[3] = {state.position[i].x, state.position[i].y, state.position[i].z};
    const float v[3] = {state.velocity[i].x, state.velocity[i].y, state.velocity[i].z};
    for (int a = 0; a < 3; ++a) {
      if (a == 2 && rules.dims == 2) {
        require(p[a] == 0.0f && v[a] == 0.0f, where() + "a 2D boid must have z = 0 and vz = 0");
        continue;
      }
      require(std::isfinite(v[a]),
              where() + "v" + axis_names[a] + " = " + number(v[a]) + " is not a finite number");
      const bool inside = rules.wrap ? (p[a] >= -L && p[a] < L) : (p[a] >= -L && p[a] <= L);
      require(std::isfinite(p[a]) && inside, where() + axis_names[a] + " = " + number(p[a]) +
                                                 " is outside the box [" + number(-L) + ", " +
                                                 number(L) + (rules.wrap ? ")" : "]") +
                                                 " (set its half width with --box L)");
    }
  }
}

}  // namespace boids

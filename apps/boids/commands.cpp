#include "apps/boids/commands.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "apps/boids/csv.hpp"
#include "apps/boids/render.hpp"
#include "apps/boids/report_format.hpp"
#include "apps/common/png_writer.hpp"
#include "framework/atomic_file.hpp"

namespace boids {
namespace {

cl_float4 parse_goal(const std::string& text, int dims) {
  cl_float4 goal{};
  std::vector<float> values;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    char* end = nullptr;
    const float v = std::strtof(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !std::isfinite(v)) {
      throw clf::Error("--goal '" + text + "': '" + part + "' is not a finite number");
    }
    values.push_back(v);
  }
  if (values.size() != static_cast<std::size_t>(dims)) {
    throw clf::Error("--goal '" + text + "': expected " + std::to_string(dims) +
                     " comma-separated coordinates for --dims " + std::to_string(dims));
  }
  goal.x = values[0];
  goal.y = values[1];
  if (dims == 3) goal.z = values[2];
  return goal;
}

std::unique_ptr<clf::Runtime> profiling_runtime(const clf::DeviceOptions& device) {
  clf::DeviceOptions options = device;
  options.request.profiling = true;  // per-stage device times
  return options.make_runtime();
}

// Runs `write`, whose errors name the file, with the option that named it before them.
template <typename Write>
void for_option(const char* option, Write&& write) {
  try {
    write();
  } catch (const clf::Error& error) {
    throw clf::Error(std::string(option) + " " + error.what());
  }
}

void write_json(const std::string& path, const nlohmann::json& json) {
  for_option("--json", [&] { clf::write_file_atomically(path, json.dump(2) + "\n"); });
}

nlohmann::json rules_json(const BoidsRules& r) {
  return {{"dims", r.dims},
          {"half_width", r.half_width},
          {"wrap", r.wrap != 0},
          {"rc", r.cohesion_radius},
          {"rs", r.separation_radius},
          {"ra", r.alignment_radius},
          {"wc", r.cohesion_weight},
          {"ws", r.separation_weight},
          {"wa", r.alignment_weight},
          {"wg", r.goal_weight},
          {"goal", {r.goal.x, r.goal.y, r.goal.z}},
          {"max_speed", r.max_speed},
          {"dt", r.dt}};
}

std::string method_text(const Simulation& s) {
  if (s.method().brute) return "brute force (O(n^2))";
  const BoidsGrid& g = s.grid();
  std::string cells = std::to_string(g.cells_per_axis);
  for (int d = 1; d < s.rules().dims; ++d) cells += "x" + std::to_string(g.cells_per_axis);
  return "grid " + cells + " cells of width " + fixed(1.0 / g.cells_per_unit, 3) + ", " +
         std::to_string(g.search_cells) + "^" + std::to_string(s.rules().dims) +
         " cells searched, ranges by " + to_string(s.cell_ranges());
}

}  // namespace

void check_output(const char* option, const std::string& path) {
  if (!path.empty()) for_option(option, [&] { clf::check_writable(path); });
}

void ModelOptions::add_to(CLI::App& app) {
  app.add_option("--dims", dims, "2 or 3")->check(CLI::IsMember({2, 3}))->capture_default_str();
  CLI::Option* count_option = app.add_option_function<std::size_t>(
      "--n", [this](const std::size_t& n) { count = n, count_given = true; },
      "number of boids (default 5000; with --init, the file's)");
  count_option->check(clf::not_negative());
  app.add_option("--seed", seed, "seed of the initial state")
      ->check(clf::not_negative())
      ->capture_default_str();
  app.add_option("--init", init_file, "initial state: CSV x,y[,z],vx,vy[,vz], one boid a line");
  add_rules_to(app);
}

void ModelOptions::add_rules_to(CLI::App& app) {
  // Given or not, not a value of its own: --box 0 is refused, not the default.
  app.add_option_function<float>(
      "--box", [this](const float& half_width) { box = half_width; },
      "half width L of the box [-L, L)^d (default: the density of 5000 boids in a 200-wide "
      "cube/square)");
  app.add_flag("--bounded", bounded, "reflecting walls instead of wrap-around");
  app.add_option("--cell-width", cell_width,
                 "grid cells 1x (3^d searched) or 2x (2^d) the largest radius")
      ->capture_default_str();
  app.add_flag("--brute", brute, "O(n^2) neighbour search instead of the grid");
  app.add_option("--ranges", ranges,
                 "cell ranges: fill (CPUs), scan (GPUs) or auto (by device type)")
      ->capture_default_str();
  app.add_option("--rc", rc, "cohesion radius")->capture_default_str();
  app.add_option("--rs", rs, "separation radius")->capture_default_str();
  app.add_option("--ra", ra, "alignment radius")->capture_default_str();
  app.add_option("--wc", wc, "cohesion weight")->capture_default_str();
  app.add_option("--ws", ws, "separation weight")->capture_default_str();
  app.add_option("--wa", wa, "alignment weight")->capture_default_str();
  app.add_option("--wg", wg, "goal weight")->capture_default_str();
  app.add_option("--goal", goal, "goal point x,y[,z] (default the origin)");
  app.add_option("--max-speed", max_speed, "speed limit")->capture_default_str();
  app.add_option("--dt", dt, "time step")->capture_default_str();
}

BoidsRules ModelOptions::rules(std::size_t n) const {
  BoidsRules r = default_rules(dims);
  r.cohesion_radius = rc;
  r.separation_radius = rs;
  r.alignment_radius = ra;
  r.cohesion_weight = wc;
  r.separation_weight = ws;
  r.alignment_weight = wa;
  r.goal_weight = wg;
  r.max_speed = max_speed;
  r.dt = dt;
  r.wrap = bounded ? 0 : 1;
  if (!goal.empty()) r.goal = parse_goal(goal, dims);
  r.half_width =
      box ? *box : std::max(half_width_for_density(n, dims), smallest_default_half_width(r));
  validate_rules(r);
  return r;
}

void RunOptions::add_to(CLI::App& app) {
  model.add_to(app);
  app.add_option("--steps", steps, "steps to run")
      ->check(clf::not_negative())
      ->capture_default_str();
  app.add_option("--dump", dump_file, "write the final state as CSV");
  app.add_option("--png", png_file, "render the final frame to a PNG");
  app.add_option("--image-size", image_size, "PNG width and height in pixels")
      ->check(CLI::Range(16, 8192))
      ->capture_default_str();
  app.add_option("--json", json_file, "write the run's figures as JSON");
}

void BenchOptions::add_to(CLI::App& app) {
  app.add_option("--min-n", min_n, "smallest N")->check(clf::not_negative())->capture_default_str();
  app.add_option("--max-n", max_n, "largest N (default: the device's limit; 2^18 on CPUs)")
      ->check(clf::not_negative());
  app.add_option("--seconds", seconds, "time measured per point")
      ->check(clf::not_negative())
      ->capture_default_str();
  app.add_option("--cell-width", cell_width, "1 or 2, as for run")->capture_default_str();
  app.add_option("--ranges", ranges, "auto, fill or scan, as for run")->capture_default_str();
  app.add_option("--dims", dims, "2 or 3 (default both)")->check(CLI::IsMember({2, 3}));
  app.add_option("--json", json_file, "write the table as JSON");
}

namespace {

// What `run` starts from: N, the rules and the --init state, checked with the output
// destinations before a device opens (everything the command line can get wrong).
struct RunStart {
  std::size_t n = 0;
  BoidsRules rules{};
  Method method;
  CsvBoids initial;
};

RunStart checked_start(const RunOptions& options) {
  const ModelOptions& model = options.model;
  RunStart start;
  start.n = model.count;
  if (!model.init_file.empty()) {
    start.initial = read_csv(model.init_file, model.dims);
    if (model.count_given && model.count != start.initial.state.size()) {
      throw clf::Error("--n " + std::to_string(model.count) + " disagrees with --init " +
                       model.init_file + ", which holds " +
                       std::to_string(start.initial.state.size()) + " boids");
    }
    start.n = start.initial.state.size();
  }
  if (start.n == 0) throw clf::Error("--n must be at least 1, got 0");
  start.rules = model.rules(start.n);
  start.method = model.method();
  if (!model.init_file.empty()) {
    validate_state(start.initial.state, start.rules, model.init_file, &start.initial.lines);
  }
  if (!model.brute) make_grid(start.rules, model.cell_width, ~0ull);  // box too small: say so now
  check_output("--dump", options.dump_file);
  check_output("--png", options.png_file);
  check_output("--json", options.json_file);
  return start;
}

}  // namespace

int run_command(const RunOptions& options, const clf::DeviceOptions& device, std::ostream& out) {
  const ModelOptions& model = options.model;
  const RunStart checked = checked_start(options);
  const std::size_t n = checked.n;
  const BoidsRules& rules = checked.rules;
  const Method& method = checked.method;

  const std::unique_ptr<clf::Runtime> runtime = profiling_runtime(device);
  warm_up(*runtime, rules, n, method);  // the timed steps build nothing
  std::unique_ptr<Simulation> simulation =
      model.init_file.empty()
          ? std::make_unique<Simulation>(*runtime, rules, n, model.seed, method)
          : std::make_unique<Simulation>(*runtime, rules, checked.initial.state, method);
  out << "cl-boids run on " << runtime->device_name() << "\n"
      << "  " << n << " boids, " << rules.dims << "D, box [" << -rules.half_width << ", "
      << rules.half_width << ")^" << rules.dims << ", " << (rules.wrap ? "wrap" : "bounded") << ", "
      << method_text(*simulation) << "\n";

  StageRecorder recorder;
  runtime->finish();
  const Clock::time_point start = Clock::now();
  for (std::size_t s = 0; s < options.steps; ++s) {
    simulation->step(&recorder);
    if (options.steps >= 20 && (s + 1) % (options.steps / 10) == 0 && seconds_since(start) > 2.0) {
      runtime->finish();
      out << "  step " << (s + 1) << " of " << options.steps << "\n" << std::flush;
    }
  }
  runtime->finish();
  const double wall = seconds_since(start);
  const std::array<double, kStageCount> totals = recorder.totals_ms();
  const double steps = static_cast<double>(std::max<std::size_t>(options.steps, 1));
  double device_total = 0.0;
  for (double t : totals) device_total += t;

  out << "  " << options.steps << " steps in " << fixed(wall, 3)
      << " s: " << fixed(options.steps / std::max(wall, 1e-9), 1) << " steps/s, "
      << fixed(wall * 1000.0 / steps, 3) << " ms per step (wall)\n";
  out << "  device time per step (ms):\n";
  for (int stage = 0; stage < kStageCount; ++stage) {
    out << "    " << std::left << std::setw(12) << stage_name(stage) << std::right << std::setw(10)
        << fixed(totals[stage] / steps, 4) << "\n";
  }
  out << "    " << std::left << std::setw(12) << "total" << std::right << std::setw(10)
      << fixed(device_total / steps, 4) << "\n";

  if (!options.dump_file.empty()) {
    for_option("--dump", [&] { write_csv(options.dump_file, simulation->state(), rules.dims); });
    out << "  final state written to " << options.dump_file << "\n";
  }
  if (!options.png_file.empty()) {
    FrameRenderer renderer(*runtime);
    const BoidsView view = make_view(rules, options.image_size, options.image_size);
    const std::vector<std::uint8_t> frame = renderer.render(*simulation, view);
    for_option("--png", [&] {
      app_common::write_png(options.png_file, options.image_size, options.image_size, frame);
    });
    out << "  final frame written to " << options.png_file << "\n";
  }
  if (!options.json_file.empty()) {
    nlohmann::json stages;
    for (int stage = 0; stage < kStageCount; ++stage) {
      stages[stage_name(stage)] = totals[stage] / steps;
    }
    write_json(options.json_file, {{"device", runtime->device_name()},
                                   {"n", n},
                                   {"steps", options.steps},
                                   {"method", method_text(*simulation)},
                                   {"rules", rules_json(rules)},
                                   {"wall_seconds", wall},
                                   {"steps_per_second", options.steps / std::max(wall, 1e-9)},
                                   {"device_ms_per_step", stages},
                                   {"device_ms_per_step_total", device_total / steps}});
    out << "  figures written to " << options.json_file << "\n";
  }
  return 0;
}

int bench_command(const BenchOptions& options, const clf::DeviceOptions& device,
                  std::ostream& out) {
  if (options.cell_width != 1 && options.cell_width != 2) {
    throw clf::Error("--cell-width must be 1 or 2, got " + std::to_string(options.cell_width));
  }
  if (options.min_n == 0) throw clf::Error("--min-n must be at least 1, got 0");
  check_output("--json", options.json_file);
  const Method method{false, options.cell_width, parse_cell_ranges(options.ranges)};
  const std::unique_ptr<clf::Runtime> runtime = profiling_runtime(device);
  const bool cpu = runtime->device().type == clf::DeviceType::cpu;
  std::size_t max_n = options.max_n != 0 ? options.max_n : Simulation::max_boids(*runtime);
  if (options.max_n == 0 && cpu) max_n = std::min<std::size_t>(max_n, 1u << 18);  // ~1 minute
  out << "cl-boids bench on " << runtime->device_name() << ", cell width " << options.cell_width
      << "x, " << options.seconds << " s per point\n";
  out << std::left << std::setw(9) << "density" << std::right << std::setw(5) << "dims"
      << std::setw(10) << "N" << std::setw(10) << "L" << std::setw(11) << "steps/s" << std::setw(10)
      << "ms/step";
  for (int stage = 0; stage < kStageCount; ++stage) out << std::setw(12) << stage_name(stage);
  out << "\n";

  nlohmann::json rows = nlohmann::json::array();
  for (const char* density : {"default", "dense"}) {
    for (int dims : {2, 3}) {
      if (options.dims != 0 && dims != options.dims) continue;
      for (std::size_t n = options.min_n; n <= max_n; n *= 2) {
        BoidsRules rules = default_rules(dims);
        if (std::string(density) == "dense") {  // 1 boid per unit volume, all radii 2
          rules.cohesion_radius = rules.separation_radius = rules.alignment_radius = 2.0f;
          rules.half_width = half_width_for_density(n, dims, 1.0, 1.0);
        } else {
          rules.half_width = half_width_for_density(n, dims);
        }
        // Few boids: the box the grid needs, as run's default box.
        rules.half_width = std::max(rules.half_width, smallest_default_half_width(rules));
        Simulation simulation(*runtime, rules, n, 1, method);
        simulation.step();  // warm-up: first sort allocates its temporaries
        simulation.step();
        runtime->finish();
        StageRecorder recorder;
        std::size_t steps = 0;
        const Clock::time_point start = Clock::now();
        while (steps < 3 || seconds_since(start) < options.seconds) {
          simulation.step(&recorder);
          ++steps;
          if (steps % 8 == 0) runtime->finish();  // keep the queue short
        }
        runtime->finish();
        const double wall = seconds_since(start);
        const std::array<double, kStageCount> totals = recorder.totals_ms();
        out << std::left << std::setw(9) << density << std::right << std::setw(5) << dims
            << std::setw(10) << n << std::setw(10) << fixed(rules.half_width, 1) << std::setw(11)
            << fixed(steps / wall, 1) << std::setw(10) << fixed(wall * 1000.0 / steps, 3);
        nlohmann::json stages;
        for (int stage = 0; stage < kStageCount; ++stage) {
          out << std::setw(12) << fixed(totals[stage] / steps, 4);
          stages[stage_name(stage)] = totals[stage] / steps;
        }
        out << "\n" << std::flush;
        rows.push_back({{"density", density},
                        {"dims", dims},
                        {"n", n},
                        {"half_width", rules.half_width},
                        {"steps", steps},
                        {"steps_per_second", steps / wall},
                        {"ms_per_step", wall * 1000.0 / steps},
                        {"device_ms_per_step", stages}});
        if (n > max_n / 2) break;
        if (wall / steps > 5.0) break;  // the next size would take too long
      }
    }
  }
  if (!options.json_file.empty()) {
    write_json(
        options.json_file,
        {{"device", runtime->device_name()}, {"cell_width", options.cell_width}, {"rows", rows}});
    out << "table written to " << options.json_file << "\n";
  }
  return 0;
}

}  // namespace boids

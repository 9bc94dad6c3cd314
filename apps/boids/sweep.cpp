#include "apps/boids/sweep.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "apps/boids/report_format.hpp"
#include "framework/atomic_file.hpp"

namespace boids {
namespace {

// %.9g: a float reads back to the same bits, and equal results print equal text.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string duration(double seconds) {
  if (seconds < 120.0) return fixed(seconds, 0) + " s";
  if (seconds < 7200.0) return fixed(seconds / 60.0, 1) + " min";
  return fixed(seconds / 3600.0, 1) + " h";
}

// "cl-boids sweep: 12/64 runs, 3.2 runs/s, about 16 s left" on stderr: redrawn in place on a
// terminal (at most 5 times a second), a line every 10 s otherwise, and always the last.
class SweepProgress {
 public:
  SweepProgress(std::size_t total, std::ostream& log, bool terminal)
      : total_(total), log_(log), terminal_(terminal), start_(Clock::now()) {}

  void update(std::size_t done) {
    const double elapsed = seconds_since(start_);
    const bool last = done == total_;
    if (!last && elapsed - last_draw_ < (terminal_ ? 0.2 : 10.0)) return;
    last_draw_ = elapsed;
    const double rate = done / std::max(elapsed, 1e-9);
    std::ostringstream line;
    line << "cl-boids sweep: " << done << "/" << total_ << " runs, " << fixed(rate, 2)
         << " runs/s, ";
    line << (last ? "done in " + duration(elapsed)
                  : "about " + duration((total_ - done) / std::max(rate, 1e-9)) + " left");
    log_ << (terminal_ ? "\r\033[K" : "") << line.str() << (terminal_ && !last ? "" : "\n")
         << std::flush;
  }

 private:
  std::size_t total_;
  std::ostream& log_;
  bool terminal_;
  Clock::time_point start_;
  double last_draw_ = -1e9;
};

SweepResult run_one(const SweepRun& run, std::size_t steps, clf::Runtime& runtime) {
  Simulation simulation(runtime, run.rules, run.count, run.seed, run.method);
  runtime.finish();
  const Clock::time_point start = Clock::now();
  for (std::size_t s = 0; s < steps; ++s) {
    simulation.step();
    if ((s + 1) % 64 == 0) runtime.finish();  // keep the queue short
  }
  runtime.finish();
  SweepResult result;
  result.finished = true;
  result.step_seconds = seconds_since(start);
  result.device_index = runtime.device().index;
  result.device_name = runtime.device_name();
  result.measures = measure_flock(simulation.state(), run.rules, interaction_radius(run.rules));
  return result;
}

// Any device may get any run, so each must hold the largest N: checked before the first run
// (a run too large failed only when its turn came, and the runs finished before it were lost).
void check_counts_fit(const SweepPlan& plan, const clf::DeviceSet& devices) {
  std::size_t largest = 0;
  std::size_t run = 0;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (plan.runs[i].count > largest) largest = plan.runs[i].count, run = i;
  }
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const std::size_t limit = Simulation::max_boids(devices.at(d));
    if (largest > limit) {
      throw clf::Error("run " + std::to_string(run + 1) + ": --count " + std::to_string(largest) +
                       " is more than " + clf::device_label(devices.at(d)) + " holds (" +
                       std::to_string(limit) + " boids)");
    }
  }
}

void write_summary(const SweepPlan& plan, const std::vector<SweepResult>& results,
                   const clf::DeviceSet& devices, double seconds, std::ostream& out) {
  double boid_steps = 0.0;
  for (const SweepRun& run : plan.runs) boid_steps += static_cast<double>(run.count) * plan.steps;
  out << "cl-boids sweep: " << plan.runs.size() << " runs of " << plan.steps << " steps on "
      << devices.size() << (devices.size() == 1 ? " device" : " devices") << " in "
      << fixed(seconds, 2) << " s: " << fixed(plan.runs.size() / std::max(seconds, 1e-9), 2)
      << " runs/s, " << std::setprecision(3) << boid_steps / std::max(seconds, 1e-9)
      << " boid-steps/s\n";
  for (std::size_t d = 0; d < devices.size(); ++d) {
    std::size_t runs = 0;
    double step_seconds = 0.0;
    for (const SweepResult& r : results) {
      if (r.device != d) continue;
      ++runs;
      step_seconds += r.step_seconds;
    }
    out << "  " << clf::device_label(devices.at(d)) << ": " << runs << " runs, "
        << fixed(step_seconds, 2) << " s stepping\n";
  }
}

}  // namespace

std::vector<SweepResult> run_sweep(
    const SweepPlan& plan, const clf::DeviceSet& devices,
    const std::function<void(std::size_t, const std::vector<SweepResult>&)>& run_done) {
  std::vector<SweepResult> results(plan.runs.size());
  std::mutex mutex;
  std::size_t done = 0;
  std::vector<char> warmed(devices.size(), 0);  // each entry only touched by its device's thread
  clf::for_each_chunk(devices, plan.runs.size(), 1,
                      [&](std::size_t position, clf::Runtime& runtime, clf::WorkRange range) {
                        for (std::size_t i = range.begin; i < range.end; ++i) {
                          // The device's first run's steps/s is not the kernels' build.
                          if (!warmed[position]) {
                            const SweepRun& run = plan.runs[i];
                            warm_up(runtime, run.rules, run.count, run.method);
                          }
                          warmed[position] = 1;
                          SweepResult result = run_one(plan.runs[i], plan.steps, runtime);
                          result.device = position;
                          const std::lock_guard<std::mutex> lock(mutex);
                          results[i] = std::move(result);
                          ++done;
                          if (run_done) run_done(done, results);
                        }
                      });
  return results;
}

std::string sweep_csv(const SweepPlan& plan, const std::vector<SweepResult>& results) {
  std::ostringstream csv;
  csv << "run,count,dims,seed,box,bounded,rc,rs,ra,wc,ws,wa,wg,goal_x,goal_y,goal_z,max_speed,"
         "dt,steps,device,device_name,steps_per_s,polarisation,mean_speed,mean_neighbours,"
         "mean_nearest_distance,isolated_fraction,groups\n";
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const SweepRun& run = plan.runs[i];
    const BoidsRules& r = run.rules;
    const SweepResult& result = results.at(i);
    if (!result.finished) continue;
    const FlockMeasures& m = result.measures;
    csv << i + 1 << "," << run.count << "," << r.dims << "," << run.seed << ","
        << exact(r.half_width) << "," << (r.wrap ? 0 : 1) << "," << exact(r.cohesion_radius) << ","
        << exact(r.separation_radius) << "," << exact(r.alignment_radius) << ","
        << exact(r.cohesion_weight) << "," << exact(r.separation_weight) << ","
        << exact(r.alignment_weight) << "," << exact(r.goal_weight) << "," << exact(r.goal.x) << ","
        << exact(r.goal.y) << "," << exact(r.goal.z) << "," << exact(r.max_speed) << ","
        << exact(r.dt) << "," << plan.steps << "," << result.device_index << ","
        << csv_field(result.device_name) << ","
        << fixed(plan.steps / std::max(result.step_seconds, 1e-9), 1) << ","
        << exact(m.polarisation) << "," << exact(m.mean_speed) << "," << exact(m.mean_neighbours)
        << "," << exact(m.mean_nearest_distance) << "," << exact(m.isolated_fraction) << ","
        << m.groups << "\n";
  }
  return csv.str();
}

int sweep_command(const SweepOptions& options, const clf::DeviceSet& devices, std::ostream& out,
                  std::ostream& log) {
  const SweepPlan plan = make_sweep_plan(options);
  check_counts_fit(plan, devices);
  check_output("--csv", options.csv_file);
  std::ostream& summary = options.csv_file.empty() ? log : out;
  summary << "cl-boids sweep: " << plan.runs.size() << " runs of " << plan.steps << " steps on "
          << devices.description() << "\n"
          << std::flush;
  SweepProgress progress(plan.runs.size(), log, &log == &std::cerr && isatty(STDERR_FILENO));
  const Clock::time_point start = Clock::now();
  double last_checkpoint = 0.0;
  const std::vector<SweepResult> results =
      run_sweep(plan, devices, [&](std::size_t done, const std::vector<SweepResult>& so_far) {
        progress.update(done);
        // A long sweep cut short keeps what it finished.
        if (!options.csv_file.empty() && seconds_since(start) - last_checkpoint >= 60.0) {
          clf::write_file_atomically(options.csv_file, sweep_csv(plan, so_far));
          last_checkpoint = seconds_since(start);
        }
      });
  const double seconds = seconds_since(start);
  const std::string csv = sweep_csv(plan, results);
  if (options.csv_file.empty()) {
    out << csv << std::flush;
  } else {
    clf::write_file_atomically(options.csv_file, csv);
  }
  write_summary(plan, results, devices, seconds, summary);
  if (!options.csv_file.empty())
    summary << "  one row per run written to " << options.csv_file << "\n";
  return 0;
}

int sweep_command(const SweepOptions& options, const clf::DeviceOptions& device,
                  std::ostream& out) {
  make_sweep_plan(options);  // bad options are named before any device opens
  const std::unique_ptr<clf::DeviceSet> devices = device.make_device_set();
  return sweep_command(options, *devices, out, std::cerr);
}

}  // namespace boids

// `cl-boids sweep`: the runs of a SweepPlan spread over the devices of a set, one run at a time
// to whichever device is free (clf::for_each_chunk), each an independent simulation on that
// device's runtime; one CSV row per run, a summary and a progress line. A run's results depend
// only on its parameters and seed, never on the device that ran it or how many there are.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "apps/boids/flock_measures.hpp"
#include "apps/boids/sweep_plan.hpp"
#include "framework/clf.hpp"

namespace boids {

struct SweepResult {
  bool finished = false;   // false: the run has not run (yet)
  std::size_t device = 0;  // position in the device set
  int device_index = 0;    // the device's index in --list-devices
  std::string device_name;
  double step_seconds = 0.0;  // wall time of the steps alone
  FlockMeasures measures;
};

// Runs every run of the plan; results[i] is runs[i]'s. `run_done` (if given) is called after
// each run, never from two threads at once, with the number of runs done and the results so far
// (those not finished yet have finished == false; the others stay as they are meanwhile). Errors as
// clf::for_each_chunk: a failing device is named.
std::vector<SweepResult> run_sweep(
    const SweepPlan& plan, const clf::DeviceSet& devices,
    const std::function<void(std::size_t, const std::vector<SweepResult>&)>& run_done = {});

// The CSV: a header and one row per finished run (its parameters, seed, device, steps/s,
// measures), in the plan's order.
std::string sweep_csv(const SweepPlan& plan, const std::vector<SweepResult>& results);

// The command: the plan (errors before any device opens), the runs, the CSV (--csv, written
// atomically at the end and, with the runs finished so far, every minute before; or `out`), the
// summary on `out` (on `log` when the CSV goes to `out`) and the progress on `log`.
int sweep_command(const SweepOptions& options, const clf::DeviceSet& devices, std::ostream& out,
                  std::ostream& log);
int sweep_command(const SweepOptions& options, const clf::DeviceOptions& device, std::ostream& out);

}  // namespace boids

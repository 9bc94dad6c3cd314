// `cl-boids sweep`'s grid of runs: lists of N, dims and seeds and of any rule parameter
// (--set NAME=LIST), expanded into one independent run per combination, every run's rules
// checked before a device is opened.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "apps/boids/commands.hpp"

namespace boids {

struct SweepOptions {
  std::string counts = "5000";    // --count: N of each run, a list
  std::string dims = "2";         // --dims: a list of 2 and 3
  std::string seeds = "1";        // --seeds: a list of seeds and ranges A-B
  std::vector<std::string> sets;  // --set NAME=LIST, one per swept rule parameter
  std::size_t steps = 200;
  ModelOptions base;     // rules and method every run starts from (--rc, --box, --brute, ...)
  std::string csv_file;  // empty: the CSV goes to stdout
  void add_to(CLI::App& app);
};

// A swept rule parameter and the values it takes, in the order given.
struct SweptParameter {
  std::string name;  // as --set spells it canonically: rc, rs, ..., max-speed, dt, box
  std::vector<double> values;
};

struct SweepRun {
  std::size_t count = 0;
  std::uint64_t seed = 0;
  BoidsRules rules{};
  Method method;
};

struct SweepPlan {
  std::vector<SweepRun> runs;  // count outermost, then dims, the --set lists in order, seeds
  std::vector<SweptParameter> swept;
  std::size_t steps = 0;
};

// Throws clf::Error naming the option and the value that is wrong (a list that does not parse,
// an unknown --set name, a run whose rules are out of range, named with its values).
SweepPlan make_sweep_plan(const SweepOptions& options);

// List grammar, exposed for tests. Whole numbers and inclusive ranges "1,4,6-9"; `option`
// names the list in messages.
std::vector<std::uint64_t> parse_whole_numbers(const std::string& text, const std::string& option);
// Numbers "0.5,1,2" or an inclusive arithmetic range "START:STOP:STEP" ("0.5:2:0.5").
std::vector<double> parse_numbers(const std::string& text, const std::string& option);

}  // namespace boids

// cl-boids' subcommands: their options (registered on CLI11 apps) and what they do. main.cpp
// only wires them up, so tests can call them directly.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "apps/boids/simulation.hpp"
#include "framework/cli.hpp"

namespace boids {

// Where a command writes its results after long work, checked before it (the folder takes a new
// file): throws clf::Error naming the option and the path. Nothing for an empty path.
void check_output(const char* option, const std::string& path);

// The model options `run` (and a GUI) share.
struct ModelOptions {
  int dims = 2;
  std::size_t count = 5000;  // --n; with --init the file's count
  bool count_given = false;
  std::uint64_t seed = 1;
  std::string init_file;
  std::optional<float> box;  // --box L; unset: from the default density
  bool bounded = false;
  int cell_width = 1;
  bool brute = false;
  std::string ranges = "auto";
  // The defaults (default_rules()).
  float rc = 5.0f, rs = 3.0f, ra = 5.0f;
  float wc = 0.01f, ws = 0.1f, wa = 0.1f, wg = 0.0f;
  float max_speed = 1.0f, dt = 0.2f;
  std::string goal;  // "x,y[,z]"

  void add_to(CLI::App& app);
  // Only the rules and the method (--box ... --dt, --cell-width, --ranges, --brute): what a
  // sweep takes as its fixed base (it has its own lists of N, dims and seeds).
  void add_rules_to(CLI::App& app);
  // The rules these options ask for with n boids (validated); throws clf::Error.
  BoidsRules rules(std::size_t n) const;
  Method method() const { return Method{brute, cell_width, parse_cell_ranges(ranges)}; }
};

struct RunOptions {
  ModelOptions model;
  std::size_t steps = 100;
  std::string dump_file;
  std::string png_file;
  std::string json_file;
  int image_size = 800;
  void add_to(CLI::App& app);
};

struct BenchOptions {
  std::size_t min_n = 1024;
  std::size_t max_n = 0;  // 0: the device's limit (capped on CPU devices)
  double seconds = 0.3;   // timed per point (at least 3 steps)
  int cell_width = 1;
  std::string ranges = "auto";
  int dims = 0;  // 0: both
  std::string json_file;
  void add_to(CLI::App& app);
};

// Both print to `out` and return the process exit status; they throw clf::Error for bad input.
int run_command(const RunOptions& options, const clf::DeviceOptions& device, std::ostream& out);
int bench_command(const BenchOptions& options, const clf::DeviceOptions& device, std::ostream& out);

}  // namespace boids

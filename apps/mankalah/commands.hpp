// The cl-mankalah subcommands, as functions over options and streams so tests can drive them.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "apps/mankalah/engine.hpp"

namespace clf {
class Runtime;
}

namespace mankalah {

// Options every subcommand that searches shares.
struct EngineChoice {
  std::string engine = "alphabeta";
  int time_ms = 0;
  int depth = 0;
  int pre = -1, seq = -1, par = -1;        // gpu-layered's split (EngineOptions)
  std::string db_dir;                      // perfect: "" is the default folder
  std::size_t solver_megabytes = 512;      // perfect: the solver's table
  std::function<clf::Runtime&()> runtime;  // created on first use
  EngineOptions options() const;
  SearchLimits limits() const;  // neither given: 1000 ms
};

struct PlayOptions {
  EngineChoice ai;
  std::string first = "human";  // human|ai
  std::string side = "bottom";  // the human's side
  bool script = false;          // moves from the input, no prompts, JSON lines out
  bool selfplay = false;        // the AI plays both sides
  std::string log_path;         // JSON-lines log ("" in script mode: the output)
};
int run_play(const PlayOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

struct AnalyzeOptions {
  EngineChoice ai;
  std::string board;
  std::string to_move = "bottom";
};
int run_analyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& err);

struct PerftOptions {
  int depth = 4;
  std::string engine = "cpu";  // cpu|gpu
  std::string board;           // empty: the start position
  std::string to_move = "bottom";
  std::function<clf::Runtime&()> runtime;
};
int run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err);

struct MatchOptions {
  EngineChoice a, b;
  int games = 10;
  int opening_plies = 4;
  unsigned seed = 1;
  int jobs = 1;        // games played at once, each by its own pair of engines (a device is shared)
  int a_time_ms = 0;   // > 0: A's own time per move
  std::string db_dir;  // both engines' database folder
};
int run_match(const MatchOptions& options, std::ostream& out, std::ostream& err);

struct BenchOptions {
  int min_depth = 4, max_depth = 13;
  double cell_limit_s = 10.0;  // a column stops once its next depth is predicted to take longer
  int split_depth = 0;         // > 0: also time every pre/seq division of this depth
  int reach_ms = 1000;         // the "depth in 1 s" budget
  std::function<clf::Runtime&()> runtime;      // the chosen device
  std::function<clf::Runtime*()> cpu_runtime;  // a CPU OpenCL device, or null
  std::function<clf::Runtime*()> gpu_runtime;  // a GPU OpenCL device, or null
};
int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mankalah

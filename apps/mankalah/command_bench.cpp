// cl-mankalah bench: full-width minimax from the start position, sequential against the
// layered search on a CPU and a GPU OpenCL device (the table of Kloosterman's senior project,
// docs/mankalah.md), the depth every engine reaches in a time budget, and the pre/seq division of
// a depth.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/gpu_search.hpp"

namespace mankalah {

namespace {

// An engine for the reach table that has searched `board` 3 plies deep: kernel builds are not
// part of any budget.
std::unique_ptr<Engine> warmed_up_engine(const std::string& name, const BenchOptions& options,
                                         const KalahBoard& board) {
  EngineOptions engine_options;
  engine_options.runtime = options.runtime;
  std::unique_ptr<Engine> engine = make_engine(name, engine_options);
  SearchLimits warm;
  warm.depth = 3;
  engine->search(board, warm);
  return engine;
}

// One row of the depth table: the three columns' times (-1: not run), values and moves.
struct DepthRow {
  double seconds[3] = {-1, -1, -1};
  int values[3] = {0, 0, 0};
  int moves[3] = {-1, -1, -1};
  std::uint64_t sequential_nodes = 0;

  std::string time(int column) const {
    if (seconds[column] < 0) return "-";
    std::ostringstream text;
    text << std::fixed << std::setprecision(6) << seconds[column];
    return text.str();
  }
  std::string speedup(int column) const {
    if (seconds[column] <= 0 || seconds[0] <= 0) return "-";
    std::ostringstream text;
    text << std::fixed << std::setprecision(2) << seconds[0] / seconds[column] << "x";
    return text.str();
  }
  // Whether every layered column found the sequential value and move.
  bool agree() const {
    for (int column = 1; column < 3; ++column) {
      if (seconds[column] >= 0 && seconds[0] >= 0 &&
          (values[column] != values[0] || moves[column] != moves[0])) {
        return false;
      }
    }
    return true;
  }
};

// Sequential minimax against the layered search on each device, depth by depth, until every
// column's next depth is predicted to take longer than the cell limit.
void print_depth_table(const BenchOptions& options, LayeredSearch* on_cpu, LayeredSearch* on_gpu,
                       std::ostream& out, std::ostream& err) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  out << "| depth | nodes (sequential) | sequential (s) | layered, CPU device (s) | layered, GPU "
         "(s) | split "
         "(GPU) | speedup CPU dev | speedup GPU | values |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  double last[3] = {0, 0, 0};
  bool skip[3] = {false, on_cpu == nullptr, on_gpu == nullptr};
  LayeredSearch* layered = on_gpu != nullptr ? on_gpu : on_cpu;
  for (int depth = options.min_depth; depth <= options.max_depth; ++depth) {
    DepthRow row;
    for (int column = 0; column < 3; ++column) {
      if (skip[column]) continue;
      if (last[column] > 0 && last[column] * 6 > options.cell_limit_s) {
        skip[column] = true;
        continue;
      }
      const auto t0 = std::chrono::steady_clock::now();
      const MinimaxOutcome outcome = column == 0 ? minimax(start, depth)
                                     : column == 1
                                         ? on_cpu->search_depth(start, depth, {}, nullptr)
                                         : on_gpu->search_depth(start, depth, {}, nullptr);
      row.seconds[column] = last[column] = seconds_since(t0);
      row.values[column] = outcome.value;
      row.moves[column] = outcome.move;
      if (column == 0) row.sequential_nodes = outcome.nodes;
    }
    if (row.seconds[0] < 0 && row.seconds[1] < 0 && row.seconds[2] < 0) break;
    std::string split = "-";
    if (layered != nullptr) {
      const LayerSplit s = layered->choose_split(depth, {});
      split = std::to_string(s.pre) + "+" + std::to_string(s.seq) + "+" + std::to_string(s.par);
    }
    out << "| " << depth << " | "
        << (row.seconds[0] >= 0 ? std::to_string(row.sequential_nodes) : "-") << " | "
        << row.time(0) << " | " << row.time(1) << " | " << row.time(2) << " | " << split << " | "
        << row.speedup(1) << " | " << row.speedup(2) << " | " << (row.agree() ? "equal" : "DIFFER")
        << " |\n"
        << std::flush;
    err << "depth " << depth << " done\n";
  }
}

// The depth each searching engine reaches from the start in the budget (bonzo does not search;
// perfect proves moves, which have no depth, and its fallback is alphabeta's search).
void print_reach_table(const BenchOptions& options, std::ostream& out) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  out << "\nDepth reached from the start position in " << options.reach_ms << " ms:\n\n";
  out << "| engine | depth | nodes | ms | move | score |\n|---|---|---|---|---|---|\n";
  for (const std::string& name : engine_names()) {
    if (name == "bonzo" || name == "perfect") continue;
    std::unique_ptr<Engine> engine = warmed_up_engine(name, options, start);
    SearchLimits limits;
    limits.time_ms = options.reach_ms;
    const SearchResult result = engine->search(start, limits);
    out << "| " << name << " | " << result.depth << " | " << result.nodes << " | " << std::fixed
        << std::setprecision(1) << result.ms << " | " << result.move << " | " << result.score
        << " |\n"
        << std::flush;
  }
}

// How to divide a depth's host plies between plain recursion (pre) and the frontier batch
// (seq): every division with the device's par, timed.
void print_split_table(const BenchOptions& options, LayeredSearch& layered, std::ostream& out) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  const int depth = options.split_depth;
  const int par = layered.choose_split(depth, {}).par;
  out << "\nSplits at depth " << depth << " on " << layered.runtime().device_name()
      << ":\n\n| pre | seq | par | seconds |\n|---|---|---|---|\n";
  for (int pre = std::max(0, depth - par - 8); pre < depth - par; ++pre) {
    const LayerSplit split{pre, depth - par - pre, par};
    const auto t0 = std::chrono::steady_clock::now();
    layered.search_depth(start, depth, split, nullptr);
    out << "| " << split.pre << " | " << split.seq << " | " << split.par << " | " << std::fixed
        << std::setprecision(4) << seconds_since(t0) << " |\n"
        << std::flush;
  }
}

}  // namespace

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  clf::Runtime* cpu_device = options.cpu_runtime ? options.cpu_runtime() : nullptr;
  clf::Runtime* gpu_device = options.gpu_runtime ? options.gpu_runtime() : nullptr;
  std::unique_ptr<LayeredSearch> on_cpu, on_gpu;
  if (cpu_device) on_cpu = std::make_unique<LayeredSearch>(*cpu_device);
  if (gpu_device) on_gpu = std::make_unique<LayeredSearch>(*gpu_device);
  out << "Full-width minimax from the start position (BOTTOM to move), seconds; the layered "
         "split is pre+seq+par with par from the device's local memory.\n";
  out << "CPU device: " << (cpu_device ? cpu_device->device_name() : "none")
      << "; GPU: " << (gpu_device ? gpu_device->device_name() : "none") << "\n\n";
  // Warm-up: build the kernels before timing.
  if (on_cpu) on_cpu->search_depth(start, 2, {}, nullptr);
  if (on_gpu) on_gpu->search_depth(start, 2, {}, nullptr);
  print_depth_table(options, on_cpu.get(), on_gpu.get(), out, err);
  print_reach_table(options, out);
  LayeredSearch* layered = on_gpu ? on_gpu.get() : on_cpu.get();
  if (options.split_depth > 0 && layered != nullptr) print_split_table(options, *layered, out);
  return 0;
}

}  // namespace mankalah

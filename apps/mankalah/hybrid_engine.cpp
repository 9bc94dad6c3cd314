#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "apps/mankalah/gpu_search.hpp"
#include "apps/mankalah/minimax_core.hpp"

namespace mankalah {

namespace {

// A cheap full-width value, the provisional stand-in for a queued horizon position.
int shallow_value(const KalahBoard& board, int depth) {
  if (depth == 0 || kalah_is_over(&board)) return kalah_leaf_value(&board);
  return best_over_children(
      board, [&](const KalahBoard& child) { return shallow_value(child, depth - 1); });
}

// Plies of that stand-in. Measured on the H200 (docs/mankalah.md): 0, 1 and 2 plies need about
// as many passes; one ply is the cheapest on the host.
constexpr int kProvisionalPlies = 1;
// Iterative deepening stays on the CPU until a depth takes this long: shallow depths take
// less time there than one device round trip per pass.
constexpr double kCpuOnlyDepthMs = 15;
// The table of known device values is dropped when it holds this many positions (96 MB), and a
// pass queues at most kMaxQueued.
constexpr std::size_t kMaxKnown = std::size_t{1} << 21;
constexpr std::size_t kMaxQueued = std::size_t{1} << 20;

}  // namespace

HybridEngine::HybridEngine(clf::Runtime& runtime, std::size_t tt_megabytes, int gpu_plies,
                           int split_plies)
    : gpu_(runtime, split_plies >= 0 ? split_plies
                                     : (runtime.device().type == clf::DeviceType::gpu ? 1 : 0)),
      top_(tt_megabytes),
      cpu_(std::max<std::size_t>(tt_megabytes / 8, 1)),
      gpu_plies_(gpu_plies),
      known_(kMaxKnown),
      queued_(kMaxQueued) {
  // Tuned on the H200 (docs/mankalah.md): 6 device plies, the first split on the host. CPU
  // devices run work-items no faster than the host, so they get short subtrees.
  if (gpu_plies_ < 0) gpu_plies_ = runtime.device().type == clf::DeviceType::gpu ? 6 : 3;
  gpu_plies_ = std::min(gpu_plies_, SubtreeSearch::kMaxPlies);
}

KalahBoard HybridEngine::keyed(const KalahBoard& board, int gpu_plies) {
  KalahBoard keyed = board;
  keyed.mark = static_cast<cl_uchar>(gpu_plies);
  return keyed;
}

void HybridEngine::queue_unknown(const KalahBoard& board, int gpu_plies) {
  // A full queue table queues no more this pass: the positions left out stay provisional and
  // the next pass meets them again.
  if (queued_.full()) return;
  if (queued_.insert(keyed(board, gpu_plies), 0)) queue_.push_back(board);
}

bool HybridEngine::evaluate_queue(int gpu_plies, StopClock* clock, Stats* stats) {
  std::vector<int> values(queue_.size());
  const auto start = std::chrono::steady_clock::now();
  // A few positions cost less on the host than one device round trip.
  const double device_s = gpu_.predict_seconds(queue_.size(), gpu_plies);
  const bool on_host = cpu_seconds_per_position_ > 0
                           ? cpu_seconds_per_position_ * queue_.size() < device_s
                           : queue_.size() <= 4;
  if (on_host) {
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const MinimaxOutcome outcome = cpu_.search_depth(queue_[i], gpu_plies, clock);
      if (outcome.aborted) return false;
      values[i] = outcome.value;
      stats->horizon_nodes += outcome.nodes;
    }
    const double seconds = seconds_since(start);
    cpu_seconds_per_position_ = seconds / queue_.size();
    stats->host_valued += queue_.size();
    stats->host_valued_ms += seconds * 1e3;
  } else {
    if (!gpu_.evaluate(queue_, gpu_plies, &values, &stats->horizon_nodes, clock)) return false;
    stats->device_valued += queue_.size();
    stats->device_ms += seconds_since(start) * 1e3;
  }
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    if (known_.full()) known_.clear();
    known_.insert(keyed(queue_[i], gpu_plies), values[i]);
  }
  queue_.clear();
  queued_.clear();
  return true;
}

MinimaxOutcome HybridEngine::search_depth(const KalahBoard& board, int depth, StopClock* clock) {
  const int gpu_plies = std::max(0, std::min(gpu_plies_, depth - 1));
  // Stored values are exact values of (remaining + gpu_plies) plies: they stay valid from one
  // depth, pass and move to the next as long as gpu_plies does.
  if (gpu_plies != table_gpu_plies_) {
    top_.new_generation();
    table_gpu_plies_ = gpu_plies;
  }
  Stats stats;
  const auto start = std::chrono::steady_clock::now();
  queue_.clear();
  queued_.clear();
  top_.set_leaf_evaluator([&](const KalahBoard& leaf, bool* provisional) {
    if (const int* known = known_.find(keyed(leaf, gpu_plies))) return *known;
    queue_unknown(leaf, gpu_plies);
    *provisional = true;  // this pass will be repeated
    return shallow_value(leaf, std::min(kProvisionalPlies, gpu_plies));
  });
  MinimaxOutcome outcome;
  for (;;) {
    const auto pass_start = std::chrono::steady_clock::now();
    outcome = top_.search_depth(board, depth - gpu_plies, clock);
    stats.search_ms += seconds_since(pass_start) * 1e3;
    ++stats.passes;
    stats.search_nodes += outcome.nodes;
    if (outcome.aborted || queue_.empty()) break;
    if (!evaluate_queue(gpu_plies, clock, &stats)) {
      outcome.aborted = true;
      break;
    }
  }
  top_.set_leaf_evaluator(nullptr);
  if (std::getenv("MANKALAH_TRACE") != nullptr) {
    std::fprintf(
        stderr,
        "hybrid depth %d = %d host + %d device plies: %d passes, %zu positions valued "
        "on the device (%.1f ms), %zu on the host (%.1f ms); the passes' host search %.1f ms "
        "(%.2f M positions); %.1f ms%s\n",
        depth, depth - gpu_plies, gpu_plies, stats.passes, stats.device_valued, stats.device_ms,
        stats.host_valued, stats.host_valued_ms, stats.search_ms,
        static_cast<double>(stats.search_nodes) * 1e-6, seconds_since(start) * 1e3,
        outcome.aborted ? ", aborted" : "");
  }
  outcome.nodes = stats.search_nodes + stats.horizon_nodes;
  return outcome;
}

SearchResult HybridEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  // The shallow depths run on the host with the same table (heuristic leaves: its values mean
  // something else, so they are forgotten when the device takes over, its moves are kept and
  // order the device passes).
  top_.new_generation();
  table_gpu_plies_ = -1;
  bool host_only = true;
  return iterative_deepening(
      board, limits,
      [&](int depth, StopClock* clock) {
        if (!host_only) return search_depth(board, depth, clock);
        const auto start = std::chrono::steady_clock::now();
        MinimaxOutcome outcome = top_.search_depth(board, depth, clock);
        host_only = seconds_since(start) * 1e3 < kCpuOnlyDepthMs;
        return outcome;
      },
      progress_);
}

}  // namespace mankalah

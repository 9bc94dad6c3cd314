// GPU searches: the three-stage layered minimax (CPU levels on top, a CPU-built frontier, one
// work-group per frontier position evaluating the bottom plies in local memory; after
// Kloosterman's senior project, docs/mankalah.md) and GPU perft in layered_search.cpp, the subtree
// search (one work-item per position) in subtree_search.cpp, and the hybrid engine (alpha-beta
// on the CPU, exact GPU subtree values at its horizon) in hybrid_engine.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/launch_cost.hpp"
#include "apps/mankalah/position_table.hpp"
#include "framework/clf.hpp"

namespace mankalah {

// How a depth is split: `pre` plies of plain recursion, `seq` plies whose positions form one
// frontier batch, `par` plies per frontier position on the device. As a request, -1 means "choose".
struct LayerSplit {
  int pre = -1;
  int seq = -1;
  int par = -1;
};

class LayeredSearch {
 public:
  explicit LayeredSearch(clf::Runtime& runtime);

  clf::Runtime& runtime() { return runtime_; }
  // The most device plies a work-group can hold: its tree of (6^par - 1) / 5 positions must
  // fit the device's local memory (5 on 48 KiB).
  int max_par() const { return max_par_; }
  // Work-items per group (the same for every split): the largest divisor of 6^(max_par-1)
  // that the kernel allows.
  std::size_t group_size(int par) const;
  // The split for `depth`: requested values where given (-1: choose), the rest filled in so
  // pre + seq + par = depth, par <= max_par and the frontier stays under a few million positions.
  LayerSplit choose_split(int depth, const LayerSplit& requested) const;

  // Minimax values of `boards` searched `plies` deep (0: their leaf values, on the CPU), and
  // the number of leaves. Launches in chunks and returns false if `clock` ran out between them.
  bool evaluate(const std::vector<KalahBoard>& boards, int plies, std::vector<int>* values,
                std::uint64_t* leaves, StopClock* clock);

  // One full-width search; value and move equal minimax(board, depth).
  MinimaxOutcome search_depth(const KalahBoard& board, int depth, const LayerSplit& requested,
                              StopClock* clock);
  // perft with the bottom `par` plies (-1: max_par) counted on the device.
  std::uint64_t perft(const KalahBoard& board, int depth, int par = -1);

 private:
  int pre_search(const KalahBoard& board, int pre_left, const LayerSplit& split, int ply,
                 int* move);
  void collect(const KalahBoard& board, int seq_left, std::vector<KalahBoard>* frontier);
  int reduce(const KalahBoard& board, int seq_left, const std::vector<int>& values,
             std::size_t* next, int* move);

  clf::Runtime& runtime_;
  clf::CLKernel kernel_;
  int max_par_ = 1;
  LaunchCost cost_[8];  // per plies, to size launch chunks
  StopClock* clock_ = nullptr;
  bool aborted_ = false;
  std::uint64_t nodes_ = 0;
};

// Exact values of many positions to a few plies, one work-item per position running alpha-beta
// in private memory (kernels/mankalah/subtree_alphabeta.cl): the hybrid engine's device stage.
class SubtreeSearch {
 public:
  static constexpr int kMaxPlies = 16;
  // `split_plies`: the top plies of each subtree played out on the host, so the device gets
  // one work-item per resulting position: more, shorter searches (a GPU's batch takes as long
  // as its longest search) at the price of no pruning in those plies.
  explicit SubtreeSearch(clf::Runtime& runtime, int split_plies = 0);
  int split_plies() const { return split_plies_; }
  // The expected time of evaluate(count positions, plies); 0 before anything is measured.
  double predict_seconds(std::size_t count, int plies) const;
  // Like LayeredSearch::evaluate; `nodes` gets the positions visited.
  bool evaluate(const std::vector<KalahBoard>& boards, int plies, std::vector<int>* values,
                std::uint64_t* nodes, StopClock* clock);

 private:
  int split_for(int plies) const;  // the host-split plies of a `plies`-deep search
  bool evaluate_split(const std::vector<KalahBoard>& boards, int plies, int split,
                      std::vector<int>* values, std::uint64_t* nodes, StopClock* clock);
  bool evaluate_on_device(const std::vector<KalahBoard>& boards, int plies,
                          std::vector<int>* values, std::uint64_t* nodes, StopClock* clock);

  clf::Runtime& runtime_;
  int split_plies_ = 0;
  clf::CLKernel kernel_;
  LaunchCost cost_[kMaxPlies + 1];
};

class GpuLayeredEngine : public Engine {
 public:
  GpuLayeredEngine(clf::Runtime& runtime, const LayerSplit& split)
      : search_(runtime), split_(split) {}
  std::string name() const override { return "gpu-layered"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;
  LayeredSearch& layered() { return search_; }

 private:
  LayeredSearch search_;
  LayerSplit split_;
};

// Alpha-beta on the CPU down to depth - g; each horizon position's value is its exact g-ply
// minimax value, computed on the device (SubtreeSearch) in batches: a pass that meets unknown
// horizon positions gives them a 1-ply value provisionally and queues them; the queue is
// evaluated in one launch (a handful of positions on the host, where that is quicker) and the
// pass repeated until one meets none. The last pass is alpha-beta over exact values, so the root
// value equals minimax(board, depth). Values computed from provisional leaves are never stored,
// so the table and the known values carry over between passes, depths and moves. A timed search
// runs plain alpha-beta until a depth takes kCpuOnlyDepthMs, then goes to the device.
class HybridEngine : public Engine {
 public:
  // gpu_plies, split_plies < 0: chosen from the device.
  HybridEngine(clf::Runtime& runtime, std::size_t tt_megabytes, int gpu_plies,
               int split_plies = -1);
  std::string name() const override { return "hybrid"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;
  // One fixed depth with the device (a timed search starts on the host instead).
  MinimaxOutcome search_depth(const KalahBoard& board, int depth, StopClock* clock);
  int gpu_plies() const { return gpu_plies_; }

 private:
  struct Stats {
    int passes = 0;
    std::size_t device_valued = 0, host_valued = 0;  // horizon positions, by where
    std::uint64_t search_nodes = 0;                  // the passes' positions
    std::uint64_t horizon_nodes = 0;                 // those below the horizon
    double search_ms = 0, device_ms = 0, host_valued_ms = 0;
  };
  // The board as the tables key it: values of different device depths never mix.
  static KalahBoard keyed(const KalahBoard& board, int gpu_plies);
  void queue_unknown(const KalahBoard& board, int gpu_plies);
  // Values the queue and adds them to known_; false when the clock ran out.
  bool evaluate_queue(int gpu_plies, StopClock* clock, Stats* stats);

  SubtreeSearch gpu_;
  AlphaBeta top_;  // the passes over device values, and the shallow depths of a timed search
  AlphaBeta cpu_;  // horizon positions valued on the host
  int gpu_plies_;
  int table_gpu_plies_ = -1;             // the gpu_plies top_'s values were computed with
  double cpu_seconds_per_position_ = 0;  // measured, to choose host or device for a queue
  PositionTable known_;                  // exact gpu_plies-deep values
  PositionTable queued_;                 // the positions in queue_
  std::vector<KalahBoard> queue_;
};

}  // namespace mankalah

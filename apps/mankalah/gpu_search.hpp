// The GPU search: the three-stage layered minimax (CPU levels on top, a CPU-built frontier, one
// work-group per frontier position evaluating the bottom plies in local memory; after
// Kloosterman's senior project, docs/mankalah.md) and GPU perft, in layered_search.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/launch_cost.hpp"
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

}  // namespace mankalah

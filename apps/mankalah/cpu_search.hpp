// CPU searches: the sequential full-width minimax every engine is checked against, perft, and
// alpha-beta with iterative deepening, a transposition table and move ordering.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "apps/mankalah/engine.hpp"

namespace mankalah {

// Full-width minimax of `depth` plies (ties: lowest cell index). `pv` gets the principal
// variation; `nodes` counts every position visited. Returns the value; sets `move` at the root.
struct MinimaxOutcome {
  int value = 0;
  int move = -1;
  std::vector<int> pv;
  std::uint64_t nodes = 0;
  bool aborted = false;
};
MinimaxOutcome minimax(const KalahBoard& board, int depth, StopClock* clock = nullptr);

// Leaves of the full-width tree of `depth` plies (a finished game is a leaf where it occurs).
std::uint64_t perft(const KalahBoard& board, int depth);

class MinimaxEngine : public Engine {
 public:
  std::string name() const override { return "minimax"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;
};

class BonzoEngine : public Engine {
 public:
  std::string name() const override { return "bonzo"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;
};

// Alpha-beta over TOP-is-MAX values, the heuristic at the horizon. With a fixed depth the root
// value equals minimax's, and so does the move: lower-index moves are re-searched with a window
// that admits ties, and the table only answers for the same remaining depth.
class AlphaBeta {
 public:
  // Returns true and sets `*value` (TOP's view, x 1000 like a finished game) when a position's
  // exact value is known without searching it: the perfect engine's endgame databases.
  using ExactEvaluator = std::function<bool(const KalahBoard&, int* value)>;

  // The largest transposition table, 1 TiB: far from overflowing its size in bytes.
  static constexpr std::size_t kMaxMegabytes = std::size_t{1} << 20;

  // Throws std::invalid_argument naming the size when `tt_megabytes` is over kMaxMegabytes.
  explicit AlphaBeta(std::size_t tt_megabytes);
  void set_exact_evaluator(ExactEvaluator exact) { exact_ = std::move(exact); }
  void clear();

  // One fixed-depth search; `aborted` when the clock ran out (the result is then unusable).
  MinimaxOutcome search_depth(const KalahBoard& board, int depth, StopClock* clock);

 private:
  // What a stored value says about the position's true value at the stored depth.
  enum class Bound : std::uint8_t {
    none,   // nothing stored yet
    exact,  // it is the value
    lower,  // the value is at least this (the search failed high)
    upper,  // the value is at most this (the search failed low)
  };
  // 32 bytes, so that no entry straddles two cache lines.
  struct alignas(32) Entry {
    std::uint64_t key0 = 0, key1 = 0;
    std::int32_t value = 0;
    std::int8_t depth = -1;
    Bound bound = Bound::none;
    std::int8_t move = -1;
  };
  int search(const KalahBoard& board, int depth, int alpha, int beta, int ply);
  Entry* probe(const KalahBoard& board, std::uint64_t* key0, std::uint64_t* key1);
  int order_moves(const KalahBoard& board, int tt_move, int* moves) const;

  std::vector<Entry> table_;
  ExactEvaluator exact_;
  StopClock* clock_ = nullptr;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  static constexpr int kMaxPly = 128;
  int pv_[kMaxPly][kMaxPly] = {};
  int pv_length_[kMaxPly] = {};
};

class AlphaBetaEngine : public Engine {
 public:
  explicit AlphaBetaEngine(std::size_t tt_megabytes) : search_(tt_megabytes) {}
  std::string name() const override { return "alphabeta"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;

 private:
  AlphaBeta search_;
};

// Runs `one_depth(d)` for d = 1, 2, ... under `limits`, keeping the last completed result and
// not starting a depth the clock predicts cannot finish (its time grows by the measured factor).
SearchResult iterative_deepening(const KalahBoard& board, const SearchLimits& limits,
                                 const std::function<MinimaxOutcome(int, StopClock*)>& one_depth,
                                 const ProgressCallback& progress);

}  // namespace mankalah

// The perfect engine: the exact best move wherever it can prove one in its time, else the best
// move of an alpha-beta search whose every position inside the endgame databases is exact.
//
// Each move: a position proved before (this game, or read from the solved-positions file) is
// answered at once; otherwise the solver gets most of the budget, and when it proves the value
// the move is exact (the position and its principal variation are remembered, on disk too). When
// it cannot, alpha-beta with the databases at every covered position plays the rest of the
// budget and says so. The solver keeps its table from move to move, so each move starts from
// what the previous ones proved.
#pragma once

#include <filesystem>
#include <future>
#include <memory>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/engine.hpp"
#include "apps/mankalah/solver/solved_positions.hpp"
#include "apps/mankalah/solver/solver.hpp"

namespace mankalah {

class PerfectEngine : public Engine {
 public:
  explicit PerfectEngine(const EngineOptions& options);
  ~PerfectEngine() override;  // writes what it proved that is not on disk yet
  std::string name() const override { return "perfect"; }
  SearchResult search(const KalahBoard& board, const SearchLimits& limits) override;

  // The most stones in play the databases cover (-1: none found).
  int database_stones() const { return database_.max_stones(); }
  // Every legal move's exact margin for the side to move, or empty when it cannot be proved
  // within `time_ms`: the window's hint.
  std::vector<std::pair<int, int>> move_margins(const KalahBoard& board, int time_ms,
                                                const std::atomic<bool>* stop);

 private:
  SearchResult exact_result(const KalahBoard& board, int value, std::vector<int> pv) const;
  void remember_line(const KalahBoard& board, int value, const std::vector<int>& pv);

  endgame::EndgameDatabase database_;
  solver::Solver solver_;
  AlphaBeta fallback_;
  std::filesystem::path solved_path_;
  solver::SolvedPositions solved_;
  // The last write of the solved positions, off the search's clock (it flushes to disk).
  std::future<void> saving_;
};

}  // namespace mankalah

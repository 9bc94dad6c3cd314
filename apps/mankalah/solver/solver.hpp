// The exact solver: the value of a Kalah position with perfect play by both sides, proved by
// null-window alpha-beta searches (MTD(f)) over the whole game tree, cut short by the endgame
// databases (a position with few enough stones in play is a lookup) and by a transposition
// table of proved bounds shared by several threads.
//
// Values are the databases': the largest (mover's final score - opponent's) the side to move can
// force over the stones still in play; a whole game's margin adds the stores' difference. The
// search is negamax over that value: a move worth `gain` stones to the mover (its store's change
// minus the opponent's, the sweep at the end included) is worth gain + v(child) when the mover
// moves again and gain - v(child) otherwise.
//
// Threads share the table and nothing else (lazy SMP): each runs the same MTD(f) from the root,
// the helpers with their moves in another order near the root, so they prove different subtrees
// first and leave the bounds there for the others; the first to finish has the answer. Every
// bound in the table is a proved fact, so the answer does not depend on the threads' timing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "apps/mankalah/solver/solved_table.hpp"
#include "shared/mankalah/kalah.h"

namespace mankalah::endgame {
class EndgameDatabase;
}

namespace mankalah::solver {

struct SolveLimits {
  int time_ms = 0;                          // 0: until solved
  const std::atomic<bool>* stop = nullptr;  // set by another thread to give up
};

// What one null-window test found, for progress lines.
struct SolveProgress {
  int lower, upper;  // the value's bounds so far (mover's view, stones in play)
  std::uint64_t nodes;
  double ms;
};
using SolveProgressCallback = std::function<void(const SolveProgress&)>;

struct SolveResult {
  bool solved = false;  // false: stopped first; `lower`/`upper` say how far it got
  int value = 0;        // the mover's value over the stones in play (when solved)
  int lower = 0, upper = 0;
  int move = -1;        // a best move (cell), -1 when the game is over
  std::vector<int> pv;  // a line of best moves to the end of the game (when solved)
  std::uint64_t nodes = 0;
  std::uint64_t database_hits = 0;
  double ms = 0;
  // The whole game's margin for the side to move: value plus its store minus the other's.
  int margin(const KalahBoard& board) const;
};

// Plays `pit`, a best move of `board` whose value is `value`, into `*after`, and returns the
// value of `*after` for its side to move (the moves of a principal variation keep the margin).
int value_after_best_move(const KalahBoard& board, int value, int pit, KalahBoard* after);

class Solver {
 public:
  // `database` may be null (no lookups) and must outlive the solver.
  Solver(const endgame::EndgameDatabase* database, std::size_t table_megabytes, int threads);

  // Solves `board` (either side to move). The table is kept, so solving the positions of one
  // game one after the other reuses what the earlier solves proved. This, move_values and
  // remember throw std::invalid_argument for a board with more than SolvedTable::kMaxStones
  // stones in play.
  SolveResult solve(const KalahBoard& board, const SolveLimits& limits = {});
  // Every legal move's exact value (the mover's whole-game margin after it), in cell order, or
  // an empty vector when stopped first.
  std::vector<std::pair<int, int>> move_values(const KalahBoard& board,
                                               const SolveLimits& limits = {});
  // Enters a value proved earlier (e.g. read from disk) into the table, with its best move.
  void remember(const KalahBoard& board, int value, int move_cell);
  void set_progress(SolveProgressCallback progress) { progress_ = std::move(progress); }
  const endgame::EndgameDatabase* database() const { return database_; }
  void clear_table() { table_.clear(); }
  int threads() const { return threads_; }

 private:
  class Search;
  // The caller's limits as a flag and one deadline for everything a call does (the principal
  // variation and the moves' values are several solves).
  struct Budget {
    const std::atomic<bool>* stop;
    std::chrono::steady_clock::time_point deadline;
  };
  static Budget budget_of(const SolveLimits& limits);
  // MTD(f) from `guess` on all threads; `report` sends its progress to the callback.
  bool run_mtdf(const KalahBoard& board, int guess, SolveResult* result, const Budget& budget,
                bool report = false);
  std::vector<int> principal_variation(const KalahBoard& board, int value, const Budget& budget,
                                       SolveResult* result);
  // The value of `board` from the game's end, the databases, the table or a solve.
  bool exact_value(const KalahBoard& board, int guess, const Budget& budget, SolveResult* result,
                   int* value, bool report = false);

  const endgame::EndgameDatabase* database_;
  SolvedTable table_;
  int threads_;
  SolveProgressCallback progress_;
};

}  // namespace mankalah::solver

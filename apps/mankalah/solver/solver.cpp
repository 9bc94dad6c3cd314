#include "apps/mankalah/solver/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/engine.hpp"
#include "framework/stopwatch.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::solver {

namespace {

using Clock = std::chrono::steady_clock;

int opponent(int side) { return 1 - side; }

// Stones in `side`'s store minus the other side's.
int store_difference(const KalahBoard& board, int side) {
  return board.cells[kalah_store(side)] - board.cells[kalah_store(opponent(side))];
}

// The table keeps each bound in a byte: a board with more stones in play would have its bounds
// wrapped around (wrong values, not an error), so it is refused.
void check_stones(const KalahBoard& board) {
  const int stones = kalah_endgame_stones(&board);
  if (stones > SolvedTable::kMaxStones) {
    throw std::invalid_argument("solver: the board has " + std::to_string(stones) +
                                " stones in play; the solver takes at most " +
                                std::to_string(SolvedTable::kMaxStones));
  }
}

// The value of a board whose game is over as far as the rows go (one row empty): each row goes
// to its owner.
int finished_value(const KalahBoard& board) {
  return kalah_row_sum(&board, board.to_move) - kalah_row_sum(&board, opponent(board.to_move));
}

// A value over n stones in play is (mover's share) - (n - mover's share): it has n's parity.
int round_up_to_parity(int bound, int stones) {
  return (bound - stones) % 2 != 0 ? bound + 1 : bound;
}
int round_down_to_parity(int bound, int stones) {
  return (bound - stones) % 2 != 0 ? bound - 1 : bound;
}

// When to give up: the caller's flag, the deadline, or another thread having finished.
class StopSignal {
 public:
  StopSignal(const std::atomic<bool>* external, Clock::time_point deadline)
      : external_(external), deadline_(deadline) {}
  bool should_stop() {
    if (done_.load(std::memory_order_relaxed)) return true;
    if ((external_ != nullptr && external_->load(std::memory_order_relaxed)) ||
        Clock::now() >= deadline_) {
      done_.store(true, std::memory_order_relaxed);
      return true;
    }
    return false;
  }
  void finish() { done_.store(true, std::memory_order_relaxed); }

 private:
  const std::atomic<bool>* external_;
  Clock::time_point deadline_;
  std::atomic<bool> done_{false};
};

// One legal move, what it leads to, and what is known of its value before searching it.
struct Move {
  int pit;
  int gain;          // the mover's store change minus the opponent's
  bool game_over;    // the move ended the game: `gain` is its whole value
  bool again;        // the mover moves again
  int order;         // higher is searched first
  int lower, upper;  // bounds on the move's value for the mover
  KalahBoard child;
  int stones;                     // in the child's pits
  PitsKey key;                    // the child's table key (above the databases)
  Bounds child_bounds;            // the child's bounds from the table, for its own search
  const cl_char* database_entry;  // the child's value when the databases cover it
};

}  // namespace

int value_after_best_move(const KalahBoard& board, int value, int pit, KalahBoard* after) {
  *after = board;
  kalah_sow(after, pit);
  const int left =
      value - (store_difference(*after, board.to_move) - store_difference(board, board.to_move));
  return after->to_move == board.to_move ? left : -left;
}

int SolveResult::margin(const KalahBoard& board) const {
  return value + store_difference(board, board.to_move);
}

// One thread's search: negamax alpha-beta, fail-soft, over the values of positions.
//
// A node expands all its moves first and prefetches what their values need (the child's table
// bucket, or its byte in the databases), since a search this size is bound by memory latency:
// the loads of the six children then overlap. Children the databases cover and moves that end
// the game are exact at once; a child's table bounds bound its move; so a node often cuts off
// (or fails low) before searching any child, and a move that cannot beat the best so far is not
// searched at all.
class Solver::Search {
 public:
  Search(const endgame::EndgameDatabase* database, SolvedTable& table, int variant,
         StopSignal& stop)
      : table_(table), variant_(variant), stop_(stop) {
    if (database != nullptr) levels_ = database->level_values();
  }

  // The value of `board` (not over, above the databases) if it lies inside (alpha, beta); else a
  // bound past the window on the side it failed (<= alpha: an upper bound, >= beta: a lower
  // bound).
  int search(const KalahBoard& board, int alpha, int beta) {
    const PitsKey key = pits_key(board);
    const int stones = kalah_endgame_stones(&board);
    Bounds known{-stones, stones, -1};
    table_.find(key, &known);
    return search(board, key, stones, known, alpha, beta, 0);
  }

  bool aborted() const { return aborted_; }
  std::uint64_t nodes() const { return nodes_; }
  std::uint64_t database_hits() const { return database_hits_; }

 private:
  int search(const KalahBoard& board, const PitsKey& key, int stones, Bounds known, int alpha,
             int beta, int ply);
  int expand(const KalahBoard& board, int tt_move, int ply, Move* moves);
  int database_max() const { return static_cast<int>(levels_.size()) - 1; }

  SolvedTable& table_;
  std::vector<const cl_char*> levels_;
  int variant_;
  StopSignal& stop_;
  std::uint64_t nodes_ = 0;
  std::uint64_t database_hits_ = 0;
  bool aborted_ = false;
};

int Solver::Search::expand(const KalahBoard& board, int tt_move, int ply, Move* moves) {
  const int side = board.to_move;
  const int first = kalah_first_pit(side);
  const int stores_before = store_difference(board, side);
  int count = 0;
  for (int pit = first + KALAH_PITS - 1; pit >= first; --pit) {
    if (board.cells[pit] == 0) continue;
    Move& move = moves[count++];
    move.pit = pit;
    move.child = board;
    const int result = kalah_sow(&move.child, pit);
    move.gain = store_difference(move.child, side) - stores_before;
    move.game_over = (result & KALAH_RESULT_GAME_OVER) != 0;
    move.again = !move.game_over && move.child.to_move == side;
    move.database_entry = nullptr;
    if (move.game_over) continue;
    move.stones = kalah_endgame_stones(&move.child);
    if (move.stones <= database_max()) {
      move.database_entry = levels_[move.stones] + kalah_endgame_rank(&move.child);
      __builtin_prefetch(move.database_entry);
    } else {
      move.key = pits_key(move.child);
      table_.prefetch(move.key);
    }
  }
  for (int i = 0; i < count; ++i) {
    Move& move = moves[i];
    if (move.game_over) {
      move.lower = move.upper = move.gain;
    } else if (move.database_entry != nullptr) {
      ++database_hits_;
      const int value = *move.database_entry;
      move.lower = move.upper = move.gain + (move.again ? value : -value);
    } else {
      move.child_bounds = Bounds{-move.stones, move.stones, -1};
      table_.find(move.key, &move.child_bounds);
      move.lower = move.gain + (move.again ? move.child_bounds.lower : -move.child_bounds.upper);
      move.upper = move.gain + (move.again ? move.child_bounds.upper : -move.child_bounds.lower);
    }
    // The table's move, then moves that go again (nearest the store first), then the best
    // bounds: the first move searched is usually the one that refutes.
    move.order = move.pit == tt_move ? 1000
                 : move.again        ? 500 + move.pit - first
                                     : 2 * (move.lower + move.upper) - i;
  }
  for (int i = 1; i < count; ++i) {  // insertion sort: at most six moves
    for (int j = i; j > 0 && moves[j].order > moves[j - 1].order; --j) {
      std::swap(moves[j], moves[j - 1]);
    }
  }
  // Helper threads search the moves near the root in another order, so that they prove other
  // subtrees first than the main thread.
  if (variant_ > 0 && ply < 4 && count > 1) {
    const int skip = moves[0].pit == tt_move ? 1 : 0;
    std::rotate(moves + skip, moves + skip + (variant_ + ply) % (count - skip), moves + count);
  }
  return count;
}

int Solver::Search::search(const KalahBoard& board, const PitsKey& key, int stones, Bounds known,
                           int alpha, int beta, int ply) {
  if ((++nodes_ & 4095) == 0 && stop_.should_stop()) aborted_ = true;
  if (aborted_) return 0;
  if (known.lower >= beta || known.lower == known.upper) return known.lower;
  if (known.upper <= alpha) return known.upper;
  alpha = std::max(alpha, known.lower);
  beta = std::min(beta, known.upper);
  const int alpha_in = alpha;
  const std::uint64_t nodes_before = nodes_;
  Move moves[KALAH_PITS];
  const int count =
      expand(board, known.move < 0 ? -1 : kalah_first_pit(board.to_move) + known.move, ply, moves);
  // What the moves' bounds settle without a search.
  int best = -KALAH_INFINITY, best_move = -1;
  int ceiling = -KALAH_INFINITY;
  for (int i = 0; i < count; ++i) {
    if (moves[i].lower > best) {
      best = moves[i].lower;
      best_move = moves[i].pit;
    }
    ceiling = std::max(ceiling, moves[i].upper);
  }
  if (best < beta && ceiling > alpha) {
    for (int i = 0; i < count && best < beta; ++i) {
      const Move& move = moves[i];
      // A move whose value is known, or that cannot beat the best so far, needs no search; its
      // upper bound keeps a fail-low result a true upper bound.
      if (move.lower == move.upper || move.upper <= std::max(alpha, best)) {
        best = std::max(best, move.upper);
        continue;
      }
      const int floor = std::max(alpha, best);
      int value;
      if (move.again) {
        value = move.gain + search(move.child, move.key, move.stones, move.child_bounds,
                                   floor - move.gain, beta - move.gain, ply + 1);
      } else {
        value = move.gain - search(move.child, move.key, move.stones, move.child_bounds,
                                   move.gain - beta, move.gain - floor, ply + 1);
      }
      if (aborted_) return 0;
      if (value > best) {
        best = value;
        best_move = move.pit;
      }
    }
  } else if (best < beta) {
    best = ceiling;  // every move fails low: the best upper bound bounds the position
  }
  const int work = static_cast<int>(std::log2(static_cast<double>(nodes_ - nodes_before + 1)));
  const int lower = best >= beta      ? round_up_to_parity(best, stones)
                    : best > alpha_in ? best
                                      : -stones;
  const int upper = best <= alpha_in ? round_down_to_parity(best, stones)
                    : best < beta    ? best
                                     : stones;
  table_.store(key, lower, upper, best_move < 0 ? -1 : best_move - kalah_first_pit(board.to_move),
               work);
  return best;
}

Solver::Solver(const endgame::EndgameDatabase* database, std::size_t table_megabytes, int threads)
    : database_(database), table_(table_megabytes), threads_(std::max(threads, 1)) {}

Solver::Budget Solver::budget_of(const SolveLimits& limits) {
  return Budget{limits.stop, limits.time_ms > 0
                                 ? Clock::now() + std::chrono::milliseconds(limits.time_ms)
                                 : Clock::time_point::max()};
}

bool Solver::run_mtdf(const KalahBoard& board, int guess, SolveResult* result, const Budget& budget,
                      bool report) {
  const auto start = Clock::now();
  StopSignal stop(budget.stop, budget.deadline);
  const int stones = kalah_endgame_stones(&board);
  std::mutex mutex;
  bool solved = false;
  int lower = -stones, upper = stones;  // what the threads have proved, shared
  auto work = [&](int variant) {
    Search search(database_, table_, variant, stop);
    int g = std::clamp(guess, -stones, stones);
    int my_lower = -stones, my_upper = stones;
    while (my_lower < my_upper) {
      const int beta = std::max(g, my_lower + 1);
      g = search.search(board, beta - 1, beta);
      if (search.aborted()) break;
      (g < beta ? my_upper : my_lower) = g;
      std::lock_guard<std::mutex> lock(mutex);
      lower = std::max(lower, my_lower);
      upper = std::min(upper, my_upper);
      my_lower = lower;
      my_upper = upper;
      if (variant == 0 && report && progress_) {
        progress_(SolveProgress{lower, upper, result->nodes + search.nodes(),
                                clf::milliseconds_since(start)});
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    result->nodes += search.nodes();
    result->database_hits += search.database_hits();
    if (!search.aborted() && !solved) {
      solved = true;
      stop.finish();
    }
  };
  std::vector<std::thread> helpers;
  for (int variant = 1; variant < threads_; ++variant) helpers.emplace_back(work, variant);
  work(0);
  for (std::thread& helper : helpers) helper.join();
  result->lower = lower;
  result->upper = upper;
  if (solved) result->value = lower;
  return solved && lower == upper;
}

bool Solver::exact_value(const KalahBoard& board, int guess, const Budget& budget,
                         SolveResult* result, int* value, bool report) {
  if (kalah_is_over(&board)) {
    *value = finished_value(board);
    return true;
  }
  const int stones = kalah_endgame_stones(&board);
  if (database_ != nullptr && stones <= database_->max_stones()) {
    ++result->database_hits;
    *value = database_->value(board);
    return true;
  }
  Bounds known{};
  if (table_.find(pits_key(board), &known) && known.lower == known.upper) {
    *value = known.lower;
    return true;
  }
  SolveResult inner;
  const bool solved = run_mtdf(board, guess, &inner, budget, report);
  result->nodes += inner.nodes;
  result->database_hits += inner.database_hits;
  if (solved) *value = inner.value;
  return solved;
}

std::vector<int> Solver::principal_variation(const KalahBoard& root, int value,
                                             const Budget& budget, SolveResult* result) {
  std::vector<int> pv;
  KalahBoard board = root;
  while (!kalah_is_over(&board)) {
    // The first move whose child's exact value gives the position's value is a best move.
    bool found = false;
    for (const int pit : legal_moves(board)) {
      KalahBoard child = board;
      const int flags = kalah_sow(&child, pit);
      const int gain =
          store_difference(child, board.to_move) - store_difference(board, board.to_move);
      const bool again = (flags & KALAH_RESULT_GAME_OVER) == 0 && child.to_move == board.to_move;
      const int wanted = again ? value - gain : gain - value;  // the child's value it takes
      int child_value = 0;
      if (!exact_value(child, wanted, budget, result, &child_value)) return pv;
      if (gain + (again ? child_value : -child_value) == value) {
        pv.push_back(pit);
        board = child;
        value = child_value;
        found = true;
        break;
      }
    }
    if (!found) break;
  }
  return pv;
}

SolveResult Solver::solve(const KalahBoard& board, const SolveLimits& limits) {
  check_stones(board);
  const auto start = Clock::now();
  SolveResult result;
  int value = 0;
  const int stones = kalah_endgame_stones(&board);
  result.lower = -stones;
  result.upper = stones;
  const Budget budget = budget_of(limits);
  if (exact_value(board, 0, budget, &result, &value, true)) {
    result.solved = true;
    result.value = result.lower = result.upper = value;
    result.pv = principal_variation(board, value, budget, &result);
    Bounds known{};
    if (!result.pv.empty()) {
      result.move = result.pv.front();
    } else if (table_.find(pits_key(board), &known) && known.lower == value && known.move >= 0) {
      // The move that proved the value (the line ran out of time).
      result.move = kalah_first_pit(board.to_move) + known.move;
    }
  } else {
    Bounds known{};
    if (table_.find(pits_key(board), &known)) {
      result.lower = std::max(result.lower, known.lower);
      result.upper = std::min(result.upper, known.upper);
    }
  }
  result.ms = clf::milliseconds_since(start);
  return result;
}

void Solver::remember(const KalahBoard& board, int value, int move_cell) {
  check_stones(board);
  const int pit = move_cell < 0 ? -1 : move_cell - kalah_first_pit(board.to_move);
  table_.store(pits_key(board), value, value, pit, 127);
}

std::vector<std::pair<int, int>> Solver::move_values(const KalahBoard& board,
                                                     const SolveLimits& limits) {
  check_stones(board);
  std::vector<std::pair<int, int>> values;
  SolveResult unused;
  const Budget budget = budget_of(limits);
  for (const int pit : legal_moves(board)) {
    KalahBoard child = board;
    const int flags = kalah_sow(&child, pit);
    int child_value = 0;
    if (!exact_value(child, 0, budget, &unused, &child_value)) return {};
    const bool again = (flags & KALAH_RESULT_GAME_OVER) == 0 && child.to_move == board.to_move;
    const int margin =
        store_difference(child, board.to_move) + (again ? child_value : -child_value);
    values.emplace_back(pit, margin);
  }
  return values;
}

}  // namespace mankalah::solver

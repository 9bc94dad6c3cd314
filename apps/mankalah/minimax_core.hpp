// The minimax step every engine shares: the best value over a position's children for the side
// to move (TOP maximises), the first of equal values kept, so ties go to the lowest cell index.
// The CPU reference, the layered search's host stages and alpha-beta all choose through
// BestValue, so they agree on value and move by construction.
#pragma once

#include "apps/mankalah/engine.hpp"

namespace mankalah {

class BestValue {
 public:
  explicit BestValue(int to_move)
      : maximizing_(to_move == KALAH_TOP), value_(maximizing_ ? -KALAH_INFINITY : KALAH_INFINITY) {}

  // Takes `value` when it is better for the mover than the best so far (or equal, with
  // `take_ties`: alpha-beta's re-searched lower-index root moves); returns whether it did.
  bool offer(int value, bool take_ties = false) {
    const bool better = maximizing_ ? value > value_ : value < value_;
    if (!better && !(take_ties && value == value_)) return false;
    value_ = value;
    return true;
  }
  int value() const { return value_; }
  bool maximizing() const { return maximizing_; }

 private:
  bool maximizing_;
  int value_;
};

// The default of best_over_children: never stopped.
struct NeverStopped {
  bool operator()() const { return false; }
};

// Searches the children of a non-terminal `board` in index order with `child_value(child
// board)`, and returns the best of their values. `on_better(child)` is called for each child
// that becomes the best (the last call names the chosen move); once `stopped()` is true after a
// child, the loop ends and returns 0 (an aborted search's value is never used).
template <typename ChildValue, typename OnBetter, typename Stopped = NeverStopped>
int best_over_children(const KalahBoard& board, ChildValue&& child_value, OnBetter&& on_better,
                       Stopped&& stopped = {}) {
  BestValue best(board.to_move);
  for (const Child& child : children_of(board)) {
    const int value = child_value(child.board);
    if (stopped()) return 0;
    if (best.offer(value)) on_better(child);
  }
  return best.value();
}

}  // namespace mankalah

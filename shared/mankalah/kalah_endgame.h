// Endgame databases: the positions of a level, their ranking, and one move's outcome, compiled
// as C++ by the host builder and the database reader and as OpenCL C by the level kernel.
//
// Level n holds every way to put n stones into the 12 pits (stores excluded), seen from the side
// to move: entry i < 6 is the mover's pit i counted from its first pit, entry 6 + i the
// opponent's. The rules are symmetric under swapping the rows, so one table serves both sides
// (a position with TOP to move is looked up mirrored). As a KalahBoard a position of a level has
// BOTTOM to move and empty stores. Its value is the largest (mover's final score - opponent's
// final score) the mover can force, counting only the n stones in play: the stores only add a
// constant. One signed byte: -n..n.
//
// A level is ordered by class: class a holds the positions whose mover row has a stones (the
// opponent's row the other b = n - a), classes in increasing a. Inside a class a position's rank
// is rank(opponent row) * (ways to fill the mover row) + rank(mover row), each row ranked by
// stars and bars: its 6 counts are s stars cut by 5 bars, bar j (1..5) sits at slot (stones in
// pits 0..j-1) + j - 1 of s + 5 slots, and the row's rank is sum_j C(slot_j, j), the
// combinatorial number system's index of that 5-subset (0..C(s + 5, 5) - 1). A level has
// C(n + 11, 11) positions (the classes' sizes C(a + 5, 5) C(b + 5, 5) summed: Vandermonde), and
// levels 0..n-1 together C(n + 11, 12) (the hockey-stick identity), the offset of level n when
// the levels are stored one after the other.
//
// Why a level can be built from the levels below it and itself: a move either moves stones
// off the board (into the mover's store, by a capture, or by the sweep at the end of the game),
// so its position is in a lower level, already built, or it keeps all n stones on the board. The
// latter is a sow of k stones from pit i with k < 6 - i (the last stone stays in the mover's row:
// reaching the store, or going round, puts a stone in the store) and no capture; the opponent
// moves next. Let the potential be sum over stones of the distance to its owner's store (pit i of
// a row is 6 - i away); it does not depend on who moves, so mirroring keeps it. Such a sow moves
// k stones from distance d = 6 - i to distances d-1 .. d-k, lowering the potential by
// 1 + 2 + ... + k > 0. So the moves within a level form an acyclic graph (the potential strictly
// decreases along every path; it lies in n..6n), and its values are the unique fixed point of
// "value = best over moves": the CPU builder evaluates positions in increasing potential, the GPU
// builder iterates passes until one changes nothing (see kernels/mankalah/endgame_level.cl).
// Such a sow also keeps every stone in the mover's row, and the opponent moves next: a position
// of class a has its same-level children in class n - a. So a level falls apart into the pairs of
// classes {a, n - a}, each built without reading the others: the unit a build splits across
// devices and processes.
#ifndef SHARED_KALAH_ENDGAME_H
#define SHARED_KALAH_ENDGAME_H

#include "shared/cl_types.h"
#include "shared/mankalah/kalah.h"
#include "shared/mankalah/kalah_endgame_classes.h"

#define KALAH_ENDGAME_ENTRIES 12
// Values are signed bytes (-n..n) and potentials (at most 6n) are kept in one byte.
#define KALAH_ENDGAME_MAX_LEVEL 42

// C(a, k) for a <= 54 (the offset of level 43 and below) and k <= 12, as constant expressions: each
// step C(a, k) = C(a, k-1) (a - k + 1) / k is exact, and once a factor reaches 0 (k > a) the rest
// stay 0. A table, because ranking is what building a level spends its time on: computing each
// binomial by multiplying and dividing made ranking and unranking 4-5 times slower on a CPU core.
#define KALAH_ENDGAME_C1(a) ((cl_long)(a))
#define KALAH_ENDGAME_C2(a) (KALAH_ENDGAME_C1(a) * ((a)-1) / 2)
#define KALAH_ENDGAME_C3(a) (KALAH_ENDGAME_C2(a) * ((a)-2) / 3)
#define KALAH_ENDGAME_C4(a) (KALAH_ENDGAME_C3(a) * ((a)-3) / 4)
#define KALAH_ENDGAME_C5(a) (KALAH_ENDGAME_C4(a) * ((a)-4) / 5)
#define KALAH_ENDGAME_C6(a) (KALAH_ENDGAME_C5(a) * ((a)-5) / 6)
#define KALAH_ENDGAME_C7(a) (KALAH_ENDGAME_C6(a) * ((a)-6) / 7)
#define KALAH_ENDGAME_C8(a) (KALAH_ENDGAME_C7(a) * ((a)-7) / 8)
#define KALAH_ENDGAME_C9(a) (KALAH_ENDGAME_C8(a) * ((a)-8) / 9)
#define KALAH_ENDGAME_C10(a) (KALAH_ENDGAME_C9(a) * ((a)-9) / 10)
#define KALAH_ENDGAME_C11(a) (KALAH_ENDGAME_C10(a) * ((a)-10) / 11)
#define KALAH_ENDGAME_C12(a) (KALAH_ENDGAME_C11(a) * ((a)-11) / 12)
// clang-format off
#define KALAH_ENDGAME_BINOMIAL_ROW(a)                                                   \
  {1, KALAH_ENDGAME_C1(a), KALAH_ENDGAME_C2(a), KALAH_ENDGAME_C3(a), KALAH_ENDGAME_C4(a), \
   KALAH_ENDGAME_C5(a), KALAH_ENDGAME_C6(a), KALAH_ENDGAME_C7(a), KALAH_ENDGAME_C8(a),    \
   KALAH_ENDGAME_C9(a), KALAH_ENDGAME_C10(a), KALAH_ENDGAME_C11(a), KALAH_ENDGAME_C12(a)}
#define KALAH_ENDGAME_BINOMIAL_ROWS 55
#if defined(__OPENCL_VERSION__)
__constant
#else
static const
#endif
cl_ulong kalah_endgame_binomials[KALAH_ENDGAME_BINOMIAL_ROWS][KALAH_ENDGAME_ENTRIES + 1] = {
    KALAH_ENDGAME_BINOMIAL_ROW(0),
    KALAH_ENDGAME_BINOMIAL_ROW(1),
    KALAH_ENDGAME_BINOMIAL_ROW(2),
    KALAH_ENDGAME_BINOMIAL_ROW(3),
    KALAH_ENDGAME_BINOMIAL_ROW(4),
    KALAH_ENDGAME_BINOMIAL_ROW(5),
    KALAH_ENDGAME_BINOMIAL_ROW(6),
    KALAH_ENDGAME_BINOMIAL_ROW(7),
    KALAH_ENDGAME_BINOMIAL_ROW(8),
    KALAH_ENDGAME_BINOMIAL_ROW(9),
    KALAH_ENDGAME_BINOMIAL_ROW(10),
    KALAH_ENDGAME_BINOMIAL_ROW(11),
    KALAH_ENDGAME_BINOMIAL_ROW(12),
    KALAH_ENDGAME_BINOMIAL_ROW(13),
    KALAH_ENDGAME_BINOMIAL_ROW(14),
    KALAH_ENDGAME_BINOMIAL_ROW(15),
    KALAH_ENDGAME_BINOMIAL_ROW(16),
    KALAH_ENDGAME_BINOMIAL_ROW(17),
    KALAH_ENDGAME_BINOMIAL_ROW(18),
    KALAH_ENDGAME_BINOMIAL_ROW(19),
    KALAH_ENDGAME_BINOMIAL_ROW(20),
    KALAH_ENDGAME_BINOMIAL_ROW(21),
    KALAH_ENDGAME_BINOMIAL_ROW(22),
    KALAH_ENDGAME_BINOMIAL_ROW(23),
    KALAH_ENDGAME_BINOMIAL_ROW(24),
    KALAH_ENDGAME_BINOMIAL_ROW(25),
    KALAH_ENDGAME_BINOMIAL_ROW(26),
    KALAH_ENDGAME_BINOMIAL_ROW(27),
    KALAH_ENDGAME_BINOMIAL_ROW(28),
    KALAH_ENDGAME_BINOMIAL_ROW(29),
    KALAH_ENDGAME_BINOMIAL_ROW(30),
    KALAH_ENDGAME_BINOMIAL_ROW(31),
    KALAH_ENDGAME_BINOMIAL_ROW(32),
    KALAH_ENDGAME_BINOMIAL_ROW(33),
    KALAH_ENDGAME_BINOMIAL_ROW(34),
    KALAH_ENDGAME_BINOMIAL_ROW(35),
    KALAH_ENDGAME_BINOMIAL_ROW(36),
    KALAH_ENDGAME_BINOMIAL_ROW(37),
    KALAH_ENDGAME_BINOMIAL_ROW(38),
    KALAH_ENDGAME_BINOMIAL_ROW(39),
    KALAH_ENDGAME_BINOMIAL_ROW(40),
    KALAH_ENDGAME_BINOMIAL_ROW(41),
    KALAH_ENDGAME_BINOMIAL_ROW(42),
    KALAH_ENDGAME_BINOMIAL_ROW(43),
    KALAH_ENDGAME_BINOMIAL_ROW(44),
    KALAH_ENDGAME_BINOMIAL_ROW(45),
    KALAH_ENDGAME_BINOMIAL_ROW(46),
    KALAH_ENDGAME_BINOMIAL_ROW(47),
    KALAH_ENDGAME_BINOMIAL_ROW(48),
    KALAH_ENDGAME_BINOMIAL_ROW(49),
    KALAH_ENDGAME_BINOMIAL_ROW(50),
    KALAH_ENDGAME_BINOMIAL_ROW(51),
    KALAH_ENDGAME_BINOMIAL_ROW(52),
    KALAH_ENDGAME_BINOMIAL_ROW(53),
    KALAH_ENDGAME_BINOMIAL_ROW(54)};
// clang-format on

// C(n, k) for 0 <= k <= 12 and n < KALAH_ENDGAME_BINOMIAL_ROWS (0 when n < k).
CLF_FUNCTION cl_ulong kalah_endgame_binomial(cl_int n, cl_int k) {
  return n < k ? 0 : kalah_endgame_binomials[n][k];
}

// Positions in level n.
CLF_FUNCTION cl_ulong kalah_endgame_level_size(cl_int n) {
  return kalah_endgame_binomial(n + KALAH_ENDGAME_ENTRIES - 1, KALAH_ENDGAME_ENTRIES - 1);
}

// Positions in levels 0..n-1: where level n starts when the levels are stored in order.
CLF_FUNCTION cl_ulong kalah_endgame_level_offset(cl_int n) {
  return kalah_endgame_binomial(n + KALAH_ENDGAME_ENTRIES - 1, KALAH_ENDGAME_ENTRIES);
}

// Entry i (0..11) of `board` seen from its side to move.
CLF_FUNCTION cl_int kalah_endgame_entry(const KalahBoard* board, cl_int i) {
  const cl_int own = kalah_first_pit(board->to_move);
  const cl_int other = kalah_first_pit(1 - board->to_move);
  return i < KALAH_PITS ? board->cells[own + i] : board->cells[other + i - KALAH_PITS];
}

// Stones in the pits: the level of `board`.
CLF_FUNCTION cl_int kalah_endgame_stones(const KalahBoard* board) {
  return kalah_row_sum(board, KALAH_BOTTOM) + kalah_row_sum(board, KALAH_TOP);
}

// Ways to put `stones` stones into a row of 6 pits.
CLF_FUNCTION cl_ulong kalah_endgame_row_size(cl_int stones) {
  return kalah_endgame_binomial(stones + KALAH_PITS - 1, KALAH_PITS - 1);
}

// Positions of level n whose mover row holds a stones: class a.
CLF_FUNCTION cl_ulong kalah_endgame_class_size(cl_int n, cl_int a) {
  return kalah_endgame_row_size(a) * kalah_endgame_row_size(n - a);
}

// The rank of class a's first position in level n (a = n + 1: the level's size).
CLF_FUNCTION cl_ulong kalah_endgame_class_offset(cl_int n, cl_int a) {
  return kalah_endgame_class_offsets[n][a];
}

// The rank of entries first..first+5 of `board` (seen from its side to move) among the ways to
// put their stones into a row.
CLF_FUNCTION cl_ulong kalah_endgame_row_rank(const KalahBoard* board, cl_int first) {
  cl_ulong rank = 0;
  cl_int stones_before = 0;
  for (cl_int bar = 1; bar < KALAH_PITS; ++bar) {
    stones_before += kalah_endgame_entry(board, first + bar - 1);
    rank += kalah_endgame_binomial(stones_before + bar - 1, bar);
  }
  return rank;
}

// The rank of `board` in its level (stores ignored, mirrored when TOP is to move).
CLF_FUNCTION cl_ulong kalah_endgame_rank(const KalahBoard* board) {
  cl_int mover = 0;
  cl_int opponent = 0;
  for (cl_int i = 0; i < KALAH_PITS; ++i) {
    mover += kalah_endgame_entry(board, i);
    opponent += kalah_endgame_entry(board, KALAH_PITS + i);
  }
  return kalah_endgame_class_offset(mover + opponent, mover) +
         kalah_endgame_row_rank(board, KALAH_PITS) * kalah_endgame_row_size(mover) +
         kalah_endgame_row_rank(board, 0);
}

// Fills cells first..first+5 of `board` with the row of `stones` stones whose rank is `rank`.
CLF_FUNCTION void kalah_endgame_unrank_row(cl_int stones, cl_ulong rank, KalahBoard* board,
                                           cl_int first) {
  cl_int slots[KALAH_PITS];
  // The largest slot of bar j with C(slot, j) <= what is left of the rank, from bar 5 down;
  // each bar's slot is below the next one's.
  cl_int slot = stones + KALAH_PITS - 1;
  for (cl_int bar = KALAH_PITS - 1; bar >= 1; --bar) {
    --slot;
    while (kalah_endgame_binomial(slot, bar) > rank) --slot;
    rank -= kalah_endgame_binomial(slot, bar);
    slots[bar] = slot;
  }
  cl_int previous = -1;  // the slot before pit i's stars
  for (cl_int i = 0; i < KALAH_PITS; ++i) {
    const cl_int next = i < KALAH_PITS - 1 ? slots[i + 1] : stones + KALAH_PITS - 1;
    board->cells[first + i] = (cl_uchar)(next - previous - 1);
    previous = next;
  }
}

// The class of position `rank` of level n: the largest a with class_offset(n, a) <= rank.
CLF_FUNCTION cl_int kalah_endgame_class_of(cl_int n, cl_ulong rank) {
  cl_int low = 0;  // class_offset(n, low) <= rank < class_offset(n, high)
  cl_int high = n + 1;
  while (high - low > 1) {
    const cl_int middle = (low + high) / 2;
    if (kalah_endgame_class_offset(n, middle) <= rank) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

// The position of level n with rank `rank`: BOTTOM to move, empty stores.
CLF_FUNCTION KalahBoard kalah_endgame_unrank(cl_int n, cl_ulong rank) {
  const cl_int mover = kalah_endgame_class_of(n, rank);
  const cl_ulong in_class = rank - kalah_endgame_class_offset(n, mover);
  const cl_ulong mover_rows = kalah_endgame_row_size(mover);
  KalahBoard board;
  for (cl_int c = 0; c < KALAH_CELLS; ++c) board.cells[c] = 0;
  board.to_move = KALAH_BOTTOM;
  board.mark = 0;
  kalah_endgame_unrank_row(mover, in_class % mover_rows, &board, 0);
  kalah_endgame_unrank_row(n - mover, in_class / mover_rows, &board, KALAH_PITS + 1);
  return board;
}

// Sum over stones of the distance to their owner's store; every move that keeps all stones on
// the board lowers it (see the top of this file).
CLF_FUNCTION cl_int kalah_endgame_potential(const KalahBoard* board) {
  cl_int potential = 0;
  for (cl_int i = 0; i < KALAH_PITS; ++i) {
    potential += (KALAH_PITS - i) * (board->cells[i] + board->cells[KALAH_PITS + 1 + i]);
  }
  return potential;
}

// A position of a level where a row is empty: the game is over and each row goes to its owner.
CLF_FUNCTION cl_int kalah_endgame_is_terminal(const KalahBoard* position) {
  return kalah_is_over(position);
}
CLF_FUNCTION cl_int kalah_endgame_terminal_value(const KalahBoard* position) {
  return kalah_row_sum(position, position->to_move) -
         kalah_row_sum(position, 1 - position->to_move);
}

// What one move from a position of a level leads to.
typedef struct KalahEndgamePly {
  cl_int gain;        // stones the move put in the mover's store minus the opponent's
  cl_int game_over;   // the game ended: `gain` is the whole value
  cl_int same_mover;  // an extra turn: the child's value counts for the mover, not against
  cl_int level;       // the child's level (stones left in the pits)
  cl_ulong rank;      // the child's rank in that level
} KalahEndgamePly;
CLF_SHARED_STRUCT(KalahEndgamePly)
#define KALAH_ENDGAME_PLY_FIELDS(FIELD) \
  FIELD(gain) FIELD(game_over) FIELD(same_mover) FIELD(level) FIELD(rank)

// Plays `pit` (0..5, from the mover's first pit) of `position` (a level's position: BOTTOM to
// move, empty stores, not terminal); returns 0 when the pit is empty.
CLF_FUNCTION cl_int kalah_endgame_play(const KalahBoard* position, cl_int pit,
                                       KalahEndgamePly* move) {
  if (position->cells[pit] == 0) return 0;
  KalahBoard child = *position;
  const cl_int result = kalah_sow(&child, pit);
  move->gain = child.cells[KALAH_BOTTOM_STORE] - child.cells[KALAH_TOP_STORE];
  move->game_over = (result & KALAH_RESULT_GAME_OVER) != 0;
  move->same_mover = child.to_move == KALAH_BOTTOM;
  move->level = kalah_endgame_stones(&child);
  move->rank = move->game_over ? 0 : kalah_endgame_rank(&child);
  return 1;
}

// A move's value for the mover, given its child's value from the child's mover's view.
CLF_FUNCTION cl_int kalah_endgame_move_value(const KalahEndgamePly* move, cl_int child_value) {
  if (move->game_over) return move->gain;
  return move->gain + (move->same_mover ? child_value : -child_value);
}

#endif  // SHARED_KALAH_ENDGAME_H

// The rules of Calvin's Mankalah (Kalah with 6 pits and 4 stones), compiled as C++ by the host
// and as OpenCL C by the search kernels, so both sides play exactly the same game.
//
// Cells 0-5 are BOTTOM's pits, 6 BOTTOM's store, 7-12 TOP's pits, 13 TOP's store; pit p faces
// pit 12 - p. Stones are sown toward higher indices, wrapping 13 -> 0 and skipping the
// opponent's store. When a move leaves either row empty the game is over and the remaining
// stones are swept into their owners' stores, so the stores then hold the final scores.
//
// Search conventions shared by every engine: TOP is MAX; the heuristic at the depth limit is
// 5 (c13 - c6) + sum c7..12 - sum c0..5; a finished game scores (TOP - BOTTOM) x 1000.
#ifndef SHARED_KALAH_H
#define SHARED_KALAH_H

#include "shared/cl_types.h"

#define KALAH_CELLS 14
#define KALAH_PITS 6
#define KALAH_STONES 48
#define KALAH_BOTTOM 0
#define KALAH_TOP 1
#define KALAH_BOTTOM_STORE 6
#define KALAH_TOP_STORE 13
#define KALAH_WIN_SCALE 1000
// Larger than any score a search can produce (48 x 1000).
#define KALAH_INFINITY 1000000

// kalah_play's result: the stones a capture moved into the mover's store in the low byte, and
// these flags above it; KALAH_ILLEGAL for a move that is not allowed.
#define KALAH_RESULT_CAPTURE_MASK 0xFF
#define KALAH_RESULT_EXTRA_TURN 0x100
#define KALAH_RESULT_GAME_OVER 0x200
#define KALAH_ILLEGAL (-1)

// A position: the 14 cells and the side to move (KALAH_BOTTOM or KALAH_TOP). `mark` is free for
// the search (the kernels mark empty tree slots with it); the rules ignore it.
typedef struct KalahBoard {
  cl_uchar cells[KALAH_CELLS];
  cl_uchar to_move;
  cl_uchar mark;
} KalahBoard;
CLF_SHARED_STRUCT(KalahBoard)
#define KALAH_BOARD_FIELDS(FIELD) FIELD(cells) FIELD(to_move) FIELD(mark)

CLF_FUNCTION KalahBoard kalah_start(cl_int first_to_move) {
  KalahBoard board;
  for (cl_int c = 0; c < KALAH_CELLS; ++c) board.cells[c] = 4;
  board.cells[KALAH_BOTTOM_STORE] = 0;
  board.cells[KALAH_TOP_STORE] = 0;
  board.to_move = (cl_uchar)first_to_move;
  board.mark = 0;
  return board;
}

CLF_FUNCTION cl_int kalah_first_pit(cl_int side) { return side == KALAH_TOP ? 7 : 0; }
CLF_FUNCTION cl_int kalah_store(cl_int side) {
  return side == KALAH_TOP ? KALAH_TOP_STORE : KALAH_BOTTOM_STORE;
}
CLF_FUNCTION cl_int kalah_opposite(cl_int pit) { return 12 - pit; }

// Stones in `side`'s six pits (not its store).
CLF_FUNCTION cl_int kalah_row_sum(const KalahBoard* board, cl_int side) {
  const cl_int first = kalah_first_pit(side);
  cl_int sum = 0;
  for (cl_int i = 0; i < KALAH_PITS; ++i) sum += board->cells[first + i];
  return sum;
}

CLF_FUNCTION cl_int kalah_is_over(const KalahBoard* board) {
  return kalah_row_sum(board, KALAH_BOTTOM) == 0 || kalah_row_sum(board, KALAH_TOP) == 0;
}

// A side's score: its store plus the stones left in its own pits.
CLF_FUNCTION cl_int kalah_score(const KalahBoard* board, cl_int side) {
  return board->cells[kalah_store(side)] + kalah_row_sum(board, side);
}

CLF_FUNCTION cl_int kalah_is_legal(const KalahBoard* board, cl_int pit) {
  const cl_int first = kalah_first_pit(board->to_move);
  return pit >= first && pit < first + KALAH_PITS && board->cells[pit] > 0 && !kalah_is_over(board);
}

// Sows `pit`, which must be a non-empty pit of the side to move in an unfinished game (searches
// that generate only such moves call this directly); returns the KALAH_RESULT_ bits.
CLF_FUNCTION cl_int kalah_sow(KalahBoard* board, cl_int pit) {
  const cl_int side = board->to_move;
  const cl_int skipped = kalah_store(1 - side);
  cl_int stones = board->cells[pit];
  board->cells[pit] = 0;
  // Whole laps of 13 cells first (every cell but the opponent's store gets one), then the rest
  // one by one; after whole laps alone the last stone is back in the origin pit.
  const cl_int laps = stones / 13;
  const cl_int rest = stones - laps * 13;
  if (laps > 0) {
    for (cl_int c = 0; c < KALAH_CELLS; ++c) {
      if (c != skipped) board->cells[c] = (cl_uchar)(board->cells[c] + laps);
    }
  }
  cl_int last = pit;
  for (cl_int i = 0; i < rest; ++i) {
    last = last == KALAH_CELLS - 1 ? 0 : last + 1;
    if (last == skipped) last = last == KALAH_CELLS - 1 ? 0 : last + 1;
    board->cells[last] = (cl_uchar)(board->cells[last] + 1);
  }
  cl_int result = 0;
  const cl_int first = kalah_first_pit(side);
  const cl_int store = kalah_store(side);
  if (last == store) {
    result = KALAH_RESULT_EXTRA_TURN;
  } else if (last >= first && last < first + KALAH_PITS && board->cells[last] == 1 &&
             board->cells[kalah_opposite(last)] > 0) {
    const cl_int captured = 1 + board->cells[kalah_opposite(last)];
    board->cells[store] = (cl_uchar)(board->cells[store] + captured);
    board->cells[last] = 0;
    board->cells[kalah_opposite(last)] = 0;
    result = captured;
  }
  if (kalah_is_over(board)) {
    for (cl_int s = 0; s < 2; ++s) {
      const cl_int row = kalah_first_pit(s);
      cl_int swept = 0;
      for (cl_int i = 0; i < KALAH_PITS; ++i) {
        swept += board->cells[row + i];
        board->cells[row + i] = 0;
      }
      board->cells[kalah_store(s)] = (cl_uchar)(board->cells[kalah_store(s)] + swept);
    }
    return (result & KALAH_RESULT_CAPTURE_MASK) | KALAH_RESULT_GAME_OVER;
  }
  if (result != KALAH_RESULT_EXTRA_TURN) board->to_move = (cl_uchar)(1 - side);
  return result;
}

// Plays `pit` for the side to move; returns the KALAH_RESULT_ bits or KALAH_ILLEGAL (the board
// is then unchanged).
CLF_FUNCTION cl_int kalah_play(KalahBoard* board, cl_int pit) {
  if (!kalah_is_legal(board, pit)) return KALAH_ILLEGAL;
  return kalah_sow(board, pit);
}

// The seed's heuristic, from TOP's point of view.
CLF_FUNCTION cl_int kalah_heuristic(const KalahBoard* board) {
  return 5 * (board->cells[KALAH_TOP_STORE] - board->cells[KALAH_BOTTOM_STORE]) +
         kalah_row_sum(board, KALAH_TOP) - kalah_row_sum(board, KALAH_BOTTOM);
}

// A finished game's exact value: (TOP score - BOTTOM score) x 1000.
CLF_FUNCTION cl_int kalah_final_value(const KalahBoard* board) {
  return (kalah_score(board, KALAH_TOP) - kalah_score(board, KALAH_BOTTOM)) * KALAH_WIN_SCALE;
}

// The value of a search leaf: exact when the game is over, else the heuristic.
CLF_FUNCTION cl_int kalah_leaf_value(const KalahBoard* board) {
  return kalah_is_over(board) ? kalah_final_value(board) : kalah_heuristic(board);
}

// Alpha-beta's move ordering, as slots that device code could walk without an array: slots 0-5
// are the go-again pits (their last stone lands in the store) from the store end, slots 6-11 the
// other non-empty pits by index. Returns the slot's pit, or -1 when it has none.
#define KALAH_ORDER_SLOTS 12
CLF_FUNCTION cl_int kalah_ordered_pit(const KalahBoard* board, cl_int slot) {
  const cl_int first = kalah_first_pit(board->to_move);
  const cl_int store = kalah_store(board->to_move);
  const cl_int pit = slot < KALAH_PITS ? store - 1 - slot : first + slot - KALAH_PITS;
  const cl_int stones = board->cells[pit];
  if (stones == 0) return -1;
  const cl_int goes_again = stones % 13 == store - pit;
  return (slot < KALAH_PITS) == goes_again ? pit : -1;
}

#endif  // SHARED_KALAH_H

// Helpers shared by the Mankalah tests.
#pragma once

#include <initializer_list>

#include "shared/mankalah/kalah.h"

namespace mankalah_test {

// A position from its cells, c0 first (fewer than 14 leave the rest empty), and the side to move.
inline KalahBoard board_of(std::initializer_list<int> cells, int to_move) {
  KalahBoard board{};
  int c = 0;
  for (int count : cells) board.cells[c++] = static_cast<cl_uchar>(count);
  board.to_move = static_cast<cl_uchar>(to_move);
  return board;
}

}  // namespace mankalah_test

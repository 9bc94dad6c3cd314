// The Mankalah rules of shared/mankalah/kalah.h, case by case, on the host; the kernels compile the
// same header, and the search tests compare their results with these.
#include <gtest/gtest.h>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/game.hpp"
#include "mankalah_test_support.hpp"
#include "shared/mankalah/kalah.h"

namespace {

using mankalah::perft;
using mankalah_test::board_of;

int total(const KalahBoard& board) {
  int sum = 0;
  for (int c = 0; c < KALAH_CELLS; ++c) sum += board.cells[c];
  return sum;
}

TEST(MankalahRules, StartPosition) {
  const KalahBoard start = kalah_start(KALAH_TOP);
  EXPECT_EQ(total(start), 48);
  EXPECT_EQ(start.cells[6], 0);
  EXPECT_EQ(start.cells[13], 0);
  EXPECT_EQ(start.to_move, KALAH_TOP);
  EXPECT_FALSE(kalah_is_legal(&start, 0));  // BOTTOM's pit
  EXPECT_TRUE(kalah_is_legal(&start, 7));
  EXPECT_FALSE(kalah_is_legal(&start, 13));  // a store
}

TEST(MankalahRules, PerftFromTheStart) {
  for (int first : {KALAH_BOTTOM, KALAH_TOP}) {
    const KalahBoard start = kalah_start(first);
    EXPECT_EQ(perft(start, 1), 6u);
    EXPECT_EQ(perft(start, 2), 35u);
    EXPECT_EQ(perft(start, 3), 185u);
    EXPECT_EQ(perft(start, 4), 942u);
  }
}

TEST(MankalahRules, BottomWrapsAndSkipsTopsStore) {
  // c5 holds 10: c6 .. c12 (7 stones), c13 skipped, c0 c1 c2.
  KalahBoard board = board_of({4, 4, 4, 4, 0, 10, 0, 4, 4, 4, 4, 4, 2, 0}, KALAH_BOTTOM);
  ASSERT_EQ(total(board), 48);
  const int result = kalah_play(&board, 5);
  EXPECT_EQ(result, 0);
  const KalahBoard want = board_of({5, 5, 5, 4, 0, 0, 1, 5, 5, 5, 5, 5, 3, 0}, KALAH_TOP);
  for (int c = 0; c < KALAH_CELLS; ++c) EXPECT_EQ(board.cells[c], want.cells[c]) << "cell " << c;
  EXPECT_EQ(board.to_move, KALAH_TOP);
}

TEST(MankalahRules, TopWrapsAndSkipsBottomsStore) {
  // c12 holds 8: c13, c0 .. c5, c6 skipped, c7.
  KalahBoard board = board_of({4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 1, 8, 0}, KALAH_TOP);
  ASSERT_EQ(total(board), 48);
  EXPECT_EQ(kalah_play(&board, 12), 0);
  const KalahBoard want = board_of({5, 5, 5, 5, 5, 5, 3, 4, 3, 3, 3, 1, 0, 1}, KALAH_BOTTOM);
  for (int c = 0; c < KALAH_CELLS; ++c) EXPECT_EQ(board.cells[c], want.cells[c]) << "cell " << c;
}

TEST(MankalahRules, ExtraTurnAndChains) {
  KalahBoard board = kalah_start(KALAH_BOTTOM);
  EXPECT_EQ(kalah_play(&board, 2), KALAH_RESULT_EXTRA_TURN);  // 4 stones: c3 c4 c5 c6
  EXPECT_EQ(board.to_move, KALAH_BOTTOM);
  // A chain: c5 (1 stone) to the store, then c4 (2 stones) to the store, then an ordinary move.
  KalahBoard chain = board_of({4, 4, 4, 4, 2, 1, 5, 4, 4, 4, 4, 4, 4, 4}, KALAH_BOTTOM);
  EXPECT_EQ(kalah_play(&chain, 5), KALAH_RESULT_EXTRA_TURN);
  EXPECT_EQ(kalah_play(&chain, 4), KALAH_RESULT_EXTRA_TURN);
  EXPECT_EQ(chain.to_move, KALAH_BOTTOM);
  EXPECT_EQ(kalah_play(&chain, 1), 0);
  EXPECT_EQ(chain.to_move, KALAH_TOP);
  // TOP's go-again: c12 with 1 stone.
  KalahBoard top = board_of({4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 3, 1, 4}, KALAH_TOP);
  EXPECT_EQ(kalah_play(&top, 12), KALAH_RESULT_EXTRA_TURN);
  EXPECT_EQ(top.to_move, KALAH_TOP);
  EXPECT_EQ(top.cells[13], 5);
}

TEST(MankalahRules, CaptureTakesTheOppositePit) {
  // c0 (1 stone) ends in the empty c1, facing c11 with 5: 6 stones to BOTTOM's store.
  KalahBoard board = board_of({1, 0, 4, 4, 4, 4, 2, 4, 4, 4, 4, 5, 4, 4}, KALAH_BOTTOM);
  ASSERT_EQ(total(board), 48);
  EXPECT_EQ(kalah_play(&board, 0), 6);
  EXPECT_EQ(board.cells[1], 0);
  EXPECT_EQ(board.cells[11], 0);
  EXPECT_EQ(board.cells[6], 8);
  EXPECT_EQ(board.to_move, KALAH_TOP);
  // TOP: c7 (2 stones) ends in the empty c9, facing c3 with 4.
  KalahBoard top = board_of({4, 4, 4, 4, 4, 4, 2, 2, 4, 0, 4, 4, 4, 4}, KALAH_TOP);
  EXPECT_EQ(kalah_play(&top, 7), 5);
  EXPECT_EQ(top.cells[13], 9);
  EXPECT_EQ(top.cells[3], 0);
  EXPECT_EQ(top.cells[9], 0);
}

TEST(MankalahRules, NoCaptureOppositeAnEmptyPit) {
  KalahBoard board = board_of({1, 0, 4, 4, 4, 4, 7, 4, 4, 4, 4, 0, 4, 4}, KALAH_BOTTOM);
  ASSERT_EQ(total(board), 48);
  EXPECT_EQ(kalah_play(&board, 0), 0);
  EXPECT_EQ(board.cells[1], 1);
  EXPECT_EQ(board.cells[6], 7);
}

TEST(MankalahRules, ThirteenStoneLapCaptures) {
  // c3 holds 13: every cell but TOP's store gets one, the last lands in the emptied c3, which
  // now holds 1, facing c9 with 0 + 1 = 1: captures 2.
  KalahBoard board = board_of({2, 2, 2, 13, 2, 2, 10, 2, 2, 0, 2, 2, 2, 5}, KALAH_BOTTOM);
  ASSERT_EQ(total(board), 48);
  EXPECT_EQ(kalah_play(&board, 3), 2);
  EXPECT_EQ(board.cells[3], 0);
  EXPECT_EQ(board.cells[9], 0);
  EXPECT_EQ(board.cells[6], 10 + 1 + 2);
  EXPECT_EQ(board.cells[13], 5);  // skipped
  EXPECT_EQ(board.cells[0], 3);
  EXPECT_EQ(total(board), 48);
}

TEST(MankalahRules, GameEndsWhenBottomsRowEmpties) {
  // BOTTOM's last stone goes to its store; its row is empty: TOP sweeps its 20 stones.
  KalahBoard board = board_of({0, 0, 0, 0, 0, 1, 23, 4, 4, 4, 4, 4, 0, 4}, KALAH_BOTTOM);
  ASSERT_EQ(total(board), 48);
  const int result = kalah_play(&board, 5);
  EXPECT_TRUE(result & KALAH_RESULT_GAME_OVER);
  EXPECT_FALSE(result & KALAH_RESULT_EXTRA_TURN);
  EXPECT_TRUE(kalah_is_over(&board));
  EXPECT_EQ(kalah_score(&board, KALAH_BOTTOM), 24);
  EXPECT_EQ(kalah_score(&board, KALAH_TOP), 24);
  EXPECT_EQ(kalah_final_value(&board), 0);  // a tie
  EXPECT_EQ(kalah_leaf_value(&board), 0);
  EXPECT_FALSE(kalah_is_legal(&board, 7));
}

TEST(MankalahRules, GameEndsWhenTopsRowEmpties) {
  // TOP plays its last stone (c12 to its store); BOTTOM keeps its 10 pit stones.
  KalahBoard board = board_of({2, 2, 2, 2, 1, 1, 10, 0, 0, 0, 0, 0, 1, 27}, KALAH_TOP);
  ASSERT_EQ(total(board), 48);
  EXPECT_TRUE(kalah_play(&board, 12) & KALAH_RESULT_GAME_OVER);
  EXPECT_EQ(kalah_score(&board, KALAH_TOP), 28);
  EXPECT_EQ(kalah_score(&board, KALAH_BOTTOM), 20);
  EXPECT_EQ(kalah_final_value(&board), 8000);
  // The opponent's row emptied by a capture ends the game too.
  KalahBoard capture = board_of({1, 0, 0, 0, 0, 0, 20, 0, 0, 0, 0, 3, 0, 24}, KALAH_BOTTOM);
  EXPECT_TRUE(kalah_play(&capture, 0) & KALAH_RESULT_GAME_OVER);
  EXPECT_EQ(kalah_score(&capture, KALAH_BOTTOM), 24);
}

TEST(MankalahRules, HeuristicIsTheSeeds) {
  const KalahBoard board = board_of({1, 2, 3, 0, 0, 0, 10, 4, 4, 0, 0, 0, 0, 24}, KALAH_TOP);
  EXPECT_EQ(kalah_heuristic(&board), 5 * (24 - 10) + 8 - 6);
}

TEST(MankalahGame, UndoTakesBackTheRepliesToo) {
  mankalah::Game game(KALAH_BOTTOM);
  ASSERT_TRUE(game.play(0));               // BOTTOM
  ASSERT_TRUE(game.play(7));               // TOP
  EXPECT_FALSE(game.play(7).has_value());  // now BOTTOM's turn: c7 is not its pit
  EXPECT_TRUE(game.undo_to(KALAH_BOTTOM));
  EXPECT_EQ(game.moves().size(), 0u);
  EXPECT_EQ(game.board().cells[0], 4);
  EXPECT_FALSE(game.undo_to(KALAH_BOTTOM));
}

TEST(MankalahGame, ParsesMovesAndBoards) {
  const KalahBoard top = kalah_start(KALAH_TOP);
  EXPECT_EQ(mankalah::parse_move(top, "1").pit, 7);
  EXPECT_EQ(mankalah::parse_move(top, "6").pit, 12);
  EXPECT_EQ(mankalah::parse_move(top, "c9").pit, 9);
  EXPECT_EQ(mankalah::parse_move(top, "10").pit, 10);
  EXPECT_NE(mankalah::parse_move(top, "c3").error.find("not one of TOP's pits"), std::string::npos);
  EXPECT_NE(mankalah::parse_move(top, "13").error.find("not a pit"), std::string::npos);
  EXPECT_NE(mankalah::parse_move(top, "x").error.find("not a move"), std::string::npos);
  const KalahBoard parsed = mankalah::parse_board("4,4,4,4,4,4,0,4,4,4,4,4,4,0", KALAH_TOP);
  EXPECT_EQ(mankalah::board_to_string(parsed), "4,4,4,4,4,4,0,4,4,4,4,4,4,0");
  EXPECT_THROW(mankalah::parse_board("4,4,4,4,4,4,0,4,4,4,4,4,4,1", 0), std::invalid_argument);
  EXPECT_THROW(mankalah::parse_board("4,4,4", 0), std::invalid_argument);
  EXPECT_THROW(mankalah::parse_board("4,4,x,4,4,4,0,4,4,4,4,4,4,0", 0), std::invalid_argument);
}

}  // namespace

// The window's game model (Session, GTK-free): turns, undo, the marks of the last turn, the end
// score and Calvin's two-game match; and where the last stone of a move lands.
#include <gtest/gtest.h>

#include "apps/mankalah/game.hpp"
#include "apps/mankalah/session.hpp"
#include "mankalah_test_support.hpp"

namespace {

using mankalah::Session;
using mankalah::SessionSettings;
using mankalah_test::board_of;

TEST(MankalahSession, LastSownCellSkipsTheOpponentsStoreAndWraps) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  EXPECT_EQ(mankalah::last_sown_cell(start, 2), 6);  // into BOTTOM's store
  EXPECT_EQ(mankalah::last_sown_cell(start, 5), 9);
  KalahBoard top = kalah_start(KALAH_TOP);
  top.cells[12] = 9;  // 13, then 0..7: BOTTOM's store (6) is skipped
  EXPECT_EQ(mankalah::last_sown_cell(top, 12), 8);
  top.cells[12] = 13;  // a whole lap ends in the emptied pit
  EXPECT_EQ(mankalah::last_sown_cell(top, 12), 12);
  KalahBoard bottom = kalah_start(KALAH_BOTTOM);
  bottom.cells[4] = 10;  // 5..12, then TOP's store (13) is skipped: 0, 1
  EXPECT_EQ(mankalah::last_sown_cell(bottom, 4), 1);
}

TEST(MankalahSession, TurnsFollowTheSettings) {
  Session human_first(SessionSettings{KALAH_TOP, true});
  EXPECT_EQ(human_first.board().to_move, KALAH_TOP);
  EXPECT_TRUE(human_first.human_to_move());
  EXPECT_TRUE(human_first.human_may_play(9));
  EXPECT_FALSE(human_first.human_may_play(2));  // the AI's pit
  Session ai_first(SessionSettings{KALAH_TOP, false});
  EXPECT_EQ(ai_first.board().to_move, KALAH_BOTTOM);
  EXPECT_TRUE(ai_first.ai_to_move());
  EXPECT_FALSE(ai_first.human_may_play(9));
  EXPECT_FALSE(ai_first.can_undo());
}

TEST(MankalahSession, LastTurnMarksAChainAndACapture) {
  Session session(SessionSettings{KALAH_BOTTOM, true});
  ASSERT_TRUE(session.play(2));  // ends in the store: BOTTOM goes again
  ASSERT_TRUE(session.human_to_move());
  ASSERT_TRUE(session.play(5));
  mankalah::TurnMarks marks = session.last_turn();
  EXPECT_EQ(marks.side, KALAH_BOTTOM);
  EXPECT_EQ(marks.played, (std::vector<int>{2, 5}));
  EXPECT_TRUE(marks.captured.empty());
  ASSERT_TRUE(session.play(12));  // TOP's turn: a new turn replaces the marks
  marks = session.last_turn();
  EXPECT_EQ(marks.side, KALAH_TOP);
  EXPECT_EQ(marks.played, (std::vector<int>{12}));

  // BOTTOM's c1 (1 stone) ends in the empty c2, opposite c10's 7 stones: 8 are captured.
  Session capture;
  capture.new_game_from(SessionSettings{KALAH_BOTTOM, true},
                        board_of({4, 1, 0, 4, 4, 4, 0, 4, 4, 4, 7, 4, 4, 0}, KALAH_BOTTOM));
  const auto move = capture.play(1);
  ASSERT_TRUE(move);
  EXPECT_EQ(move->last_cell, 2);
  EXPECT_EQ(move->captured, 8);
  marks = capture.last_turn();
  EXPECT_EQ(marks.captured, (std::vector<int>{2, 10}));
  EXPECT_EQ(marks.captured_stones, 8);
  EXPECT_EQ(mankalah::describe_move(*move, KALAH_BOTTOM),
            "BOTTOM (you) plays c1 (pit 2). BOTTOM captured 8 stones!");
}

TEST(MankalahSession, UndoTakesBackTheHumansMoveAndTheReplies) {
  Session session(SessionSettings{KALAH_BOTTOM, true});
  ASSERT_TRUE(session.play(0));
  ASSERT_TRUE(session.ai_to_move());
  ASSERT_TRUE(session.play(7));
  ASSERT_TRUE(session.human_to_move());
  EXPECT_TRUE(session.can_undo());
  EXPECT_TRUE(session.undo());
  EXPECT_EQ(session.game().moves().size(), 0u);
  EXPECT_TRUE(session.human_to_move());
  EXPECT_FALSE(session.undo());
}

// Plays the game out with the first legal move for whoever is to move.
void play_out(Session& session) {
  for (int ply = 0; ply < 400 && !session.over(); ++ply) {
    const int first = kalah_first_pit(session.board().to_move);
    for (int pit = first; pit < first + KALAH_PITS; ++pit) {
      if (session.play(pit)) break;
    }
  }
  ASSERT_TRUE(session.over());
}

TEST(MankalahSession, TwoGameMatchEachSideStartsOnceAndTotalsAddUp) {
  Session session;
  session.start_match(KALAH_TOP);
  EXPECT_TRUE(session.in_match());
  EXPECT_EQ(session.match_game(), 0);
  EXPECT_EQ(session.board().to_move, KALAH_TOP);  // game 1: the human starts
  EXPECT_FALSE(session.next_match_game());        // not before game 1 is over
  play_out(session);
  const int human1 = kalah_score(&session.board(), KALAH_TOP);
  EXPECT_FALSE(session.outcome().empty());
  std::vector<mankalah::MatchGame> games = session.match();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(games[0].finished);
  EXPECT_EQ(games[0].human, human1);
  EXPECT_EQ(games[0].human + games[0].ai, KALAH_STONES);
  EXPECT_FALSE(session.match_over());

  ASSERT_TRUE(session.next_match_game());
  EXPECT_EQ(session.match_game(), 1);
  EXPECT_EQ(session.board().to_move, KALAH_BOTTOM);  // game 2: the AI starts
  EXPECT_TRUE(session.ai_to_move());
  play_out(session);
  EXPECT_TRUE(session.match_over());
  games = session.match();
  EXPECT_EQ(games[0].human, human1);  // frozen
  EXPECT_TRUE(games[1].finished);
  const int human = games[0].human + games[1].human, ai = games[0].ai + games[1].ai;
  EXPECT_EQ(human + ai, 2 * KALAH_STONES);
  const std::string summary = session.match_summary();
  EXPECT_NE(summary.find("you " + std::to_string(human)), std::string::npos) << summary;
  EXPECT_NE(summary.find("AI " + std::to_string(ai)), std::string::npos) << summary;
  EXPECT_NE(summary.find(human == ai  ? "tie"
                         : human > ai ? "you win"
                                      : "AI wins"),
            std::string::npos)
      << summary;

  session.new_game(SessionSettings{});  // a single game leaves the match
  EXPECT_FALSE(session.in_match());
}

}  // namespace

// The terminal game and the commands, driven through streams as cl-mankalah drives them.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/cpu_search.hpp"
#include "test_support.hpp"

namespace {

using namespace mankalah;

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(MankalahCli, ScriptedGameWritesJsonLinesToTheEnd) {
  PlayOptions options;
  options.ai.engine = "bonzo";
  options.script = true;
  std::string moves = "3\nhint\n99\nundo\n";
  for (int i = 0; i < 60; ++i) moves += "1\n2\n3\n4\n5\n6\n";  // empty pits are refused
  std::istringstream in(moves);
  std::ostringstream out, err;
  EXPECT_EQ(run_play(options, in, out, err), 0) << err.str();
  const std::string log = out.str();
  EXPECT_EQ(log.find("your move"), std::string::npos);  // no prompts
  EXPECT_NE(log.find("{\"ply\":1,\"side\":\"bottom\",\"by\":\"human\",\"move\":2,"),
            std::string::npos)
      << log.substr(0, 400);
  EXPECT_NE(log.find("\"extra_turn\":true"), std::string::npos);
  EXPECT_NE(log.find("{\"event\":\"hint\""), std::string::npos);
  EXPECT_NE(log.find("\"message\":\"cell 99 is not a pit\""), std::string::npos);
  EXPECT_NE(log.find("{\"event\":\"undo\",\"done\":true}"), std::string::npos);
  EXPECT_EQ(count_of(log, "\"event\":\"game_over\""), 1);
  EXPECT_GT(count_of(log, "\"by\":\"ai\""), 3);
}

TEST(MankalahCli, TerminalGameShowsTheBoardAndMessages) {
  PlayOptions options;
  options.ai.engine = "alphabeta";
  options.ai.depth = 3;
  std::istringstream in("help\n3\nc13\nquit\n");
  std::ostringstream out, err;
  EXPECT_EQ(run_play(options, in, out, err), 0);
  const std::string text = out.str();
  EXPECT_NE(text.find("c12 c11 c10  c9  c8  c7"), std::string::npos) << text;
  EXPECT_NE(text.find("c0  c1  c2  c3  c4  c5"), std::string::npos);
  EXPECT_NE(text.find("BOTTOM to move"), std::string::npos);
  EXPECT_NE(text.find("BOTTOM goes again."), std::string::npos);
  EXPECT_NE(text.find("cell 13 is not a pit"), std::string::npos);
  EXPECT_NE(text.find("Commands: help, hint"), std::string::npos);
}

TEST(MankalahCli, AnalyzePrintsJsonAgreeingWithMinimax) {
  AnalyzeOptions options;
  options.ai.engine = "alphabeta";
  options.ai.depth = 6;
  options.board = "4,4,4,4,4,4,0,4,4,4,4,4,4,0";
  options.to_move = "top";
  std::ostringstream out, err;
  ASSERT_EQ(run_analyze(options, out, err), 0) << err.str();
  const MinimaxOutcome want = minimax(kalah_start(KALAH_TOP), 6);
  EXPECT_NE(out.str().find("{\"move\":" + std::to_string(want.move) +
                           ",\"score\":" + std::to_string(want.value) + ",\"depth\":6,"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\"pv\":["), std::string::npos);
}

TEST(MankalahCli, BadInputGetsClearMessages) {
  AnalyzeOptions options;
  options.ai.depth = 2;
  std::ostringstream out, err;
  options.board = "4,4,4,4,4,4,0,4,4,4,4,4,4,1";
  EXPECT_EQ(run_analyze(options, out, err), 2);
  EXPECT_NE(err.str().find("49 stones, not 48"), std::string::npos) << err.str();
  options.board = "4,4,four,4,4,4,0,4,4,4,4,4,4,0";
  EXPECT_EQ(run_analyze(options, out, err), 2);
  EXPECT_NE(err.str().find("cell c2 is 'four'"), std::string::npos) << err.str();
  options.board = "";
  options.ai.engine = "stockfish";
  EXPECT_EQ(run_analyze(options, out, err), 2);
  EXPECT_NE(err.str().find("unknown engine 'stockfish'"), std::string::npos);
  options.ai.engine = "minimax";
  options.to_move = "left";
  EXPECT_EQ(run_analyze(options, out, err), 2);
  EXPECT_NE(err.str().find("--to-move must be top or bottom, not 'left'"), std::string::npos);
}

TEST(MankalahCli, PerftOnBothEngines) {
  for (const std::string engine : {"cpu", "gpu"}) {
    PerftOptions options;
    options.depth = 4;
    options.engine = engine;
    options.runtime = []() -> clf::Runtime& { return clf_test::runtime(); };
    std::ostringstream out, err;
    ASSERT_EQ(run_perft(options, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("perft 4 (" + engine + "): 942 leaves"), std::string::npos)
        << out.str();
  }
}

TEST(MankalahCli, MatchReportsAScoreAndElo) {
  MatchOptions options;
  options.a.engine = "alphabeta";
  options.a.depth = options.b.depth = 4;
  options.b.engine = "bonzo";
  options.games = 4;
  std::ostringstream out, err;
  ASSERT_EQ(run_match(options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("| alphabeta |"), std::string::npos) << out.str();
  EXPECT_EQ(count_of(err.str(), "game "), 4);
}

TEST(MankalahCli, MatchGamesDoNotDependOnJobs) {
  MatchOptions options;
  options.a.engine = "alphabeta";
  options.b.engine = "minimax";
  options.a.depth = options.b.depth = 3;
  options.games = 6;
  std::ostringstream out1, err1, out3, err3;
  ASSERT_EQ(run_match(options, out1, err1), 0) << err1.str();
  options.jobs = 3;
  ASSERT_EQ(run_match(options, out3, err3), 0) << err3.str();
  EXPECT_EQ(out1.str(), out3.str());
  EXPECT_EQ(count_of(err3.str(), "game "), 6);
  options.jobs = 0;
  std::ostringstream out0, err0;
  EXPECT_EQ(run_match(options, out0, err0), 2);
  EXPECT_NE(err0.str().find("--jobs"), std::string::npos) << err0.str();
}

// Openings longer than any game: the random plies stop before a move that would end the game.
TEST(MankalahCli, RandomOpeningsLeaveTheGameOpen) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::mt19937 rng(seed);
    const KalahBoard opening = play_random_plies(kalah_start(KALAH_BOTTOM), 1000, rng);
    EXPECT_FALSE(kalah_is_over(&opening)) << "seed " << seed;
  }
}

TEST(MankalahCli, MatchWithOpeningsLongerThanAnyGameFinishes) {
  // The openings used to be redrawn until one left the game open, for ever when none could. The
  // match runs on a thread of its own, so that such a hang fails here instead of stalling the
  // suite (the thread is left behind, holding all it uses).
  struct Run {
    MatchOptions options;
    std::ostringstream out, err;
    std::promise<int> status;
  };
  auto run = std::make_shared<Run>();
  run->options.a.engine = run->options.b.engine = "bonzo";
  run->options.games = 2;
  run->options.opening_plies = 1000;
  std::future<int> status = run->status.get_future();
  std::thread([run] {
    try {
      run->status.set_value(run_match(run->options, run->out, run->err));
    } catch (...) {
      run->status.set_exception(std::current_exception());
    }
  }).detach();
  ASSERT_EQ(status.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "match --opening-plies 1000 did not finish";
  EXPECT_EQ(status.get(), 0) << run->err.str();
  EXPECT_EQ(count_of(run->err.str(), "game "), 2) << run->err.str();
}

}  // namespace

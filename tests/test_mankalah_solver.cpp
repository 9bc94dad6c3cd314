// The exact solver and the perfect engine: the solver's value equals a full-width minimax to the
// end of the game (with and without the databases, on one thread and several, with a table too
// small to keep much), its principal variation keeps the value, a stopped solve says only what
// it proved, solved positions survive on disk and a damaged file is refused, and the perfect
// engine ends every game at least as far ahead as the value it proved.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>

#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/endgame/level_file.hpp"
#include "apps/mankalah/perfect_engine.hpp"
#include "apps/mankalah/solver/solve_command.hpp"
#include "apps/mankalah/solver/solved_positions.hpp"
#include "apps/mankalah/solver/solver.hpp"
#include "mankalah_test_support.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace {

namespace eg = mankalah::endgame;
namespace sv = mankalah::solver;
using mankalah_test::kDatabaseLevels;
using mankalah_test::minimax_margin;
using mankalah_test::random_board;
using mankalah_test::ScratchDir;
using mankalah_test::start_with;

// The databases' levels 0..kDatabaseLevels, shared by the tests of this suite.
class MankalahSolver : public mankalah_test::DatabaseSuite {};

TEST_F(MankalahSolver, ValueEqualsMinimaxToTheEnd) {
  ASSERT_EQ(database_->max_stones(), kDatabaseLevels);
  sv::Solver with_database(database_, 8, 1);
  sv::Solver without(nullptr, 8, 2);
  std::mt19937 random(11);
  for (int trial = 0; trial < 280; ++trial) {
    const int stones = 2 + trial % 7;  // 2..8: above the databases too
    KalahBoard board;
    do {
      board = random_board(stones, random);
    } while (kalah_is_over(&board));
    const int expected = minimax_margin(board);
    const sv::SolveResult a = with_database.solve(board);
    const sv::SolveResult b = without.solve(board);
    ASSERT_TRUE(a.solved && b.solved);
    ASSERT_EQ(a.margin(board), expected) << "trial " << trial << " with the databases";
    ASSERT_EQ(b.margin(board), expected) << "trial " << trial << " without";
    ASSERT_TRUE(a.lower == a.value && a.upper == a.value);
    // The best move's child has the value the solver claims.
    KalahBoard child = board;
    kalah_play(&child, a.move);
    const int child_margin = minimax_margin(child);
    ASSERT_EQ(child.to_move == board.to_move ? child_margin : -child_margin, expected);
  }
}

TEST_F(MankalahSolver, ThreadsAndTableSizeDoNotChangeTheValue) {
  const KalahBoard board = start_with(2);
  sv::Solver reference(nullptr, 64, 1);
  const sv::SolveResult expected = reference.solve(board);
  ASSERT_TRUE(expected.solved);
  for (const int threads : {1, 4}) {
    for (const std::size_t megabytes : {std::size_t{1}, std::size_t{32}}) {
      sv::Solver solver(database_, megabytes, threads);
      const sv::SolveResult result = solver.solve(board);
      ASSERT_TRUE(result.solved);
      EXPECT_EQ(result.value, expected.value) << threads << " threads, " << megabytes << " MB";
    }
  }
}

TEST_F(MankalahSolver, PrincipalVariationKeepsTheValueToTheEnd) {
  for (const int stones_per_pit : {1, 2}) {
    const KalahBoard root = start_with(stones_per_pit);
    sv::Solver solver(database_, 16, 2);
    const sv::SolveResult result = solver.solve(root);
    ASSERT_TRUE(result.solved);
    sv::Solver checker(nullptr, 16, 1);
    KalahBoard board = root;
    int value = result.value;
    for (const int pit : result.pv) {
      // The line's move is one of the best: the best of the children's exact margins.
      int best = -KALAH_INFINITY, played = -KALAH_INFINITY;
      for (const auto& [cell, margin] : checker.move_values(board)) {
        best = std::max(best, margin);
        if (cell == pit) played = margin;
      }
      const int margin = value + board.cells[kalah_store(board.to_move)] -
                         board.cells[kalah_store(1 - board.to_move)];
      ASSERT_EQ(best, margin);
      ASSERT_EQ(played, margin);
      KalahBoard after;
      value = sv::value_after_best_move(board, value, pit, &after);
      board = after;
    }
    // The line ends the game, with the margin the solver claimed for the first mover.
    ASSERT_TRUE(kalah_is_over(&board));
    const int first_mover_margin =
        kalah_score(&board, root.to_move) - kalah_score(&board, 1 - root.to_move);
    EXPECT_EQ(first_mover_margin, result.margin(root));
  }
}

TEST_F(MankalahSolver, AStoppedSolveClaimsOnlyBounds) {
  const KalahBoard board = start_with(3);
  const std::atomic<bool> stop{true};
  sv::Solver solver(database_, 8, 2);
  sv::SolveLimits limits;
  limits.stop = &stop;
  const sv::SolveResult result = solver.solve(board, limits);
  EXPECT_FALSE(result.solved);
  EXPECT_EQ(result.move, -1);
  EXPECT_LE(result.lower, result.upper);
  EXPECT_TRUE(solver.move_values(board, limits).empty());

  // A time limit holds for the whole call (the line and the moves' values are several solves);
  // generous, for sanitizer builds on a loaded machine.
  sv::SolveLimits timed;
  timed.time_ms = 100;
  const sv::SolveResult partial = solver.solve(start_with(4), timed);
  EXPECT_FALSE(partial.solved);
  EXPECT_LT(partial.ms, 100 + 2000);
}

// The position with the rows (and stores) swapped and the other side to move: the same pits from
// the mover's view, so the solver's table has one entry for both.
KalahBoard mirrored(const KalahBoard& board) {
  KalahBoard mirror = board;
  for (int c = 0; c < KALAH_CELLS; ++c)
    mirror.cells[(c + KALAH_PITS + 1) % KALAH_CELLS] = board.cells[c];
  mirror.to_move = board.to_move == KALAH_BOTTOM ? KALAH_TOP : KALAH_BOTTOM;
  return mirror;
}

// A solve with no time for its line takes the move from the table, whose entries serve both
// sides: the move must be one of the side to move, remembered or proved for the mirror.
TEST_F(MankalahSolver, AMoveFromTheTableIsTheSideToMoves) {
  const std::atomic<bool> stop{true};
  sv::SolveLimits stopped;
  stopped.stop = &stop;
  const auto expect_legal = [](const KalahBoard& board, const sv::SolveResult& r) {
    if (!r.solved || r.move < 0) return;
    const std::vector<int> moves = mankalah::legal_moves(board);
    EXPECT_NE(std::find(moves.begin(), moves.end(), r.move), moves.end())
        << "move " << r.move << " for side " << int{board.to_move};
  };
  const KalahBoard bottom = start_with(4);
  sv::Solver remembered(nullptr, 16, 1);
  remembered.remember(bottom, 0, 2);  // cell 2: the bottom row's third pit
  const sv::SolveResult top = remembered.solve(mirrored(bottom), stopped);
  ASSERT_TRUE(top.solved);
  EXPECT_EQ(top.move, kalah_first_pit(KALAH_TOP) + 2);

  // Positions two plies below a solved root, and their mirrors, with no time for a line.
  sv::Solver solver(nullptr, 16, 1);
  const KalahBoard root = start_with(2);
  ASSERT_TRUE(solver.solve(root, {}).solved);
  int solved_from_table = 0;
  for (const int first : mankalah::legal_moves(root)) {
    KalahBoard child = root;
    kalah_sow(&child, first);
    if (kalah_is_over(&child)) continue;
    for (const int second : mankalah::legal_moves(child)) {
      KalahBoard grandchild = child;
      kalah_sow(&grandchild, second);
      if (kalah_is_over(&grandchild)) continue;
      for (const KalahBoard& board : {grandchild, mirrored(grandchild)}) {
        const sv::SolveResult r = solver.solve(board, stopped);
        solved_from_table += r.solved && r.move >= 0;
        expect_legal(board, r);
      }
    }
  }
  EXPECT_GT(solved_from_table, 0) << "no move came from the table";
}

// Each bound is one byte of the table: the widest bounds a board the solver takes can have
// come back as stored, and a board with more stones in play is refused, never solved wrongly.
TEST(MankalahSolvedPositions, SurviveOnDiskAndRefuseDamage) {
  ScratchDir dir("mankalah_solved");
  const std::filesystem::path path = sv::SolvedPositions::path_in(dir.path());
  EXPECT_EQ(sv::SolvedPositions::load(path).size(), 0u);  // no file: nothing known yet
  sv::SolvedPositions first;
  const KalahBoard a = start_with(2);
  KalahBoard b = start_with(3);
  b.to_move = KALAH_TOP;
  first.add(a, 6, 4);
  first.save(path);
  // Another process saves meanwhile: both are kept.
  sv::SolvedPositions second;
  second.add(b, 2, 11);
  second.save(path);
  const sv::SolvedPositions loaded = sv::SolvedPositions::load(path);
  ASSERT_EQ(loaded.size(), 2u);
  ASSERT_NE(loaded.find(a), nullptr);
  EXPECT_EQ(loaded.find(a)->value, 6);
  EXPECT_EQ(loaded.find(a)->move, 4);
  ASSERT_NE(loaded.find(b), nullptr);
  EXPECT_EQ(loaded.find(b)->move, 11 - kalah_first_pit(KALAH_TOP));

  const std::uintmax_t bytes = std::filesystem::file_size(path);
  std::vector<char> original(bytes);
  std::ifstream(path, std::ios::binary).read(original.data(), static_cast<std::streamsize>(bytes));
  for (const std::uintmax_t at : {std::uintmax_t{0}, std::uintmax_t{12}, bytes - 4}) {
    std::vector<char> damaged = original;
    damaged[at] ^= 0x20;
    std::ofstream(path, std::ios::binary)
        .write(damaged.data(), static_cast<std::streamsize>(bytes));
    EXPECT_THROW(sv::SolvedPositions::load(path), eg::DatabaseError) << "byte " << at;
  }
  std::ofstream(path, std::ios::binary)
      .write(original.data(), static_cast<std::streamsize>(bytes - 3));
  EXPECT_THROW(sv::SolvedPositions::load(path), eg::DatabaseError);
  // A count whose entries' bytes wrap around 2^64 to the file's two (a fuzzer's find): refused by
  // name, not read past the file.
  std::vector<char> wrapped = original;
  const std::uint64_t count = (std::uint64_t{1} << 60) + 2;
  std::memcpy(wrapped.data() + 16, &count, sizeof count);  // Header::count
  std::ofstream(path, std::ios::binary).write(wrapped.data(), static_cast<std::streamsize>(bytes));
  try {
    sv::SolvedPositions::load(path);
    ADD_FAILURE() << "a count that wraps was accepted";
  } catch (const eg::DatabaseError& error) {
    EXPECT_NE(std::string(error.what()).find("hold 2 whole positions"), std::string::npos)
        << error.what();
  }
}

// From random positions, against bonzo and alpha-beta, each side: the perfect engine proves a
// margin and ends the game at least that far ahead.
TEST_F(MankalahSolver, PerfectEngineKeepsWhatItProved) {
  mankalah::EngineOptions options;
  options.database_dir = dir_->path().string();
  options.solver_threads = 2;
  options.solver_megabytes = 16;
  options.tt_megabytes = 4;
  auto engine = std::make_unique<mankalah::PerfectEngine>(options);
  mankalah::PerfectEngine& perfect = *engine;
  EXPECT_EQ(perfect.database_stones(), kDatabaseLevels);
  std::vector<std::unique_ptr<mankalah::Engine>> opponents;
  opponents.push_back(mankalah::make_engine("bonzo", options));
  opponents.push_back(mankalah::make_engine("alphabeta", options));
  std::mt19937 random(3);
  mankalah::SearchLimits limits;
  limits.time_ms = 2000;
  mankalah::SearchLimits quick;
  quick.depth = 4;
  for (int game = 0; game < 12; ++game) {
    KalahBoard board;
    do {
      board = random_board(14, random);
    } while (kalah_is_over(&board));
    mankalah::Engine& opponent = *opponents[static_cast<std::size_t>(game % 2)];
    const int perfect_side = board.to_move;
    std::optional<int> proved;
    while (!kalah_is_over(&board)) {
      const bool perfect_moves = board.to_move == perfect_side;
      const mankalah::SearchResult result =
          perfect_moves ? perfect.search(board, limits) : opponent.search(board, quick);
      if (perfect_moves) {
        ASSERT_TRUE(result.exact) << "game " << game;  // 14 stones: always within reach
        const int margin = result.score / KALAH_WIN_SCALE;
        if (!proved) proved = perfect_side == KALAH_TOP ? margin : -margin;
        EXPECT_NE(result.note.find("perfect play"), std::string::npos);
      }
      ASSERT_NE(kalah_play(&board, result.move), KALAH_ILLEGAL);
    }
    const int margin = kalah_score(&board, perfect_side) - kalah_score(&board, 1 - perfect_side);
    ASSERT_TRUE(proved.has_value());
    EXPECT_GE(margin, *proved) << "game " << game << " against " << opponent.name();
  }
  // What it proved is on disk for the next engine once this one is gone.
  engine.reset();
  EXPECT_GT(sv::SolvedPositions::load(sv::SolvedPositions::path_in(dir_->path())).size(), 0u);
}

TEST_F(MankalahSolver, SolveCommandPrintsTheValueAndChecksIt) {
  sv::SolveCommandOptions options;
  options.stones_per_pit = 2;
  options.db_dir = dir_->path().string();
  options.threads = 2;
  options.table_megabytes = 16;
  options.check = true;
  std::ostringstream out, err;
  ASSERT_EQ(sv::run_solve(options, out, err), 0) << err.str();
  sv::Solver solver(nullptr, 16, 1);
  const sv::SolveResult expected = solver.solve(start_with(2));
  const std::string text = out.str();
  EXPECT_NE(text.find("\"solved\":true"), std::string::npos) << text;
  EXPECT_NE(text.find("\"margin\":" + std::to_string(expected.margin(start_with(2)))),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("check: the value equals the best of its children's"), std::string::npos);

  // Bad input: a clear message and a non-zero exit.
  sv::SolveCommandOptions bad = options;
  bad.to_move = "left";
  std::ostringstream bad_out, bad_err;
  EXPECT_EQ(sv::run_solve(bad, bad_out, bad_err), 2);
  EXPECT_NE(bad_err.str().find("--to-move must be top or bottom, not 'left'"), std::string::npos);
  bad = options;
  bad.board = "1,2,3";
  EXPECT_EQ(sv::run_solve(bad, bad_out, bad_err), 2);
  // A damaged database level is refused, not used.
  ScratchDir damaged("mankalah_solver_damaged");
  mankalah_test::write_cpu_levels(damaged.path(), 3);
  std::filesystem::resize_file(eg::level_path(damaged.path(), 2),
                               std::filesystem::file_size(eg::level_path(damaged.path(), 2)) - 1);
  bad = options;
  bad.db_dir = damaged.path().string();
  std::ostringstream damaged_err;
  EXPECT_EQ(sv::run_solve(bad, bad_out, damaged_err), 1);
  EXPECT_NE(damaged_err.str().find("truncated"), std::string::npos) << damaged_err.str();
}

// match: the perfect engine's proved margins are checked in every game.
TEST_F(MankalahSolver, MatchChecksThePerfectEnginesProvedMargins) {
  mankalah::MatchOptions options;
  options.a.engine = "perfect";
  options.b.engine = "alphabeta";
  options.a.time_ms = 500;
  options.b.depth = 3;
  options.a.db_dir = options.b.db_dir = dir_->path().string();
  options.games = 2;
  options.opening_plies = 30;  // fewer stones left: the solver proves the first position
  std::ostringstream out, err;
  ASSERT_EQ(mankalah::run_match(options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("perfect proved its margin in 2 of 2 games"), std::string::npos)
      << out.str();
}

}  // namespace

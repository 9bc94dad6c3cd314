// The limits the Mankalah engines keep: the solver's table (its bounds' range, the stones in play
// it takes, its size) and alpha-beta's, a depth given without time, and the window's worker
// remaking its engines once databases were built; sizes and counts past a limit are refused by
// name, and nothing that used to hang does.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/gui_engine_host.hpp"
#include "apps/mankalah/perfect_engine.hpp"
#include "apps/mankalah/solver/solve_command.hpp"
#include "apps/mankalah/solver/solved_table.hpp"
#include "apps/mankalah/solver/solver.hpp"
#include "mankalah_test_support.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace {

namespace sv = mankalah::solver;
using mankalah_test::kDatabaseLevels;
using mankalah_test::ScratchDir;
using mankalah_test::start_with;

// The databases' levels 0..kDatabaseLevels, shared by the tests of this suite.
class MankalahLimits : public mankalah_test::DatabaseSuite {};

TEST(MankalahSolvedTable, BoundsAtTheLimitsRoundTrip) {
  constexpr int limit = sv::SolvedTable::kMaxStones;
  sv::SolvedTable table(1);
  const struct {
    int lower, upper, move;
  } cases[] = {{-limit, limit, -1}, {-limit, -limit, 0}, {limit, limit, 5}, {1 - limit, limit, 3}};
  for (std::uint64_t i = 0; i < std::size(cases); ++i) {
    const sv::PitsKey key{0x0101010101010101ull * (i + 1), 0x0A0A0A0Au};
    table.store(key, cases[i].lower, cases[i].upper, cases[i].move, 3);
    sv::Bounds bounds{};
    ASSERT_TRUE(table.find(key, &bounds)) << "case " << i;
    EXPECT_EQ(bounds.lower, cases[i].lower) << "case " << i;
    EXPECT_EQ(bounds.upper, cases[i].upper) << "case " << i;
    EXPECT_EQ(bounds.move, cases[i].move) << "case " << i;
  }
}

TEST_F(MankalahLimits, ABoardOverTheTablesLimitIsRefused) {
  // A stopped solve returns at once: before the limit was checked, 132 stones were searched.
  const std::atomic<bool> stop{true};
  sv::SolveLimits stopped;
  stopped.stop = &stop;
  sv::Solver solver(nullptr, 1, 1);
  const KalahBoard over = start_with(11);  // 132 stones in play
  try {
    solver.solve(over, stopped);
    ADD_FAILURE() << "solved a board of 132 stones";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("132 stones"), std::string::npos) << error.what();
  }
  EXPECT_THROW(solver.move_values(over, stopped), std::invalid_argument);
  EXPECT_THROW(solver.remember(over, 0, 0), std::invalid_argument);
  // 127 stones, the most the table holds, are taken.
  KalahBoard at_limit = start_with(10);
  at_limit.cells[0] = 17;
  ASSERT_EQ(kalah_endgame_stones(&at_limit), sv::SolvedTable::kMaxStones);
  const sv::SolveResult result = solver.solve(at_limit, stopped);
  EXPECT_FALSE(result.solved);
  EXPECT_EQ(result.lower, -sv::SolvedTable::kMaxStones);
  EXPECT_EQ(result.upper, sv::SolvedTable::kMaxStones);

  // solve --stones-per-pit stops at 10 (120 stones), with a message naming the option.
  sv::SolveCommandOptions options;
  options.db_dir = dir_->path().string();
  options.threads = 1;
  options.table_megabytes = 1;
  options.stones_per_pit = 11;
  options.time_ms = 1;
  std::ostringstream out, err;
  EXPECT_EQ(sv::run_solve(options, out, err), 2);
  EXPECT_NE(err.str().find("--stones-per-pit must be 1..10, not 11"), std::string::npos)
      << err.str();
  options.stones_per_pit = 10;
  std::ostringstream out10, err10;
  EXPECT_EQ(sv::run_solve(options, out10, err10), 1);  // not solved in 1 ms, but solving
  EXPECT_NE(out10.str().find("over the 120 stones in play"), std::string::npos) << out10.str();
}

// What `body` returns, "exception: " and its message if it throws, or "hung" when it has not
// returned within 30 s: it runs on a thread of its own, left behind (owning what it uses) if it
// hangs, so that a hang fails the test instead of stalling the suite.
std::string bounded(std::function<std::string()> body) {
  auto result = std::make_shared<std::promise<std::string>>();
  std::future<std::string> future = result->get_future();
  std::thread([result, body = std::move(body)] {
    try {
      result->set_value(body());
    } catch (const std::exception& error) {
      result->set_value(std::string("exception: ") + error.what());
    }
  }).detach();
  if (future.wait_for(std::chrono::seconds(30)) != std::future_status::ready) return "hung";
  return future.get();
}

// A depth and no time: the perfect engine searches that depth (exact inside the databases) and
// leaves the proof alone, which from the start takes minutes (it was given no time limit at all:
// `analyze --engine perfect --depth 2` ran for ever).
TEST_F(MankalahLimits, PerfectEngineWithADepthAloneSearchesThatDepth) {
  const std::string db_dir = dir_->path().string();
  const std::string said = bounded([db_dir] {
    mankalah::EngineOptions options;
    options.database_dir = db_dir;
    options.solver_megabytes = 16;
    options.tt_megabytes = 4;
    mankalah::PerfectEngine perfect(options);
    mankalah::SearchLimits limits;
    limits.depth = 2;
    const mankalah::SearchResult result = perfect.search(kalah_start(KALAH_BOTTOM), limits);
    return std::string(result.exact ? "exact" : "searched") + " depth " +
           std::to_string(result.depth) + " move " + std::to_string(result.move);
  });
  EXPECT_EQ(said.rfind("searched depth 2 move ", 0), 0u) << said;
}

// The window's worker remakes its engines once databases were built since they were made (the
// request counts the builds): the perfect engine opens the folder when it is made, so one made
// before a build kept playing without the databases.
TEST(MankalahEngineHost, EnginesMadeBeforeADatabaseBuildAreRemade) {
  ScratchDir dir("mankalah_engine_host");
  std::filesystem::create_directories(dir.path());
  mankalah::EngineHost host(clf::DeviceRequest{}, dir.path().string());
  mankalah::SearchRequest request;
  request.board = kalah_start(KALAH_BOTTOM);
  request.engine = "perfect";
  request.time_ms = 50;
  const auto note = [&] {
    const mankalah::SearchReply reply = host.search(request, nullptr);
    EXPECT_EQ(reply.error, "");
    return reply.result.note;
  };
  EXPECT_NE(note().find("database: none"), std::string::npos);
  mankalah_test::write_cpu_levels(dir.path(), kDatabaseLevels);
  EXPECT_NE(note().find("database: none"), std::string::npos);  // the same engine
  ++request.databases_built;
  const std::string after = note();
  EXPECT_NE(after.find("database: up to " + std::to_string(kDatabaseLevels)), std::string::npos)
      << after;
}

// Table sizes past the maximum are refused by name before they are shifted into bytes:
// 99999999999999 MB overflowed the shift and the sizing loop never ended, 4398046511104 MB was a
// bare std::bad_alloc.
TEST_F(MankalahLimits, HugeTableSizesAreRefusedByName) {
  const std::string db_dir = dir_->path().string();
  for (const std::size_t megabytes :
       {sv::SolvedTable::kMaxMegabytes + 1, std::size_t{4398046511104}, std::size_t{99999999999999},
        std::numeric_limits<std::size_t>::max()}) {
    const std::string value = std::to_string(megabytes);
    // Making a table of that many megabytes: "invalid_argument: " and the message, or "made".
    const auto make = [megabytes](auto table) {
      return bounded([megabytes, table] {
        try {
          table(megabytes);
          return std::string("made");
        } catch (const std::invalid_argument& error) {
          return std::string("invalid_argument: ") + error.what();
        }
      });
    };
    for (const std::string& made :
         {make([](std::size_t mb) { sv::SolvedTable refused(mb); }),
          make([](std::size_t mb) { mankalah::AlphaBeta refused(mb); })}) {
      EXPECT_EQ(made.rfind("invalid_argument: ", 0), 0u) << value << ": " << made;
      EXPECT_NE(made.find(value + " MB"), std::string::npos) << made;
    }

    // solve --table-mb and the perfect engine's --solver-mb (play, analyze, match).
    const std::string solve = bounded([megabytes, db_dir] {
      sv::SolveCommandOptions options;
      options.db_dir = db_dir;
      options.table_megabytes = megabytes;
      std::ostringstream out, err;
      const int status = sv::run_solve(options, out, err);
      return std::to_string(status) + " " + err.str();
    });
    EXPECT_EQ(solve.rfind("2 ", 0), 0u) << solve;
    EXPECT_NE(solve.find("--table-mb must be 1..1048576, not " + value), std::string::npos)
        << solve;
    const std::string analyze = bounded([megabytes, db_dir] {
      mankalah::AnalyzeOptions options;
      options.ai.engine = "perfect";
      options.ai.depth = 1;
      options.ai.db_dir = db_dir;
      options.ai.solver_megabytes = megabytes;
      std::ostringstream out, err;
      const int status = mankalah::run_analyze(options, out, err);
      return std::to_string(status) + " " + err.str();
    });
    EXPECT_EQ(analyze.rfind("2 ", 0), 0u) << analyze;
    EXPECT_NE(analyze.find("--solver-mb must be 1..1048576, not " + value), std::string::npos)
        << analyze;
  }
}

}  // namespace

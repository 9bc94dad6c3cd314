// Every engine against the sequential minimax reference: perft on the device, the fuzz test of
// the layered GPU search (as in Kloosterman's senior project), the mirror symmetry, alpha-beta's
// values, time limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/gpu_search.hpp"
#include "framework/stopwatch.hpp"
#include "test_support.hpp"

namespace {

using namespace mankalah;

// A legal position reached by random moves from the start; the game is not over.
KalahBoard random_position(std::mt19937& rng) {
  for (;;) {
    KalahBoard board = kalah_start(rng() % 2 ? KALAH_TOP : KALAH_BOTTOM);
    const int plies = static_cast<int>(rng() % 50);
    for (int ply = 0; ply < plies && !kalah_is_over(&board); ++ply) {
      const std::vector<int> moves = legal_moves(board);
      kalah_play(&board, moves[rng() % moves.size()]);
    }
    if (!kalah_is_over(&board)) return board;
  }
}

KalahBoard mirrored(const KalahBoard& board) {
  KalahBoard mirror = board;
  for (int c = 0; c < KALAH_CELLS; ++c) mirror.cells[c] = board.cells[(c + 7) % KALAH_CELLS];
  mirror.to_move = static_cast<cl_uchar>(1 - board.to_move);
  return mirror;
}

LayeredSearch& layered() {
  static LayeredSearch* search = new LayeredSearch(clf_test::runtime());
  return *search;
}

TEST(MankalahSearch, GpuPerftMatchesCpu) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  const std::uint64_t want[] = {1, 6, 35, 185, 942};
  for (int depth = 0; depth <= 4; ++depth) EXPECT_EQ(layered().perft(start, depth), want[depth]);
  for (int par = 1; par <= std::min(3, layered().max_par()); ++par) {
    EXPECT_EQ(layered().perft(start, 6, par), perft(start, 6)) << "par " << par;
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    const KalahBoard board = random_position(rng);
    EXPECT_EQ(layered().perft(board, 5), perft(board, 5)) << "position " << i;
  }
}

TEST(MankalahSearch, MinimaxScoresFinishedGamesExactly) {
  // TOP's only move ends the game 28-20: worth 8 x 1000, never the heuristic (5 x 8 = 40).
  KalahBoard board{};
  const int cells[14] = {2, 2, 2, 2, 1, 1, 10, 0, 0, 0, 0, 0, 1, 27};
  for (int c = 0; c < 14; ++c) board.cells[c] = static_cast<cl_uchar>(cells[c]);
  board.to_move = KALAH_TOP;
  const MinimaxOutcome outcome = minimax(board, 3);
  EXPECT_EQ(outcome.move, 12);
  EXPECT_EQ(outcome.value, 8000);
  EXPECT_EQ(layered().search_depth(board, 3, {}, nullptr).value, 8000);
}

// The layered search equals minimax, value and move, over random
// positions, depths and splits.
TEST(MankalahSearch, LayeredEqualsMinimaxFuzz) {
  std::mt19937 rng(2013);
  const LayerSplit splits[] = {{-1, -1, -1}, {-1, -1, 1}, {1, -1, 2}, {-1, 1, 3}, {0, -1, 2}};
  int compared = 0;
  for (int i = 0; i < 1200; ++i) {
    const KalahBoard board = random_position(rng);
    const int depth = 1 + i % 7;  // 7 and 5 are coprime: every depth meets every split
    const LayerSplit& split = splits[i % 5];
    const MinimaxOutcome want = minimax(board, depth);
    const MinimaxOutcome got = layered().search_depth(board, depth, split, nullptr);
    ASSERT_EQ(got.value, want.value) << "position " << i << " depth " << depth << " split "
                                     << split.pre << "/" << split.seq << "/" << split.par;
    ASSERT_EQ(got.move, want.move) << "position " << i << " depth " << depth;
    ++compared;
  }
  EXPECT_EQ(compared, 1200);
}

TEST(MankalahSearch, MirrorNegatesTheScoreAndShiftsTheMove) {
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    const KalahBoard board = random_position(rng);
    const int depth = 1 + i % 6;
    const MinimaxOutcome a = minimax(board, depth);
    const MinimaxOutcome b = minimax(mirrored(board), depth);
    EXPECT_EQ(a.value, -b.value) << "position " << i;
    EXPECT_EQ((a.move + 7) % 14, b.move) << "position " << i;
  }
}

TEST(MankalahSearch, OrderedPitsAreEveryMoveOnceGoAgainFirst) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const KalahBoard board = random_position(rng);
    const int store = kalah_store(board.to_move);
    std::vector<int> ordered;
    bool plain_seen = false;
    for (int slot = 0; slot < KALAH_ORDER_SLOTS; ++slot) {
      const int pit = kalah_ordered_pit(&board, slot);
      if (pit < 0) continue;
      const bool goes_again = board.cells[pit] % 13 == store - pit;
      EXPECT_FALSE(goes_again && plain_seen)
          << "position " << i << ": go-again pit " << pit << " after a plain move";
      plain_seen = plain_seen || !goes_again;
      ordered.push_back(pit);
    }
    std::vector<int> sorted = ordered;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, legal_moves(board)) << "position " << i;
  }
}

TEST(MankalahSearch, AlphaBetaEqualsMinimaxAtFixedDepth) {
  std::mt19937 rng(5);
  AlphaBeta alphabeta(4);
  std::uint64_t alphabeta_nodes = 0, minimax_nodes = 0;
  for (int i = 0; i < 300; ++i) {
    const KalahBoard board = random_position(rng);
    const int depth = 1 + i % 7;
    const MinimaxOutcome want = minimax(board, depth);
    // Searched shallower first, as iterative deepening does, so the table is warm.
    alphabeta.search_depth(board, std::max(1, depth - 1), nullptr);
    const MinimaxOutcome got = alphabeta.search_depth(board, depth, nullptr);
    ASSERT_EQ(got.value, want.value) << "position " << i << " depth " << depth;
    ASSERT_EQ(got.move, want.move) << "position " << i << " depth " << depth;
    alphabeta_nodes += got.nodes;
    minimax_nodes += want.nodes;
  }
  EXPECT_LT(alphabeta_nodes * 2, minimax_nodes);  // it prunes
}

TEST(MankalahSearch, EnginesKeepToTheirTimeBudget) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  EngineOptions options;
  options.runtime = []() -> clf::Runtime& { return clf_test::runtime(); };
  for (const char* name : {"minimax", "alphabeta", "gpu-layered"}) {
    std::unique_ptr<Engine> engine = make_engine(name, options);
    SearchLimits warm;
    warm.depth = 4;
    engine->search(start, warm);  // kernel builds are outside the budget
    SearchLimits limits;
    limits.time_ms = 150;
    const auto t0 = std::chrono::steady_clock::now();
    const SearchResult result = engine->search(start, limits);
    const double ms = clf::milliseconds_since(t0);
    EXPECT_LE(ms, 150 + 25) << name;
    EXPECT_GE(result.depth, 2) << name;
    EXPECT_TRUE(kalah_is_legal(&start, result.move)) << name;
  }
}

TEST(MankalahSearch, SearchStopsWhenCancelled) {
  AlphaBetaEngine engine(4);
  std::atomic<bool> stop{false};
  SearchLimits limits;
  limits.depth = 60;
  limits.stop = &stop;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const SearchResult result = engine.search(kalah_start(KALAH_TOP), limits);
  canceller.join();
  const double ms = clf::milliseconds_since(t0);
  EXPECT_LT(ms, 200);
  EXPECT_GE(result.move, 7);
}

TEST(MankalahSearch, BonzoTakesGoAgainPitsFromTheStoreEnd) {
  KalahBoard board = kalah_start(KALAH_BOTTOM);
  EXPECT_EQ(bonzo_move(board), 2);  // c2's 4 stones end in the store
  board.cells[2] = 3;
  board.cells[5] = 0;
  board.cells[6] = 5;
  EXPECT_EQ(bonzo_move(board), 4);  // no go-again pit: the first non-empty from the store end
}

TEST(MankalahSearch, UnknownEngineIsNamed) {
  try {
    make_engine("deep-blue", EngineOptions{});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("unknown engine 'deep-blue'"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("alphabeta"), std::string::npos);
  }
}

}  // namespace

// Endgame database levels: the ranking is a bijection ordered by class, moves within a level
// lower the potential and lead to the partner class,
// the CPU builder agrees with a full-width minimax to the end of the game, and the device
// builder agrees with the CPU builder byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "apps/mankalah/endgame/cpu_builder.hpp"
#include "apps/mankalah/endgame/gpu_builder.hpp"
#include "apps/mankalah/endgame/split_builder.hpp"
#include "mankalah_test_support.hpp"
#include "shared/mankalah/kalah_endgame.h"
#include "test_support.hpp"

namespace {

using mankalah_test::minimax_margin;
using mankalah_test::mirrored;
using mankalah_test::random_board;

std::vector<std::vector<cl_char>> cpu_levels(int last) {
  std::vector<std::vector<cl_char>> levels;
  std::vector<const cl_char*> lower;
  for (int n = 0; n <= last; ++n) {
    levels.push_back(mankalah::endgame::build_level_cpu(n, lower, 2));
    lower.push_back(levels.back().data());
  }
  return levels;
}

}  // namespace

TEST(MankalahEndgame, LevelSizesAreBinomials) {
  EXPECT_EQ(kalah_endgame_level_size(0), 1u);
  EXPECT_EQ(kalah_endgame_level_size(1), 12u);
  EXPECT_EQ(kalah_endgame_level_size(8), 75582u);
  EXPECT_EQ(kalah_endgame_level_size(KALAH_ENDGAME_MAX_LEVEL), 76223753060u);  // C(53, 11)
  // The table against Pascal's rule.
  for (int n = 1; n < KALAH_ENDGAME_BINOMIAL_ROWS; ++n) {
    for (int k = 1; k <= KALAH_ENDGAME_ENTRIES; ++k) {
      ASSERT_EQ(kalah_endgame_binomial(n, k),
                kalah_endgame_binomial(n - 1, k - 1) + kalah_endgame_binomial(n - 1, k))
          << n << " " << k;
    }
  }
  cl_ulong offset = 0;
  for (int n = 0; n <= 40; ++n) {
    EXPECT_EQ(kalah_endgame_level_offset(n), offset) << n;
    offset += kalah_endgame_level_size(n);
  }
}

TEST(MankalahEndgame, RankingIsABijection) {
  for (int n = 0; n <= 7; ++n) {
    for (cl_ulong rank = 0; rank < kalah_endgame_level_size(n); ++rank) {
      const KalahBoard position = kalah_endgame_unrank(n, rank);
      ASSERT_EQ(kalah_endgame_stones(&position), n);
      ASSERT_EQ(position.to_move, KALAH_BOTTOM);
      ASSERT_EQ(position.cells[KALAH_BOTTOM_STORE] + position.cells[KALAH_TOP_STORE], 0);
      ASSERT_EQ(kalah_endgame_rank(&position), rank) << "level " << n;
    }
  }
  // Every board of a level, either side to move, ranks into the level and back to itself
  // (mirrored when TOP moves), up to the largest levels.
  std::mt19937 random(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = static_cast<int>(random() % (KALAH_ENDGAME_MAX_LEVEL + 1));
    const KalahBoard board = random_board(n, random);
    const cl_ulong rank = kalah_endgame_rank(&board);
    ASSERT_LT(rank, kalah_endgame_level_size(n));
    KalahBoard expected = board.to_move == KALAH_BOTTOM ? board : mirrored(board);
    expected.cells[KALAH_BOTTOM_STORE] = expected.cells[KALAH_TOP_STORE] = 0;
    const KalahBoard back = kalah_endgame_unrank(n, rank);
    for (int c = 0; c < KALAH_CELLS; ++c) ASSERT_EQ(back.cells[c], expected.cells[c]) << c;
    ASSERT_EQ(kalah_endgame_rank(&board), kalah_endgame_rank(&expected));
  }
}

TEST(MankalahEndgame, ClassOffsetsAreTheClassSizesSummed) {
  for (int n = 0; n <= KALAH_ENDGAME_MAX_LEVEL; ++n) {
    cl_ulong offset = 0;
    for (int a = 0; a <= n + 1; ++a) {
      ASSERT_EQ(kalah_endgame_class_offset(n, a), offset) << "level " << n << " class " << a;
      if (a <= n) offset += kalah_endgame_row_size(a) * kalah_endgame_row_size(n - a);
    }
    ASSERT_EQ(offset, kalah_endgame_level_size(n)) << n;
  }
}

// Each class is one run of ranks: its positions have `a` stones in the mover row, and the
// binary search finds the class of its first and last ranks.
TEST(MankalahEndgame, ClassesAreRunsOfRanks) {
  for (int n = 0; n <= 9; ++n) {
    for (cl_ulong rank = 0; rank < kalah_endgame_level_size(n); ++rank) {
      const KalahBoard position = kalah_endgame_unrank(n, rank);
      const int a = kalah_row_sum(&position, KALAH_BOTTOM);
      ASSERT_EQ(kalah_endgame_class_of(n, rank), a) << n << " " << rank;
      ASSERT_GE(rank, kalah_endgame_class_offset(n, a));
      ASSERT_LT(rank, kalah_endgame_class_offset(n, a + 1));
    }
  }
  EXPECT_EQ(kalah_endgame_class_of(42, kalah_endgame_level_size(42) - 1), 42);
  EXPECT_EQ(kalah_endgame_class_of(42, kalah_endgame_class_offset(42, 21)), 21);
  EXPECT_EQ(kalah_endgame_class_of(42, kalah_endgame_class_offset(42, 21) - 1), 20);
}

// The device ranks as the host does, also past 2^31 and 2^32 (levels 29 on have more positions
// than a 32-bit signed index holds, 31 on more than an unsigned one).
TEST(MankalahEndgame, DeviceRanksEqualHostRanksInLargeLevels) {
  clf::CLFunction<cl_ulong(cl_int, cl_ulong)> rank_of_unranked(
      clf_test::runtime(), clf::inline_source("endgame_rank_round_trip", R"(
#include "shared/mankalah/kalah_endgame.h"
ulong endgame_rank_round_trip(int n, ulong rank) {
  const KalahBoard board = kalah_endgame_unrank(n, rank);
  ulong packed = 0;  // the 12 pits, 5 bits each (at most 31 stones in one pit here)
  for (int i = 0; i < KALAH_PITS; ++i) {
    packed = packed << 5 | board.cells[i];
    packed = packed << 5 | board.cells[KALAH_PITS + 1 + i];
  }
  return kalah_endgame_rank(&board) == rank ? packed : ~(ulong)0;
}
)"),
      "endgame_rank_round_trip");
  std::mt19937_64 random(3);
  for (int n : {28, 29, 30, 31, 42}) {
    const cl_ulong size = kalah_endgame_level_size(n);
    std::vector<cl_ulong> ranks = {0, size - 1, size / 2};
    for (cl_ulong edge : {cl_ulong{1} << 31, cl_ulong{1} << 32}) {
      if (edge + 1 < size) ranks.insert(ranks.end(), {edge - 1, edge, edge + 1});
    }
    for (int a = 0; a <= n; ++a) ranks.push_back(kalah_endgame_class_offset(n, a));
    for (int i = 0; i < 50; ++i) ranks.push_back(random() % size);
    for (cl_ulong rank : ranks) {
      const KalahBoard board = kalah_endgame_unrank(n, rank);
      bool fits = true;
      cl_ulong packed = 0;
      for (int i = 0; i < KALAH_PITS; ++i) {
        fits = fits && board.cells[i] < 32 && board.cells[KALAH_PITS + 1 + i] < 32;
        packed = packed << 5 | board.cells[i];
        packed = packed << 5 | board.cells[KALAH_PITS + 1 + i];
      }
      if (!fits) continue;
      ASSERT_EQ(rank_of_unranked(n, rank), packed) << "level " << n << " rank " << rank;
    }
  }
}

// The proof that a level can be built: a move that keeps every stone on the board passes the
// turn and lowers the potential; and why it can be split: that move's child is in the partner
// class (the mover row's stones become the opponent's).
TEST(MankalahEndgame, SameLevelMovesLowerThePotential) {
  for (int n = 1; n <= 8; ++n) {
    for (cl_ulong rank = 0; rank < kalah_endgame_level_size(n); ++rank) {
      const KalahBoard position = kalah_endgame_unrank(n, rank);
      if (kalah_endgame_is_terminal(&position)) continue;
      for (int pit = 0; pit < KALAH_PITS; ++pit) {
        KalahEndgamePly move;
        if (!kalah_endgame_play(&position, pit, &move) || move.game_over) continue;
        ASSERT_LE(move.level, n);
        if (move.level < n) continue;
        ASSERT_FALSE(move.same_mover);
        ASSERT_EQ(move.gain, 0);
        const KalahBoard child = kalah_endgame_unrank(n, move.rank);
        ASSERT_LT(kalah_endgame_potential(&child), kalah_endgame_potential(&position));
        ASSERT_EQ(kalah_endgame_class_of(n, move.rank), n - kalah_endgame_class_of(n, rank));
      }
    }
  }
}

TEST(MankalahEndgame, CpuLevelsEqualMinimaxToTheEnd) {
  const int last = 8;
  const std::vector<std::vector<cl_char>> levels = cpu_levels(last);
  std::mt19937 random(5);
  for (int n = 0; n <= last; ++n) {
    // Thousands of positions in all; the search without the database grows fast with n.
    const int trials = n < last ? 1000 : 200;
    for (int trial = 0; trial < trials; ++trial) {
      const KalahBoard board = random_board(n, random);
      const int stores =
          board.cells[kalah_store(board.to_move)] - board.cells[kalah_store(1 - board.to_move)];
      const int value = levels[static_cast<std::size_t>(n)][kalah_endgame_rank(&board)];
      ASSERT_EQ(stores + value, minimax_margin(board)) << "level " << n << " trial " << trial;
    }
  }
}

// The next level. Every level is built into one array, as the database build reuses its arrays:
// a value a level left unset would show a lower level's.
std::vector<cl_char> next_level(mankalah::endgame::SplitLevelBuilder& builder, int* passes,
                                std::optional<mankalah::endgame::LevelValues>& values) {
  if (!values) values.emplace(builder.new_level_values());
  builder.build_next(*values, passes);
  return {values->begin(), values->end()};
}

// Builds every level of `expected` in turn with `builder` and compares it with the expected one,
// byte for byte.
void expect_levels_built(mankalah::endgame::SplitLevelBuilder& builder,
                         const std::vector<std::vector<cl_char>>& expected) {
  std::optional<mankalah::endgame::LevelValues> values;
  for (std::size_t n = 0; n < expected.size(); ++n) {
    int passes = 0;
    const std::vector<cl_char> got = next_level(builder, &passes, values);
    ASSERT_EQ(got, expected[n]) << "level " << n;
    EXPECT_LE(passes, 5 * static_cast<int>(n) + 2) << "level " << n;
  }
}

// Gives `builder` every level of `expected` but the last, then builds the last and compares it.
void expect_resumed_level(mankalah::endgame::SplitLevelBuilder& builder,
                          const std::vector<std::vector<cl_char>>& expected) {
  for (std::size_t n = 0; n + 1 < expected.size(); ++n) builder.add_next(expected[n].data());
  int passes = 0;
  std::optional<mankalah::endgame::LevelValues> values;
  EXPECT_EQ(next_level(builder, &passes, values), expected.back());
}

TEST(MankalahEndgame, DeviceLevelsEqualCpuLevelsByteForByte) {
  const int last = 8;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  mankalah::endgame::SplitLevelBuilder builder(mankalah_test::one_device(), nullptr, last);
  expect_levels_built(builder, expected);
}

// Levels given from files (a resumed build) serve the levels above as built ones do.
TEST(MankalahEndgame, DeviceBuildResumesFromGivenLevels) {
  const int last = 6;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  mankalah::endgame::SplitLevelBuilder builder(mankalah_test::one_device(), nullptr, last);
  expect_resumed_level(builder, expected);
}

// Two and three runtimes on one device stand in for devices: each level's pairs of classes are
// dealt out, built apart, exchanged, and the values equal the CPU build's byte for byte, also
// when resumed.
TEST(MankalahEndgame, LevelsSplitAcrossDevicesEqualCpuLevelsByteForByte) {
  const int last = 8;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  for (int count : {2, 3}) {
    SCOPED_TRACE(std::to_string(count) + " devices");
    const std::unique_ptr<clf::DeviceSet> devices = mankalah_test::runtimes_on_one_device(count);
    mankalah::endgame::SplitLevelBuilder builder(*devices, nullptr, last);
    expect_levels_built(builder, expected);
  }
}

TEST(MankalahEndgame, SplitBuildResumesFromGivenLevels) {
  const int last = 7;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  const std::unique_ptr<clf::DeviceSet> devices = mankalah_test::runtimes_on_one_device(2);
  mankalah::endgame::SplitLevelBuilder builder(*devices, nullptr, last);
  expect_resumed_level(builder, expected);
}

// What makes the split work: the pairs of classes tile the level, and each pair built alone on
// a device whose level is otherwise zeros gets its final values.
TEST(MankalahEndgame, EachPairOfClassesBuildsAlone) {
  const int last = 9;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  const std::vector<mankalah::endgame::ClassPair> pairs = mankalah::endgame::class_pairs(last);
  ASSERT_EQ(pairs.size(), static_cast<std::size_t>(last / 2 + 1));
  std::vector<int> covered(kalah_endgame_level_size(last), 0);
  for (const auto& pair : pairs) {
    std::size_t positions = 0;
    for (const clf::WorkRange& run : pair.ranges) {
      for (std::size_t rank = run.begin; rank < run.end; ++rank) ++covered[rank];
      positions += run.size();
    }
    EXPECT_EQ(pair.positions, positions);
  }
  EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));

  mankalah::endgame::GpuLevelBuilder builder(clf_test::runtime(), last);
  for (int n = 0; n < last; ++n) builder.add_next(expected[static_cast<std::size_t>(n)].data());
  std::vector<cl_char> values(kalah_endgame_level_size(last));
  for (const auto& pair : pairs) {
    builder.begin_level();
    EXPECT_GE(builder.build_pair(pair), 1);
    for (const clf::WorkRange& run : pair.ranges) {
      builder.read_values(run, values.data());
      for (std::size_t rank = run.begin; rank < run.end; ++rank) {
        ASSERT_EQ(values[rank], expected[last][rank]) << "rank " << rank;
      }
    }
  }
}

// Endgame database levels: the ranking is a bijection ordered by class, moves within a level
// lower the potential and lead to the partner class,
// the CPU builder agrees with a full-width minimax to the end of the game, and the device
// builder agrees with the CPU builder byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
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

// Builds every level of `expected` in turn with `builder` (a GpuLevelBuilder or a
// SplitLevelBuilder) and compares it with the expected one, byte for byte.
template <typename Builder>
void expect_levels_built(Builder& builder, const std::vector<std::vector<cl_char>>& expected) {
  for (std::size_t n = 0; n < expected.size(); ++n) {
    int passes = 0;
    const std::vector<cl_char> got = builder.build_next(&passes);
    ASSERT_EQ(got, expected[n]) << "level " << n;
    EXPECT_LE(passes, 5 * static_cast<int>(n) + 2) << "level " << n;
  }
}

// Gives `builder` every level of `expected` but the last, then builds the last and compares it.
template <typename Builder>
void expect_resumed_level(Builder& builder, const std::vector<std::vector<cl_char>>& expected) {
  for (std::size_t n = 0; n + 1 < expected.size(); ++n) builder.add_next(expected[n].data());
  EXPECT_EQ(builder.build_next(), expected.back());
}

TEST(MankalahEndgame, DeviceLevelsEqualCpuLevelsByteForByte) {
  const int last = 8;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  mankalah::endgame::GpuLevelBuilder builder(clf_test::runtime(), last);
  expect_levels_built(builder, expected);
}

// Levels given from files (a resumed build) serve the levels above as built ones do.
TEST(MankalahEndgame, DeviceBuildResumesFromGivenLevels) {
  const int last = 6;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  mankalah::endgame::GpuLevelBuilder builder(clf_test::runtime(), last);
  expect_resumed_level(builder, expected);
}

// Two runtimes on one device stand in for two devices: each level's range is split between
// them, pass by pass in rounds, what changed exchanged whole or listed, and the values equal the
// CPU build's byte for byte, also when resumed.
TEST(MankalahEndgame, LevelsSplitAcrossDevicesEqualCpuLevelsByteForByte) {
  const int last = 8;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  const std::unique_ptr<clf::DeviceSet> devices = mankalah_test::runtimes_on_one_device(2);
  // Small parts and rounds, so that every level from 2 on is split, and runs in rounds from 5 on.
  mankalah::endgame::SplitLevelBuilder builder(*devices, nullptr, last, 8, 256);
  expect_levels_built(builder, expected);
}

TEST(MankalahEndgame, SplitBuildResumesFromGivenLevels) {
  const int last = 7;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  const std::unique_ptr<clf::DeviceSet> devices = mankalah_test::runtimes_on_one_device(2);
  mankalah::endgame::SplitLevelBuilder builder(*devices, nullptr, last, 8, 256);
  expect_resumed_level(builder, expected);
}

// What a pass changed goes to another device whole while many values change, then as a list:
// replaying one device's changes on a second leaves both with the level, and the host copy too.
TEST(MankalahEndgame, PassChangesSentWholeThenListed) {
  const int last = 7;
  const std::vector<std::vector<cl_char>> expected = cpu_levels(last);
  const std::unique_ptr<clf::DeviceSet> devices = mankalah_test::runtimes_on_one_device(2);
  mankalah::endgame::GpuLevelBuilder running(devices->at(0), last);
  mankalah::endgame::GpuLevelBuilder receiving(devices->at(1), last);
  for (int n = 0; n < last; ++n) {
    running.add_next(expected[static_cast<std::size_t>(n)].data());
    receiving.add_next(expected[static_cast<std::size_t>(n)].data());
  }
  const std::uint64_t count = kalah_endgame_level_size(last);
  const clf::WorkRange whole_level{0, count};
  running.begin_level();
  receiving.begin_level();
  std::vector<cl_char> host(count, 0);
  int whole = 0, listed = 0;
  for (mankalah::endgame::PartChanges changes;;) {
    running.pass_and_read_changes(whole_level, host.data(), &changes);
    if (!changes.any) break;
    (changes.whole ? whole : listed) += 1;
    EXPECT_EQ(changes.offsets.size(), changes.values.size());
    receiving.write_changes(whole_level, changes, host.data());
  }
  EXPECT_GE(whole, 1);
  EXPECT_GE(listed, 1);
  EXPECT_EQ(host, expected[last]);
  std::vector<cl_char> received(count);
  receiving.read_values(whole_level, received.data());
  EXPECT_EQ(received, expected[last]);
}

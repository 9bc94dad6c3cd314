// Helpers shared by the Mankalah tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "apps/mankalah/endgame/cpu_builder.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/endgame/level_file.hpp"
#include "framework/clf.hpp"
#include "shared/mankalah/kalah.h"

namespace mankalah_test {

// `count` quiet runtimes on the device the environment selects, as a device set: with two, they
// stand in for two devices.
inline std::unique_ptr<clf::DeviceSet> runtimes_on_one_device(int count) {
  std::vector<std::unique_ptr<clf::Runtime>> runtimes;
  for (int i = 0; i < count; ++i) {
    clf::DeviceRequest request;
    request.quiet = true;
    runtimes.push_back(std::make_unique<clf::Runtime>(request));
  }
  return std::make_unique<clf::DeviceSet>(std::move(runtimes));
}

// One device for the tests' database builds, never destroyed (like clf_test::runtime()).
inline const clf::DeviceSet& one_device() {
  static const clf::DeviceSet* devices = runtimes_on_one_device(1).release();
  return *devices;
}

// A position from its cells, c0 first (fewer than 14 leave the rest empty), and the side to move.
inline KalahBoard board_of(std::initializer_list<int> cells, int to_move) {
  KalahBoard board{};
  int c = 0;
  for (int count : cells) board.cells[c++] = static_cast<cl_uchar>(count);
  board.to_move = static_cast<cl_uchar>(to_move);
  return board;
}

// The mirror of `board`: the rows and stores swapped, the other side to move.
inline KalahBoard mirrored(const KalahBoard& board) {
  KalahBoard mirror = board;
  for (int c = 0; c < KALAH_CELLS; ++c) mirror.cells[c] = board.cells[(c + 7) % KALAH_CELLS];
  mirror.to_move = static_cast<cl_uchar>(1 - board.to_move);
  return mirror;
}

// A random board with `stones` in the pits, random stores and side to move.
inline KalahBoard random_board(int stones, std::mt19937& random) {
  KalahBoard board{};
  for (int s = 0; s < stones; ++s) {
    const int pit = static_cast<int>(random() % 12);
    ++board.cells[pit < KALAH_PITS ? pit : pit + 1];
  }
  board.cells[KALAH_BOTTOM_STORE] = static_cast<cl_uchar>(random() % 10);
  board.cells[KALAH_TOP_STORE] = static_cast<cl_uchar>(random() % 10);
  board.to_move = static_cast<cl_uchar>(random() % 2);
  return board;
}

// (mover's final score - opponent's) with perfect play, by a full-width search to the end.
inline int minimax_margin(const KalahBoard& board) {
  if (kalah_is_over(&board)) {
    return kalah_score(&board, board.to_move) - kalah_score(&board, 1 - board.to_move);
  }
  int best = -KALAH_INFINITY;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, pit);
    const int value = minimax_margin(child);
    best = std::max(best, child.to_move == board.to_move ? value : -value);
  }
  return best;
}

// Endgame database levels 0..last built on the CPU and written to `dir`; returns them.
inline std::vector<std::vector<cl_char>> write_cpu_levels(const std::filesystem::path& dir,
                                                          int last) {
  std::vector<std::vector<cl_char>> levels;
  std::vector<const cl_char*> lower;
  for (int n = 0; n <= last; ++n) {
    levels.push_back(mankalah::endgame::build_level_cpu(n, lower, 1));
    lower.push_back(levels.back().data());
    mankalah::endgame::write_level(dir, n, levels.back());
  }
  return levels;
}

// A folder of its own under the system's temporary folder, removed with the object.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              (name + "_" + std::to_string(std::random_device{}()))) {
    std::filesystem::remove_all(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The start position of Kalah(6, stones_per_pit), BOTTOM to move.
inline KalahBoard start_with(int stones_per_pit) {
  KalahBoard board = kalah_start(KALAH_BOTTOM);
  for (int c = 0; c < KALAH_CELLS; ++c) {
    if (c != KALAH_BOTTOM_STORE && c != KALAH_TOP_STORE) board.cells[c] = stones_per_pit;
  }
  return board;
}

// Levels 0..kDatabaseLevels of the endgame databases in a folder of their own, written once for
// a test suite (a fixture's base).
inline constexpr int kDatabaseLevels = 5;
class DatabaseSuite : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir("mankalah_databases");
    write_cpu_levels(dir_->path(), kDatabaseLevels);
    database_ = new mankalah::endgame::EndgameDatabase(
        mankalah::endgame::EndgameDatabase::open(dir_->path()));
  }
  static void TearDownTestSuite() {
    delete database_;
    delete dir_;
  }
  static inline ScratchDir* dir_ = nullptr;
  static inline mankalah::endgame::EndgameDatabase* database_ = nullptr;
};

}  // namespace mankalah_test

// Endgame database files: written and mapped back, every damage refused with a message naming
// the file, the database's lookups, and `db build|info|verify` (resumable, rebuilding damage).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "apps/mankalah/endgame/cpu_builder.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/endgame/db_command.hpp"
#include "apps/mankalah/endgame/level_file.hpp"
#include "mankalah_test_support.hpp"
#include "test_support.hpp"

namespace {

namespace eg = mankalah::endgame;

class MankalahEndgameFiles : public testing::Test {
 protected:
  MankalahEndgameFiles()
      : dir_(std::filesystem::temp_directory_path() /
             ("mankalah_endgame_" + std::to_string(::getpid()) + "_" +
              testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(dir_);
  }
  ~MankalahEndgameFiles() override { std::filesystem::remove_all(dir_); }

  // Levels 0..last built on the CPU and written to dir_.
  std::vector<std::vector<cl_char>> write_levels(int last) {
    return mankalah_test::write_cpu_levels(dir_, last);
  }

  int run(const std::string& action, std::string* out_text = nullptr,
          std::string* err_text = nullptr, const std::string& builder = "cpu") {
    eg::DbOptions options;
    options.action = action;
    options.db_dir = dir_.string();
    options.max_stones = 5;
    options.builder = builder;
    options.devices = []() -> const clf::DeviceSet& { return mankalah_test::one_device(); };
    std::ostringstream out, err;
    const int status = eg::run_db(options, out, err);
    if (out_text != nullptr) *out_text = out.str();
    if (err_text != nullptr) *err_text = err.str();
    return status;
  }

  std::filesystem::path dir_;
};

// Expects opening `path` as level `level` to fail with a message holding the path and `what`.
void expect_refused(const std::filesystem::path& path, int level, const std::string& what) {
  try {
    eg::LevelFile::open(path, level);
    ADD_FAILURE() << "opened " << path;
  } catch (const eg::DatabaseError& error) {
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(what), std::string::npos) << error.what();
  }
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_F(MankalahEndgameFiles, WrittenLevelsMapBack) {
  const auto levels = write_levels(4);
  for (int n = 0; n <= 4; ++n) {
    const eg::LevelFile file = eg::LevelFile::open(eg::level_path(dir_, n), n);
    ASSERT_EQ(file.count(), levels[n].size());
    EXPECT_TRUE(std::equal(levels[n].begin(), levels[n].end(), file.values()));
  }
  // Nothing but the level files is left in the folder (the temporary files were renamed).
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().extension(), ".kdb");
    ++entries;
  }
  EXPECT_EQ(entries, 5);
}

TEST_F(MankalahEndgameFiles, EveryTruncationAndDamagedByteIsRefused) {
  write_levels(2);
  const std::filesystem::path path = eg::level_path(dir_, 2);
  const std::string good = read_bytes(path);
  for (std::size_t size = 0; size < good.size(); ++size) {
    write_bytes(path, good.substr(0, size));
    expect_refused(path, 2, "truncated");
  }
  write_bytes(path, good + "x");
  expect_refused(path, 2, "too long");
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::string damaged = good;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    write_bytes(path, damaged);
    // The header's padding is not checked; every field and every value is.
    if (at >= 40 && at < 64) continue;
    EXPECT_THROW(eg::LevelFile::open(path, 2), eg::DatabaseError) << "byte " << at;
  }
  write_bytes(path, good);
  expect_refused(path, 3, "holds level 2");
  expect_refused(dir_ / "missing.kdb", 2, "cannot open");
}

// The header check (for a file the build has just written) reads no values: a damaged value
// passes it, a damaged header or size does not.
TEST_F(MankalahEndgameFiles, HeaderCheckReadsNoValues) {
  write_levels(2);
  const std::filesystem::path path = eg::level_path(dir_, 2);
  std::string damaged = read_bytes(path);
  damaged.back() = static_cast<char>(damaged.back() ^ 0x10);
  write_bytes(path, damaged);
  EXPECT_THROW(eg::LevelFile::open(path, 2), eg::DatabaseError);
  EXPECT_NO_THROW(eg::LevelFile::open(path, 2, eg::LevelCheck::header));
  write_bytes(path, damaged.substr(0, damaged.size() - 1));
  EXPECT_THROW(eg::LevelFile::open(path, 2, eg::LevelCheck::header), eg::DatabaseError);
  EXPECT_THROW(eg::LevelFile::open(path, 1, eg::LevelCheck::header), eg::DatabaseError);
}

TEST_F(MankalahEndgameFiles, DatabaseValuesAreTheLevelsMirroredForTop) {
  const auto levels = write_levels(5);
  const eg::EndgameDatabase database = eg::EndgameDatabase::open(dir_);
  EXPECT_EQ(database.max_stones(), 5);
  std::mt19937 random(3);
  for (int trial = 0; trial < 500; ++trial) {
    KalahBoard board{};
    for (int c = 0; c < KALAH_CELLS; ++c) {
      if (c != KALAH_BOTTOM_STORE && c != KALAH_TOP_STORE && random() % 3 == 0) board.cells[c] = 1;
    }
    board.to_move = static_cast<cl_uchar>(random() % 2);
    const int n = kalah_endgame_stones(&board);
    if (n > 5) {
      EXPECT_FALSE(database.covers(board));
      EXPECT_THROW(database.value(board), eg::DatabaseError);
      continue;
    }
    ASSERT_TRUE(database.covers(board));
    ASSERT_EQ(database.value(board), levels[n][kalah_endgame_rank(&board)]);
  }
  // A damaged level is refused, never read.
  write_bytes(eg::level_path(dir_, 3), "damaged");
  EXPECT_THROW(eg::EndgameDatabase::open(dir_), eg::DatabaseError);
}

TEST_F(MankalahEndgameFiles, DbBuildResumesAndRebuildsDamagedLevels) {
  std::string out, err;
  ASSERT_EQ(run("build", &out, &err), 0) << err;
  EXPECT_NE(out.find("level 5: 4368 positions in"), std::string::npos) << out;
  const std::string level4 = read_bytes(eg::level_path(dir_, 4));
  ASSERT_EQ(run("info", &out, &err), 0) << err;
  EXPECT_NE(out.find("level 5: 4368 positions, 4432 bytes, checksum"), std::string::npos) << out;
  ASSERT_EQ(run("verify", &out, &err), 0) << err;
  EXPECT_NE(out.find("level 5: checksum ok, 4368 positions recomputed, 0 wrong"), std::string::npos)
      << out;

  // Damage level 4: info and verify refuse it by name, build rebuilds it (on the device) and
  // keeps the others.
  const std::filesystem::path damaged = eg::level_path(dir_, 4);
  write_bytes(damaged, level4.substr(0, 100));
  EXPECT_EQ(run("info", &out, &err), 1);
  EXPECT_NE(err.find(damaged.string() + ": truncated"), std::string::npos) << err;
  EXPECT_EQ(run("verify", &out, &err), 1);
  EXPECT_NE(err.find(damaged.string()), std::string::npos) << err;
  ASSERT_EQ(run("build", &out, &err, "gpu"), 0) << err;
  EXPECT_NE(out.find("level 3: 364 positions, kept"), std::string::npos) << out;
  EXPECT_NE(out.find("level 4: 1365 positions in"), std::string::npos) << out;
  EXPECT_NE(out.find("level 5: 4368 positions, kept"), std::string::npos) << out;
  EXPECT_EQ(read_bytes(damaged), level4);
  // The devices were set up once, before level 4, with levels 0..3 loaded onto them.
  const std::size_t ready = out.find("devices ready in ");
  ASSERT_NE(ready, std::string::npos) << out;
  EXPECT_EQ(out.find("devices ready in ", ready + 1), std::string::npos) << out;
  EXPECT_LT(out.find("level 3: 364 positions, kept"), ready) << out;
  EXPECT_LT(ready, out.find("level 4: 1365 positions in")) << out;

  // A value that disagrees with its children, under a correct checksum, fails verify.
  std::vector<cl_char> wrong(kalah_endgame_level_size(2), 0);
  eg::write_level(dir_, 2, wrong);
  EXPECT_EQ(run("verify", &out, &err), 1);
  EXPECT_NE(err.find("disagrees with its children"), std::string::npos) << err;
}

// A missing or damaged level does not end the check: verify names it, says the levels above it
// cannot be used, still checks their files (their values cannot be recomputed without it) and
// fails.
TEST_F(MankalahEndgameFiles, DbVerifyGoesOnPastAMissingOrDamagedLevel) {
  const std::vector<std::vector<cl_char>> levels = write_levels(8);
  const std::filesystem::path missing = eg::level_path(dir_, 5);
  const std::filesystem::path damaged = eg::level_path(dir_, 8);
  std::filesystem::remove(missing);
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) - 1);
  std::string out, err;
  EXPECT_EQ(run("verify", &out, &err), 1);
  EXPECT_NE(out.find("level 4: checksum ok, 1365 positions recomputed, 0 wrong"), std::string::npos)
      << out;
  EXPECT_NE(err.find(missing.string() + ": missing: levels 6..8 above it cannot be used"),
            std::string::npos)
      << err;
  EXPECT_NE(out.find("level 6: checksum ok, not recomputed (level 5 is missing)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("level 7: checksum ok, not recomputed (level 5 is missing)"),
            std::string::npos)
      << out;
  EXPECT_NE(err.find(damaged.string() + ": truncated"), std::string::npos) << err;
  // `db info` says the gap too (it listed the levels around it as if nothing were missing).
  EXPECT_EQ(run("info", &out, &err), 1);
  EXPECT_NE(err.find(missing.string() + ": missing: levels 6..8 above it cannot be used"),
            std::string::npos)
      << err;
  EXPECT_NE(out.find("level 6: "), std::string::npos) << out;

  // Level 5 back and level 3 damaged: the check goes on above level 3 too.
  eg::write_level(dir_, 5, levels[5]);
  const std::filesystem::path damaged3 = eg::level_path(dir_, 3);
  std::filesystem::resize_file(damaged3, std::filesystem::file_size(damaged3) - 1);
  EXPECT_EQ(run("verify", &out, &err), 1);
  EXPECT_NE(err.find(damaged3.string() + ": truncated"), std::string::npos) << err;
  EXPECT_NE(err.find("levels 4..8 above it cannot be used"), std::string::npos) << err;
  EXPECT_NE(out.find("level 5: checksum ok, not recomputed (level 3 is damaged)"),
            std::string::npos)
      << out;
  EXPECT_NE(err.find(damaged.string() + ": truncated"), std::string::npos) << err;
}

TEST_F(MankalahEndgameFiles, DbInfoAndVerifyOnAnEmptyFolder) {
  std::string out, err;
  EXPECT_EQ(run("info", &out, &err), 0);
  EXPECT_NE(out.find("no endgame database levels"), std::string::npos) << out;
  EXPECT_EQ(run("verify", &out, &err), 1);
  EXPECT_NE(err.find("no endgame database levels"), std::string::npos) << err;
}

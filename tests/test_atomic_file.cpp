// clf::write_file_atomically's errors and clf::check_writable, which commands call before long
// work whose results they write at its end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "framework/atomic_file.hpp"
#include "framework/error.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

// A fresh folder under the test's temporary directory.
fs::path fresh_folder(const std::string& name) {
  const fs::path folder = fs::path(testing::TempDir()) / ("atomic_file_" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

TEST(AtomicFile, CheckWritableTakesWhatTheWriteCouldWriteAndLeavesNothing) {
  const fs::path folder = fresh_folder("fine");
  EXPECT_NO_THROW(clf::check_writable(folder / "out.csv"));
  EXPECT_NO_THROW(clf::check_writable(folder / "new" / "deeper" / "out.csv"));  // created later
  EXPECT_TRUE(fs::is_empty(folder)) << "the probe or a folder was left behind";
  clf::write_file_atomically(folder / "new" / "deeper" / "out.csv", "x");
  EXPECT_NO_THROW(clf::check_writable(folder / "new" / "deeper" / "out.csv"));  // replaced
}

TEST(AtomicFile, CheckWritableNamesThePathAndWhy) {
  const fs::path folder = fresh_folder("refused");
  std::ofstream(folder / "plain") << "a file, not a folder";
  const std::string under_file = (folder / "plain" / "out.csv").string();
  EXPECT_CLF_ERROR(clf::check_writable(under_file), under_file.c_str(), "plain is not a folder");
  EXPECT_CLF_ERROR(clf::check_writable(folder), "is a folder");
  // A folder where no file can be made, even by root.
  EXPECT_CLF_ERROR(clf::check_writable("/proc/out.csv"),
                   "/proc/out.csv: cannot create a file in /proc: ");
}

// A failed write names the file asked for first (it named only the temporary file).
TEST(AtomicFile, AFailedWriteNamesTheTarget) {
  EXPECT_CLF_ERROR(clf::write_file_atomically("/proc/out.csv", "x"),
                   "/proc/out.csv: cannot create ");
}

}  // namespace

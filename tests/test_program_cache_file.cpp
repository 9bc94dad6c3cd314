// The on-disk program cache's files: a whole, undamaged entry for the right key is read back; a
// truncated, damaged or foreign one never is; writers in several processes, one of them killed
// midway, leave either a whole entry or none.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "framework/program_cache_file.hpp"

namespace {

clf::ProgramCacheEntry sample_entry(const std::string& binary) {
  clf::KernelInfo kernel;
  kernel.name = "twice";
  kernel.arg_count = 2;
  kernel.args_known = true;
  kernel.args = {{"in", "int*", clf::AddressSpace::global, true},
                 {"out", "int*", clf::AddressSpace::global, false}};
  return clf::ProgramCacheEntry{binary, {kernel}};
}

std::filesystem::path scratch_directory(const std::string& name) {
  const std::filesystem::path directory = std::filesystem::temp_directory_path() /
                                          ("clf-cache-file-" + std::to_string(::getpid()) + name);
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  return directory;
}

TEST(ProgramCacheFile, RoundTripsAnEntry) {
  const clf::ProgramCacheEntry entry = sample_entry(std::string("\0binary\n 12 bytes", 17));
  const std::string bytes = clf::encode_program_cache_entry("key\nwith lines", entry);
  const auto decoded = clf::decode_program_cache_entry(bytes, "key\nwith lines");
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->binary, entry.binary);
  ASSERT_EQ(decoded->kernels.size(), 1U);
  EXPECT_EQ(decoded->kernels[0].name, "twice");
  ASSERT_EQ(decoded->kernels[0].args.size(), 2U);
  EXPECT_EQ(decoded->kernels[0].args[0].type_name, "int*");
  EXPECT_TRUE(decoded->kernels[0].args[0].is_const);
  EXPECT_FALSE(decoded->kernels[0].args[1].is_const);
}

TEST(ProgramCacheFile, AnotherKeyIsAMiss) {
  const std::string bytes = clf::encode_program_cache_entry("key A", sample_entry("bin"));
  EXPECT_FALSE(clf::decode_program_cache_entry(bytes, "key B").has_value());
}

TEST(ProgramCacheFile, EveryTruncationIsAMiss) {
  const std::string bytes = clf::encode_program_cache_entry("key", sample_entry("binary"));
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_FALSE(clf::decode_program_cache_entry(bytes.substr(0, length), "key").has_value())
        << "truncated to " << length << " of " << bytes.size() << " bytes";
  }
}

TEST(ProgramCacheFile, EveryDamagedByteIsAMiss) {
  const std::string bytes = clf::encode_program_cache_entry("key", sample_entry("binary"));
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80}) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      EXPECT_FALSE(clf::decode_program_cache_entry(damaged, "key").has_value())
          << "byte " << i << " xor " << int(flip);
    }
  }
}

TEST(ProgramCacheFile, AnOlderFormatIsAMiss) {
  // What the first format wrote: a magic line and the payload, no size or checksum.
  const std::string old = "clf-program-cache-1\n3 key3 bin0 ";
  EXPECT_FALSE(clf::decode_program_cache_entry(old, "key").has_value());
}

TEST(ProgramCacheFile, SaveAndLoadLeaveNoTemporaryFiles) {
  const std::filesystem::path directory = scratch_directory("save");
  const std::filesystem::path file = directory / clf::program_cache_file_name("key");
  ASSERT_TRUE(clf::save_program_cache_entry(file, "key", sample_entry("binary")));
  const auto loaded = clf::load_program_cache_entry(file, "key");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->binary, "binary");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(directory)) ++files;
  EXPECT_EQ(files, 1U);
  std::filesystem::remove_all(directory);
}

TEST(ProgramCacheFile, AnUnwritableDirectoryIsNotAnError) {
  EXPECT_FALSE(
      clf::save_program_cache_entry("/proc/clf-no-such-dir/x.bin", "key", sample_entry("binary")));
}

// Four processes write the same entry with different binaries over and over while this one
// reads: every read sees one whole entry that some writer wrote.
TEST(ProgramCacheFile, ConcurrentWritersNeverShowHalfAnEntry) {
  const std::filesystem::path directory = scratch_directory("concurrent");
  const std::filesystem::path file = directory / clf::program_cache_file_name("key");
  std::set<std::string> written;
  std::vector<pid_t> writers;
  for (int w = 0; w < 4; ++w) {
    const std::string binary(1000 + 50000 * w, static_cast<char>('a' + w));
    written.insert(binary);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int i = 0; i < 200; ++i)
        clf::save_program_cache_entry(file, "key", sample_entry(binary));
      ::_exit(0);
    }
    writers.push_back(pid);
  }
  int reads = 0, hits = 0;
  bool running = true;
  while (running) {
    running = false;
    for (pid_t pid : writers) running |= ::waitpid(pid, nullptr, WNOHANG) == 0;
    ++reads;
    if (const auto entry = clf::load_program_cache_entry(file, "key")) {
      ++hits;
      EXPECT_EQ(written.count(entry->binary), 1U)
          << "a read saw " << entry->binary.size() << " bytes no writer wrote";
    }
  }
  for (pid_t pid : writers) ::waitpid(pid, nullptr, 0);
  EXPECT_GT(hits, 0) << reads << " reads";
  ASSERT_TRUE(clf::load_program_cache_entry(file, "key").has_value());
  std::filesystem::remove_all(directory);
}

// A writer killed while it writes leaves the previous entry intact (and at most its temporary
// file, which no reader opens).
TEST(ProgramCacheFile, AWriterKilledMidwayLeavesTheOldEntry) {
  constexpr std::size_t kHugeBytes = 64u << 20;
  const std::filesystem::path directory = scratch_directory("killed");
  const std::filesystem::path file = directory / clf::program_cache_file_name("key");
  ASSERT_TRUE(clf::save_program_cache_entry(file, "key", sample_entry("old binary")));
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string huge(kHugeBytes, 'x');  // takes long enough to be killed while writing
    for (;;) clf::save_program_cache_entry(file, "key", sample_entry(huge));
  }
  // Wait until its temporary file exists, then kill it.
  bool writing = false;
  for (int i = 0; i < 4000 && !writing; ++i) {
    for (const auto& f : std::filesystem::directory_iterator(directory))
      writing |= f.path().string().find(".tmp.") != std::string::npos;
    if (!writing) ::usleep(1000);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  EXPECT_TRUE(writing) << "the writer never started";
  const auto entry = clf::load_program_cache_entry(file, "key");
  ASSERT_TRUE(entry.has_value());
  // Either the old entry, or (if it finished one write before the kill) the whole new one.
  EXPECT_TRUE(entry->binary == "old binary" || entry->binary.size() == kHugeBytes);
  std::filesystem::remove_all(directory);
}

}  // namespace

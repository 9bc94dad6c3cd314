// One endgame database level on disk: a header (magic, format version, rules, level, count,
// checksum of the payload) and one signed byte per position in rank order. Written to a
// temporary file and renamed, so a reader sees the old file or the whole new one; read by
// memory-mapping, after every header field and the checksum have been checked.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::endgame {

// A level file that cannot be used; the message names the file and what is wrong with it.
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Version 2: positions ranked by the stones in the mover's row first (shared/mankalah/
// kalah_endgame.h) and an XXH3 checksum; version 1 files are refused and rebuilt.
constexpr std::uint32_t kLevelFormatVersion = 2;
// Identifies the rules of shared/kalah.h (6 pits, sowing skips the opponent's store, a capture
// needs a non-empty opposite pit, the rows go to their owners at the end). Change it whenever
// those rules change, so that files built under other rules are refused.
constexpr std::uint32_t kRulesId = 0x4B363101;

// "<dir>/level-NN.kdb".
std::filesystem::path level_path(const std::filesystem::path& dir, int level);

// Writes level `level` (`count` must be its position count) atomically into `dir`, creating
// `dir` when needed. Throws DatabaseError when it cannot.
void write_level(const std::filesystem::path& dir, int level, const cl_char* values,
                 std::size_t count);
void write_level(const std::filesystem::path& dir, int level, const std::vector<cl_char>& values);

// Writes `parts` one after the other into a unique temporary file next to `path`, flushes it and
// renames it to `path`: a reader sees the old file or the whole new one. Throws DatabaseError.
void write_atomically(const std::filesystem::path& path,
                      std::initializer_list<std::pair<const void*, std::size_t>> parts);

// How much of a level file open() checks: all of it, or the header and size alone (for a file
// this process has just written from values it checksummed in memory: reading gigabytes back from
// the page cache would check nothing but the copy).
enum class LevelCheck { whole, header };

// A level file, memory-mapped read-only for as long as the object lives.
class LevelFile {
 public:
  // Opens and checks `path`, which must hold level `level`; throws DatabaseError otherwise.
  static LevelFile open(const std::filesystem::path& path, int level,
                        LevelCheck check = LevelCheck::whole);

  LevelFile(LevelFile&& other) noexcept;
  LevelFile& operator=(LevelFile&& other) noexcept;
  LevelFile(const LevelFile&) = delete;
  LevelFile& operator=(const LevelFile&) = delete;
  ~LevelFile();

  int level() const { return level_; }
  std::uint64_t count() const { return count_; }
  std::uint64_t checksum() const { return checksum_; }
  std::uint64_t file_bytes() const { return mapped_bytes_; }
  const std::filesystem::path& path() const { return path_; }
  // The values in rank order (count() of them).
  const cl_char* values() const { return values_; }

 private:
  LevelFile() = default;
  void release();

  std::filesystem::path path_;
  int level_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t checksum_ = 0;
  void* mapping_ = nullptr;
  std::uint64_t mapped_bytes_ = 0;
  const cl_char* values_ = nullptr;
};

// Level `level` of `dir` if its file is there and valid; a damaged file is reported on `err` and
// treated as missing (a build rebuilds it).
std::optional<LevelFile> open_valid_level(const std::filesystem::path& dir, int level,
                                          std::ostream& err);

}  // namespace mankalah::endgame

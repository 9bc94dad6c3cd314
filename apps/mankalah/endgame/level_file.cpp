#include "apps/mankalah/endgame/level_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ostream>

#include "framework/atomic_file.hpp"
#include "framework/checksum.hpp"
#include "framework/error.hpp"

namespace mankalah::endgame {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'M', 'K', 'E', 'G', 'D', 'B'};
// The header, padded to kHeaderBytes; fields in the host's byte order (the version check
// refuses a file from a machine of the other order, as its version reads wrong).
struct LevelHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t rules;
  std::uint32_t level;
  std::uint32_t reserved;  // zero
  std::uint64_t count;
  std::uint64_t checksum;
};
constexpr std::size_t kHeaderBytes = 64;
static_assert(sizeof(LevelHeader) <= kHeaderBytes);

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw DatabaseError("endgame database file " + path.string() + ": " + what);
}

std::string system_error() { return std::strerror(errno); }

}  // namespace

std::filesystem::path level_path(const std::filesystem::path& dir, int level) {
  char name[32];
  std::snprintf(name, sizeof name, "level-%02d.kdb", level);
  return dir / name;
}

void write_level(const std::filesystem::path& dir, int level, const std::vector<cl_char>& values) {
  write_level(dir, level, values.data(), values.size());
}

void write_level(const std::filesystem::path& dir, int level, const cl_char* values,
                 std::size_t count) {
  const std::filesystem::path path = level_path(dir, level);
  if (count != kalah_endgame_level_size(level)) {
    fail(path, std::to_string(count) + " values given for a level of " +
                   std::to_string(kalah_endgame_level_size(level)));
  }
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) fail(path, "cannot create the folder: " + error.message());

  unsigned char header_bytes[kHeaderBytes] = {};
  LevelHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kLevelFormatVersion;
  header.rules = kRulesId;
  header.level = static_cast<std::uint32_t>(level);
  header.count = count;
  header.checksum = clf::checksum64(values, count);
  std::memcpy(header_bytes, &header, sizeof header);

  write_atomically(path, {{header_bytes, sizeof header_bytes}, {values, count}});
}

void write_atomically(const std::filesystem::path& path,
                      std::initializer_list<std::pair<const void*, std::size_t>> parts) {
  try {
    clf::write_file_atomically(path, parts);
  } catch (const clf::Error& error) {
    throw DatabaseError(std::string("endgame database file ") + error.what());
  }
}

LevelFile LevelFile::open(const std::filesystem::path& path, int level, LevelCheck check) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open: " + system_error());
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const std::string why = system_error();
    ::close(fd);
    fail(path, "cannot read its size: " + why);
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(info.st_size);
  if (bytes < kHeaderBytes) {
    ::close(fd);
    fail(path, "truncated: " + std::to_string(bytes) + " bytes, the header alone needs " +
                   std::to_string(kHeaderBytes) + " (rebuild it with `db build`)");
  }
  void* mapping = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (mapping == MAP_FAILED) fail(path, "cannot map: " + system_error());

  LevelFile file;
  file.path_ = path;
  file.mapping_ = mapping;
  file.mapped_bytes_ = bytes;
  LevelHeader header{};
  std::memcpy(&header, mapping, sizeof header);
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) {
    fail(path, "not an endgame database level (wrong magic)");
  }
  if (header.version != kLevelFormatVersion) {
    fail(path, "format version " + std::to_string(header.version) + ", this program reads " +
                   std::to_string(kLevelFormatVersion) + " (rebuild it with `db build`)");
  }
  if (header.rules != kRulesId) fail(path, "built for other rules (rebuild it with `db build`)");
  if (header.reserved != 0) fail(path, "a reserved header field is set (a damaged header)");
  if (header.level != static_cast<std::uint32_t>(level)) {
    fail(path, "holds level " + std::to_string(header.level) + ", expected level " +
                   std::to_string(level));
  }
  const std::uint64_t count = kalah_endgame_level_size(level);
  if (header.count != count) {
    fail(path, "claims " + std::to_string(header.count) + " positions, level " +
                   std::to_string(level) + " has " + std::to_string(count));
  }
  if (bytes != kHeaderBytes + count) {
    fail(path, std::string(bytes < kHeaderBytes + count ? "truncated" : "too long") + ": " +
                   std::to_string(bytes) + " bytes, expected " +
                   std::to_string(kHeaderBytes + count) + " (rebuild it with `db build`)");
  }
  const cl_char* values =
      reinterpret_cast<const cl_char*>(static_cast<const unsigned char*>(mapping) + kHeaderBytes);
  if (check == LevelCheck::whole && clf::checksum64(values, count) != header.checksum) {
    fail(path, "checksum mismatch: the values are damaged (rebuild it with `db build`)");
  }
  file.level_ = level;
  file.count_ = count;
  file.checksum_ = header.checksum;
  file.values_ = values;
  return file;
}

LevelFile::LevelFile(LevelFile&& other) noexcept { *this = std::move(other); }

LevelFile& LevelFile::operator=(LevelFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    level_ = other.level_;
    count_ = other.count_;
    checksum_ = other.checksum_;
    mapping_ = other.mapping_;
    mapped_bytes_ = other.mapped_bytes_;
    values_ = other.values_;
    other.mapping_ = nullptr;
    other.values_ = nullptr;
    other.mapped_bytes_ = 0;
  }
  return *this;
}

LevelFile::~LevelFile() { release(); }

void LevelFile::release() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapped_bytes_);
  mapping_ = nullptr;
}

std::optional<LevelFile> open_valid_level(const std::filesystem::path& dir, int level,
                                          std::ostream& err) {
  const std::filesystem::path path = level_path(dir, level);
  if (!std::filesystem::exists(path)) return std::nullopt;
  try {
    return LevelFile::open(path, level);
  } catch (const DatabaseError& error) {
    err << "cl-mankalah: " << error.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace mankalah::endgame

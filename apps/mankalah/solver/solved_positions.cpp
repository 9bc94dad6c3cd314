#include "apps/mankalah/solver/solved_positions.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "apps/mankalah/endgame/level_file.hpp"
#include "framework/checksum.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::solver {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'M', 'K', 'S', 'O', 'L', 'V'};
constexpr std::uint32_t kFormatVersion = 2;  // 2: an XXH3 checksum (1: FNV-1a)
struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t rules;
  std::uint64_t count;
  std::uint64_t checksum;
  std::uint64_t reserved;  // zero
};
constexpr std::size_t kHeaderBytes = 64;
static_assert(sizeof(Header) <= kHeaderBytes);
struct Entry {
  std::uint8_t pits[12];
  std::int8_t value;
  std::uint8_t move;
  std::uint8_t reserved[2];  // zero
};
static_assert(sizeof(Entry) == 16);

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw endgame::DatabaseError("solved positions file " + path.string() + ": " + what +
                               " (delete it: it is rebuilt as games are played)");
}

}  // namespace

std::filesystem::path SolvedPositions::path_in(const std::filesystem::path& dir) {
  return dir / "solved-positions.kst";
}

SolvedPositions::Key SolvedPositions::key_of(const KalahBoard& board) {
  Key key{};
  for (int i = 0; i < KALAH_ENDGAME_ENTRIES; ++i) {
    key[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(kalah_endgame_entry(&board, i));
  }
  return key;
}

const SolvedPosition* SolvedPositions::find(const KalahBoard& board) const {
  const auto found = positions_.find(key_of(board));
  return found == positions_.end() ? nullptr : &found->second;
}

void SolvedPositions::add(const KalahBoard& board, int value, int move_cell) {
  const SolvedPosition entry{value, move_cell - kalah_first_pit(board.to_move)};
  auto [where, added] = positions_.emplace(key_of(board), entry);
  if (added) changed_ = true;
}

SolvedPositions SolvedPositions::load(const std::filesystem::path& path) {
  SolvedPositions set;
  std::ifstream file(path, std::ios::binary);
  if (!file) return set;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  if (bytes.size() < kHeaderBytes) fail(path, "truncated header");
  Header header{};
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) fail(path, "wrong magic");
  if (header.version != kFormatVersion) {
    fail(path, "format version " + std::to_string(header.version) + ", this program reads " +
                   std::to_string(kFormatVersion));
  }
  if (header.rules != endgame::kRulesId) fail(path, "written for other rules");
  if (header.reserved != 0) fail(path, "a reserved header field is set");
  // The count is checked against the file's size by division: a count times the entry size
  // can wrap around 2^64 and match a short file.
  const std::size_t payload_bytes = bytes.size() - kHeaderBytes;
  if (payload_bytes % sizeof(Entry) != 0 || header.count != payload_bytes / sizeof(Entry)) {
    fail(path, std::to_string(bytes.size()) + " bytes, which hold " +
                   std::to_string(payload_bytes / sizeof(Entry)) + " whole positions (" +
                   std::to_string(payload_bytes % sizeof(Entry)) +
                   " bytes over), but the header says " + std::to_string(header.count));
  }
  const char* payload = bytes.data() + kHeaderBytes;
  if (clf::checksum64(payload, payload_bytes) != header.checksum) {
    fail(path, "checksum mismatch: the entries are damaged");
  }
  for (std::uint64_t i = 0; i < header.count; ++i) {
    Entry entry{};
    std::memcpy(&entry, payload + i * sizeof(Entry), sizeof entry);
    int stones = 0;
    Key key{};
    for (int p = 0; p < 12; ++p) {
      key[static_cast<std::size_t>(p)] = entry.pits[p];
      stones += entry.pits[p];
    }
    if (entry.move >= KALAH_PITS || entry.pits[entry.move] == 0 || entry.value > stones ||
        entry.value < -stones || entry.reserved[0] != 0 || entry.reserved[1] != 0) {
      fail(path, "entry " + std::to_string(i) + " is not a position's value and move");
    }
    set.positions_.emplace(key, SolvedPosition{entry.value, entry.move});
  }
  return set;
}

void SolvedPositions::save(const std::filesystem::path& path) {
  try {
    for (const auto& [key, entry] : load(path).positions_) positions_.emplace(key, entry);
  } catch (const endgame::DatabaseError&) {
    // A damaged file is replaced by this set.
  }
  std::vector<Entry> entries;
  entries.reserve(positions_.size());
  for (const auto& [key, position] : positions_) {
    Entry entry{};
    std::memcpy(entry.pits, key.data(), key.size());
    entry.value = static_cast<std::int8_t>(position.value);
    entry.move = static_cast<std::uint8_t>(position.move);
    entries.push_back(entry);
  }
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kFormatVersion;
  header.rules = endgame::kRulesId;
  header.count = entries.size();
  header.checksum = clf::checksum64(entries.data(), entries.size() * sizeof(Entry));
  unsigned char header_bytes[kHeaderBytes] = {};
  std::memcpy(header_bytes, &header, sizeof header);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  endgame::write_atomically(path, {{header_bytes, sizeof header_bytes},
                                   {entries.data(), entries.size() * sizeof(Entry)}});
  changed_ = false;
}

}  // namespace mankalah::solver

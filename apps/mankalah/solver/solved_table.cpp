#include "apps/mankalah/solver/solved_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::solver {

namespace {

// data's fields.
constexpr int kLowerShift = 32, kUpperShift = 40, kMoveShift = 48, kWorkShift = 56;
constexpr std::uint64_t kUsed = std::uint64_t{1} << 63;
// Bounds lie in -kMaxStones..kMaxStones (the Solver refuses boards with more stones in play),
// stored + 128: one byte each.
constexpr int kBias = 128;
static_assert(SolvedTable::kMaxStones + kBias <= 0xFF && kBias - SolvedTable::kMaxStones >= 0);

std::uint64_t field(std::uint64_t data, int shift) { return (data >> shift) & 0xFF; }

std::uint64_t pack(const PitsKey& key, int lower, int upper, int move, int work_log2) {
  return kUsed | key.high | static_cast<std::uint64_t>(lower + kBias) << kLowerShift |
         static_cast<std::uint64_t>(upper + kBias) << kUpperShift |
         static_cast<std::uint64_t>(move + 1) << kMoveShift |
         static_cast<std::uint64_t>(std::min(work_log2, 127)) << kWorkShift;
}

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

}  // namespace

PitsKey pits_key(const KalahBoard& board) {
  PitsKey key{0, 0};
  for (int i = 0; i < 8; ++i) {
    key.low |= static_cast<std::uint64_t>(kalah_endgame_entry(&board, i)) << (8 * i);
  }
  for (int i = 8; i < KALAH_ENDGAME_ENTRIES; ++i) {
    key.high |= static_cast<std::uint32_t>(kalah_endgame_entry(&board, i)) << (8 * (i - 8));
  }
  return key;
}

SolvedTable::SolvedTable(std::size_t megabytes) {
  // Checked before the shift: past 2^44 MB it overflows and the loop below may never end.
  if (megabytes > kMaxMegabytes) {
    throw std::invalid_argument("the solver's table: " + std::to_string(megabytes) +
                                " MB is more than the most it takes, " +
                                std::to_string(kMaxMegabytes) + " MB (1 TiB)");
  }
  slot_count_ = kBucket;
  while (slot_count_ * 2 * sizeof(Slot) <= std::max<std::size_t>(megabytes, 1) << 20) {
    slot_count_ *= 2;
  }
  // Anonymous memory in huge pages where the kernel allows: the search is bound by the latency
  // of random loads from this table, and 2 MB pages spare most of their TLB misses. The pages
  // are zero (empty slots) until first written, so a large table costs nothing up front.
  void* memory =
      ::mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    throw std::runtime_error("the solver's table: cannot map " + std::to_string(megabytes) +
                             " MB: " + std::strerror(errno));
  }
  ::madvise(memory, bytes(), MADV_HUGEPAGE);
  slots_ = new (memory) Slot[slot_count_];
}

SolvedTable::~SolvedTable() { ::munmap(slots_, bytes()); }

void SolvedTable::clear() {
  // Gives the pages back: they read as zero again.
  ::madvise(slots_, bytes(), MADV_DONTNEED);
}

SolvedTable::Slot* SolvedTable::bucket_of(const PitsKey& key) const {
  const std::uint64_t hash = mix(key.low * 31 + key.high);
  return &slots_[(hash * kBucket) & (slot_count_ - 1)];
}

bool SolvedTable::find(const PitsKey& key, Bounds* bounds) const {
  Slot* bucket = bucket_of(key);
  for (std::size_t i = 0; i < kBucket; ++i) {
    const std::uint64_t data = bucket[i].data.load(std::memory_order_relaxed);
    const std::uint64_t check = bucket[i].check.load(std::memory_order_relaxed);
    if ((data & kUsed) == 0 || (data & 0xFFFFFFFFu) != key.high || (check ^ data) != key.low) {
      continue;
    }
    bounds->lower = static_cast<int>(field(data, kLowerShift)) - kBias;
    bounds->upper = static_cast<int>(field(data, kUpperShift)) - kBias;
    bounds->move = static_cast<int>(field(data, kMoveShift)) - 1;
    return true;
  }
  return false;
}

void SolvedTable::store(const PitsKey& key, int lower, int upper, int move, int work_log2) {
  Slot* bucket = bucket_of(key);
  Slot* victim = nullptr;
  std::uint64_t victim_work = ~std::uint64_t{0};
  for (std::size_t i = 0; i < kBucket; ++i) {
    const std::uint64_t data = bucket[i].data.load(std::memory_order_relaxed);
    const std::uint64_t check = bucket[i].check.load(std::memory_order_relaxed);
    if ((data & kUsed) != 0 && (data & 0xFFFFFFFFu) == key.high && (check ^ data) == key.low) {
      // The same position: both bounds hold, so keep the tighter of each.
      const int old_lower = static_cast<int>(field(data, kLowerShift)) - kBias;
      const int old_upper = static_cast<int>(field(data, kUpperShift)) - kBias;
      if (old_lower >= lower) {
        lower = old_lower;
        move = static_cast<int>(field(data, kMoveShift)) - 1;
      }
      upper = std::min(upper, old_upper);
      work_log2 = std::max(work_log2, static_cast<int>(field(data, kWorkShift) & 0x7F));
      victim = &bucket[i];
      break;
    }
    const std::uint64_t work = (data & kUsed) == 0 ? 0 : field(data, kWorkShift) & 0x7F;
    if (work < victim_work) {
      victim_work = work;
      victim = &bucket[i];
    }
  }
  const std::uint64_t data = pack(key, lower, upper, move, work_log2);
  victim->data.store(data, std::memory_order_relaxed);
  victim->check.store(key.low ^ data, std::memory_order_relaxed);
}

}  // namespace mankalah::solver

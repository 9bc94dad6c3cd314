// A map from positions (the 16 bytes of a KalahBoard, `mark` included) to an int, open
// addressing with linear probing in one flat array: the hybrid engine looks a value up at every
// horizon position of every pass, and std::unordered_map costs a node allocation per entry and
// two cache misses per lookup.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "shared/mankalah/kalah.h"

namespace mankalah {

// A position's 16 bytes as two words, and their hash: the keys of this table and of
// alpha-beta's transposition table.
struct PositionKey {
  std::uint64_t key0, key1;
};

inline PositionKey position_key(const KalahBoard& board) {
  static_assert(sizeof(KalahBoard) == 16, "a position key is the board's 16 bytes");
  PositionKey key;
  std::memcpy(&key.key0, &board, 8);
  std::memcpy(&key.key1, reinterpret_cast<const char*>(&board) + 8, 8);
  return key;
}

inline std::uint64_t position_hash(const PositionKey& key) {
  std::uint64_t h = key.key0 * 0x9E3779B97F4A7C15ull ^ (key.key1 + 0x632BE59BD9B4E019ull);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h;
}

class PositionTable {
 public:
  // Room for `capacity` entries before the table is full (at half its slots). The slots grow
  // with the entries: a lookup in a table sized to what it holds stays in the cache far more
  // often than one in a table sized for the most it may ever hold.
  explicit PositionTable(std::size_t capacity) {
    while (max_slots_ < 2 * capacity) max_slots_ *= 2;
    resize(std::min(max_slots_, kFirstSlots));
  }

  std::size_t size() const { return used_.size(); }
  bool full() const { return 2 * used_.size() >= max_slots_; }
  // Costs the entries there are, not the slots: a table cleared every pass stays cheap.
  void clear() {
    for (const std::size_t i : used_) slots_[i].key0 = kEmpty;
    used_.clear();
  }

  // The value stored for `board`, or nullptr.
  const int* find(const KalahBoard& board) const {
    const Slot key = key_of(board);
    for (std::size_t i = index_of(key);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (slot.key0 == kEmpty) return nullptr;
      if (slot.key0 == key.key0 && slot.key1 == key.key1) return &slot.value;
    }
  }

  // Stores `value` for `board` unless it has one; returns whether it was stored. The caller
  // clears a full table first.
  bool insert(const KalahBoard& board, int value) {
    if (2 * used_.size() >= slots_.size() && slots_.size() < max_slots_) {
      resize(2 * slots_.size());
    }
    Slot key = key_of(board);
    for (std::size_t i = index_of(key);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[i];
      if (slot.key0 == key.key0 && slot.key1 == key.key1) return false;
      if (slot.key0 == kEmpty) {
        key.value = value;
        slot = key;
        used_.push_back(i);
        return true;
      }
    }
  }

 private:
  struct Slot {
    std::uint64_t key0, key1;
    int value;
  };
  static constexpr std::size_t kFirstSlots = 4096;

  void resize(std::size_t slots) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(slots);
    for (Slot& slot : slots_) slot.key0 = kEmpty;
    std::vector<std::size_t> old_used;
    old_used.swap(used_);
    for (const std::size_t i : old_used) place(old[i]);
  }
  void place(const Slot& entry) {
    std::size_t i = index_of(entry);
    while (slots_[i].key0 != kEmpty) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = entry;
    used_.push_back(i);
  }

  // No position has 0xFF in all of cells 0-7 (there are 48 stones).
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  static Slot key_of(const KalahBoard& board) {
    const PositionKey key = position_key(board);
    return Slot{key.key0, key.key1, 0};
  }
  std::size_t index_of(const Slot& key) const {
    return position_hash(PositionKey{key.key0, key.key1}) & (slots_.size() - 1);
  }

  std::vector<Slot> slots_;
  std::vector<std::size_t> used_;  // the slots in use
  std::size_t max_slots_ = 16;
};

}  // namespace mankalah

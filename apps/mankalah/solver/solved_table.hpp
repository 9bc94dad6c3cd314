// The exact solver's transposition table: bounds on the value of positions, shared by every
// search thread without locks.
//
// A position is keyed by its 12 pits seen from the side to move (the endgame databases' view):
// the stores only add a constant to the value, so one entry serves every store content and both
// sides. An entry keeps a lower and an upper bound on that value (an exact solver has no depth:
// every bound it proves is true for ever), the move that proved the last lower bound (as the
// mover's pit, like the key: the same entry serves both sides), and the log2 of the nodes its
// proof took, which decides what a full bucket gives up.
//
// An entry is two 64-bit words written one after the other: `check` = pits 0-7 XOR `data`, and
// `data` = pits 8-11 and the bounds. A reader that sees one word of one write and one of another
// finds `check` does not match and treats the slot as empty (Hyatt's lockless hashing), so
// threads never see a bound that belongs to another position.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shared/mankalah/kalah.h"

namespace mankalah::solver {

// The 12 pits from the mover's view, as the table's key.
struct PitsKey {
  std::uint64_t low;   // pits 0-7, a byte each
  std::uint32_t high;  // pits 8-11
};
PitsKey pits_key(const KalahBoard& board);

struct Bounds {
  int lower, upper;  // lower <= value <= upper
  int move;          // the mover's pit (0-5) that proved `lower`, -1 when none
};

class SolvedTable {
 public:
  // Each bound is one byte, so values, which lie in -n..n over n stones in play, fit up to here;
  // the Solver refuses boards with more stones in play.
  static constexpr int kMaxStones = 127;
  // The largest table, 1 TiB: sane for any machine, and far from overflowing the size in bytes.
  static constexpr std::size_t kMaxMegabytes = std::size_t{1} << 20;

  // Throws std::invalid_argument naming the size when `megabytes` is over kMaxMegabytes, and
  // std::runtime_error when the memory cannot be mapped.
  explicit SolvedTable(std::size_t megabytes);
  ~SolvedTable();
  SolvedTable(const SolvedTable&) = delete;
  SolvedTable& operator=(const SolvedTable&) = delete;

  // The bounds stored for `key`; false when there are none.
  bool find(const PitsKey& key, Bounds* bounds) const;
  // Narrows the bounds of `key` to [lower, upper] (intersected with what is stored) and keeps
  // `move` when it comes with a better lower bound. `work_log2` is the proof's size.
  void store(const PitsKey& key, int lower, int upper, int move, int work_log2);
  // Starts loading `key`'s bucket, for a find soon after.
  void prefetch(const PitsKey& key) const { __builtin_prefetch(bucket_of(key)); }
  void clear();
  std::size_t bytes() const { return slot_count_ * sizeof(Slot); }

 private:
  // Zero is an empty slot: the table is anonymous memory, zero until written.
  struct Slot {
    std::atomic<std::uint64_t> check;
    std::atomic<std::uint64_t> data;
  };
  static constexpr std::size_t kBucket = 4;  // slots a key may use: one 64-byte cache line

  Slot* bucket_of(const PitsKey& key) const;

  Slot* slots_ = nullptr;
  std::size_t slot_count_ = 0;
};

}  // namespace mankalah::solver

// Positions the solver has proved, kept on disk beside the endgame databases
// (`solved-positions.kst`), so a game in the window or a later `play` does not solve the same
// positions again. A 64-byte header (magic, format version, the rules id, the count, an XXH3
// checksum of the entries), then one 16-byte entry per position sorted by key: the 12 pits from
// the mover's view, the value over the stones in play, a best move (0-5 from the mover's first
// pit). Written atomically, merged with what another process wrote meanwhile; a damaged file is
// refused with a message and left to be replaced by the next save.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "shared/mankalah/kalah.h"

namespace mankalah::solver {

struct SolvedPosition {
  int value;  // the mover's value over the stones in play
  int move;   // a best move, 0-5 counted from the mover's first pit
};

class SolvedPositions {
 public:
  using Key = std::array<std::uint8_t, 12>;

  // "<dir>/solved-positions.kst".
  static std::filesystem::path path_in(const std::filesystem::path& dir);
  // Reads `path` if it is there (an empty set otherwise); throws endgame::DatabaseError naming
  // the file and the fault when it is damaged.
  static SolvedPositions load(const std::filesystem::path& path);
  // Merges what is on disk now into this set and writes the union atomically.
  void save(const std::filesystem::path& path);

  static Key key_of(const KalahBoard& board);
  // The entry for `board`, or nullptr.
  const SolvedPosition* find(const KalahBoard& board) const;
  // Records `board`'s value and its best move (a cell of the side to move).
  void add(const KalahBoard& board, int value, int move_cell);
  std::size_t size() const { return positions_.size(); }
  const std::map<Key, SolvedPosition>& positions() const { return positions_; }
  bool changed() const { return changed_; }
  // What is here now is being written (by a copy, on another thread).
  void mark_saved() { changed_ = false; }

 private:
  std::map<Key, SolvedPosition> positions_;
  bool changed_ = false;
};

}  // namespace mankalah::solver

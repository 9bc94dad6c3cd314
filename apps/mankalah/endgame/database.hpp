// The endgame databases a search reads: the level files of one folder, memory-mapped, and the
// exact value of any position whose stones in play fit the levels found.
#pragma once

#include <filesystem>
#include <vector>

#include "apps/mankalah/endgame/level_file.hpp"

namespace mankalah::endgame {

// $XDG_CACHE_HOME/cl-mankalah, else $HOME/.cache/cl-mankalah, else ./cl-mankalah-cache.
std::filesystem::path default_database_dir();

class EndgameDatabase {
 public:
  // Maps levels 0, 1, ... from `dir` up to `max_level` (all there are when negative), stopping
  // at the first missing one. A file that is there but damaged throws DatabaseError.
  static EndgameDatabase open(const std::filesystem::path& dir, int max_level = -1);

  // The most stones in play a lookup allows (-1 when no level was found).
  int max_stones() const { return static_cast<int>(levels_.size()) - 1; }
  bool covers(const KalahBoard& board) const {
    return kalah_endgame_stones(&board) <= max_stones();
  }
  // The largest (own final score - opponent's) the side to move can force over the stones in
  // play; add the stores' difference for the whole game's margin. The board must be covered.
  int value(const KalahBoard& board) const;

  const std::vector<LevelFile>& levels() const { return levels_; }
  // levels()[m].values() for every level, for value_from_children.
  std::vector<const cl_char*> level_values() const;

 private:
  std::vector<LevelFile> levels_;
};

}  // namespace mankalah::endgame

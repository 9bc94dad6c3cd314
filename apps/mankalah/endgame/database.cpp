#include "apps/mankalah/endgame/database.hpp"

#include <cstdlib>
#include <string>

namespace mankalah::endgame {

std::filesystem::path default_database_dir() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "cl-mankalah";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "cl-mankalah";
  }
  return "cl-mankalah-cache";
}

EndgameDatabase EndgameDatabase::open(const std::filesystem::path& dir, int max_level) {
  EndgameDatabase database;
  const int last = max_level < 0 ? KALAH_ENDGAME_MAX_LEVEL : max_level;
  for (int level = 0; level <= last; ++level) {
    const std::filesystem::path path = level_path(dir, level);
    if (!std::filesystem::exists(path)) break;
    database.levels_.push_back(LevelFile::open(path, level));
  }
  return database;
}

int EndgameDatabase::value(const KalahBoard& board) const {
  const int stones = kalah_endgame_stones(&board);
  if (stones > max_stones()) {
    throw DatabaseError("endgame database: a position with " + std::to_string(stones) +
                        " stones in play, the levels found go up to " +
                        std::to_string(max_stones()));
  }
  return levels_[static_cast<std::size_t>(stones)].values()[kalah_endgame_rank(&board)];
}

std::vector<const cl_char*> EndgameDatabase::level_values() const {
  std::vector<const cl_char*> values;
  for (const LevelFile& level : levels_) values.push_back(level.values());
  return values;
}

}  // namespace mankalah::endgame

// The options every searching command shares, and the helpers of command_support.hpp; each
// command is in its own command_<name>.cpp.
#include "apps/mankalah/commands.hpp"

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/game.hpp"

namespace mankalah {

EngineOptions EngineChoice::options() const {
  EngineOptions engine_options;
  engine_options.runtime = runtime;
  engine_options.layered_pre = pre;
  engine_options.layered_seq = seq;
  engine_options.layered_par = par;
  engine_options.database_dir = db_dir;
  engine_options.solver_megabytes = solver_megabytes;
  return engine_options;
}

SearchLimits EngineChoice::limits() const {
  SearchLimits limits;
  limits.depth = depth;
  limits.time_ms = time_ms;
  if (depth <= 0 && time_ms <= 0) limits.time_ms = 1000;
  return limits;
}

KalahBoard start_or_parse(const std::string& board, int to_move) {
  return board.empty() ? kalah_start(to_move) : parse_board(board, to_move);
}

KalahBoard play_random_plies(KalahBoard board, int plies, std::mt19937& rng) {
  for (int ply = 0; ply < plies && !kalah_is_over(&board); ++ply) {
    // Only moves that leave the game open: redrawing whole openings until one did never ended
    // when every game ends within `plies`. Where no move ends the game this draws what it drew
    // before, so short openings stay the same.
    std::vector<int> moves;
    for (const int move : legal_moves(board)) {
      KalahBoard child = board;
      kalah_play(&child, move);
      if (!kalah_is_over(&child)) moves.push_back(move);
    }
    if (moves.empty()) break;  // every move ends the game: the opening stops here
    kalah_play(&board, moves[rng() % moves.size()]);
  }
  return board;
}

}  // namespace mankalah

// What a Mankalah user types: a board as `--board "c0,...,c13"` (first line), the side to move
// as `--to-move` (second line) and moves as `play --script` reads them (one a line, "1".."6",
// "c<N>", "#<N>"), played out on that board with undo; every board shown is rendered.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

#include "apps/mankalah/game.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string board_line, side_line, move_line;
  std::getline(in, board_line);
  std::getline(in, side_line);
  const std::optional<int> side = mankalah::parse_side(side_line);
  mankalah::Game game(KALAH_BOTTOM);
  try {
    game.reset(mankalah::parse_board(board_line, side.value_or(KALAH_BOTTOM)));
  } catch (const std::exception&) {
  }
  while (std::getline(in, move_line)) {
    if (move_line == "undo") {
      game.undo_to(game.board().to_move);
      continue;
    }
    const mankalah::ParsedMove move = mankalah::parse_move(game.board(), move_line);
    if (move.error.empty() && !game.over()) game.play(move.pit);
    mankalah::render_board(game.board());
    mankalah::board_to_string(game.board());
  }
  return 0;
}

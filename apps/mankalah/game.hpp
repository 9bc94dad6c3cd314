// A game with undo, and the text forms of boards and moves that the terminal game, the
// commands and the window share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "shared/mankalah/kalah.h"

namespace mankalah {

// What a move did, for messages ("TOP captured 5 stones!", "TOP goes again.") and logs.
struct MoveRecord {
  int side = KALAH_BOTTOM;
  int pit = -1;
  int captured = 0;    // stones moved into the store by a capture (the sowing stone included)
  int last_cell = -1;  // where the last stone landed (a capture took it from there)
  bool extra_turn = false;
  bool game_over = false;
  KalahBoard after{};
};

class Game {
 public:
  explicit Game(int first_to_move = KALAH_BOTTOM) { reset(first_to_move); }
  explicit Game(const KalahBoard& start) { reset(start); }

  void reset(int first_to_move) { reset(kalah_start(first_to_move)); }
  void reset(const KalahBoard& start) {
    history_.assign(1, start);
    moves_.clear();
  }
  const KalahBoard& board() const { return history_.back(); }
  const std::vector<MoveRecord>& moves() const { return moves_; }
  bool over() const { return kalah_is_over(&board()); }
  // Plays `pit` for the side to move; std::nullopt (and no change) when it is illegal.
  std::optional<MoveRecord> play(int pit);
  // Takes back moves until `side` is to move again after taking back at least one of its own
  // moves (the AI's replies go with it); false when `side` has made no move.
  bool undo_to(int side);

 private:
  std::vector<KalahBoard> history_;
  std::vector<MoveRecord> moves_;
};

const char* side_name(int side);  // "TOP" / "BOTTOM"
// Parses "top"/"bottom" (any case); std::nullopt otherwise.
std::optional<int> parse_side(const std::string& text);

// The board in Calvin's orientation: TOP's pits 12..7 on top, BOTTOM's 0..5 below, the stores at
// the ends, with cell labels, the scores and whose turn it is.
std::string render_board(const KalahBoard& board);

// A move as typed by the side to move: "1".."6" counts along its row (from its left, in sowing
// order); "c<N>", "#<N>" or a bare 0 or 7..12 is a cell index. The error says why not.
struct ParsedMove {
  int pit = -1;
  std::string error;
};
ParsedMove parse_move(const KalahBoard& board, const std::string& text);

// "c0,...,c13": 14 non-negative counts adding up to 48 with stores included. Throws
// std::invalid_argument naming the field and value at fault.
KalahBoard parse_board(const std::string& text, int to_move);
std::string board_to_string(const KalahBoard& board);

// The cell the last stone of `pit` lands in (sowing skips the opponent's store; whole laps of
// 13 end back in the emptied pit). `pit` must be a non-empty pit of the side to move.
int last_sown_cell(const KalahBoard& before, int pit);

// A JSON line describing a move (for script logs and demo output).
std::string move_json(const MoveRecord& move, int ply, const std::string& by);

}  // namespace mankalah

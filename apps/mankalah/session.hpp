// What the window plays, without GTK: a human against the AI, who is to move, undo, the marks
// of the last turn (pits played, a capture), the end score and Calvin's two-game match (each
// side starts once; the stones of both games are added up). Unit-tested without a display.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/mankalah/game.hpp"

namespace mankalah {

struct SessionSettings {
  int human_side = KALAH_BOTTOM;
  bool human_first = true;
};

// The last turn: every move one side made in a row (extra turns chain), for marking the board.
struct TurnMarks {
  int side = -1;              // -1: no move yet
  std::vector<int> played;    // pits, in order
  std::vector<int> captured;  // pits emptied by captures (the landing pit and the one opposite)
  int captured_stones = 0;    // stones those captures moved into the store
};

// One game of a match from the human's point of view.
struct MatchGame {
  bool human_first = true;
  bool finished = false;
  int human = 0, ai = 0;  // scores (stones) once finished
};

class Session {
 public:
  explicit Session(SessionSettings settings = {}) { new_game(settings); }

  // A single game; leaves any match.
  void new_game(const SessionSettings& settings);
  // A single game from a given position (its side to move moves first).
  void new_game_from(const SessionSettings& settings, const KalahBoard& start);
  // Game 1 of Calvin's two-game match: the human starts; game 2 (next_match_game) the AI does.
  void start_match(int human_side);
  // Starts game 2 once game 1 is over; false (and nothing changes) otherwise.
  bool next_match_game();

  const Game& game() const { return game_; }
  const KalahBoard& board() const { return game_.board(); }
  const SessionSettings& settings() const { return settings_; }
  int human_side() const { return settings_.human_side; }
  int ai_side() const { return 1 - settings_.human_side; }
  bool over() const { return game_.over(); }
  bool human_to_move() const { return !over() && board().to_move == human_side(); }
  bool ai_to_move() const { return !over() && board().to_move == ai_side(); }
  // Whether the human may play `pit` now.
  bool human_may_play(int pit) const { return human_to_move() && kalah_is_legal(&board(), pit); }

  // Plays `pit` for the side to move (human or AI); std::nullopt when illegal.
  std::optional<MoveRecord> play(int pit);
  // Takes back the human's last move and the AI's replies; false when there is none.
  bool can_undo() const;
  bool undo();

  TurnMarks last_turn() const;

  // "You win 28-20", "AI wins 30-18", "A tie, 24-24"; empty while the game goes on.
  std::string outcome() const;

  bool in_match() const { return !match_.empty(); }
  int match_game() const { return match_index_; }  // 0 or 1
  // The match's games, the current one scored live once it is over.
  std::vector<MatchGame> match() const;
  bool match_over() const;
  // "Match: you 52 - AI 44, you win the match" once both games are over; the running total
  // before.
  std::string match_summary() const;

 private:
  SessionSettings settings_;
  Game game_;
  std::vector<MatchGame> match_;  // empty outside a match
  int match_index_ = 0;
};

// The lines a move prints: "BOTTOM (you) plays c2 (pit 3).", "TOP captured 5 stones!",
// "TOP goes again.".
std::string describe_move(const MoveRecord& move, int human_side);

}  // namespace mankalah

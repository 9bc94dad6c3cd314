#include "apps/mankalah/session.hpp"

#include <algorithm>

namespace mankalah {

void Session::new_game(const SessionSettings& settings) {
  settings_ = settings;
  match_.clear();
  match_index_ = 0;
  game_.reset(settings_.human_first ? settings_.human_side : 1 - settings_.human_side);
}

void Session::new_game_from(const SessionSettings& settings, const KalahBoard& start) {
  new_game(settings);
  game_.reset(start);
}

void Session::start_match(int human_side) {
  new_game(SessionSettings{human_side, true});
  match_ = {MatchGame{true}, MatchGame{false}};
}

bool Session::next_match_game() {
  if (!in_match() || match_index_ != 0 || !over()) return false;
  match_ = match();  // freezes game 1's score
  match_index_ = 1;
  settings_.human_first = false;
  game_.reset(ai_side());
  return true;
}

std::optional<MoveRecord> Session::play(int pit) { return game_.play(pit); }

bool Session::can_undo() const {
  const auto& moves = game_.moves();
  return std::any_of(moves.begin(), moves.end(),
                     [&](const MoveRecord& m) { return m.side == human_side(); });
}

bool Session::undo() { return game_.undo_to(human_side()); }

TurnMarks Session::last_turn() const {
  TurnMarks marks;
  const auto& moves = game_.moves();
  if (moves.empty()) return marks;
  marks.side = moves.back().side;
  auto first = moves.end();
  while (first != moves.begin() && std::prev(first)->side == marks.side) --first;
  for (auto m = first; m != moves.end(); ++m) {
    marks.played.push_back(m->pit);
    if (m->captured > 0) {
      marks.captured.push_back(m->last_cell);
      marks.captured.push_back(kalah_opposite(m->last_cell));
      marks.captured_stones += m->captured;
    }
  }
  return marks;
}

std::string Session::outcome() const {
  if (!over()) return "";
  const int human = kalah_score(&board(), human_side());
  const int ai = kalah_score(&board(), ai_side());
  const std::string score =
      std::to_string(std::max(human, ai)) + "\u2013" + std::to_string(std::min(human, ai));
  if (human == ai) return "A tie, " + score;
  return (human > ai ? "You win " : "The AI wins ") + score;
}

std::vector<MatchGame> Session::match() const {
  std::vector<MatchGame> games = match_;
  if (in_match() && over()) {
    MatchGame& current = games[match_index_];
    current.finished = true;
    current.human = kalah_score(&board(), human_side());
    current.ai = kalah_score(&board(), ai_side());
  }
  return games;
}

bool Session::match_over() const { return in_match() && match_index_ == 1 && over(); }

std::string Session::match_summary() const {
  if (!in_match()) return "";
  int human = 0, ai = 0;
  for (const MatchGame& g : match()) {
    human += g.human;
    ai += g.ai;
  }
  std::string text = "Match: you " + std::to_string(human) + " \u2013 AI " + std::to_string(ai);
  if (!match_over()) return text;
  return text + (human == ai  ? ", the match is a tie"
                 : human > ai ? ", you win the match"
                              : ", the AI wins the match");
}

std::string describe_move(const MoveRecord& move, int human_side) {
  const std::string side = side_name(move.side);
  std::string text = side + (move.side == human_side ? " (you)" : " (AI)") + " plays c" +
                     std::to_string(move.pit) + " (pit " +
                     std::to_string(move.pit - kalah_first_pit(move.side) + 1) + ").";
  if (move.captured > 0)
    text += " " + side + " captured " + std::to_string(move.captured) + " stones!";
  if (move.extra_turn && !move.game_over) text += " " + side + " goes again.";
  return text;
}

}  // namespace mankalah

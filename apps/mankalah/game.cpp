#include "apps/mankalah/game.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace mankalah {

std::optional<MoveRecord> Game::play(int pit) {
  KalahBoard after = board();
  const int side = after.to_move;
  const int result = kalah_play(&after, pit);
  if (result == KALAH_ILLEGAL) return std::nullopt;
  MoveRecord record;
  record.side = side;
  record.pit = pit;
  record.last_cell = last_sown_cell(board(), pit);
  record.captured = result & KALAH_RESULT_CAPTURE_MASK;
  record.extra_turn = (result & KALAH_RESULT_EXTRA_TURN) != 0;
  record.game_over = (result & KALAH_RESULT_GAME_OVER) != 0;
  record.after = after;
  history_.push_back(after);
  moves_.push_back(record);
  return record;
}

int last_sown_cell(const KalahBoard& before, int pit) {
  const int skipped = kalah_store(1 - before.to_move);
  int last = pit;
  for (int left = before.cells[pit] % 13; left > 0; --left) {
    last = (last + 1) % KALAH_CELLS;
    if (last == skipped) last = (last + 1) % KALAH_CELLS;
  }
  return last;
}

bool Game::undo_to(int side) {
  const auto own = std::find_if(moves_.rbegin(), moves_.rend(),
                                [&](const MoveRecord& m) { return m.side == side; });
  if (own == moves_.rend()) return false;
  const std::size_t keep = moves_.size() - static_cast<std::size_t>(own - moves_.rbegin()) - 1;
  moves_.resize(keep);
  history_.resize(keep + 1);
  return true;
}

const char* side_name(int side) { return side == KALAH_TOP ? "TOP" : "BOTTOM"; }

std::optional<int> parse_side(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "top") return KALAH_TOP;
  if (lower == "bottom") return KALAH_BOTTOM;
  return std::nullopt;
}

std::string render_board(const KalahBoard& board) {
  std::ostringstream out;
  auto cell = [&](int c) { out << std::setw(4) << static_cast<int>(board.cells[c]); };
  out << "        ";
  for (int c = 12; c >= 7; --c) out << std::setw(4) << ("c" + std::to_string(c));
  out << "\n  TOP   ";
  for (int c = 12; c >= 7; --c) cell(c);
  out << "\n ";
  out << std::setw(4) << static_cast<int>(board.cells[KALAH_TOP_STORE]) << "   "
      << std::string(24, ' ') << std::setw(4) << static_cast<int>(board.cells[KALAH_BOTTOM_STORE])
      << "\n  BOTTOM";
  for (int c = 0; c <= 5; ++c) cell(c);
  out << "\n        ";
  for (int c = 0; c <= 5; ++c) out << std::setw(4) << ("c" + std::to_string(c));
  out << "\n  stores: TOP c13 (left) " << static_cast<int>(board.cells[KALAH_TOP_STORE])
      << ", BOTTOM c6 (right) " << static_cast<int>(board.cells[KALAH_BOTTOM_STORE])
      << ";  score TOP " << kalah_score(&board, KALAH_TOP) << " - BOTTOM "
      << kalah_score(&board, KALAH_BOTTOM) << "\n";
  if (kalah_is_over(&board)) {
    const int top = kalah_score(&board, KALAH_TOP), bottom = kalah_score(&board, KALAH_BOTTOM);
    out << "  game over: "
        << (top == bottom
                ? std::string("a tie")
                : std::string(side_name(top > bottom ? KALAH_TOP : KALAH_BOTTOM)) + " wins")
        << " " << std::max(top, bottom) << "-" << std::min(top, bottom) << "\n";
  } else {
    out << "  " << side_name(board.to_move) << " to move (pits 1-6 = c"
        << kalah_first_pit(board.to_move) << "..c" << kalah_first_pit(board.to_move) + 5 << ")\n";
  }
  return out.str();
}

ParsedMove parse_move(const KalahBoard& board, const std::string& raw) {
  ParsedMove parsed;
  std::string text = raw;
  text.erase(
      std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }),
      text.end());
  bool cell_form = false;
  if (!text.empty() && (text[0] == 'c' || text[0] == 'C' || text[0] == '#')) {
    cell_form = true;
    text = text.substr(1);
  }
  if (text.empty() || text.size() > 2 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    parsed.error = "'" + raw + "' is not a move: type 1-6 (along your row), a cell index, or help";
    return parsed;
  }
  const int number = std::stoi(text);
  int pit = number;
  if (!cell_form && number >= 1 && number <= 6) pit = kalah_first_pit(board.to_move) + number - 1;
  if (kalah_is_over(&board)) {
    parsed.error = "the game is over (type new or quit)";
  } else if (pit < 0 || pit > 13 || pit == KALAH_BOTTOM_STORE || pit == KALAH_TOP_STORE) {
    parsed.error = "cell " + std::to_string(pit) + " is not a pit";
  } else if (pit < kalah_first_pit(board.to_move) || pit > kalah_first_pit(board.to_move) + 5) {
    parsed.error =
        "cell " + std::to_string(pit) + " is not one of " + side_name(board.to_move) + "'s pits";
  } else if (board.cells[pit] == 0) {
    parsed.error = "pit c" + std::to_string(pit) + " is empty";
  } else {
    parsed.pit = pit;
  }
  return parsed;
}

KalahBoard parse_board(const std::string& text, int to_move) {
  KalahBoard board{};
  board.to_move = static_cast<cl_uchar>(to_move);
  std::stringstream in(text);
  std::string field;
  int index = 0, total = 0;
  while (std::getline(in, field, ',')) {
    std::string trimmed = field;
    trimmed.erase(std::remove_if(trimmed.begin(), trimmed.end(),
                                 [](unsigned char c) { return std::isspace(c); }),
                  trimmed.end());
    if (index >= KALAH_CELLS) {
      throw std::invalid_argument("board '" + text + "': more than 14 cells (field " +
                                  std::to_string(index) + " is '" + trimmed + "')");
    }
    if (trimmed.empty() || trimmed.size() > 2 ||
        !std::all_of(trimmed.begin(), trimmed.end(),
                     [](unsigned char c) { return std::isdigit(c); })) {
      throw std::invalid_argument("board '" + text + "': cell c" + std::to_string(index) + " is '" +
                                  trimmed + "', not a count of stones (0-48)");
    }
    const int count = std::stoi(trimmed);
    board.cells[index++] = static_cast<cl_uchar>(count);
    total += count;
  }
  if (index != KALAH_CELLS) {
    throw std::invalid_argument("board '" + text + "': " + std::to_string(index) +
                                " cells given, 14 needed (c0..c13)");
  }
  if (total != KALAH_STONES) {
    throw std::invalid_argument("board '" + text + "': the cells hold " + std::to_string(total) +
                                " stones, not 48");
  }
  return board;
}

std::string board_to_string(const KalahBoard& board) {
  std::string text;
  for (int c = 0; c < KALAH_CELLS; ++c) {
    text += (c ? "," : "") + std::to_string(static_cast<int>(board.cells[c]));
  }
  return text;
}

std::string move_json(const MoveRecord& move, int ply, const std::string& by) {
  std::ostringstream out;
  out << "{\"ply\":" << ply << ",\"side\":\"" << (move.side == KALAH_TOP ? "top" : "bottom")
      << "\",\"by\":\"" << by << "\",\"move\":" << move.pit << ",\"captured\":" << move.captured
      << ",\"extra_turn\":" << (move.extra_turn ? "true" : "false")
      << ",\"game_over\":" << (move.game_over ? "true" : "false") << ",\"board\":["
      << board_to_string(move.after)
      << "],\"score\":{\"top\":" << kalah_score(&move.after, KALAH_TOP)
      << ",\"bottom\":" << kalah_score(&move.after, KALAH_BOTTOM) << "}}";
  return out.str();
}

}  // namespace mankalah

// cl-mankalah play: the terminal game (human against the AI, or the AI against itself), with
// prompts and messages for a person or, in script mode, JSON lines for a program.
#include <fstream>
#include <iomanip>
#include <iostream>

#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/game.hpp"

namespace mankalah {

namespace {

std::string json_escape(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) escaped += c;
  }
  return escaped;
}

// The lines a move earns in the terminal game.
void describe_move(const MoveRecord& move, std::ostream& out) {
  out << side_name(move.side) << " plays c" << move.pit << " (pit "
      << move.pit - kalah_first_pit(move.side) + 1 << ").\n";
  if (move.captured > 0)
    out << side_name(move.side) << " captured " << move.captured << " stones!\n";
  if (move.extra_turn) out << side_name(move.side) << " goes again.\n";
}

const char* kHelp =
    "Moves: 1-6 = your pits counted along your row (BOTTOM: c0..c5 left to right; TOP: c7..c12\n"
    "       right to left as drawn, i.e. in sowing order), or a cell index (c9, #9, or 0/7-12).\n"
    "Commands: help, hint (the engine's suggestion), undo (your last move and the replies),\n"
    "          new (a new game), quit.\n";

// One game at the terminal: the loop, the AI's turns and the commands a human may type.
class TerminalGame {
 public:
  TerminalGame(const PlayOptions& options, int human_side, Engine& engine, std::ostream* log,
               std::ostream& out, std::ostream& err)
      : options_(options),
        human_side_(human_side),
        first_(options.first == "human" ? human_side : 1 - human_side),
        engine_(engine),
        log_(log),
        out_(out),
        err_(err),
        chatty_(!options.script),
        game_(first_) {}

  int run(std::istream& in);

 private:
  bool human_turn() const { return !options_.selfplay && game_.board().to_move == human_side_; }
  void emit(const std::string& line) {
    if (log_ != nullptr) *log_ << line << "\n" << std::flush;
  }
  void emit_game_over();
  // The AI's move; false when the engine chose an illegal one.
  bool play_ai_move();
  void handle(const std::string& line);
  void undo();
  void hint();
  void play_human_move(const std::string& line);

  const PlayOptions& options_;
  const int human_side_;
  const int first_;
  Engine& engine_;
  std::ostream* log_;
  std::ostream& out_;
  std::ostream& err_;
  const bool chatty_;
  Game game_;
  bool announced_end_ = false;
  bool shown_ = false;  // the board as it stands has been drawn
};

int TerminalGame::run(std::istream& in) {
  if (chatty_) out_ << "Mankalah: you are " << side_name(human_side_) << "; type help for help.\n";
  for (;;) {
    if (chatty_ && !shown_) out_ << "\n" << render_board(game_.board());
    shown_ = true;
    if (game_.over() && !announced_end_) {
      emit_game_over();
      announced_end_ = true;
      if (options_.script || options_.selfplay) return 0;
    }
    if (!game_.over() && !human_turn()) {
      if (!play_ai_move()) return 1;
      continue;
    }
    if (chatty_) out_ << (game_.over() ? "new or quit> " : "your move> ") << std::flush;
    std::string line;
    if (!std::getline(in, line)) {
      if (chatty_) out_ << "\n";
      return 0;
    }
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line == "quit" || line == "q") return 0;
    handle(line);
  }
}

void TerminalGame::emit_game_over() {
  const KalahBoard& b = game_.board();
  const int top = kalah_score(&b, KALAH_TOP), bottom = kalah_score(&b, KALAH_BOTTOM);
  emit("{\"event\":\"game_over\",\"top\":" + std::to_string(top) +
       ",\"bottom\":" + std::to_string(bottom) + ",\"winner\":\"" +
       (top == bottom  ? "tie"
        : top > bottom ? "top"
                       : "bottom") +
       "\"}");
}

bool TerminalGame::play_ai_move() {
  const SearchResult result = engine_.search(game_.board(), options_.ai.limits());
  const std::optional<MoveRecord> move = game_.play(result.move);
  if (!move) {
    err_ << "play: engine " << engine_.name() << " chose an illegal move " << result.move << "\n";
    return false;
  }
  if (chatty_) {
    out_ << "AI (" << engine_.name() << ", ";
    if (result.exact) {
      out_ << result.note;
    } else {
      out_ << "depth " << result.depth << ", score " << result.score;
    }
    out_ << ", " << result.nodes << " nodes, " << std::fixed << std::setprecision(0) << result.ms
         << " ms): ";
    describe_move(*move, out_);
  }
  emit(move_json(*move, static_cast<int>(game_.moves().size()), "ai"));
  shown_ = false;
  return true;
}

void TerminalGame::handle(const std::string& line) {
  if (line.empty()) return;
  if (line == "help" || line == "?") {
    if (chatty_) out_ << kHelp;
  } else if (line == "new") {
    game_.reset(first_);
    announced_end_ = false;
    shown_ = false;
    emit("{\"event\":\"new\"}");
  } else if (line == "undo") {
    undo();
  } else if (line == "hint") {
    if (!game_.over()) hint();
  } else {
    play_human_move(line);
  }
}

void TerminalGame::undo() {
  const bool undone = game_.undo_to(human_side_);
  if (undone) announced_end_ = false;
  if (chatty_) out_ << (undone ? "Taken back.\n" : "Nothing to undo.\n");
  emit(std::string("{\"event\":\"undo\",\"done\":") + (undone ? "true" : "false") + "}");
  shown_ = !undone;
}

void TerminalGame::hint() {
  const SearchResult hint = engine_.search(game_.board(), options_.ai.limits());
  if (chatty_) {
    out_ << "hint: c" << hint.move << " (pit "
         << hint.move - kalah_first_pit(game_.board().to_move) + 1 << "), score " << hint.score
         << " at depth " << hint.depth << "\n";
  }
  emit("{\"event\":\"hint\",\"move\":" + std::to_string(hint.move) +
       ",\"score\":" + std::to_string(hint.score) + "}");
}

void TerminalGame::play_human_move(const std::string& line) {
  const ParsedMove parsed = parse_move(game_.board(), line);
  if (parsed.pit < 0) {
    if (chatty_) out_ << parsed.error << "\n";
    emit("{\"event\":\"error\",\"input\":\"" + json_escape(line) + "\",\"message\":\"" +
         json_escape(parsed.error) + "\"}");
    return;
  }
  const std::optional<MoveRecord> move = game_.play(parsed.pit);
  if (chatty_) describe_move(*move, out_);
  emit(move_json(*move, static_cast<int>(game_.moves().size()), "human"));
  shown_ = false;
}

}  // namespace

int run_play(const PlayOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const std::optional<int> human_side = parse_side(options.side);
  if (!human_side) {
    err << "play: --side must be top or bottom, not '" << options.side << "'\n";
    return 2;
  }
  if (options.first != "human" && options.first != "ai") {
    err << "play: --first must be human or ai, not '" << options.first << "'\n";
    return 2;
  }
  std::unique_ptr<Engine> engine;
  try {
    const std::string name =
        options.ai.engine.empty() ? default_engine(options.ai.db_dir) : options.ai.engine;
    engine = make_engine(name, options.ai.options());
  } catch (const std::exception& error) {
    err << "play: " << error.what() << "\n";
    return 2;
  }
  std::ofstream log_file;
  std::ostream* log = nullptr;
  if (!options.log_path.empty()) {
    log_file.open(options.log_path);
    if (!log_file) {
      err << "play: cannot write the log '" << options.log_path << "'\n";
      return 2;
    }
    log = &log_file;
  } else if (options.script) {
    log = &out;
  }
  return TerminalGame(options, *human_side, *engine, log, out, err).run(in);
}

}  // namespace mankalah

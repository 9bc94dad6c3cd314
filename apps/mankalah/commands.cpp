#include "apps/mankalah/commands.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/game.hpp"
#include "apps/mankalah/gpu_search.hpp"

namespace mankalah {

EngineOptions EngineChoice::options() const {
  EngineOptions engine_options;
  engine_options.runtime = runtime;
  engine_options.pre = pre;
  engine_options.seq = seq;
  engine_options.par = par;
  engine_options.split = split;
  return engine_options;
}

SearchLimits EngineChoice::limits() const {
  SearchLimits limits;
  limits.depth = depth;
  limits.time_ms = time_ms;
  if (depth <= 0 && time_ms <= 0) limits.time_ms = 1000;
  return limits;
}

namespace {

std::string pv_json(const std::vector<int>& pv) {
  std::string text = "[";
  for (std::size_t i = 0; i < pv.size(); ++i) text += (i ? "," : "") + std::to_string(pv[i]);
  return text + "]";
}

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
    engine = make_engine(options.ai.engine, options.ai.options());
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
  const bool chatty = !options.script;
  const int first = options.first == "human" ? *human_side : 1 - *human_side;
  Game game(first);
  auto human_turn = [&] { return !options.selfplay && game.board().to_move == *human_side; };
  auto emit = [&](const std::string& line) {
    if (log != nullptr) *log << line << "\n" << std::flush;
  };
  auto game_over_line = [&] {
    const KalahBoard& b = game.board();
    const int top = kalah_score(&b, KALAH_TOP), bottom = kalah_score(&b, KALAH_BOTTOM);
    emit("{\"event\":\"game_over\",\"top\":" + std::to_string(top) +
         ",\"bottom\":" + std::to_string(bottom) + ",\"winner\":\"" +
         (top == bottom  ? "tie"
          : top > bottom ? "top"
                         : "bottom") +
         "\"}");
  };
  if (chatty) out << "Mankalah: you are " << side_name(*human_side) << "; type help for help.\n";
  bool announced_end = false;
  bool shown = false;
  for (;;) {
    if (chatty && !shown) out << "\n" << render_board(game.board());
    shown = true;
    if (game.over() && !announced_end) {
      game_over_line();
      announced_end = true;
      if (options.script || options.selfplay) return 0;
    }
    if (!game.over() && !human_turn()) {
      const SearchResult result = engine->search(game.board(), options.ai.limits());
      const std::optional<MoveRecord> move = game.play(result.move);
      if (!move) {
        err << "play: engine " << engine->name() << " chose an illegal move " << result.move
            << "\n";
        return 1;
      }
      if (chatty) {
        out << "AI (" << engine->name() << ", depth " << result.depth << ", score " << result.score
            << ", " << result.nodes << " nodes, " << std::fixed << std::setprecision(0) << result.ms
            << " ms): ";
        describe_move(*move, out);
      }
      emit(move_json(*move, static_cast<int>(game.moves().size()), "ai"));
      shown = false;
      continue;
    }
    if (chatty) out << (game.over() ? "new or quit> " : "your move> ") << std::flush;
    std::string line;
    if (!std::getline(in, line)) {
      if (chatty) out << "\n";
      return 0;
    }
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "q") return 0;
    if (line == "help" || line == "?") {
      if (chatty) out << kHelp;
      continue;
    }
    if (line == "new") {
      game.reset(first);
      announced_end = false;
      shown = false;
      emit("{\"event\":\"new\"}");
      continue;
    }
    if (line == "undo") {
      const bool undone = game.undo_to(*human_side);
      if (undone) announced_end = false;
      if (chatty) out << (undone ? "Taken back.\n" : "Nothing to undo.\n");
      emit(std::string("{\"event\":\"undo\",\"done\":") + (undone ? "true" : "false") + "}");
      shown = !undone;
      continue;
    }
    if (line == "hint") {
      if (game.over()) continue;
      const SearchResult hint = engine->search(game.board(), options.ai.limits());
      if (chatty) {
        out << "hint: c" << hint.move << " (pit "
            << hint.move - kalah_first_pit(game.board().to_move) + 1 << "), score " << hint.score
            << " at depth " << hint.depth << "\n";
      }
      emit("{\"event\":\"hint\",\"move\":" + std::to_string(hint.move) +
           ",\"score\":" + std::to_string(hint.score) + "}");
      continue;
    }
    const ParsedMove parsed = parse_move(game.board(), line);
    if (parsed.pit < 0) {
      if (chatty) out << parsed.error << "\n";
      emit("{\"event\":\"error\",\"input\":\"" + json_escape(line) + "\",\"message\":\"" +
           json_escape(parsed.error) + "\"}");
      continue;
    }
    const std::optional<MoveRecord> move = game.play(parsed.pit);
    if (chatty) describe_move(*move, out);
    emit(move_json(*move, static_cast<int>(game.moves().size()), "human"));
    shown = false;
  }
}

int run_analyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<int> to_move = parse_side(options.to_move);
  if (!to_move) {
    err << "analyze: --to-move must be top or bottom, not '" << options.to_move << "'\n";
    return 2;
  }
  try {
    const KalahBoard board =
        options.board.empty() ? kalah_start(*to_move) : parse_board(options.board, *to_move);
    std::unique_ptr<Engine> engine = make_engine(options.ai.engine, options.ai.options());
    const SearchResult result = engine->search(board, options.ai.limits());
    out << "{\"move\":" << result.move << ",\"score\":" << result.score
        << ",\"depth\":" << result.depth << ",\"nodes\":" << result.nodes
        << ",\"ms\":" << std::fixed << std::setprecision(3) << result.ms
        << ",\"pv\":" << pv_json(result.pv) << ",\"engine\":\"" << engine->name() << "\"}\n";
    return 0;
  } catch (const std::invalid_argument& error) {
    err << "analyze: " << error.what() << "\n";
    return 2;
  }
}

int run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<int> to_move = parse_side(options.to_move);
  if (!to_move || options.depth < 0 || options.depth > 30 ||
      (options.engine != "cpu" && options.engine != "gpu")) {
    err << "perft: need --depth 0..30, --engine cpu|gpu, --to-move top|bottom\n";
    return 2;
  }
  try {
    const KalahBoard board =
        options.board.empty() ? kalah_start(*to_move) : parse_board(options.board, *to_move);
    std::unique_ptr<LayeredSearch> gpu;
    if (options.engine == "gpu") gpu = std::make_unique<LayeredSearch>(options.runtime());
    if (gpu) gpu->perft(board, std::min(options.depth, 2));  // builds and warms the kernel
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t leaves =
        gpu ? gpu->perft(board, options.depth) : perft(board, options.depth);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << "perft " << options.depth << " (" << options.engine << "): " << leaves << " leaves in "
        << std::fixed << std::setprecision(3) << seconds * 1000 << " ms, " << std::setprecision(1)
        << leaves / std::max(seconds, 1e-9) / 1e6 << " M leaves/s\n";
    return 0;
  } catch (const std::invalid_argument& error) {
    err << "perft: " << error.what() << "\n";
    return 2;
  }
}

// ---- match ----

namespace {

double elo_of(double score) { return -400.0 * std::log10(1.0 / score - 1.0) + 0.0; }  // no -0.0

// Plays one game; returns TOP's final margin.
int play_game(KalahBoard board, Engine& top, Engine& bottom, const SearchLimits& limits) {
  while (!kalah_is_over(&board)) {
    Engine& mover = board.to_move == KALAH_TOP ? top : bottom;
    const SearchResult result = mover.search(board, limits);
    if (kalah_play(&board, result.move) == KALAH_ILLEGAL) {
      throw std::runtime_error("engine " + mover.name() + " chose an illegal move");
    }
  }
  return kalah_score(&board, KALAH_TOP) - kalah_score(&board, KALAH_BOTTOM);
}

}  // namespace

int run_match(const MatchOptions& options, std::ostream& out, std::ostream& err) {
  if (options.games < 1) {
    err << "match: --games must be at least 1\n";
    return 2;
  }
  if (options.jobs < 1) {
    err << "match: --jobs must be at least 1\n";
    return 2;
  }
  // Every worker plays with engines of its own (they keep tables between moves); engines on a
  // device share its runtime, made here on the first thread.
  const int jobs = std::min(options.jobs, options.games);
  std::vector<std::unique_ptr<Engine>> engines_a, engines_b;
  try {
    for (int job = 0; job < jobs; ++job) {
      engines_a.push_back(make_engine(options.a.engine, options.a.options()));
      engines_b.push_back(make_engine(options.b.engine, options.b.options()));
    }
  } catch (const std::exception& error) {
    err << "match: " << error.what() << "\n";
    return 2;
  }
  // The games: a random opening that leaves the game open, played once with each colour
  // assignment; drawn before any is played, so the games do not depend on --jobs.
  std::mt19937 rng(options.seed);
  std::vector<KalahBoard> openings;
  for (int game = 0; game < options.games; game += 2) {
    KalahBoard opening;
    do {
      opening = kalah_start(KALAH_BOTTOM);
      for (int ply = 0; ply < options.opening_plies && !kalah_is_over(&opening); ++ply) {
        const std::vector<int> moves = legal_moves(opening);
        kalah_play(&opening, moves[rng() % moves.size()]);
      }
    } while (kalah_is_over(&opening));
    openings.push_back(opening);
  }
  std::vector<int> margins(options.games);  // A's margin per game
  std::atomic<int> next_game{0};
  std::mutex report_mutex;
  int reported = 0;
  std::string failure;
  auto work = [&](int job) {
    Engine& a = *engines_a[job];
    Engine& b = *engines_b[job];
    for (int game = next_game++; game < options.games; game = next_game++) {
      const KalahBoard& opening = openings[game / 2];
      const bool a_is_top = game % 2 == 0;
      int margin = 0;
      try {
        margin = a_is_top ? play_game(opening, a, b, options.a.limits())
                          : -play_game(opening, b, a, options.a.limits());
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(report_mutex);
        failure = error.what();
        next_game = options.games;
        return;
      }
      margins[game] = margin;
      std::lock_guard<std::mutex> lock(report_mutex);
      err << "game " << ++reported << "/" << options.games << " (#" << game + 1 << "): " << a.name()
          << " (" << (a_is_top ? "TOP" : "BOTTOM") << ") "
          << (margin > 0    ? "wins"
              : margin == 0 ? "draws"
                            : "loses")
          << " by " << std::abs(margin) << "\n";
    }
  };
  std::vector<std::thread> workers;
  for (int job = 1; job < jobs; ++job) workers.emplace_back(work, job);
  work(0);
  for (std::thread& worker : workers) worker.join();
  if (!failure.empty()) {
    err << "match: " << failure << "\n";
    return 1;
  }
  int wins = 0, draws = 0, losses = 0;
  std::vector<double> scores;
  for (const int margin : margins) {
    (margin > 0 ? wins : margin == 0 ? draws : losses) += 1;
    scores.push_back(margin > 0 ? 1.0 : margin == 0 ? 0.5 : 0.0);
  }
  Engine* a = engines_a[0].get();
  Engine* b = engines_b[0].get();
  const double n = static_cast<double>(scores.size());
  double mean = 0, square = 0;
  for (double s : scores) {
    mean += s / n;
    square += s * s / n;
  }
  const double se = std::sqrt(std::max(0.0, square - mean * mean) / n);
  const double floor = 0.5 / n;  // keeps an all-win or all-loss record finite
  auto clamp_score = [&](double s) { return std::clamp(s, floor, 1.0 - floor); };
  out << "match: " << a->name() << " vs " << b->name() << ", " << scores.size() << " games, "
      << options.a.limits().time_ms << " ms/move, seed " << options.seed << "\n";
  out << "| engine | wins | draws | losses | score | Elo | 95% interval "
         "|\n|---|---|---|---|---|---|---|\n";
  out << std::fixed << std::setprecision(1) << "| " << a->name() << " | " << wins << " | " << draws
      << " | " << losses << " | " << 100.0 * mean << "% | " << std::showpos
      << elo_of(clamp_score(mean)) << " | " << elo_of(clamp_score(mean - 1.96 * se)) << " .. "
      << elo_of(clamp_score(mean + 1.96 * se)) << std::noshowpos << " |\n";
  return 0;
}

// ---- bench ----

namespace {

// An engine for the depth tables, with the bench's hybrid settings, that has searched `board`
// 3 plies deep: kernel builds are not part of any budget.
std::unique_ptr<Engine> warmed_up_engine(const std::string& name, const BenchOptions& options,
                                         const KalahBoard& board) {
  EngineOptions engine_options;
  engine_options.runtime = options.runtime;
  if (name == "hybrid") {
    engine_options.par = options.hybrid_par;
    engine_options.split = options.hybrid_split;
  }
  std::unique_ptr<Engine> engine = make_engine(name, engine_options);
  SearchLimits warm;
  warm.depth = 3;
  engine->search(board, warm);
  return engine;
}

}  // namespace

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  const KalahBoard start = kalah_start(KALAH_BOTTOM);
  clf::Runtime* cpu_device = options.cpu_runtime ? options.cpu_runtime() : nullptr;
  clf::Runtime* gpu_device = options.gpu_runtime ? options.gpu_runtime() : nullptr;
  std::unique_ptr<LayeredSearch> on_cpu, on_gpu;
  if (cpu_device) on_cpu = std::make_unique<LayeredSearch>(*cpu_device);
  if (gpu_device) on_gpu = std::make_unique<LayeredSearch>(*gpu_device);
  out << "Full-width minimax from the start position (BOTTOM to move), seconds; the layered "
         "split is pre+seq+par with par from the device's local memory.\n";
  out << "CPU device: " << (cpu_device ? cpu_device->device_name() : "none")
      << "; GPU: " << (gpu_device ? gpu_device->device_name() : "none") << "\n\n";
  out << "| depth | nodes (sequential) | sequential (s) | layered, CPU device (s) | layered, GPU "
         "(s) | split "
         "(GPU) | speedup CPU dev | speedup GPU | values |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  double last[3] = {0, 0, 0};
  bool skip[3] = {false, !on_cpu, !on_gpu};
  // Warm-up: build the kernels before timing.
  if (on_cpu) on_cpu->search_depth(start, 2, {}, nullptr);
  if (on_gpu) on_gpu->search_depth(start, 2, {}, nullptr);
  for (int depth = options.min_depth; depth <= options.max_depth; ++depth) {
    double seconds[3] = {-1, -1, -1};
    int values[3] = {0, 0, 0};
    int moves[3] = {-1, -1, -1};
    std::uint64_t sequential_nodes = 0;
    for (int column = 0; column < 3; ++column) {
      if (skip[column]) continue;
      if (last[column] > 0 && last[column] * 6 > options.cell_limit_s) {
        skip[column] = true;
        continue;
      }
      const auto t0 = std::chrono::steady_clock::now();
      MinimaxOutcome outcome = column == 0   ? minimax(start, depth)
                               : column == 1 ? on_cpu->search_depth(start, depth, {}, nullptr)
                                             : on_gpu->search_depth(start, depth, {}, nullptr);
      seconds[column] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      last[column] = seconds[column];
      values[column] = outcome.value;
      moves[column] = outcome.move;
      if (column == 0) sequential_nodes = outcome.nodes;
    }
    if (seconds[0] < 0 && seconds[1] < 0 && seconds[2] < 0) break;
    auto cell = [&](int column) {
      std::ostringstream text;
      if (seconds[column] < 0) return std::string("-");
      text << std::fixed << std::setprecision(6) << seconds[column];
      return text.str();
    };
    auto speedup = [&](int column) {
      std::ostringstream text;
      if (seconds[column] <= 0 || seconds[0] <= 0) return std::string("-");
      text << std::fixed << std::setprecision(2) << seconds[0] / seconds[column] << "x";
      return text.str();
    };
    bool agree = true;
    for (int column = 1; column < 3; ++column) {
      if (seconds[column] >= 0 && seconds[0] >= 0) {
        agree = agree && values[column] == values[0] && moves[column] == moves[0];
      }
    }
    std::string split = "-";
    LayeredSearch* layered = on_gpu ? on_gpu.get() : on_cpu.get();
    if (layered) {
      const LayerSplit s = layered->choose_split(depth, {});
      split = std::to_string(s.pre) + "+" + std::to_string(s.seq) + "+" + std::to_string(s.par);
    }
    out << "| " << depth << " | " << (seconds[0] >= 0 ? std::to_string(sequential_nodes) : "-")
        << " | " << cell(0) << " | " << cell(1) << " | " << cell(2) << " | " << split << " | "
        << speedup(1) << " | " << speedup(2) << " | " << (agree ? "equal" : "DIFFER") << " |\n"
        << std::flush;
    err << "depth " << depth << " done\n";
  }
  out << "\nDepth reached from the start position in " << options.reach_ms << " ms:\n\n";
  out << "| engine | depth | nodes | ms | move | score |\n|---|---|---|---|---|---|\n";
  for (const std::string& name : engine_names()) {
    if (name == "bonzo") continue;
    std::unique_ptr<Engine> engine = warmed_up_engine(name, options, start);
    SearchLimits limits;
    limits.time_ms = options.reach_ms;
    const SearchResult result = engine->search(start, limits);
    out << "| " << name << " | " << result.depth << " | " << result.nodes << " | " << std::fixed
        << std::setprecision(1) << result.ms << " | " << result.move << " | " << result.score
        << " |\n"
        << std::flush;
  }
  if (options.split_depth > 0) {
    // The seed's §5.3.1 question: how to divide the CPU plies between pre and seq.
    LayeredSearch* layered = on_gpu ? on_gpu.get() : on_cpu.get();
    if (layered != nullptr) {
      const int par = layered->choose_split(options.split_depth, {}).par;
      out << "\nSplits at depth " << options.split_depth << " on "
          << layered->runtime().device_name()
          << ":\n\n| pre | seq | par | seconds |\n|---|---|---|---|\n";
      for (int pre = std::max(0, options.split_depth - par - 8); pre < options.split_depth - par;
           ++pre) {
        const LayerSplit split{pre, options.split_depth - par - pre, par};
        const auto t0 = std::chrono::steady_clock::now();
        layered->search_depth(start, options.split_depth, split, nullptr);
        out << "| " << split.pre << " | " << split.seq << " | " << split.par << " | " << std::fixed
            << std::setprecision(4)
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
            << " |\n"
            << std::flush;
      }
    }
  }
  if (options.suite > 0) {
    // A fixed suite of positions (random openings of 4-12 plies, seed 2013): the mean depth
    // alphabeta and hybrid reach in the budget.
    std::mt19937 rng(2013);
    std::vector<KalahBoard> suite;
    while (static_cast<int>(suite.size()) < options.suite) {
      KalahBoard board = kalah_start(KALAH_BOTTOM);
      const int plies = 4 + static_cast<int>(rng() % 9);
      for (int ply = 0; ply < plies && !kalah_is_over(&board); ++ply) {
        const std::vector<int> moves = legal_moves(board);
        kalah_play(&board, moves[rng() % moves.size()]);
      }
      if (!kalah_is_over(&board)) suite.push_back(board);
    }
    out << "\nSuite of " << suite.size() << " positions, " << options.reach_ms
        << " ms each:\n\n| engine | mean depth | depths |\n|---|---|---|\n";
    for (const std::string name : {"alphabeta", "hybrid"}) {
      std::unique_ptr<Engine> engine = warmed_up_engine(name, options, suite.front());
      double total = 0;
      std::string depths;
      for (const KalahBoard& board : suite) {
        SearchLimits limits;
        limits.time_ms = options.reach_ms;
        const SearchResult result = engine->search(board, limits);
        total += result.depth;
        depths += (depths.empty() ? "" : " ") + std::to_string(result.depth);
      }
      out << "| " << name << " | " << std::fixed << std::setprecision(2) << total / suite.size()
          << " | " << depths << " |\n"
          << std::flush;
    }
  }
  return 0;
}

}  // namespace mankalah

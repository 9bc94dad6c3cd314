#include "apps/mankalah/solver/solve_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/game.hpp"
#include "apps/mankalah/solver/solver.hpp"

namespace mankalah::solver {

namespace {

// The start position's stones in play must fit the solver's table: 10 a pit, 120 stones.
constexpr int kMaxStonesPerPit = SolvedTable::kMaxStones / (2 * KALAH_PITS);

std::string moves_json(const std::vector<int>& moves) {
  std::string text = "[";
  for (std::size_t i = 0; i < moves.size(); ++i) text += (i ? "," : "") + std::to_string(moves[i]);
  return text + "]";
}

KalahBoard start_with(int stones_per_pit, int to_move) {
  KalahBoard board = kalah_start(to_move);
  for (int c = 0; c < KALAH_CELLS; ++c) {
    if (c != KALAH_BOTTOM_STORE && c != KALAH_TOP_STORE) board.cells[c] = stones_per_pit;
  }
  return board;
}

// Solves every child of each position along `pv` with a second solver (its own table) and checks
// that the position's value is the best of its children's; returns the positions checked, or -1
// after printing the first disagreement.
int check_line(const KalahBoard& root, const SolveResult& solved, Solver& checker,
               std::ostream& err) {
  KalahBoard board = root;
  int value = solved.value;
  int checked = 0;
  for (const int pit : solved.pv) {
    const std::vector<std::pair<int, int>> children = checker.move_values(board);
    int best = -KALAH_INFINITY;
    int played = -KALAH_INFINITY;
    for (const auto& [cell, margin] : children) {
      best = std::max(best, margin);
      if (cell == pit) played = margin;
    }
    const int margin = value + board.cells[kalah_store(board.to_move)] -
                       board.cells[kalah_store(1 - board.to_move)];
    if (best != margin || played != margin) {
      err << "solve --check: at " << board_to_string(board) << " (" << side_name(board.to_move)
          << " to move) the value is " << margin << " but its children's best is " << best
          << " and the line's move " << pit << " gives " << played << "\n";
      return -1;
    }
    ++checked;
    KalahBoard after;
    value = value_after_best_move(board, value, pit, &after);
    board = after;
  }
  return checked;
}

// The line a person reads, then the JSON line a script reads.
void print_result(const KalahBoard& board, const SolveResult& result, int database_stones,
                  int threads, std::ostream& out) {
  const int stones = kalah_endgame_stones(&board);
  char summary[256];
  if (!result.solved) {
    std::snprintf(summary, sizeof summary,
                  "not solved in %.1f s: the value over the %d stones in play lies in [%d, %d]\n",
                  result.ms / 1000, stones, result.lower, result.upper);
    out << summary;
  } else {
    const int margin = result.margin(board);
    std::snprintf(summary, sizeof summary,
                  "%s to move %s by %d (value %d over the %d stones in play); best move %d; "
                  "%.3f s, %llu nodes, %llu database lookups (levels 0..%d)\n",
                  side_name(board.to_move),
                  margin > 0   ? "wins"
                  : margin < 0 ? "loses"
                               : "draws",
                  std::abs(margin), result.value, stones, result.move, result.ms / 1000,
                  static_cast<unsigned long long>(result.nodes),
                  static_cast<unsigned long long>(result.database_hits), database_stones);
    out << summary;
  }
  out << "{\"solved\":" << (result.solved ? "true" : "false") << ",\"board\":\""
      << board_to_string(board) << "\",\"to_move\":\"" << side_name(board.to_move)
      << "\",\"value\":" << result.value << ",\"margin\":" << result.margin(board)
      << ",\"lower\":" << result.lower << ",\"upper\":" << result.upper
      << ",\"move\":" << result.move << ",\"pv\":" << moves_json(result.pv)
      << ",\"nodes\":" << result.nodes << ",\"database_hits\":" << result.database_hits
      << ",\"database_stones\":" << database_stones << ",\"threads\":" << threads
      << ",\"ms\":" << result.ms << "}\n";
}

}  // namespace

CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options) {
  CLI::App* solve = app.add_subcommand(
      "solve", "the exact value of a position (default: the start) with perfect play");
  solve->add_option("--board", options.board, "c0,...,c13 (default: the start position)");
  solve->add_option("--to-move", options.to_move, "top|bottom")->capture_default_str();
  solve
      ->add_option("--stones-per-pit", options.stones_per_pit,
                   "stones per pit of the start position: Kalah(6, K)")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxStonesPerPit));
  solve->add_option("--db-dir", options.db_dir,
                    "endgame database folder (default: $XDG_CACHE_HOME/cl-mankalah)");
  solve->add_option("--threads", options.threads, "search threads (0: one per core)");
  solve->add_option("--table-mb", options.table_megabytes, "transposition table size")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, SolvedTable::kMaxMegabytes));
  solve->add_option("--time-ms", options.time_ms, "give up after this long (0: never)");
  solve->add_flag("--check", options.check,
                  "re-verify: solve every child along the principal variation again");
  return solve;
}

int run_solve(const SolveCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.stones_per_pit < 1 || options.stones_per_pit > kMaxStonesPerPit) {
    err << "solve: --stones-per-pit must be 1.." << kMaxStonesPerPit << ", not "
        << options.stones_per_pit << " (the solver takes at most " << SolvedTable::kMaxStones
        << " stones in play)\n";
    return 2;
  }
  if (options.table_megabytes < 1 || options.table_megabytes > SolvedTable::kMaxMegabytes) {
    err << "solve: --table-mb must be 1.." << SolvedTable::kMaxMegabytes << ", not "
        << options.table_megabytes << "\n";
    return 2;
  }
  const std::optional<int> to_move = parse_side(options.to_move);
  if (!to_move) {
    err << "solve: --to-move must be top or bottom, not '" << options.to_move << "'\n";
    return 2;
  }
  KalahBoard board;
  try {
    board = options.board.empty() ? start_with(options.stones_per_pit, *to_move)
                                  : parse_board(options.board, *to_move);
  } catch (const std::invalid_argument& error) {
    err << "solve: " << error.what() << "\n";
    return 2;
  }
  const std::filesystem::path dir = options.db_dir.empty() ? endgame::default_database_dir()
                                                           : std::filesystem::path(options.db_dir);
  endgame::EndgameDatabase database;
  try {
    database = endgame::EndgameDatabase::open(dir);
  } catch (const endgame::DatabaseError& error) {
    err << "solve: " << error.what() << " (rebuild it with cl-mankalah db build)\n";
    return 1;
  }
  if (database.max_stones() < 0) {
    err << "solve: no endgame database in " << dir.string()
        << ": solving without one (cl-mankalah db build --max-stones N makes one)\n";
  }
  const int threads = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<Solver> solver;
  try {
    solver = std::make_unique<Solver>(&database, options.table_megabytes, threads);
  } catch (const std::runtime_error& error) {  // more memory than the machine gives
    err << "solve: --table-mb " << options.table_megabytes << ": " << error.what() << "\n";
    return 1;
  }
  solver->set_progress([&err](const SolveProgress& progress) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "solve: value in [%d, %d] after %.1f s, %.3g M nodes (%.3g M/s)\n",
                  progress.lower, progress.upper, progress.ms / 1000,
                  static_cast<double>(progress.nodes) / 1e6,
                  static_cast<double>(progress.nodes) / 1e3 / std::max(progress.ms, 1e-3));
    err << line << std::flush;
  });
  SolveLimits limits;
  limits.time_ms = options.time_ms;
  const SolveResult result = solver->solve(board, limits);
  print_result(board, result, database.max_stones(), threads, out);
  if (!result.solved) return 1;
  if (options.check) {
    Solver checker(&database, options.table_megabytes / 2 + 1, threads);
    const int checked = check_line(board, result, checker, err);
    if (checked < 0) return 1;
    out << "check: the value equals the best of its children's at all " << checked
        << " positions of the principal variation (solved again with a fresh table)\n";
  }
  return 0;
}

}  // namespace mankalah::solver

#include "apps/mankalah/perfect_engine.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "apps/mankalah/game.hpp"
#include "framework/stopwatch.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah {

namespace {

std::filesystem::path database_dir_of(const EngineOptions& options) {
  return options.database_dir.empty() ? endgame::default_database_dir()
                                      : std::filesystem::path(options.database_dir);
}

// --solver-mb (play, analyze, match) sets it: the error names the option.
std::size_t solver_megabytes_of(const EngineOptions& options) {
  if (options.solver_megabytes < 1 ||
      options.solver_megabytes > solver::SolvedTable::kMaxMegabytes) {
    throw std::invalid_argument("--solver-mb must be 1.." +
                                std::to_string(solver::SolvedTable::kMaxMegabytes) + ", not " +
                                std::to_string(options.solver_megabytes));
  }
  return options.solver_megabytes;
}

int solver_threads_of(const EngineOptions& options) {
  return options.solver_threads > 0
             ? options.solver_threads
             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// A file that cannot be written is reported, not fatal: the positions are proved again.
void save_quietly(solver::SolvedPositions& positions, const std::filesystem::path& path) {
  try {
    positions.save(path);
  } catch (const endgame::DatabaseError& error) {
    std::cerr << "cl-mankalah: " << error.what() << "\n";
  }
}

int stores_difference(const KalahBoard& board) {
  return board.cells[kalah_store(board.to_move)] - board.cells[kalah_store(1 - board.to_move)];
}

}  // namespace

PerfectEngine::PerfectEngine(const EngineOptions& options)
    : database_(endgame::EndgameDatabase::open(database_dir_of(options))),
      solver_(&database_, solver_megabytes_of(options), solver_threads_of(options)),
      fallback_(options.tt_megabytes),
      solved_path_(solver::SolvedPositions::path_in(database_dir_of(options))) {
  try {
    solved_ = solver::SolvedPositions::load(solved_path_);
  } catch (const endgame::DatabaseError& error) {
    std::cerr << "cl-mankalah: " << error.what() << "\n";
  }
  for (const auto& [key, position] : solved_.positions()) {
    KalahBoard board{};
    for (int i = 0; i < KALAH_PITS; ++i) {
      board.cells[i] = key[static_cast<std::size_t>(i)];
      board.cells[7 + i] = key[static_cast<std::size_t>(6 + i)];
    }
    board.to_move = KALAH_BOTTOM;
    solver_.remember(board, position.value, position.move);
  }
  // Inside the databases a position's value is a lookup: no need to search below it.
  fallback_.set_exact_evaluator([this](const KalahBoard& board, int* value) {
    if (!database_.covers(board)) return false;
    const int margin = stores_difference(board) + database_.value(board);
    *value = (board.to_move == KALAH_TOP ? margin : -margin) * KALAH_WIN_SCALE;
    return true;
  });
}

SearchResult PerfectEngine::exact_result(const KalahBoard& board, int value,
                                         std::vector<int> pv) const {
  SearchResult result;
  const int margin = stores_difference(board) + value;
  result.score = (board.to_move == KALAH_TOP ? margin : -margin) * KALAH_WIN_SCALE;
  result.exact = true;
  result.pv = std::move(pv);
  result.move = result.pv.empty() ? -1 : result.pv.front();
  const int top_margin = board.to_move == KALAH_TOP ? margin : -margin;
  result.note = top_margin == 0 ? "perfect play: a draw"
                                : std::string("perfect play: ") +
                                      side_name(top_margin > 0 ? KALAH_TOP : KALAH_BOTTOM) +
                                      " wins by " + std::to_string(std::abs(top_margin));
  return result;
}

void PerfectEngine::remember_line(const KalahBoard& root, int value, const std::vector<int>& pv) {
  KalahBoard board = root;
  for (const int pit : pv) {
    if (database_.covers(board)) break;  // a lookup: nothing worth keeping
    solved_.add(board, value, pit);
    KalahBoard after;
    value = solver::value_after_best_move(board, value, pit, &after);
    board = after;
  }
  if (!solved_.changed()) return;
  // One write at a time, on another thread; a line proved meanwhile goes with the next one.
  if (saving_.valid() && saving_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    return;
  }
  if (saving_.valid()) saving_.get();
  saving_ = std::async(std::launch::async, [snapshot = solved_, path = solved_path_]() mutable {
    save_quietly(snapshot, path);
  });
  solved_.mark_saved();
}

PerfectEngine::~PerfectEngine() {
  if (saving_.valid()) saving_.get();
  if (solved_.changed()) save_quietly(solved_, solved_path_);
}

SearchResult PerfectEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&start] { return clf::milliseconds_since(start); };
  if (kalah_is_over(&board)) {
    SearchResult over;
    over.score = kalah_final_value(&board);
    over.exact = true;
    return over;
  }
  if (const solver::SolvedPosition* known = solved_.find(board)) {
    SearchResult result =
        exact_result(board, known->value, {kalah_first_pit(board.to_move) + known->move});
    result.ms = elapsed_ms();
    return result;
  }
  // Most of the budget to the proof; the rest, if it fails, to the database-backed search. A
  // depth alone gives the proof no budget (it may take minutes): the depth is the search's.
  solver::SolveResult solved;
  if (limits.time_ms > 0) {
    solver::SolveLimits solve_limits;
    solve_limits.stop = limits.stop;
    solve_limits.time_ms = std::max(1, limits.time_ms * 3 / 5);
    solved = solver_.solve(board, solve_limits);
  }
  if (solved.solved && solved.move >= 0) {
    remember_line(board, solved.value, solved.pv);
    // The line may have run out of time after its proof; the proved move is still known.
    SearchResult result = exact_result(
        board, solved.value, solved.pv.empty() ? std::vector<int>{solved.move} : solved.pv);
    result.nodes = solved.nodes;
    result.ms = elapsed_ms();
    return result;
  }
  SearchLimits rest = limits;
  if (limits.time_ms > 0)
    rest.time_ms = std::max(1, limits.time_ms - static_cast<int>(elapsed_ms()));
  if (limits.stop != nullptr && limits.stop->load()) rest.time_ms = 1;
  SearchResult result = iterative_deepening(
      board, rest,
      [&](int depth, StopClock* clock) { return fallback_.search_depth(board, depth, clock); },
      progress_);
  result.nodes += solved.nodes;
  result.ms = elapsed_ms();
  const int stones = kalah_endgame_stones(&board);
  result.note = "not proved yet: searched " + std::to_string(result.depth) + " plies; database: " +
                (database_stones() < 0 ? std::string("none")
                                       : "up to " + std::to_string(database_stones()) +
                                             " stones in play, " + std::to_string(stones) + " now");
  return result;
}

std::vector<std::pair<int, int>> PerfectEngine::move_margins(const KalahBoard& board, int time_ms,
                                                             const std::atomic<bool>* stop) {
  solver::SolveLimits limits;
  limits.time_ms = time_ms;
  limits.stop = stop;
  return solver_.move_values(board, limits);
}

}  // namespace mankalah

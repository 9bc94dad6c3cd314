// cl-mankalah: play Kalah in the terminal, analyze positions, perft, engine matches and the
// layered-minimax benchmark. Each subcommand lives in its command_<name>.cpp (mankalah_core). With
// a display and GTK4, no subcommand (or `gui`) opens the window (gui.cpp, mankalah_gui).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/endgame/db_command.hpp"
#include "apps/mankalah/engine.hpp"
#include "apps/mankalah/solver/solve_command.hpp"
#include "apps/mankalah/solver/solved_table.hpp"
#include "framework/clf.hpp"
#include "framework/cli.hpp"
#include "framework/process_group.hpp"
#if CLF_MANKALAH_GUI
#include "apps/mankalah/gui.hpp"
#endif

namespace {

// One runtime per process, made when an engine first needs the device.
struct LazyRuntime {
  const clf::DeviceOptions* options = nullptr;
  std::unique_ptr<clf::Runtime> runtime;
  clf::Runtime& get() {
    if (!runtime) runtime = options->make_runtime();
    return *runtime;
  }
};

// --solver-mb: past the table's maximum the size in bytes would overflow.
CLI::Range solver_megabytes_range() {
  return CLI::Range(std::size_t{1}, mankalah::solver::SolvedTable::kMaxMegabytes);
}

void add_engine_options(CLI::App& command, mankalah::EngineChoice& choice) {
  std::string names;
  for (const std::string& n : mankalah::engine_names()) names += (names.empty() ? "" : "|") + n;
  CLI::Option* engine = command.add_option(
      "--engine", choice.engine,
      "engine: " + names +
          (choice.engine.empty() ? " (default: perfect where the endgame databases are, else "
                                   "alphabeta)"
                                 : ""));
  if (!choice.engine.empty()) engine->capture_default_str();
  command.add_option("--time-ms", choice.time_ms, "time per move in ms (iterative deepening)");
  command.add_option("--depth", choice.depth, "fixed search depth in plies");
  command.add_option("--pre", choice.pre, "gpu-layered: plain CPU plies on top");
  command.add_option("--seq", choice.seq, "gpu-layered: CPU plies that build one frontier batch");
  command.add_option("--par", choice.par, "gpu-layered: plies per frontier position on the device");
  command.add_option("--db-dir", choice.db_dir,
                     "perfect: endgame database folder (default: $XDG_CACHE_HOME/cl-mankalah)");
  command.add_option("--solver-mb", choice.solver_megabytes, "perfect: the solver's table")
      ->capture_default_str()
      ->check(solver_megabytes_range());
}

std::unique_ptr<clf::Runtime> runtime_of_type(clf::DeviceType type,
                                              const clf::DeviceRequest& settings) {
  for (const clf::DeviceInfo& device : clf::enumerate_devices()) {
    if (device.type == type) return std::make_unique<clf::Runtime>(device, settings);
  }
  return nullptr;
}

CLI::App* add_play_command(CLI::App& app, mankalah::PlayOptions& play) {
  CLI::App* play_command = app.add_subcommand("play", "play in the terminal");
  add_engine_options(*play_command, play.ai);
  play_command->add_option("--first", play.first, "who moves first: human|ai")
      ->capture_default_str();
  play_command->add_option("--side", play.side, "your side: top|bottom")->capture_default_str();
  play_command->add_flag("--script", play.script,
                         "read moves from stdin without prompts, write JSON lines");
  play_command->add_flag("--selfplay", play.selfplay, "the engine plays both sides");
  play_command->add_option("--log", play.log_path, "JSON-lines log file");
  return play_command;
}

CLI::App* add_analyze_command(CLI::App& app, mankalah::AnalyzeOptions& analyze) {
  CLI::App* analyze_command = app.add_subcommand("analyze", "search one position, print JSON");
  add_engine_options(*analyze_command, analyze.ai);
  analyze_command->add_option("--board", analyze.board, "\"c0,...,c13\" (default: the start)");
  analyze_command->add_option("--to-move", analyze.to_move, "top|bottom")->capture_default_str();
  return analyze_command;
}

CLI::App* add_perft_command(CLI::App& app, mankalah::PerftOptions& perft) {
  CLI::App* perft_command = app.add_subcommand("perft", "count the leaves of the full-width tree");
  perft_command->add_option("--depth", perft.depth, "plies")->capture_default_str();
  perft_command->add_option("--engine", perft.engine, "cpu|gpu")->capture_default_str();
  perft_command->add_option("--board", perft.board, "\"c0,...,c13\" (default: the start)");
  perft_command->add_option("--to-move", perft.to_move, "top|bottom")->capture_default_str();
  return perft_command;
}

// --time-ms and --depth are one setting for both engines: main copies them in after parsing.
CLI::App* add_match_command(CLI::App& app, mankalah::MatchOptions& match, int& match_time_ms,
                            int& match_depth) {
  CLI::App* match_command = app.add_subcommand("match", "engine A against engine B");
  match_command->add_option("--a", match.a.engine, "engine A")->required();
  match_command->add_option("--b", match.b.engine, "engine B")->required();
  match_command->add_option("--games", match.games, "games (pairs, colours swapped)")
      ->capture_default_str();
  match_command->add_option("--time-ms", match_time_ms, "time per move")->capture_default_str();
  match_command->add_option("--a-time-ms", match.a_time_ms,
                            "engine A's time per move (default: --time-ms)");
  match_command
      ->add_option("--solver-mb", match.a.solver_megabytes,
                   "perfect: the solver's table, per engine")
      ->capture_default_str()
      ->check(solver_megabytes_range());
  match_command->add_option(
      "--db-dir", match.db_dir,
      "perfect: endgame database folder (default: $XDG_CACHE_HOME/cl-mankalah)");
  match_command->add_option("--depth", match_depth, "fixed depth instead of time");
  match_command->add_option("--seed", match.seed, "seed of the random openings")
      ->capture_default_str();
  match_command->add_option("--opening-plies", match.opening_plies, "random plies per opening")
      ->capture_default_str();
  match_command->add_option("--jobs", match.jobs, "games played at once (threads)")
      ->capture_default_str();
  return match_command;
}

CLI::App* add_bench_command(CLI::App& app, mankalah::BenchOptions& bench) {
  CLI::App* bench_command =
      app.add_subcommand("bench", "the layered-minimax table and depth in 1 s");
  bench_command->add_option("--min-depth", bench.min_depth)->capture_default_str();
  bench_command->add_option("--max-depth", bench.max_depth)->capture_default_str();
  bench_command
      ->add_option("--cell-limit-s", bench.cell_limit_s,
                   "skip a column's next depth once predicted to take longer")
      ->capture_default_str();
  bench_command->add_option("--reach-ms", bench.reach_ms, "time budget of the depth-reached table")
      ->capture_default_str();
  bench_command->add_option("--split-depth", bench.split_depth,
                            "also time every pre/seq division of this depth");
  return bench_command;
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App app{"Mankalah (Kalah, 6 pits, 4 stones) against CPU and GPU minimax engines."};
  app.require_subcommand(0, 1);
  clf::DeviceOptions device_options;
  device_options.add_to(app);
  LazyRuntime lazy{&device_options, nullptr};
  auto runtime = [&lazy]() -> clf::Runtime& { return lazy.get(); };

  mankalah::PlayOptions play;
  play.ai.runtime = runtime;
  play.ai.engine = "";  // perfect where the databases are, else alphabeta
  CLI::App* play_command = add_play_command(app, play);
  mankalah::AnalyzeOptions analyze;
  analyze.ai.runtime = runtime;
  CLI::App* analyze_command = add_analyze_command(app, analyze);
  mankalah::PerftOptions perft;
  perft.runtime = runtime;
  CLI::App* perft_command = add_perft_command(app, perft);
  mankalah::MatchOptions match;
  match.a.runtime = match.b.runtime = runtime;
  int match_time_ms = 100, match_depth = 0;
  CLI::App* match_command = add_match_command(app, match, match_time_ms, match_depth);
  mankalah::BenchOptions bench;
  bench.runtime = runtime;
  std::unique_ptr<clf::Runtime> bench_cpu, bench_gpu;
  CLI::App* bench_command = add_bench_command(app, bench);

  mankalah::endgame::DbOptions db;
  std::unique_ptr<clf::DeviceSet> db_devices;  // made when a level is to be built
  db.devices = [&]() -> const clf::DeviceSet& {
    if (!db_devices) db_devices = device_options.make_device_set();
    return *db_devices;
  };
  CLI::App* db_command = mankalah::endgame::add_db_command(app, db);
  mankalah::solver::SolveCommandOptions solve;
  CLI::App* solve_command = mankalah::solver::add_solve_command(app, solve);

#if CLF_MANKALAH_GUI
  mankalah::GuiOptions gui;
  CLI::App* gui_command = app.add_subcommand("gui", "the GTK4 game (the default with a display)");
  gui_command->add_option("--engine", gui.engine,
                          "the AI's engine (default: perfect where the endgame databases are, "
                          "else alphabeta)");
  gui_command->add_option("--db-dir", gui.db_dir,
                          "endgame database folder (default: $XDG_CACHE_HOME/cl-mankalah)");
  gui_command->add_option("--time-ms", gui.time_ms, "time per AI move")->capture_default_str();
  gui_command->add_option("--side", gui.side, "your side: top|bottom")->capture_default_str();
  gui_command->add_option("--first", gui.first, "who moves first: human|ai")->capture_default_str();
  gui_command->add_flag("--match", gui.match, "start Calvin's two-game match");
  gui_command->add_option("--screenshot", gui.screenshot,
                          "smoke test: play a few moves, save the window to this PNG, check it "
                          "is not blank, quit");
  gui_command->add_option("--smoke-moves", gui.smoke_moves, "human moves before the screenshot")
      ->capture_default_str();
#endif

  CLI11_PARSE(app, argc, argv);
  if (device_options.handle_list_devices()) return 0;

  if (*play_command) return mankalah::run_play(play, std::cin, std::cout, std::cerr);
  if (*analyze_command) return mankalah::run_analyze(analyze, std::cout, std::cerr);
  if (*perft_command) return mankalah::run_perft(perft, std::cout, std::cerr);
  if (*match_command) {
    match.a.time_ms = match.b.time_ms = match_depth > 0 ? 0 : match_time_ms;
    if (match.a_time_ms > 0 && match_depth <= 0) match.a.time_ms = match.a_time_ms;
    match.a.db_dir = match.b.db_dir = match.db_dir;
    match.b.solver_megabytes = match.a.solver_megabytes;
    match.a.depth = match.b.depth = match_depth;
    return mankalah::run_match(match, std::cout, std::cerr);
  }
  if (*bench_command) {
    clf::DeviceRequest quiet = device_options.request;
    quiet.quiet = true;
    bench.cpu_runtime = [&]() {
      if (!bench_cpu) bench_cpu = runtime_of_type(clf::DeviceType::cpu, quiet);
      return bench_cpu.get();
    };
    bench.gpu_runtime = [&]() {
      if (!bench_gpu) bench_gpu = runtime_of_type(clf::DeviceType::gpu, quiet);
      return bench_gpu.get();
    };
    return mankalah::run_bench(bench, std::cout, std::cerr);
  }
  if (*db_command) {
    db.group = &clf::ProcessGroup::world();  // the ranks of mpirun, else this process alone
    return mankalah::endgame::run_db(db, std::cout, std::cerr);
  }
  if (*solve_command) return mankalah::solver::run_solve(solve, std::cout, std::cerr);
#if CLF_MANKALAH_GUI
  const bool has_display =
      std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
  if (*gui_command || has_display) {
    gui.request = device_options.request;
    return mankalah::run_gui(gui);
  }
#endif
  std::cerr << app.help()
            << "\ncl-mankalah: no display: use a subcommand (play, analyze, perft, "
               "match, bench, db, solve)\n";
  return 2;
} catch (const std::exception& error) {
  std::cerr << "cl-mankalah: " << error.what() << "\n";
  return 1;
}

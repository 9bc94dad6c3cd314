// `cl-mankalah solve`: the exact value of a position (the start of Kalah(6, K) by default) with
// its best move and principal variation, from the endgame databases and the solver.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace mankalah::solver {

struct SolveCommandOptions {
  std::string board;  // "c0,...,c13"; empty: the start position
  std::string to_move = "bottom";
  int stones_per_pit = 4;  // the start position's stones per pit (Kalah(6, K))
  std::string db_dir;      // empty: default_database_dir()
  int threads = 0;         // 0: one per core
  std::size_t table_megabytes = 1024;
  int time_ms = 0;     // 0: until solved
  bool check = false;  // re-verify the value from every child at each step of the pv
};

CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options);
int run_solve(const SolveCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mankalah::solver

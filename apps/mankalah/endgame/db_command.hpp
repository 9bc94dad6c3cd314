// `cl-mankalah db build|info|verify`: endgame database levels in a cache folder.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace CLI {
class App;
}
namespace clf {
class DeviceSet;
class ProcessGroup;
}  // namespace clf

namespace mankalah::endgame {

struct DbOptions {
  std::string action;           // build, info or verify
  int max_stones = 12;          // build: levels 0..max_stones
  std::string db_dir;           // empty: default_database_dir()
  std::string builder = "gpu";  // build: gpu (the OpenCL device) or cpu (the reference builder)
  unsigned threads = 0;         // cpu builder threads (0: one per core)
  int sample = 10000;           // verify: positions per level recomputed from their children
  std::function<const clf::DeviceSet&()> devices;  // build: the devices sharing each level
  const clf::ProcessGroup* group = nullptr;        // the processes sharing a build (null: this one)
};

// Adds `db` and its three subcommands to `app`, filling `options`; returns `db`.
CLI::App* add_db_command(CLI::App& app, DbOptions& options);

// With several processes, `build` is shared by all of them and prints on process 0; `info` and
// `verify` run on process 0 alone. A failure on one process ends them all.
int run_db(const DbOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mankalah::endgame

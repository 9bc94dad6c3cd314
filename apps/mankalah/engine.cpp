#include "apps/mankalah/engine.hpp"

#include <stdexcept>

#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/gpu_search.hpp"
#include "apps/mankalah/perfect_engine.hpp"

namespace mankalah {

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"bonzo", "minimax", "gpu-layered", "alphabeta",
                                                 "perfect"};
  return names;
}

std::string default_engine(const std::string& database_dir) {
  const std::filesystem::path dir =
      database_dir.empty() ? endgame::default_database_dir() : std::filesystem::path(database_dir);
  for (int level = 0; level <= kPerfectDatabaseStones; ++level) {
    if (!std::filesystem::exists(endgame::level_path(dir, level))) return "alphabeta";
  }
  return "perfect";
}

std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options) {
  if (name == "bonzo") return std::make_unique<BonzoEngine>();
  if (name == "minimax") return std::make_unique<MinimaxEngine>();
  if (name == "alphabeta") return std::make_unique<AlphaBetaEngine>(options.tt_megabytes);
  if (name == "perfect") return std::make_unique<PerfectEngine>(options);
  if (name == "gpu-layered") {
    if (!options.runtime)
      throw std::invalid_argument("engine '" + name + "' needs an OpenCL device");
    return std::make_unique<GpuLayeredEngine>(
        options.runtime(),
        LayerSplit{options.layered_pre, options.layered_seq, options.layered_par});
  }
  std::string known;
  for (const std::string& n : engine_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown engine '" + name + "' (engines: " + known + ")");
}

}  // namespace mankalah

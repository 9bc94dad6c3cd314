// cl-mankalah analyze: one search from a position, printed as a JSON line.
#include <iomanip>
#include <iostream>

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/game.hpp"

namespace mankalah {

namespace {

std::string pv_json(const std::vector<int>& pv) {
  std::string text = "[";
  for (std::size_t i = 0; i < pv.size(); ++i) text += (i ? "," : "") + std::to_string(pv[i]);
  return text + "]";
}

}  // namespace

int run_analyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<int> to_move = parse_side(options.to_move);
  if (!to_move) {
    err << "analyze: --to-move must be top or bottom, not '" << options.to_move << "'\n";
    return 2;
  }
  try {
    const KalahBoard board = start_or_parse(options.board, *to_move);
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

}  // namespace mankalah

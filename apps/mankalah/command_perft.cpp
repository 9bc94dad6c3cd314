// cl-mankalah perft: the leaves of the full-width tree, counted on the host or the device.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/cpu_search.hpp"
#include "apps/mankalah/game.hpp"
#include "apps/mankalah/gpu_search.hpp"

namespace mankalah {

int run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<int> to_move = parse_side(options.to_move);
  if (!to_move || options.depth < 0 || options.depth > 30 ||
      (options.engine != "cpu" && options.engine != "gpu")) {
    err << "perft: need --depth 0..30, --engine cpu|gpu, --to-move top|bottom\n";
    return 2;
  }
  try {
    const KalahBoard board = start_or_parse(options.board, *to_move);
    std::unique_ptr<LayeredSearch> gpu;
    if (options.engine == "gpu") gpu = std::make_unique<LayeredSearch>(options.runtime());
    if (gpu) gpu->perft(board, std::min(options.depth, 2));  // builds and warms the kernel
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t leaves =
        gpu ? gpu->perft(board, options.depth) : perft(board, options.depth);
    const double seconds = seconds_since(start);
    out << "perft " << options.depth << " (" << options.engine << "): " << leaves << " leaves in "
        << std::fixed << std::setprecision(3) << seconds * 1000 << " ms, " << std::setprecision(1)
        << leaves / std::max(seconds, 1e-9) / 1e6 << " M leaves/s\n";
    return 0;
  } catch (const std::invalid_argument& error) {
    err << "perft: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace mankalah

#include "apps/mankalah/endgame/cpu_builder.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>

namespace mankalah::endgame {

int value_from_children(const KalahBoard& position, const std::vector<const cl_char*>& levels) {
  if (kalah_endgame_is_terminal(&position)) return kalah_endgame_terminal_value(&position);
  int best = -KALAH_INFINITY;
  for (int pit = 0; pit < KALAH_PITS; ++pit) {
    KalahEndgamePly move;
    if (!kalah_endgame_play(&position, pit, &move)) continue;
    const int child = move.game_over ? 0 : levels[static_cast<std::size_t>(move.level)][move.rank];
    best = std::max(best, kalah_endgame_move_value(&move, child));
  }
  return best;
}

std::vector<cl_char> build_level_cpu(int n, const std::vector<const cl_char*>& lower,
                                     unsigned threads) {
  const std::uint64_t count = kalah_endgame_level_size(n);
  std::vector<cl_char> values(count, 0);
  std::vector<const cl_char*> levels(lower.begin(), lower.begin() + n);
  levels.push_back(values.data());

  // The ranks sorted by potential (a counting sort): a same-level child has a lower potential,
  // so it is final before its parent is evaluated, and positions of one potential never depend
  // on each other, so each potential's positions are shared out among the threads.
  const int potentials = KALAH_PITS * n + 1;
  std::vector<std::uint64_t> starts(static_cast<std::size_t>(potentials) + 1, 0);
  std::vector<std::uint8_t> potential_of(count);
  for (std::uint64_t rank = 0; rank < count; ++rank) {
    const KalahBoard position = kalah_endgame_unrank(n, rank);
    potential_of[rank] = static_cast<std::uint8_t>(kalah_endgame_potential(&position));
    ++starts[potential_of[rank] + 1u];
  }
  for (int p = 0; p < potentials; ++p) starts[p + 1u] += starts[p];
  std::vector<std::uint64_t> order(count);
  {
    std::vector<std::uint64_t> next(starts.begin(), starts.end() - 1);
    for (std::uint64_t rank = 0; rank < count; ++rank) order[next[potential_of[rank]]++] = rank;
  }

  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const auto evaluate = [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      const KalahBoard position = kalah_endgame_unrank(n, order[i]);
      values[order[i]] = static_cast<cl_char>(value_from_children(position, levels));
    }
  };
  constexpr std::uint64_t kMinPerThread = 4096;
  for (int p = 0; p < potentials; ++p) {
    const std::uint64_t begin = starts[p], end = starts[p + 1u];
    const std::uint64_t parts =
        std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, (end - begin) / kMinPerThread));
    if (parts <= 1) {
      evaluate(begin, end);
      continue;
    }
    std::vector<std::thread> workers;
    for (std::uint64_t t = 0; t < parts; ++t) {
      workers.emplace_back(evaluate, begin + (end - begin) * t / parts,
                           begin + (end - begin) * (t + 1) / parts);
    }
    for (std::thread& worker : workers) worker.join();
  }
  return values;
}

}  // namespace mankalah::endgame

// What a device launch costs, measured as launches run, and launching a batch in chunks that a
// timed search can stop between: the layered search's.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "apps/mankalah/engine.hpp"
#include "framework/clf.hpp"
#include "framework/stopwatch.hpp"

namespace mankalah {

// What a launch of n positions costs: a fixed part (launch, transfers and, on a GPU, the
// longest single search of the batch) and a part per position, both measured.
struct LaunchCost {
  double fixed_s = 0;  // the quickest launch seen
  // From launches large enough to show it; until one has run, a first guess from a small launch
  // (its whole time divided among its positions: right where every position is thousands of
  // leaves, as in the layered search).
  double per_item_s = 0;
  bool measured() const { return fixed_s > 0; }
  double predict(std::size_t items) const { return fixed_s + per_item_s * items; }
  std::size_t items_within(double seconds) const;
  void record(std::size_t items, double seconds);
};

// Runs `launch(offset, count)` over `total` items in chunks that should take about
// kChunkSeconds each (at least a few times a launch's fixed cost) by `cost` (measured here and
// updated), and returns false without launching more once `clock` has run out or the next chunk
// would not fit the time left. Before anything is measured a timed search launches
// `first_chunk` items.
bool launch_in_chunks(std::size_t total, StopClock* clock, LaunchCost* cost,
                      std::size_t first_chunk,
                      const std::function<void(std::size_t, std::size_t)>& launch);

// Values of `boards` from a kernel that writes a value and a count (leaves, positions) per
// position, launched in chunks as launch_in_chunks does: `enqueue(positions, count, values,
// counts)` launches it over one chunk. `counts_total` gets the sum of the counts.
template <typename Enqueue>
bool evaluate_in_chunks(clf::Runtime& runtime, const std::vector<KalahBoard>& boards,
                        StopClock* clock, LaunchCost* cost, std::size_t first_chunk,
                        std::vector<int>* values, std::uint64_t* counts_total, Enqueue&& enqueue) {
  values->assign(boards.size(), 0);
  return launch_in_chunks(
      boards.size(), clock, cost, first_chunk, [&](std::size_t offset, std::size_t chunk) {
        std::vector<KalahBoard> part(boards.begin() + offset, boards.begin() + offset + chunk);
        clf::Buffer<KalahBoard> positions(runtime, part);
        clf::Buffer<cl_int> part_values(runtime, chunk);
        clf::Buffer<cl_uint> part_counts(runtime, chunk);
        enqueue(positions, chunk, part_values, part_counts);
        const std::vector<cl_int>& got = part_values.host();
        const std::vector<cl_uint>& got_counts = part_counts.host();
        for (std::size_t i = 0; i < chunk; ++i) {
          (*values)[offset + i] = got[i];
          *counts_total += got_counts[i];
        }
      });
}

using clf::seconds_since;

}  // namespace mankalah

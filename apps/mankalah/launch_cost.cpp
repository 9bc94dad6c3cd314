#include "apps/mankalah/launch_cost.hpp"

#include <algorithm>
#include <cstdint>

namespace mankalah {

namespace {

// Launch chunks are sized to take about this long, so a timed search can stop between them.
constexpr double kChunkSeconds = 0.01;
// Launches of at least this many positions show the cost per position; smaller ones mostly
// their fixed cost.
constexpr std::size_t kShowsPerItemCost = 1024;

}  // namespace

bool launch_in_chunks(std::size_t total, StopClock* clock, LaunchCost* cost,
                      std::size_t first_chunk,
                      const std::function<void(std::size_t, std::size_t)>& launch) {
  std::size_t done = 0;
  while (done < total) {
    std::size_t chunk = total - done;
    if (clock != nullptr && clock->timed()) {
      if (clock->check()) return false;
      const double left = clock->remaining_ms() / 1000.0;
      if (!cost->measured()) {
        chunk = std::min(chunk, first_chunk);
      } else {
        if (cost->predict(1) > left) {
          // Not launched, so not measured again: forget part of the estimate, so that one slow
          // launch (a driver hiccup) cannot keep every later search from using the device.
          cost->fixed_s *= 0.5;
          return false;
        }
        const double budget = std::min(left, std::max(kChunkSeconds, 4 * cost->fixed_s));
        chunk = std::clamp<std::size_t>(cost->items_within(budget), 1, chunk);
      }
    }
    const auto start = std::chrono::steady_clock::now();
    launch(done, chunk);
    cost->record(chunk, seconds_since(start));
    done += chunk;
  }
  return true;
}

void LaunchCost::record(std::size_t items, double seconds) {
  if (fixed_s <= 0 || seconds < fixed_s) fixed_s = seconds;
  if (items >= kShowsPerItemCost) {
    per_item_s = std::max(seconds - fixed_s, 0.0) / static_cast<double>(items);
  } else if (per_item_s <= 0) {
    per_item_s = seconds / static_cast<double>(items);
  }
}

std::size_t LaunchCost::items_within(double seconds) const {
  if (per_item_s <= 0) return seconds > fixed_s ? SIZE_MAX : 1;
  return static_cast<std::size_t>(std::max(seconds - fixed_s, 0.0) / per_item_s);
}

}  // namespace mankalah

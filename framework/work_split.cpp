#include "framework/work_split.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <string>

#include "framework/error.hpp"

namespace clf {

std::vector<WorkRange> split_range(std::size_t total, const std::vector<double>& weights,
                                   std::size_t granularity) {
  double sum = 0;
  for (double weight : weights) {
    if (!(weight >= 0) || !std::isfinite(weight)) {
      throw Error("split_range: weight " + std::to_string(weight) + " is not a finite weight >= 0");
    }
    sum += weight;
  }
  if (weights.empty() || sum <= 0) throw Error("split_range: no positive weight to split by");
  granularity = std::max<std::size_t>(granularity, 1);

  // The last positive weight ends at the total (taking what rounding left), so zero weights
  // after it get nothing.
  std::size_t last = weights.size() - 1;
  while (weights[last] == 0) --last;  // some weight is positive

  std::vector<WorkRange> ranges(weights.size());
  double cumulative = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    cumulative += weights[i];
    std::size_t end = total;
    if (i < last) {
      const double ideal = static_cast<double>(total) * (cumulative / sum);
      end = static_cast<std::size_t>(std::llround(ideal / static_cast<double>(granularity))) *
            granularity;
      end = std::clamp(end, begin, total);
      if (weights[i] == 0) end = begin;
    }
    ranges[i] = {begin, end};
    begin = end;
  }
  return ranges;
}

SpeedBalancer::SpeedBalancer(std::size_t devices)
    : speeds_(devices, 1.0), measured_(devices, false) {
  if (devices == 0) throw Error("SpeedBalancer needs at least one device");
}

std::vector<std::size_t> deal_largest_first(const std::vector<std::size_t>& sizes,
                                            const std::vector<double>& speeds) {
  if (speeds.empty()) throw Error("deal_largest_first: no parts to deal to");
  for (double speed : speeds) {
    if (!(speed > 0)) throw Error("deal_largest_first: a part's speed is not positive");
  }
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::vector<double> busy(speeds.size(), 0);  // seconds of work dealt to each part
  std::vector<std::size_t> part_of(sizes.size(), 0);
  for (std::size_t piece : order) {
    std::size_t best = 0;
    double best_finish = 0;
    for (std::size_t p = 0; p < speeds.size(); ++p) {
      const double finish = busy[p] + static_cast<double>(sizes[piece]) / speeds[p];
      if (p == 0 || finish < best_finish) {
        best = p;
        best_finish = finish;
      }
    }
    busy[best] = best_finish;
    part_of[piece] = best;
  }
  return part_of;
}

void SpeedBalancer::record(std::size_t device, std::size_t items, double seconds) {
  if (items == 0 || !(seconds > 0)) return;  // nothing learnt
  const double speed = static_cast<double>(items) / seconds;
  if (!measured_.at(device)) {
    // The first timing replaces the equal start, scaled for devices not yet measured.
    const bool first_of_all =
        std::none_of(measured_.begin(), measured_.end(), [](bool m) { return m; });
    if (first_of_all) std::fill(speeds_.begin(), speeds_.end(), speed);
    speeds_[device] = speed;
    measured_[device] = true;
    return;
  }
  speeds_[device] = 0.5 * (speeds_[device] + speed);
}

std::vector<WorkRange> SpeedBalancer::split(std::size_t total, std::size_t granularity) const {
  return split_range(total, speeds_, granularity);
}

void for_each_chunk(const DeviceSet& devices, std::size_t total, std::size_t chunk,
                    const std::function<void(std::size_t, Runtime&, WorkRange)>& body) {
  chunk = std::max<std::size_t>(chunk, 1);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  for_each_device(devices, [&](std::size_t position, Runtime& runtime) {
    try {
      while (!failed.load()) {
        const std::size_t begin = next.fetch_add(chunk);
        if (begin >= total) break;
        body(position, runtime, WorkRange{begin, std::min(total, begin + chunk)});
      }
    } catch (...) {
      failed = true;
      throw;
    }
  });
}

}  // namespace clf

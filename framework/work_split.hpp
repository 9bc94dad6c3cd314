// Splitting work across devices of unequal speed: contiguous shares of a range sized by each
// device's measured throughput (for work split the same way every time, like the rows of a
// frame), indivisible pieces of known sizes dealt out (like the independent parts of a level),
// or chunks handed to whichever device is free next (for many independent pieces).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "framework/device_set.hpp"

namespace clf {

struct WorkRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
  bool empty() const { return end == begin; }
};

// [0, total) cut into weights.size() contiguous ranges with sizes proportional to the weights;
// every boundary but the last is a multiple of `granularity`. A zero weight gets an empty range.
// Throws Error when there are no weights or none is positive.
std::vector<WorkRange> split_range(std::size_t total, const std::vector<double>& weights,
                                   std::size_t granularity = 1);

// Deals pieces of the given sizes to parts of the given speeds: largest piece first, each to the
// part that would finish it earliest (the longest-processing-time rule, within 4/3 of the best
// finish time). Returns each piece's part; ties go to the lower part, so every caller given the
// same sizes and speeds deals the same. Throws Error when there are no speeds or one is not
// positive.
std::vector<std::size_t> deal_largest_first(const std::vector<std::size_t>& sizes,
                                            const std::vector<double>& speeds);

// Each device's throughput (items per second), learnt from timings of the work it was given,
// for the next split. Devices start equal; each timing moves the estimate halfway to what it
// measured, so the shares settle within a few rounds and one slow round does not swing them.
class SpeedBalancer {
 public:
  explicit SpeedBalancer(std::size_t devices);

  void record(std::size_t device, std::size_t items, double seconds);
  const std::vector<double>& speeds() const { return speeds_; }
  std::vector<WorkRange> split(std::size_t total, std::size_t granularity = 1) const;

 private:
  std::vector<double> speeds_;
  std::vector<bool> measured_;
};

// Hands [0, total) out in chunks of at most `chunk` items to whichever device asks next, so a
// faster device takes more, and calls body(position, runtime, range) for each chunk on that
// device's thread. After a failure no new chunks are handed out; errors as for_each_device.
void for_each_chunk(const DeviceSet& devices, std::size_t total, std::size_t chunk,
                    const std::function<void(std::size_t, Runtime&, WorkRange)>& body);

}  // namespace clf

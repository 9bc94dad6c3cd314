// Splitting work across devices: proportional contiguous shares, pieces dealt largest first,
// throughput learnt from timings, and chunks handed to whichever device is free.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "framework/work_split.hpp"
#include "test_support.hpp"

namespace {

using clf::split_range;
using clf::WorkRange;

void expect_tiles(const std::vector<WorkRange>& ranges, std::size_t total) {
  std::size_t expected_begin = 0;
  for (const WorkRange& range : ranges) {
    EXPECT_EQ(range.begin, expected_begin);
    EXPECT_LE(range.begin, range.end);
    expected_begin = range.end;
  }
  EXPECT_EQ(expected_begin, total);
}

TEST(WorkSplit, SharesAreProportionalAndTileTheRange) {
  const auto equal = split_range(1080, {1, 1});
  expect_tiles(equal, 1080);
  EXPECT_EQ(equal[0].size(), 540U);

  const auto three_to_one = split_range(1000, {3, 1});
  expect_tiles(three_to_one, 1000);
  EXPECT_EQ(three_to_one[0].size(), 750U);

  const auto rows_of_eight = split_range(1080, {1, 2, 1}, 8);
  expect_tiles(rows_of_eight, 1080);
  for (std::size_t i = 0; i + 1 < rows_of_eight.size(); ++i)
    EXPECT_EQ(rows_of_eight[i].end % 8, 0U);
  EXPECT_NEAR(static_cast<double>(rows_of_eight[1].size()), 540.0, 8.0);
}

TEST(WorkSplit, ZeroWeightsGetNothingAndBadWeightsAreRefused) {
  const auto ranges = split_range(100, {0, 1, 0});
  expect_tiles(ranges, 100);
  EXPECT_TRUE(ranges[0].empty());
  EXPECT_EQ(ranges[1].size(), 100U);
  EXPECT_TRUE(ranges[2].empty());
  // Also where rounding to a granularity leaves items after the last positive weight's share.
  const auto rounded = split_range(99, {1, 0, 2, 0}, 8);
  expect_tiles(rounded, 99);
  EXPECT_EQ(rounded[0].size(), 32U);
  EXPECT_TRUE(rounded[1].empty());
  EXPECT_EQ(rounded[2].size(), 67U);
  EXPECT_TRUE(rounded[3].empty());
  EXPECT_CLF_ERROR(split_range(100, {}), "no positive weight");
  EXPECT_CLF_ERROR(split_range(100, {0, 0}), "no positive weight");
  EXPECT_CLF_ERROR(split_range(100, {1, -1}), "-1");
  expect_tiles(split_range(3, {1, 1, 1, 1, 1}), 3);  // fewer items than devices
}

TEST(WorkSplit, PiecesAreDealtLargestFirstToTheEarliestFinish) {
  // Equal parts: 7 to part 0, then 5 and 4 to part 1 (5 + 4 = 9 after 7), 3 to part 0.
  EXPECT_EQ(clf::deal_largest_first({3, 7, 4, 5}, {1, 1}), (std::vector<std::size_t>{0, 0, 1, 1}));
  // A part twice as fast takes twice the work: 8 and 4 to part 0 (finishing at 6), 6 to part 1.
  EXPECT_EQ(clf::deal_largest_first({8, 6, 4}, {2, 1}), (std::vector<std::size_t>{0, 1, 0}));
  // Many pieces on three equal parts: every part within the largest piece of an equal share.
  std::vector<std::size_t> sizes;
  for (std::size_t i = 1; i <= 30; ++i) sizes.push_back(i * i);
  const auto parts = clf::deal_largest_first(sizes, {1, 1, 1});
  std::vector<std::size_t> load(3, 0);
  std::size_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    ASSERT_LT(parts[i], 3U);
    load[parts[i]] += sizes[i];
    total += sizes[i];
  }
  for (std::size_t l : load) EXPECT_NEAR(static_cast<double>(l), total / 3.0, 900.0);
  EXPECT_TRUE(clf::deal_largest_first({}, {1}).empty());
  EXPECT_CLF_ERROR(clf::deal_largest_first({1}, {}), "no parts");
  EXPECT_CLF_ERROR(clf::deal_largest_first({1}, {1, 0}), "not positive");
}

TEST(WorkSplit, TheBalancerSettlesOnTheMeasuredSpeeds) {
  // Device 0 is three times as fast as device 1; each round times the split it was given.
  clf::SpeedBalancer balancer(2);
  auto split = balancer.split(1200);
  EXPECT_EQ(split[0].size(), 600U);
  for (int round = 0; round < 6; ++round) {
    balancer.record(0, split[0].size(), static_cast<double>(split[0].size()) / 3000.0);
    balancer.record(1, split[1].size(), static_cast<double>(split[1].size()) / 1000.0);
    split = balancer.split(1200);
  }
  EXPECT_NEAR(static_cast<double>(split[0].size()), 900.0, 2.0);
  balancer.record(1, 0, 1.0);  // nothing to learn from an empty share
  balancer.record(1, 10, 0.0);
  EXPECT_NEAR(balancer.speeds()[1], 1000.0, 1.0);
}

TEST(WorkSplit, EveryChunkIsDoneOnceAcrossTheDevices) {
  const auto listing = clf::enumerate_devices();
  std::vector<std::unique_ptr<clf::Runtime>> runtimes;
  for (int i = 0; i < 2; ++i) {
    runtimes.push_back(std::make_unique<clf::Runtime>(listing.front(), clf::DeviceRequest{}));
  }
  const clf::DeviceSet set(std::move(runtimes));
  std::vector<int> done(1001, 0);
  std::mutex mutex;
  clf::for_each_chunk(set, done.size(), 64, [&](std::size_t, clf::Runtime&, WorkRange range) {
    EXPECT_LE(range.size(), 64U);
    std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = range.begin; i < range.end; ++i) ++done[i];
  });
  EXPECT_EQ(std::count(done.begin(), done.end(), 1), static_cast<long>(done.size()));

  // The chunk at 100 fails on whichever device takes it; the others stop taking chunks.
  int chunks_done = 0;
  EXPECT_CLF_ERROR(clf::for_each_chunk(set, 1000, 10,
                                       [&](std::size_t, clf::Runtime&, WorkRange range) {
                                         if (range.begin == 100) throw clf::Error("chunk failed");
                                         std::this_thread::sleep_for(std::chrono::milliseconds(2));
                                         std::lock_guard<std::mutex> lock(mutex);
                                         ++chunks_done;
                                       }),
                   "chunk failed");
  EXPECT_LT(chunks_done, 50);  // of 99: the work stopped soon after the failure
}

}  // namespace

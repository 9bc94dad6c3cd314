// The processes of a run. Alone in the plain suite; as two MPI ranks under the suite's mpirun
// test (tests/CMakeLists.txt), where each rank fills its part and every rank must see all.
#include <gtest/gtest.h>

#include "framework/process_group.hpp"
#include "test_support.hpp"

namespace {

TEST(ProcessGroup, RanksSplitARangeEvenly) {
  const auto ranges = clf::split_by_rank(10, 3);
  ASSERT_EQ(ranges.size(), 3U);
  EXPECT_EQ(ranges[0].begin, 0U);
  EXPECT_EQ(ranges[2].end, 10U);
  for (const auto& range : ranges) EXPECT_GE(range.size(), 3U);
  EXPECT_CLF_ERROR(clf::split_by_rank(10, 0), "0 ranks");
}

TEST(ProcessGroup, EveryRankSeesEveryRanksPart) {
  const clf::ProcessGroup& group = clf::ProcessGroup::world();
  EXPECT_GE(group.size(), 1);
  EXPECT_LT(group.rank(), group.size());
  const std::size_t bytes = 3 * 1000 + 7;
  const auto ranges = clf::split_by_rank(bytes, group.size());
  std::vector<std::uint8_t> data(bytes, 0xff);
  const auto& mine = ranges[static_cast<std::size_t>(group.rank())];
  for (std::size_t i = mine.begin; i < mine.end; ++i) {
    data[i] = static_cast<std::uint8_t>(group.rank() * 31 + i % 7);
  }
  group.all_gather_ranges(data.data(), ranges);
  for (int rank = 0; rank < group.size(); ++rank) {
    const auto& range = ranges[static_cast<std::size_t>(rank)];
    for (std::size_t i = range.begin; i < range.end; ++i) {
      ASSERT_EQ(data[i], static_cast<std::uint8_t>(rank * 31 + i % 7)) << "byte " << i;
    }
  }
  EXPECT_EQ(group.sum(1), static_cast<std::uint64_t>(group.size()));
  EXPECT_CLF_ERROR(group.all_gather_ranges(data.data(), {}), "0 ranges");
}

}  // namespace

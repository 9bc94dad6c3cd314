// Pinned host memory (framework/pinned_memory.hpp): a vector like any other whose memory devices
// copy to and from.
#include <gtest/gtest.h>

#include <numeric>

#include "framework/pinned_memory.hpp"
#include "test_support.hpp"

namespace {

using clf_test::runtime;

TEST(PinnedMemory, DevicesCopyIntoAndOutOfIt) {
  constexpr std::size_t kCount = 100000;
  clf::PinnedVector<int> sent = clf::pinned_vector<int>(runtime());
  sent.resize(kCount);
  std::iota(sent.begin(), sent.end(), -50);
  clf::DeviceBuffer<int> device(runtime(), kCount);
  device.write_range(0, sent.data(), kCount);

  clf::PinnedVector<int> received = clf::pinned_vector<int>(runtime());
  received.resize(kCount, 7);
  device.read_range(1000, received.data() + 1000, 500);
  EXPECT_EQ(received[999], 7);
  EXPECT_EQ(received[1000], 950);
  EXPECT_EQ(received[1499], 1449);
  EXPECT_EQ(received[1500], 7);
}

TEST(PinnedMemory, BehavesAsAVectorWhenItGrowsAndIsCopied) {
  clf::PinnedVector<int> values = clf::pinned_vector<int>(runtime());
  std::vector<int> expected;
  for (int i = 0; i < 5000; ++i) {  // many reallocations, each a new pinned block
    values.push_back(i * 3);
    expected.push_back(i * 3);
  }
  EXPECT_TRUE(clf::same_values(values, expected));
  const clf::PinnedVector<int> copy = values;
  EXPECT_EQ(copy, values);
  EXPECT_EQ(copy.get_allocator(), values.get_allocator()) << "a copy pins on the same device";
  values[10] = -1;
  EXPECT_FALSE(clf::same_values(values, expected));
  EXPECT_NE(copy, values);
  values.clear();
  values.shrink_to_fit();
  EXPECT_TRUE(values.empty());
}

TEST(PinnedMemory, AllocatorsOfDifferentMakingDiffer) {
  EXPECT_NE(clf::PinnedAllocator<int>(runtime()), clf::PinnedAllocator<int>(runtime()));
}

}  // namespace

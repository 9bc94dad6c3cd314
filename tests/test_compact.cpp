// Stream compaction against the CPU reference: predicates, types, sizes, indices, bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/compact.hpp"
#include "test_support.hpp"

namespace {

using clf::primitives::Compact;
using clf::primitives::Predicate;

const std::vector<std::size_t> kSizes{0,   1,   2,    31,   32,   33,     255,
                                      256, 257, 4095, 4096, 4097, 100003, 1u << 20};

template <typename T>
std::vector<T> random_values(std::size_t n, int low, int high, std::uint32_t seed) {
  std::mt19937 random(seed + static_cast<std::uint32_t>(n));
  std::uniform_int_distribution<int> pick(low, high);
  std::vector<T> values(n);
  for (auto& x : values) x = static_cast<T>(pick(random));
  return values;
}

template <typename T>
void expect_compaction(Compact<T>& compact, const std::vector<T>& input,
                       const Predicate<T>& predicate) {
  const std::vector<T> expected = clf::primitives::compact_reference(input, predicate);
  const std::vector<T> result = compact.run(input, predicate);
  ASSERT_EQ(result.size(), expected.size()) << predicate.to_string() << " n=" << input.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(result[i], expected[i])
        << predicate.to_string() << " n=" << input.size() << " i=" << i;
  }
}

TEST(Compact, Int32NonzeroAllSizes) {
  Compact<std::int32_t> compact;
  for (const std::size_t n : kSizes) {
    expect_compaction(compact, random_values<std::int32_t>(n, -2, 2, 1),
                      Predicate<std::int32_t>::nonzero());
  }
}

TEST(Compact, Int32EveryComparison) {
  Compact<std::int32_t> compact;
  for (const std::size_t n : {std::size_t{257}, std::size_t{100003}}) {
    const auto input = random_values<std::int32_t>(n, -50, 50, 2);
    for (const auto& predicate :
         {Predicate<std::int32_t>::equal(7), Predicate<std::int32_t>::not_equal(7),
          Predicate<std::int32_t>::less(-10), Predicate<std::int32_t>::less_equal(-10),
          Predicate<std::int32_t>::greater(10), Predicate<std::int32_t>::greater_equal(10)}) {
      expect_compaction(compact, input, predicate);
    }
  }
}

TEST(Compact, NoneAndAllSelected) {
  Compact<std::int32_t> compact;
  const std::vector<std::int32_t> ones(100003, 1);
  expect_compaction(compact, ones, Predicate<std::int32_t>::nonzero());
  expect_compaction(compact, ones, Predicate<std::int32_t>::greater(1));
}

TEST(Compact, Uint32AndFloat) {
  Compact<std::uint32_t> compact_uint;
  Compact<float> compact_float;
  for (const std::size_t n : {std::size_t{33}, std::size_t{4097}, std::size_t{1} << 20}) {
    const auto big = random_values<std::uint32_t>(n, 0, 1 << 30, 3);
    expect_compaction(compact_uint, big, Predicate<std::uint32_t>::greater(1u << 29));
    std::vector<float> reals = clf_test::uniform_floats(n, 4);
    if (n > 10) {
      reals[3] = -0.0f;  // counts as zero
      reals[5] = std::numeric_limits<float>::infinity();
    }
    expect_compaction(compact_float, reals, Predicate<float>::less(-0.25f));
    expect_compaction(compact_float, reals, Predicate<float>::nonzero());
  }
}

// Both layouts on any device, whatever the table picks: the GPU's tiles, and the CPU's chunks
// made a few values long (empty chunks, a short last one), values and indices, every type.
template <typename T>
void check_layout(const clf::primitives::CompactConfig& config) {
  Compact<T> compact(clf::Runtime::shared(), config);
  std::vector<std::size_t> sizes(kSizes);
  for (std::size_t n = 1; n <= 100; ++n) sizes.push_back(n);
  for (const std::size_t n : sizes) {
    const auto input = random_values<T>(n, -2, 2, 5);
    expect_compaction(compact, input, Predicate<T>::nonzero());
    expect_compaction(compact, input, Predicate<T>::greater(T{0}));
    EXPECT_EQ(compact.indices(input),
              clf::primitives::compact_indices_reference(input, Predicate<T>::nonzero()))
        << "n=" << n;
  }
}

template <typename T>
void check_both_layouts() {
  clf::primitives::CompactConfig tiles;
  tiles.layout = clf::primitives::Layout::tiles;
  check_layout<T>(tiles);
  clf::primitives::CompactConfig chunks;
  chunks.layout = clf::primitives::Layout::chunks;
  chunks.chunks.per_core = 13;
  chunks.chunks.min_items = 1;
  check_layout<T>(chunks);
}

TEST(CompactLayout, TilesAndSmallChunksInt32) { check_both_layouts<std::int32_t>(); }
TEST(CompactLayout, TilesAndSmallChunksUint32) { check_both_layouts<std::uint32_t>(); }
TEST(CompactLayout, TilesAndSmallChunksFloat) { check_both_layouts<float>(); }

// App kernels' flag arrays: the indices of the nonzero flags.
TEST(Compact, IndicesOfNonzeroFlags) {
  Compact<std::uint32_t> compact;
  for (const std::size_t n : kSizes) {
    const auto flags = random_values<std::uint32_t>(n, 0, 3, 5);  // a quarter are 0
    const auto expected =
        clf::primitives::compact_indices_reference(flags, Predicate<std::uint32_t>::nonzero());
    EXPECT_EQ(compact.indices(flags), expected) << "n=" << n;
  }
  const std::vector<std::int32_t> signed_flags{0, 1, 0, -1, 0, 0, 2};
  EXPECT_EQ(clf::primitives::compact_indices(signed_flags), (std::vector<std::uint32_t>{1, 3, 6}));
}

// Device buffers: the count stays on the device; a count below the buffer size; reuse.
TEST(Compact, DeviceBuffersWithCountOnDevice) {
  clf::Runtime& runtime = clf::Runtime::shared();
  Compact<float> compact(runtime);
  const std::size_t n = 70000;
  std::vector<float> input(n);
  for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i % 10);
  clf::DeviceBuffer<float> in(runtime, n);
  clf::DeviceBuffer<float> out(runtime, n);
  clf::DeviceBuffer<std::uint32_t> count(runtime, 1);
  in.write(input);
  for (const std::size_t used : {n, std::size_t{12345}, n}) {
    compact.run(in, out, count, used, Predicate<float>::greater_equal(7.0f));
    const std::vector<float> head(input.begin(), input.begin() + used);
    const auto expected =
        clf::primitives::compact_reference(head, Predicate<float>::greater_equal(7.0f));
    ASSERT_EQ(count.read()[0], expected.size()) << "used=" << used;
    std::vector<float> result = out.read();
    result.resize(expected.size());
    EXPECT_EQ(result, expected) << "used=" << used;
  }
  EXPECT_EQ(compact.run(in, out, Predicate<float>::equal(3.0f)), n / 10);
}

TEST(Compact, BadArguments) {
  clf::Runtime& runtime = clf::Runtime::shared();
  Compact<std::int32_t> compact(runtime);
  clf::DeviceBuffer<std::int32_t> in(runtime, 100);
  clf::DeviceBuffer<std::int32_t> small(runtime, 50);
  clf::DeviceBuffer<std::uint32_t> count(runtime, 1);
  clf::DeviceBuffer<std::uint32_t> no_count(runtime, 0);
  const auto nonzero = Predicate<std::int32_t>::nonzero();
  clf_test::expect_error([&] { compact.run(in, small, nonzero); }, "output holds 50");
  clf_test::expect_error([&] { compact.run(in, in, nonzero); }, "same buffer");
  clf_test::expect_error([&] { compact.run(in, small, count, 101, nonzero); }, "input holds 100");
  clf_test::expect_error([&] { compact.run(small, in, no_count, 10, nonzero); }, "count buffer");
  clf_test::expect_error(
      [&] { compact.run(in, small, count, clf::primitives::kMaxScanElements + 1, nonzero); },
      "more than");
}

}  // namespace

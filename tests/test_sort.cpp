// Sort primitives against the CPU references (framework/primitives/sort_reference.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/sort_reference.hpp"
#include "sort_test_support.hpp"
#include "test_support.hpp"

namespace {

using clf::primitives::Sorter;
using sort_test::bits_of;
using sort_test::expect_sorts;
using sort_test::from_bits;
using sort_test::iota_values;
using sort_test::make_keys;
using sort_test::Pattern;
namespace reference = clf::primitives::reference;

const std::vector<std::size_t> kSizes = {0,   1,   2,    31,   32,   33,     255,
                                         256, 257, 4095, 4096, 4097, 100003, std::size_t{1} << 20};

// The global-memory bitonic sort makes log2(n)^2/2 launches over n/2 work-items: on PoCL's two
// cores 2^20 keys (210 launches) takes too long for the test budget, so it stops at 100003.
std::size_t largest_size(const std::string& variant) {
  return variant == "bitonic" ? 100003 : std::size_t{1} << 20;
}

class SortVariant : public sort_test::SortVariantTest {};

TEST_P(SortVariant, RandomKeysAtEverySize) {
  Sorter sorter(GetParam());
  for (std::size_t n : kSizes) {
    if (n > largest_size(GetParam())) continue;
    expect_sorts(sorter, make_keys<cl_uint>(n, Pattern::random, 1 + n), false, "random uint");
  }
}

TEST_P(SortVariant, KeyValueIsStableAtEverySize) {
  Sorter sorter(GetParam());
  for (std::size_t n : kSizes) {
    if (n > largest_size(GetParam())) continue;
    expect_sorts(sorter, make_keys<cl_uint>(n, Pattern::few_distinct, 2 + n), true,
                 "few distinct uint, key-value");
  }
}

TEST_P(SortVariant, SortedReversedAndEqualKeys) {
  Sorter sorter(GetParam());
  for (std::size_t n : {std::size_t{257}, std::size_t{4097}, std::size_t{100003}}) {
    for (Pattern p : {Pattern::sorted, Pattern::reversed, Pattern::all_equal}) {
      expect_sorts(sorter, make_keys<cl_uint>(n, p, 3), false, "pattern");
      expect_sorts(sorter, make_keys<cl_uint>(n, p, 3), true, "pattern, key-value");
    }
  }
}

// Sorts one after another with one sorter: sizes up and down, so a status array is new, reused
// whole or reused in part, with and without values and each key kind in turn. Onesweep clears its
// first pass's status array only when it is new, counting on the sort before to have left it
// zero, so a sort that left it dirty fails the one after it.
TEST_P(SortVariant, SortsInARowReuseTheirState) {
  Sorter sorter(GetParam());
  const std::vector<std::size_t> sizes = {100003, 5000, 100003, 300000, 1, 7169, 300000, 100003};
  unsigned seed = 40;
  for (std::size_t n : sizes) {
    const bool with_values = seed % 2 == 0;
    switch (seed % 3) {
      case 0:
        expect_sorts(sorter, make_keys<cl_uint>(n, Pattern::random, seed), with_values, "uint32");
        break;
      case 1:
        expect_sorts(sorter, make_keys<cl_int>(n, Pattern::few_distinct, seed), with_values,
                     "int32");
        break;
      default:
        expect_sorts(sorter, make_keys<cl_float>(n, Pattern::random, seed), with_values, "float32");
    }
    ++seed;
  }
}

TEST_P(SortVariant, SignedKeys) {
  Sorter sorter(GetParam());
  for (std::size_t n : {std::size_t{33}, std::size_t{4097}, std::size_t{100003}}) {
    std::vector<cl_int> keys = make_keys<cl_int>(n, Pattern::random, 4);
    keys[0] = std::numeric_limits<cl_int>::min();
    keys[n / 2] = std::numeric_limits<cl_int>::max();
    keys[n - 1] = -1;
    expect_sorts(sorter, keys, false, "int32");
    expect_sorts(sorter, make_keys<cl_int>(n, Pattern::few_distinct, 5), true, "int32 key-value");
  }
}

// Random bit patterns (NaNs of both signs among them) plus the special values.
std::vector<cl_float> special_floats(std::size_t n, unsigned seed) {
  std::vector<cl_float> keys = make_keys<cl_float>(n, Pattern::random, seed);
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<cl_float> specials = {0.0f,
                                          -0.0f,
                                          inf,
                                          -inf,
                                          std::numeric_limits<float>::quiet_NaN(),
                                          -std::numeric_limits<float>::quiet_NaN(),
                                          std::numeric_limits<float>::denorm_min(),
                                          -std::numeric_limits<float>::denorm_min(),
                                          1.0f,
                                          -1.0f};
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) keys[i] = specials[(i / 3) % specials.size()];
  }
  return keys;
}

TEST_P(SortVariant, FloatKeysWithZerosInfinitiesAndNaNs) {
  Sorter sorter(GetParam());
  for (std::size_t n : {std::size_t{33}, std::size_t{4097}, std::size_t{100003}}) {
    expect_sorts(sorter, special_floats(n, 6), false, "float specials");
    expect_sorts(sorter, special_floats(n, 7), true, "float specials, key-value");
  }
}

INSTANTIATE_TEST_SUITE_P(Sort, SortVariant, ::testing::ValuesIn(clf::primitives::sort_variants()),
                         sort_test::variant_test_name);

// The documented float order, checked on the device's output directly.
TEST(Sort, FloatOrderIsTotalOrder) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<cl_float> keys = {nan, 1.0f, -0.0f, inf, -nan, 0.0f, -inf, -1.0f};
  clf::primitives::sort(keys);
  const std::vector<cl_uint> got = bits_of(keys);
  const std::vector<cl_uint> want =
      bits_of(std::vector<cl_float>{-nan, -inf, -1.0f, -0.0f, 0.0f, 1.0f, inf, nan});
  EXPECT_EQ(got, want) << "expected -NaN, -inf, -1, -0, +0, 1, +inf, +NaN";
  EXPECT_TRUE(std::signbit(keys[3]) && keys[3] == 0.0f) << "-0 sorts before +0";
  EXPECT_TRUE(std::isnan(keys[7]) && !std::signbit(keys[7])) << "+NaN sorts last";
}

TEST(Sort, VectorConveniences) {
  std::vector<cl_int> keys = {5, -3, 5, 0, -3};
  std::vector<cl_uint> values = {0, 1, 2, 3, 4};
  clf::primitives::sort_by_key(keys, values);
  EXPECT_EQ(keys, (std::vector<cl_int>{-3, -3, 0, 5, 5}));
  EXPECT_EQ(values, (std::vector<cl_uint>{1, 4, 3, 0, 2}));
  std::vector<cl_uint> empty;
  clf::primitives::sort(empty, "bitonic");
  EXPECT_TRUE(empty.empty());
}

TEST(Sort, DefaultPicksOnesweepOnNvidiaGpus) {
  Sorter sorter;
  const bool nvidia = clf::primitives::device_class(clf::Runtime::shared().device()) ==
                      clf::primitives::DeviceClass::nvidia_gpu;
  EXPECT_EQ(sorter.variant(), "default");
  EXPECT_EQ(sorter.algorithm(), nvidia ? "onesweep" : "radix");
  EXPECT_EQ(Sorter("bitonic-fused").algorithm(), "bitonic-fused-16");
}

TEST(Sort, TemporariesAreReused) {
  Sorter sorter("radix");
  clf::DeviceBuffer<cl_uint> keys(clf::Runtime::shared(), 10000);
  keys.write(make_keys<cl_uint>(10000, Pattern::random, 8));
  sorter.sort(keys);
  const std::size_t bytes = sorter.temporary_bytes();
  EXPECT_GT(bytes, 0U);
  keys.write(make_keys<cl_uint>(10000, Pattern::random, 9));
  sorter.sort(keys);
  EXPECT_EQ(sorter.temporary_bytes(), bytes);
}

TEST(Sort, BadArguments) {
  clf::Runtime& runtime = clf::Runtime::shared();
  clf_test::expect_error_naming([] { Sorter sorter("quicksort"); },
                                {"quicksort", "radix-local-vec"});
  clf_test::expect_error_naming([] { Sorter sorter("bitonic-fused-32"); }, {"bitonic-fused-32"});

  Sorter sorter("radix");
  clf::DeviceBuffer<cl_uint> keys(runtime, 100);
  clf::DeviceBuffer<cl_uint> values(runtime, 99);
  clf_test::expect_error_naming([&] { sorter.sort(keys, values); }, {"100 keys", "99 values"});
  std::vector<cl_float> host_keys(10);
  std::vector<cl_uint> host_values(11);
  clf_test::expect_error_naming([&] { clf::primitives::sort_by_key(host_keys, host_values); },
                                {"10", "11"});

  for (const std::string variant : {"radix", "bitonic", "radix-local"}) {
    Sorter s(variant);
    const std::size_t limit = s.max_keys(true);
    EXPECT_GT(limit, 1000000U);
    EXPECT_LE(limit * sizeof(cl_uint), runtime.device().max_allocation_bytes);
    EXPECT_NO_THROW(s.check_size(limit, true));
    clf_test::expect_error_naming([&] { s.check_size(limit + 1, true); },
                                  {std::to_string(limit + 1), variant});
  }

  clf::DeviceInfo other_gpu;
  other_gpu.type = clf::DeviceType::gpu;
  other_gpu.vendor = "Advanced Micro Devices, Inc.";
  other_gpu.name = "gfx1100";
  clf_test::expect_error_naming([&] { clf::primitives::check_sort_variant("onesweep", other_gpu); },
                                {"onesweep", "forward progress", "gfx1100"});
  EXPECT_NO_THROW(clf::primitives::check_sort_variant("radix", other_gpu));
  clf_test::expect_error_naming([&] { clf::primitives::check_sort_variant("quick", other_gpu); },
                                {"quick", "onesweep"});
  if (!clf::has_forward_progress(runtime.device())) {
    clf_test::expect_error_naming([] { Sorter s("onesweep"); }, {"onesweep", "forward progress"});
  }
}

TEST(SortReference, AllReferencesAgree) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{70000}}) {
    const std::vector<cl_float> keys = special_floats(n, 10);
    std::vector<cl_float> a = keys;
    std::vector<cl_float> b = keys;
    std::vector<cl_float> c = keys;
    std::vector<cl_float> d = keys;
    reference::qsort_keys(a);
    reference::std_sort(b);
    reference::std_stable_sort(c);
    reference::radix_sort16(d);
    EXPECT_EQ(bits_of(a), bits_of(b));
    EXPECT_EQ(bits_of(a), bits_of(c));
    EXPECT_EQ(bits_of(a), bits_of(d));
    for (std::size_t i = 1; i < n; ++i) {
      ASSERT_LE(reference::ordered_bits(a[i - 1]), reference::ordered_bits(a[i]));
    }

    std::vector<cl_int> int_keys = make_keys<cl_int>(n, Pattern::few_distinct, 11);
    std::vector<cl_uint> values = iota_values(n);
    std::vector<cl_int> radix_keys = int_keys;
    std::vector<cl_uint> radix_values = values;
    reference::stable_sort_by_key(int_keys, values);
    reference::radix_sort16_by_key(radix_keys, radix_values);
    EXPECT_EQ(int_keys, radix_keys);
    EXPECT_EQ(values, radix_values);
  }
}

// Gruber's listing 23 copied the wrong buffer after an even number of passes; with keys that
// need both passes, a wrong copy leaves them sorted by the low 16 bits only.
TEST(SortReference, RadixResultIsInTheCallersArray) {
  std::vector<cl_uint> keys = {0x00020001, 0x00010002, 0x00030000, 0x00000003};
  reference::radix_sort16(keys);
  EXPECT_EQ(keys, (std::vector<cl_uint>{0x00000003, 0x00010002, 0x00020001, 0x00030000}));
}

}  // namespace

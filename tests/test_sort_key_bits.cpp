// Sorts by the low bits of uint32 keys (clf::primitives::KeyBits) against std::stable_sort by
// the same bits: the keys' other bits are random, so a sort that orders by them, loses them or
// is not stable fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "sort_test_support.hpp"
#include "test_support.hpp"

namespace {

using clf::primitives::KeyBits;
using clf::primitives::Sorter;

// The low `bits` bits of a key (1..32).
cl_uint low_bits_mask(unsigned bits) { return bits == 32 ? ~cl_uint{0} : (cl_uint{1} << bits) - 1; }

// Random keys whose low `bits` bits take few values, so that many keys tie there.
std::vector<cl_uint> keys_with_ties(std::size_t n, unsigned bits, unsigned seed) {
  std::mt19937 random(seed);
  const cl_uint low_values = std::min<cl_uint>(97, bits == 32 ? 97 : cl_uint{1} << bits);
  const cl_uint low_mask = low_bits_mask(bits);
  std::vector<cl_uint> keys(n);
  for (cl_uint& key : keys) {
    const cl_uint low = (static_cast<cl_uint>(random()) % low_values) * 2654435761u;
    key = (static_cast<cl_uint>(random()) & ~low_mask) | (low & low_mask);
  }
  return keys;
}

// Sorts keys (and values 0, 1, 2, ...) by their low `bits` bits on the device and compares with
// std::stable_sort of the same.
void expect_sorts_by_low_bits(Sorter& sorter, const std::vector<cl_uint>& keys, unsigned bits,
                              bool with_values, clf::Runtime& runtime = clf::Runtime::shared()) {
  const std::string what = sorter.variant() + ", KeyBits{" + std::to_string(bits) + "}, " +
                           std::to_string(keys.size()) +
                           (with_values ? " keys with values" : " keys");
  const cl_uint mask = low_bits_mask(bits);
  std::vector<cl_uint> order(keys.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [&](cl_uint a, cl_uint b) { return (keys[a] & mask) < (keys[b] & mask); });
  std::vector<cl_uint> expected_keys(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) expected_keys[i] = keys[order[i]];

  clf::DeviceBuffer<cl_uint> device_keys(runtime, keys.size());
  device_keys.write(keys);
  clf::DeviceBuffer<cl_uint> device_values(runtime, keys.size());
  if (with_values) {
    std::vector<cl_uint> values(keys.size());
    std::iota(values.begin(), values.end(), 0U);
    device_values.write(values);
    sorter.sort(device_keys, device_values, KeyBits{bits});
    EXPECT_EQ(device_values.read(), order) << what << ": values";
  } else {
    sorter.sort(device_keys, KeyBits{bits});
  }
  EXPECT_EQ(device_keys.read(), expected_keys) << what << ": keys";
}

class SortKeyBits : public sort_test::SortVariantTest {};

// One, two, three and four passes, whole digits and not (the last pass overlapping the one
// before), and fewer bits than a digit (a masked digit); sizes of one partial tile to many.
TEST_P(SortKeyBits, OrderByTheLowBitsStably) {
  Sorter sorter(GetParam());
  for (unsigned bits : {3U, 8U, 12U, 16U, 17U, 24U, 31U, 32U}) {
    for (std::size_t n : {std::size_t{33}, std::size_t{4097}, std::size_t{100003}}) {
      const std::vector<cl_uint> keys = keys_with_ties(n, bits, bits * 7 + n);
      expect_sorts_by_low_bits(sorter, keys, bits, false);
      expect_sorts_by_low_bits(sorter, keys, bits, true);
    }
  }
}

// Odd and even numbers of passes in a row with one sorter, whole sorts in between, so state a
// sort leaves for the next (onesweep's status arrays) is left by every kind of sort.
TEST_P(SortKeyBits, SortsOfOtherBitsInARow) {
  Sorter sorter(GetParam());
  unsigned seed = 11;
  for (unsigned bits : {12U, 20U, 32U, 9U, 9U, 16U, 4U, 25U, 32U, 32U}) {
    const std::vector<cl_uint> keys = keys_with_ties(70001, bits, ++seed);
    expect_sorts_by_low_bits(sorter, keys, bits, seed % 2 == 0);
  }
}

// A sort of an odd number of passes ends on the other look-back status array, which it has
// cleared over its own tiles only: a sort of more keys after it must not take the rest for zero.
// A stale status word misplaces keys only where work-groups run at once (GPUs, rarely), so this
// runs in debug mode (CL_DEBUG: a CPU device), where the sort checks after each run that what it
// leaves for the next one is zero.
TEST_P(SortKeyBits, MoreKeysAfterAnOddNumberOfPassesOverFewer) {
  const std::vector<clf::DeviceInfo> devices = clf::enumerate_devices();
  const auto cpu = std::find_if(devices.begin(), devices.end(), [](const clf::DeviceInfo& d) {
    return d.type == clf::DeviceType::cpu;
  });
  if (cpu == devices.end()) GTEST_SKIP() << "no CPU device for CL_DEBUG";
  clf::DeviceRequest debug;
  debug.debug = true;
  clf::Runtime runtime(*cpu, debug);
  if (GetParam() == "onesweep" && !clf::has_forward_progress(runtime.device())) {
    GTEST_SKIP() << "onesweep needs forward progress";
  }
  Sorter sorter(runtime, GetParam());
  unsigned seed = 5;
  for (const bool with_values : {false, true}) {
    for (const unsigned odd_passes_bits : {24U, 8U}) {
      expect_sorts_by_low_bits(sorter, keys_with_ties(120001, 32, ++seed), 32, with_values,
                               runtime);
      expect_sorts_by_low_bits(sorter, keys_with_ties(9001, odd_passes_bits, ++seed),
                               odd_passes_bits, with_values, runtime);
      expect_sorts_by_low_bits(sorter, keys_with_ties(60001, 16, ++seed), 16, with_values, runtime);
      expect_sorts_by_low_bits(sorter, keys_with_ties(100001, 32, ++seed), 32, with_values,
                               runtime);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sort, SortKeyBits,
                         ::testing::Values("default", "radix", "radix-tiles", "radix-match",
                                           "onesweep"),
                         sort_test::variant_test_name);

// Onesweep key-value sorts pass keys and values on as (key, value) pairs between the caller's
// buffers; without (pair_passes off, as where the device lacks the memory for them) they
// alternate separate keys and values with temporaries. Both, over one to four passes, each pass
// reading and writing pairs or not.
TEST(SortKeyBitsOnesweep, KeyValueWithAndWithoutPairPasses) {
  clf::Runtime& runtime = clf::Runtime::shared();
  if (!clf::has_forward_progress(runtime.device())) GTEST_SKIP() << "no onesweep on this device";
  for (const bool pairs : {true, false}) {
    clf::primitives::SortConfig config = clf::primitives::tuning_for(runtime.device()).sort;
    config.pair_passes = pairs;
    Sorter sorter(runtime, "onesweep", config);
    for (unsigned bits : {8U, 16U, 20U, 32U}) {
      expect_sorts_by_low_bits(sorter, keys_with_ties(20001, bits, bits + 2), bits, true);
    }
  }
}

TEST(SortKeyBitsArguments, OutsideOneToThirtyTwoAndVariantsOfWholeKeys) {
  clf::Runtime& runtime = clf::Runtime::shared();
  clf::DeviceBuffer<cl_uint> keys(runtime, 100);
  clf::DeviceBuffer<cl_uint> values(runtime, 100);
  Sorter radix("radix");
  clf_test::expect_error_naming([&] { radix.sort(keys, KeyBits{0}); }, {"KeyBits{0}", "1 to 32"});
  clf_test::expect_error_naming([&] { radix.sort(keys, values, KeyBits{33}); },
                                {"KeyBits{33}", "1 to 32"});
  for (const std::string variant : {"bitonic", "bitonic-fused-4", "radix-local"}) {
    Sorter whole_keys(variant);
    clf_test::expect_error_naming([&] { whole_keys.sort(keys, values, KeyBits{16}); },
                                  {variant, "KeyBits{16}", "radix"});
    // All 32 bits are whole keys: every variant sorts them.
    expect_sorts_by_low_bits(whole_keys, keys_with_ties(1000, 32, 3), 32, true);
  }
}

TEST(SortKeyBitsArguments, BitsOfKeysBelowABound) {
  const auto bits_below = [](std::uint64_t bound) { return KeyBits::below(bound).bits; };
  EXPECT_EQ(bits_below(1), 1U);  // the only key is 0
  EXPECT_EQ(bits_below(2), 1U);
  EXPECT_EQ(bits_below(3), 2U);
  EXPECT_EQ(bits_below(256), 8U);
  EXPECT_EQ(bits_below(257), 9U);
  EXPECT_EQ(bits_below(65536), 16U);
  EXPECT_EQ(bits_below(65537), 17U);
  EXPECT_EQ(bits_below(std::uint64_t{1} << 31), 31U);
  EXPECT_EQ(bits_below((std::uint64_t{1} << 31) + 1), 32U);
  EXPECT_EQ(bits_below(std::uint64_t{1} << 32), 32U);
  EXPECT_EQ(bits_below(~std::uint64_t{0}), 32U);
}

}  // namespace

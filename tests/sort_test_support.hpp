// Helpers of the sort tests (test_sort.cpp, test_tuning.cpp): keys of a pattern, and a device
// sort compared bit for bit with the reference stable sort.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/sort_reference.hpp"

namespace sort_test {

using clf::primitives::Sorter;
namespace reference = clf::primitives::reference;

template <typename K>
std::vector<cl_uint> bits_of(const std::vector<K>& keys) {
  std::vector<cl_uint> bits(keys.size());
  if (!keys.empty()) std::memcpy(bits.data(), keys.data(), keys.size() * sizeof(K));
  return bits;
}

template <typename K>
K from_bits(cl_uint bits) {
  K key;
  std::memcpy(&key, &bits, sizeof key);
  return key;
}

enum class Pattern { random, few_distinct, sorted, reversed, all_equal };

// Keys of a pattern; random keys cover the whole bit range (floats: any bits, NaNs included).
template <typename K>
std::vector<K> make_keys(std::size_t n, Pattern pattern, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<K> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const cl_uint bits = static_cast<cl_uint>(random());
    keys[i] = from_bits<K>(pattern == Pattern::few_distinct ? bits % 37 : bits);
  }
  if (pattern == Pattern::all_equal) std::fill(keys.begin(), keys.end(), from_bits<K>(0x1234567));
  if (pattern == Pattern::sorted || pattern == Pattern::reversed) {
    reference::std_sort(keys);
    if (pattern == Pattern::reversed) std::reverse(keys.begin(), keys.end());
  }
  return keys;
}

inline std::vector<cl_uint> iota_values(std::size_t n) {
  std::vector<cl_uint> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<cl_uint>(i * 2654435761u);
  return values;
}

// Sorts keys (and values) with `sorter` on the device and compares bit for bit with the
// reference stable sort.
template <typename K>
void expect_sorts(Sorter& sorter, const std::vector<K>& keys, bool with_values,
                  const std::string& what) {
  clf::Runtime& runtime = clf::Runtime::shared();
  std::vector<K> expected_keys = keys;
  std::vector<cl_uint> expected_values = iota_values(keys.size());
  std::vector<cl_uint> values = expected_values;
  reference::stable_sort_by_key(expected_keys, expected_values);
  clf::DeviceBuffer<K> device_keys(runtime, keys.size());
  device_keys.write(keys);
  clf::DeviceBuffer<cl_uint> device_values(runtime, keys.size());
  if (with_values) {
    device_values.write(values);
    sorter.sort(device_keys, device_values);
  } else {
    sorter.sort(device_keys);
  }
  const std::vector<cl_uint> got = bits_of(device_keys.read());
  const std::vector<cl_uint> want = bits_of(expected_keys);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << sorter.variant() << ", " << what << ", n = " << keys.size()
                               << ": key " << i << " differs";
  }
  if (!with_values) return;
  const std::vector<cl_uint> got_values = device_values.read();
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got_values[i], expected_values[i])
        << sorter.variant() << ", " << what << ", n = " << keys.size() << ": value " << i
        << " differs (stability or permutation)";
  }
}

// expect_sorts for each key kind: uint32, int32 and float32 keys of `pattern` (seeds `seed`,
// `seed` + 1 and `seed` + 2).
inline void expect_sorts_each_kind(Sorter& sorter, std::size_t n, Pattern pattern, unsigned seed,
                                   bool with_values, const std::string& what) {
  expect_sorts(sorter, make_keys<cl_uint>(n, pattern, seed), with_values, "uint32 " + what);
  expect_sorts(sorter, make_keys<cl_int>(n, pattern, seed + 1), with_values, "int32 " + what);
  expect_sorts(sorter, make_keys<cl_float>(n, pattern, seed + 2), with_values, "float32 " + what);
}

// Whether `variant` runs on the shared runtime's device ("onesweep" needs forward progress).
inline bool runs_here(const std::string& variant) {
  return variant != "onesweep" || clf::has_forward_progress(clf::Runtime::shared().device());
}

// Tests over sort variants (the parameter), skipped where a variant cannot run.
class SortVariantTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!runs_here(GetParam())) GTEST_SKIP() << GetParam() << " needs forward progress";
  }
};

// The variant as a test name ('-' is not allowed there).
inline std::string variant_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace sort_test

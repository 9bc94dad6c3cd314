// Reductions (framework/primitives/reduce.hpp) against the CPU references, every variant, op and
// type at the sizes, plus ties, NaN/inf/-0 and bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "framework/clf.hpp"
#include "framework/primitives/reduce.hpp"
#include "framework/primitives/reduce_reference.hpp"

namespace clf::primitives {
namespace {

const std::vector<std::size_t> kSizes = {0,   1,   2,    31,   32,   33,     255,
                                         256, 257, 4095, 4096, 4097, 100003, std::size_t{1} << 20};

// Values over the type's whole range (sums overflow 32 bits), or from a small range so that
// min/max ties are everywhere.
template <typename T>
std::vector<T> make_values(std::size_t n, bool small_range, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<T> values(n);
  for (T& value : values) {
    if constexpr (std::is_floating_point_v<T>) {
      value = small_range ? static_cast<T>(static_cast<int>(random() % 17) - 8)
                          : std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(random);
    } else {
      value = small_range ? static_cast<T>(random() % 7) : static_cast<T>(random());
    }
  }
  return values;
}

template <typename T>
void expect_matches(const std::vector<T>& values, ReduceOp op, const ReduceResult<T>& got,
                    const std::string& what) {
  const ReduceResult<T> expected = reduce_reference(values, op);
  if (op == ReduceOp::sum) {
    if constexpr (std::is_floating_point_v<T>) {
      EXPECT_NEAR(got.sum, sum_in_double(values), float_sum_tolerance(values)) << what;
    } else {
      EXPECT_EQ(got.sum, expected.sum) << what;
    }
    return;
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected.value)) {
      EXPECT_TRUE(std::isnan(got.value)) << what << ": " << got.value;
    } else {
      EXPECT_EQ(got.value, expected.value) << what;
    }
  } else {
    EXPECT_EQ(got.value, expected.value) << what;
  }
  if (op == ReduceOp::argmin || op == ReduceOp::argmax) {
    EXPECT_EQ(got.index, expected.index) << what;
  }
}

// The default variant is tested with every op on every type. The baselines share the op and
// type code (kernels/primitives/reduce/common.cl) with it and differ in their passes, so they are
// tested with every op on int32 and with sum and argmin on the other types: each program costs
// about a second to compile on PoCL.
template <typename T>
std::vector<ReduceOp> ops_to_test(const std::string& variant) {
  if (variant == "default" || variant == "chunks" || std::is_same_v<T, cl_int>) {
    return {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::argmin, ReduceOp::argmax};
  }
  return {ReduceOp::sum, ReduceOp::argmin};
}

template <typename T>
void check_ops_and_sizes(const std::string& variant, const char* type,
                         const clf::primitives::ReduceConfig& config,
                         const std::vector<std::size_t>& sizes = kSizes) {
  Runtime& runtime = Runtime::shared();
  for (ReduceOp op : ops_to_test<T>(variant)) {
    Reducer<T> reducer(runtime, op, variant, config);
    for (std::size_t n : sizes) {
      if (n == 0 && op != ReduceOp::sum) continue;
      for (bool small_range : {false, true}) {
        const std::vector<T> values = make_values<T>(n, small_range, static_cast<std::uint32_t>(n));
        DeviceBuffer<T> input(runtime, n);
        if (n > 0) input.write(values);
        const std::string what = variant + " " + to_string(op) + " " + type +
                                 " n=" + std::to_string(n) + (small_range ? " (small range)" : "");
        expect_matches(values, op, reducer(input), what);
      }
    }
  }
}

template <typename T>
void check_ops_and_sizes(const std::string& variant, const char* type) {
  check_ops_and_sizes<T>(variant, type,
                         clf::primitives::tuning_for(Runtime::shared().device()).reduce);
}

class ReduceVariant : public ::testing::TestWithParam<std::string> {};

// "default" in both layouts on any device, whatever the table picks; the chunks made a few
// values long (empty chunks, a short last one, the 8-lane loop's tail).
template <typename T>
void check_both_layouts(const char* type) {
  clf::primitives::ReduceConfig tiles;
  tiles.layout = clf::primitives::Layout::tiles;
  check_ops_and_sizes<T>("default", type, tiles);
  clf::primitives::ReduceConfig chunks;
  chunks.layout = clf::primitives::Layout::chunks;
  chunks.chunks.per_core = 13;
  chunks.chunks.min_items = 1;
  std::vector<std::size_t> sizes(kSizes);
  for (std::size_t n = 1; n <= 100; ++n) sizes.push_back(n);
  check_ops_and_sizes<T>("default", type, chunks, sizes);
}

TEST(ReduceLayout, TilesAndSmallChunksInt32) { check_both_layouts<cl_int>("int32"); }
TEST(ReduceLayout, TilesAndSmallChunksUint32) { check_both_layouts<cl_uint>("uint32"); }
TEST(ReduceLayout, TilesAndSmallChunksFloat) { check_both_layouts<cl_float>("float"); }

TEST_P(ReduceVariant, Int32OpsAndSizes) { check_ops_and_sizes<cl_int>(GetParam(), "int32"); }
TEST_P(ReduceVariant, Uint32OpsAndSizes) { check_ops_and_sizes<cl_uint>(GetParam(), "uint32"); }
TEST_P(ReduceVariant, FloatOpsAndSizes) { check_ops_and_sizes<cl_float>(GetParam(), "float"); }

// Integer-valued floats whose partial sums stay below 2^24 add up exactly in any order, so the
// float sum is checked exactly: a lost or doubled element cannot hide in the tolerance.
TEST_P(ReduceVariant, FloatSumOfSmallIntegersIsExact) {
  Runtime& runtime = Runtime::shared();
  for (std::size_t n : {std::size_t{4097}, std::size_t{100003}, std::size_t{1} << 20}) {
    const std::vector<float> values = make_values<float>(n, true, 99);
    ASSERT_TRUE(float_sum_is_exact(values)) << n;
    DeviceBuffer<float> input(runtime, n);
    input.write(values);
    EXPECT_EQ(reduce_sum(input, GetParam()), static_cast<float>(sum_in_double(values))) << n;
  }
}

TEST(ReduceReference, FloatSumIsExactForIntegersOfSmallTotalMagnitude) {
  EXPECT_TRUE(float_sum_is_exact({}));
  EXPECT_TRUE(float_sum_is_exact({3.0f, -5.0f, 0.0f, 16777208.0f}));  // magnitudes 2^24
  EXPECT_FALSE(float_sum_is_exact({3.0f, -5.0f, 1.0f, 16777208.0f}));
  EXPECT_FALSE(float_sum_is_exact({1.0f, 0.5f}));
  EXPECT_FALSE(float_sum_is_exact({1.0f, std::numeric_limits<float>::quiet_NaN()}));
  EXPECT_FALSE(float_sum_is_exact({1.0f, std::numeric_limits<float>::infinity()}));
}

// NaN, infinities and signed zeros (the NaN rules live in common.cl, shared by all variants).
TEST(Reduce, FloatSpecialValues) {
  Runtime& runtime = Runtime::shared();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values(5000, 1.0f);
  values[0] = nan;     // NaN first: ignored, not the winner
  values[17] = -0.0f;  // -0 and +0 are equal: the lower index wins
  values[18] = 0.0f;
  values[3000] = -inf;
  values[4000] = inf;
  values[4999] = nan;
  DeviceBuffer<float> input(runtime, values.size());
  input.write(values);
  const std::string variant = "default";
  EXPECT_EQ(reduce_min(input, variant), -inf);
  EXPECT_EQ(reduce_max(input, variant), inf);
  EXPECT_EQ(reduce_argmin(input, variant).index, 3000u);
  EXPECT_EQ(reduce_argmax(input, variant).index, 4000u);
  values[3000] = 1.0f;
  values[4000] = 1.0f;
  input.write(values);
  const Extremum<float> low = reduce_argmin(input, variant);
  EXPECT_EQ(low.index, 17u);
  EXPECT_EQ(low.value, 0.0f);
  // All NaN: NaN at index 0.
  input.write(std::vector<float>(values.size(), nan));
  const Extremum<float> all_nan = reduce_argmax(input, variant);
  EXPECT_TRUE(std::isnan(all_nan.value));
  EXPECT_EQ(all_nan.index, 0u);
  EXPECT_TRUE(std::isnan(reduce_min(input, variant)));
}

// Every element equal: the lowest index wins, whichever work-group saw it.
TEST_P(ReduceVariant, TiesGiveTheLowestIndex) {
  Runtime& runtime = Runtime::shared();
  std::vector<cl_int> values(100003, 5);
  values[70000] = 9;
  values[90000] = 9;
  values[60000] = 1;
  values[80000] = 1;
  DeviceBuffer<cl_int> input(runtime, values.size());
  input.write(values);
  EXPECT_EQ(reduce_argmax(input, GetParam()).index, 70000u);
  EXPECT_EQ(reduce_argmin(input, GetParam()).index, 60000u);
  input.write(std::vector<cl_int>(values.size(), 5));
  EXPECT_EQ(reduce_argmax(input, GetParam()).index, 0u);
  EXPECT_EQ(reduce_argmin(input, GetParam()).index, 0u);
}

INSTANTIATE_TEST_SUITE_P(Variants, ReduceVariant, ::testing::ValuesIn(reduce_variants()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

// The 64-bit sum does not wrap where a 32-bit one would.
TEST(Reduce, IntegerSumsAreExact) {
  Runtime& runtime = Runtime::shared();
  DeviceBuffer<cl_int> ints(runtime, 4096);
  ints.write(std::vector<cl_int>(4096, std::numeric_limits<cl_int>::max()));
  EXPECT_EQ(reduce_sum(ints), cl_long{4096} * std::numeric_limits<cl_int>::max());
  ints.write(std::vector<cl_int>(4096, std::numeric_limits<cl_int>::min()));
  EXPECT_EQ(reduce_sum(ints), cl_long{4096} * std::numeric_limits<cl_int>::min());
  DeviceBuffer<cl_uint> uints(runtime, 4096);
  uints.write(std::vector<cl_uint>(4096, 0xFFFFFFFFu));
  EXPECT_EQ(reduce_sum(uints), cl_ulong{4096} * 0xFFFFFFFFu);
}

TEST(Reduce, ReducerRunsRepeatedlyOnNewInputs) {
  Runtime& runtime = Runtime::shared();
  Reducer<cl_uint> reducer(runtime, ReduceOp::argmax);
  for (std::size_t n : {std::size_t{100003}, std::size_t{33}, std::size_t{1} << 20}) {
    const std::vector<cl_uint> values = make_values<cl_uint>(n, false, 5);
    DeviceBuffer<cl_uint> input(runtime, n);
    input.write(values);
    reducer.enqueue(input);
    const ReduceResult<cl_uint> expected = reduce_reference(values, ReduceOp::argmax);
    EXPECT_EQ(reducer.result().index, expected.index);
    EXPECT_EQ(reducer.result().value, expected.value);
  }
}

TEST(Reduce, NamesRoundTrip) {
  for (const std::string& name : reduce_op_names())
    EXPECT_EQ(to_string(parse_reduce_op(name)), name);
  EXPECT_EQ(reduce_variants().front(), "default");
}

template <typename F>
void expect_error_mentioning(F&& call, const std::string& fragment) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one mentioning '" << fragment << "'";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(Reduce, BadArgumentsThrowClearErrors) {
  Runtime& runtime = Runtime::shared();
  expect_error_mentioning([&] { Reducer<cl_int>(runtime, ReduceOp::sum, "fastest"); },
                          "unknown variant 'fastest'");
  expect_error_mentioning([] { parse_reduce_op("median"); }, "unknown op 'median'");
  DeviceBuffer<cl_int> empty(runtime, 0);
  expect_error_mentioning([&] { reduce_argmin(empty); }, "empty");
  EXPECT_EQ(reduce_sum(empty), 0);
  Reducer<cl_float> unused(runtime, ReduceOp::max);
  expect_error_mentioning([&] { unused.result(); }, "before any enqueue");
  expect_error_mentioning([] { reduce_reference(std::vector<cl_int>{}, ReduceOp::max); }, "empty");
}

}  // namespace
}  // namespace clf::primitives

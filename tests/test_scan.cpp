// Scan: every variant, type and scan type against the CPU reference at the sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/primitives/scan_reference.hpp"
#include "test_support.hpp"

namespace {

using clf::primitives::Scan;
using clf::primitives::ScanType;

const std::vector<std::size_t> kAllSizes{0,   1,   2,    31,   32,   33,     255,
                                         256, 257, 4095, 4096, 4097, 100003, 1u << 20};
// Other types run a subset, to keep the file's time on PoCL modest.
const std::vector<std::size_t> kSomeSizes{0, 1, 33, 257, 4097, 100003};

enum class Shape { random, sorted, all_equal };

template <typename T>
std::vector<T> make_input(std::size_t n, Shape shape, std::uint32_t seed) {
  std::mt19937 random(seed + static_cast<std::uint32_t>(n));
  std::uniform_int_distribution<int> small(-100, 100);
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (shape) {
      case Shape::random:
        values[i] = static_cast<T>(small(random));
        break;
      case Shape::sorted:
        values[i] = static_cast<T>(static_cast<long>(i % 1000) - 500);
        break;
      case Shape::all_equal:
        values[i] = static_cast<T>(3);
        break;
    }
  }
  if (shape == Shape::sorted) std::sort(values.begin(), values.end());
  return values;
}

// Device variants to run here: every one this device supports.
// Every variant is instantiated (no device is opened while tests are listed); variants the
// device cannot run are skipped in SetUp.
std::vector<std::string> all_variants() { return clf::primitives::scan_variants(); }

template <typename T>
void expect_scans(Scan<T>& scan, const std::vector<T>& input, const std::string& what) {
  for (const ScanType type : {ScanType::inclusive, ScanType::exclusive}) {
    const std::vector<T> result = scan.run(input, type);
    EXPECT_EQ(clf::primitives::check_scan(input, result, type), "")
        << scan.variant() << " " << what << " n=" << input.size();
  }
}

class ScanVariant : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const clf::DeviceInfo& device = clf::Runtime::shared().device();
    const auto runnable = clf::primitives::scan_variants(device);
    if (std::find(runnable.begin(), runnable.end(), GetParam()) == runnable.end()) {
      GTEST_SKIP() << GetParam() << " needs forward progress between work-groups, which "
                   << device.name << " does not guarantee";
    }
  }
};

TEST_P(ScanVariant, Int32AllSizesRandom) {
  Scan<std::int32_t> scan(GetParam());
  for (const std::size_t n : kAllSizes) {
    expect_scans(scan, make_input<std::int32_t>(n, Shape::random, 1), "int32 random");
  }
}

TEST_P(ScanVariant, Int32SortedAndAllEqual) {
  Scan<std::int32_t> scan(GetParam());
  for (const std::size_t n : {33u, 4097u, 100003u}) {
    expect_scans(scan, make_input<std::int32_t>(n, Shape::sorted, 2), "int32 sorted");
    expect_scans(scan, make_input<std::int32_t>(n, Shape::all_equal, 3), "int32 all-equal");
  }
}

TEST_P(ScanVariant, Uint32WrapsModulo2To32) {
  Scan<std::uint32_t> scan(GetParam());
  for (const std::size_t n : kSomeSizes) {
    std::mt19937 random(static_cast<std::uint32_t>(n));
    std::vector<std::uint32_t> input(n);
    for (auto& x : input) x = random();  // sums overflow almost at once
    expect_scans(scan, input, "uint32 full-range");
  }
}

// Small integers in float: every partial sum is exact, so any order must match exactly.
TEST_P(ScanVariant, FloatExactOnIntegers) {
  Scan<float> scan(GetParam());
  for (const std::size_t n : kSomeSizes) {
    const std::vector<float> input = make_input<float>(n, Shape::random, 4);
    for (const ScanType type : {ScanType::inclusive, ScanType::exclusive}) {
      const std::vector<float> result = scan.run(input, type);
      const std::vector<double> expected = clf::primitives::scan_reference(input, type);
      ASSERT_EQ(result.size(), n);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(static_cast<double>(result[i]), expected[i])
            << scan.variant() << " " << clf::primitives::to_string(type) << " n=" << n
            << " i=" << i;
      }
    }
  }
}

// Real values: rounding differs with the order of additions; within float_scan_tolerance.
TEST_P(ScanVariant, FloatWithinToleranceOnReals) {
  Scan<float> scan(GetParam());
  for (const std::size_t n : {std::size_t{4097}, std::size_t{1} << 20}) {
    expect_scans(scan, clf_test::uniform_floats(n, 5), "float reals");
  }
}

// One Scan object reused across sizes up and down (temporary buffers grow, stale state must not
// leak from one call into the next), on device buffers, with a count below the buffer's size.
TEST_P(ScanVariant, ReusedAcrossCallsAndCounts) {
  clf::Runtime& runtime = clf::Runtime::shared();
  Scan<std::int32_t> scan(runtime, GetParam());
  for (const std::size_t n : {100003u, 17u, 100003u, 5000u}) {
    const auto input = make_input<std::int32_t>(n, Shape::random, 6);
    clf::DeviceBuffer<std::int32_t> in(runtime, n);
    clf::DeviceBuffer<std::int32_t> out(runtime, n + 10);
    in.write(input);
    const std::size_t count = n - n / 3;
    scan.run(in, out, count, ScanType::inclusive);
    std::vector<std::int32_t> result = out.read();
    result.resize(count);
    const std::vector<std::int32_t> head(input.begin(), input.begin() + count);
    EXPECT_EQ(clf::primitives::check_scan(head, result, ScanType::inclusive), "") << "n=" << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Scan, ScanVariant, ::testing::ValuesIn(all_variants()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ScanVariants, ListsEveryVariantAndResolvesDefaultByDevice) {
  const auto& names = clf::primitives::scan_variants();
  for (const char* name : {"default", "naive", "blelloch", "blocks", "blocks-vec",
                           "reduce-then-scan", "lookback", "chunks"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  clf::DeviceInfo nvidia;
  nvidia.type = clf::DeviceType::gpu;
  nvidia.vendor = "NVIDIA Corporation";
  nvidia.name = "NVIDIA H200";
  clf::DeviceInfo pocl;
  pocl.type = clf::DeviceType::cpu;
  pocl.vendor = "AuthenticAMD";
  pocl.platform_name = "Portable Computing Language";
  pocl.name = "pthread-haswell";
  clf::DeviceInfo other_gpu;
  other_gpu.type = clf::DeviceType::gpu;
  other_gpu.vendor = "Advanced Micro Devices, Inc.";
  EXPECT_TRUE(clf::has_forward_progress(nvidia));
  EXPECT_TRUE(clf::has_forward_progress(pocl));
  EXPECT_FALSE(clf::has_forward_progress(other_gpu));
  clf::DeviceInfo other_cpu = pocl;
  other_cpu.platform_name = "Some CPU OpenCL";
  EXPECT_FALSE(clf::has_forward_progress(other_cpu));
  // The look-back scan needs NVIDIA's warp instructions too.
  EXPECT_TRUE(clf::primitives::lookback_scan_runs_on(nvidia));
  EXPECT_FALSE(clf::primitives::lookback_scan_runs_on(pocl));
  EXPECT_FALSE(clf::primitives::lookback_scan_runs_on(other_gpu));
  EXPECT_EQ(clf::primitives::resolve_scan_variant("default", nvidia), "lookback");
  EXPECT_EQ(clf::primitives::resolve_scan_variant("default", pocl), "chunks");
  EXPECT_EQ(clf::primitives::resolve_scan_variant("default", other_gpu), "reduce-then-scan");
  EXPECT_EQ(clf::primitives::resolve_scan_variant("lookback", nvidia), "lookback");
  EXPECT_EQ(clf::primitives::resolve_scan_variant("blocks", pocl), "blocks");
  const auto on_pocl = clf::primitives::scan_variants(pocl);
  EXPECT_EQ(std::find(on_pocl.begin(), on_pocl.end(), "lookback"), on_pocl.end());
}

// The chunked scan with chunks of a few values: empty chunks, a short last one, and the vector
// loop's tail, at every size up to 300 and at primes and 2^k +- 1, for each type.
template <typename T>
void check_small_chunks() {
  clf::primitives::ScanConfig config;
  config.layout = clf::primitives::Layout::chunks;
  config.chunks.per_core = 13;
  config.chunks.min_items = 1;
  Scan<T> scan(clf::Runtime::shared(), "chunks", config);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 300; ++n) sizes.push_back(n);
  for (std::size_t n : {1021u, 1023u, 1025u, 65535u, 65537u, 1000003u}) sizes.push_back(n);
  for (std::size_t n : sizes) {
    const std::vector<T> input = make_input<T>(n, Shape::random, static_cast<std::uint32_t>(n));
    expect_scans(scan, input, "small chunks");
  }
}

TEST(ChunkScan, SmallChunksEverySizeInt32) { check_small_chunks<std::int32_t>(); }
TEST(ChunkScan, SmallChunksEverySizeUint32) { check_small_chunks<std::uint32_t>(); }
TEST(ChunkScan, SmallChunksEverySizeFloat) { check_small_chunks<float>(); }

// The float check is exact on integer values (any order of additions is), so an error far below
// the tolerance for reals is caught there; on real values the tolerance holds.
TEST(ScanReference, FloatCheckIsExactOnIntegerValues) {
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<float> integers = make_input<float>(n, Shape::random, 8);
  ASSERT_TRUE(clf::primitives::float_scan_is_exact(integers));
  const std::vector<double> exact = clf::primitives::scan_reference(integers, ScanType::inclusive);
  std::vector<float> result(exact.begin(), exact.end());
  EXPECT_EQ(clf::primitives::check_scan(integers, result, ScanType::inclusive), "");
  // A tile's total (4096 values) missing from the second half.
  double tile = 0;
  for (std::size_t i = n / 2 - 4096; i < n / 2; ++i) tile += integers[i];
  ASSERT_NE(tile, 0.0);
  for (std::size_t i = n / 2; i < n; ++i) result[i] -= static_cast<float>(tile);
  EXPECT_NE(clf::primitives::check_scan(integers, result, ScanType::inclusive), "");

  const std::vector<float> reals = clf_test::uniform_floats(n, 9);
  EXPECT_FALSE(clf::primitives::float_scan_is_exact(reals));
  const std::vector<double> exact_reals =
      clf::primitives::scan_reference(reals, ScanType::inclusive);
  EXPECT_EQ(
      clf::primitives::check_scan(reals, std::vector<float>(exact_reals.begin(), exact_reals.end()),
                                  ScanType::inclusive),
      "");
  EXPECT_FALSE(clf::primitives::float_scan_is_exact({1e30f, -1e30f, 1.0f}));  // sums beyond 2^24
}

// Past an infinity a scan's sums are that infinity (or NaN after both): right only when they are.
TEST(ScanReference, FloatCheckPastInfinities) {
  using Floats = std::vector<float>;
  const auto check = [](const Floats& input, const Floats& result, ScanType type) {
    return clf::primitives::check_scan(input, result, type);
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(check({0.5f, inf, 1.0f}, {0.5f, inf, inf}, ScanType::inclusive), "");
  EXPECT_EQ(check({inf, -inf, 1.0f}, {inf, nan, nan}, ScanType::inclusive), "");
  EXPECT_EQ(check({0.5f, inf, 1.0f}, {0.0f, 0.5f, inf}, ScanType::exclusive), "");
  EXPECT_NE(check({0.5f, inf, 1.0f}, {0.5f, inf, 1.5f}, ScanType::inclusive), "");
  EXPECT_NE(check({0.5f, inf, 1.0f}, {0.5f, -inf, inf}, ScanType::inclusive), "");
  EXPECT_NE(check({inf, -inf}, {inf, inf}, ScanType::inclusive), "");
}

TEST(ScanErrors, UnknownVariantNamesItAndTheKnownOnes) {
  clf_test::expect_error_naming([] { Scan<std::int32_t> scan("fastest"); },
                                {"fastest", "blelloch", "lookback"});
}

TEST(ScanErrors, LookbackRefusedOffNvidiaGpus) {
  clf::DeviceInfo pocl;
  pocl.type = clf::DeviceType::cpu;
  pocl.vendor = "AuthenticAMD";
  pocl.platform_name = "Portable Computing Language";
  pocl.name = "pthread-haswell";
  clf_test::expect_error_naming(
      [&] { clf::primitives::resolve_scan_variant("lookback", pocl); },
      {"lookback", "NVIDIA GPUs only", "forward progress", "pthread-haswell"});
  if (!clf::primitives::lookback_scan_runs_on(clf::Runtime::shared().device())) {
    clf_test::expect_error_naming([] { Scan<float> scan("lookback"); }, {"NVIDIA GPUs only"});
  }
}

TEST(ScanErrors, BadBuffers) {
  clf::Runtime& runtime = clf::Runtime::shared();
  Scan<std::int32_t> scan(runtime);
  clf::DeviceBuffer<std::int32_t> a(runtime, 100);
  clf::DeviceBuffer<std::int32_t> b(runtime, 99);
  clf::DeviceBuffer<std::int32_t> c(runtime, 100);
  clf_test::expect_error_naming([&] { scan.run(a, b, ScanType::inclusive); },
                                {"100", "99", "match"});
  clf_test::expect_error_naming([&] { scan.run(a, a, ScanType::inclusive); }, {"same buffer"});
  clf_test::expect_error_naming([&] { scan.run(a, c, 101, ScanType::exclusive); },
                                {"101", "input holds 100"});
  clf_test::expect_error_naming([&] { scan.run(a, b, 100, ScanType::exclusive); },
                                {"output holds 99"});
  clf_test::expect_error_naming(
      [&] { scan.run(a, c, clf::primitives::kMaxScanElements + 1, ScanType::inclusive); },
      {"2147483648", "more than"});
  // A count of 0 is fine and writes nothing.
  EXPECT_NO_THROW(scan.run(a, c, 0, ScanType::inclusive));
}

// The checks themselves must be able to fail.
TEST(ScanReference, ChecksCatchWrongResults) {
  const std::vector<std::int32_t> input{1, 2, 3, 4};
  EXPECT_EQ(clf::primitives::scan_reference(input, ScanType::inclusive),
            (std::vector<std::int32_t>{1, 3, 6, 10}));
  EXPECT_EQ(clf::primitives::scan_reference(input, ScanType::exclusive),
            (std::vector<std::int32_t>{0, 1, 3, 6}));
  EXPECT_NE(clf::primitives::check_scan(input, {1, 3, 7, 10}, ScanType::inclusive), "");
  EXPECT_NE(clf::primitives::check_scan(input, {1, 3, 6}, ScanType::inclusive), "");
  // Float: one element's worth of error is far outside the tolerance; an ulp is inside.
  std::vector<float> reals(4096, 0.25f);
  std::vector<float> sums(4096);
  for (std::size_t i = 0; i < sums.size(); ++i) sums[i] = 0.25f * static_cast<float>(i + 1);
  EXPECT_EQ(clf::primitives::check_scan(reals, sums, ScanType::inclusive), "");
  sums[4000] = std::nextafter(sums[4000], 1e9f);
  EXPECT_EQ(clf::primitives::check_scan(reals, sums, ScanType::inclusive), "");
  sums[4000] += 0.25f;
  EXPECT_NE(clf::primitives::check_scan(reals, sums, ScanType::inclusive), "");
  sums[4000] = std::nanf("");
  EXPECT_NE(clf::primitives::check_scan(reals, sums, ScanType::inclusive), "");
  EXPECT_LT(clf::primitives::float_scan_tolerance(1u << 20), 1e-4);
}

}  // namespace

// The primitives' tuning as data: the table's rows per kind of device, the configs' checks, and
// sorts and scans under configs other than the table's (the shapes the lab tries).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/scan.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/tuning.hpp"
#include "sort_test_support.hpp"
#include "test_support.hpp"

namespace {

using clf::primitives::DeviceClass;
using clf::primitives::LargeTiles;
using clf::primitives::SortConfig;
using clf::primitives::SortRanking;
using clf::primitives::TileShape;

clf::DeviceInfo device(clf::DeviceType type, const std::string& vendor) {
  clf::DeviceInfo info;
  info.type = type;
  info.vendor = vendor;
  info.name = vendor + " device";
  return info;
}

std::vector<cl_uint> random_keys(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<cl_uint> keys(n);
  for (cl_uint& key : keys) key = static_cast<cl_uint>(random());
  return keys;
}

// The device's sort config with warp ranking in tiles of `work_group` x `items` keys
// (`items_with_values` with values, no large tiles), one program per key kind, loops not
// unrolled (PoCL compiles them much faster).
SortConfig warp_ranking_config(clf::Runtime& runtime, std::size_t work_group, std::size_t items,
                               std::size_t items_with_values) {
  SortConfig config = clf::primitives::tuning_for(runtime.device()).sort;
  config.work_group = work_group;
  config.items = {items, items, items};
  config.items_with_values = {items_with_values, items_with_values, items_with_values};
  config.unroll = false;
  config.program_per_key_kind = true;
  config.ranking = SortRanking::warp_match;
  config.large_tiles_with_values = {};
  return config;
}

// CPUs get the chunk layout for scan, compaction and reduction; GPUs and the rest the tiles.
TEST(Tuning, ChunksOnCpusTilesElsewhere) {
  using clf::primitives::Layout;
  for (const clf::DeviceInfo& info :
       {device(clf::DeviceType::gpu, "NVIDIA Corporation"),
        device(clf::DeviceType::gpu, "Advanced Micro Devices, Inc."),
        device(clf::DeviceType::accelerator, "Someone"), device(clf::DeviceType::cpu, "Intel")}) {
    const clf::primitives::Tuning& tuning = clf::primitives::tuning_for(info);
    const Layout expected = info.type == clf::DeviceType::cpu ? Layout::chunks : Layout::tiles;
    EXPECT_EQ(tuning.scan.layout, expected) << info.vendor;
    EXPECT_EQ(tuning.compact.layout, expected) << info.vendor;
    EXPECT_EQ(tuning.reduce.layout, expected) << info.vendor;
  }
  clf::DeviceInfo cpu = device(clf::DeviceType::cpu, "Intel");
  cpu.compute_units = 2;
  const clf::primitives::ChunkShape shape;  // 4 per core, at least 16384 values each
  EXPECT_EQ(shape.chunks(cpu, 0), 1U);
  EXPECT_EQ(shape.chunks(cpu, 16384), 1U);
  EXPECT_EQ(shape.chunks(cpu, 16385), 2U);
  EXPECT_EQ(shape.chunks(cpu, std::size_t{1} << 24), 8U);
  EXPECT_EQ(clf::primitives::resolve_scan_variant("default", cpu), "chunks");
}

// On this machine's device (PoCL in CI) the default scan is the one its row names.
TEST(Tuning, DefaultScanFollowsTheRow) {
  clf::Runtime& runtime = clf::Runtime::shared();
  const clf::primitives::Scan<cl_int> scan(runtime);
  if (clf::primitives::tuning_for(runtime.device()).scan.layout ==
          clf::primitives::Layout::chunks &&
      !clf::primitives::lookback_scan_runs_on(runtime.device())) {
    EXPECT_EQ(scan.variant(), "chunks");
  } else {
    EXPECT_NE(scan.variant(), "chunks");
  }
}

TEST(Tuning, OneRowPerKindOfDevice) {
  const clf::DeviceInfo nvidia = device(clf::DeviceType::gpu, "NVIDIA Corporation");
  const clf::DeviceInfo amd = device(clf::DeviceType::gpu, "Advanced Micro Devices, Inc.");
  const clf::DeviceInfo cpu = device(clf::DeviceType::cpu, "AuthenticAMD");
  const clf::DeviceInfo accelerator = device(clf::DeviceType::accelerator, "Someone");
  EXPECT_EQ(clf::primitives::device_class(nvidia), DeviceClass::nvidia_gpu);
  EXPECT_EQ(clf::primitives::device_class(amd), DeviceClass::other_gpu);
  EXPECT_EQ(clf::primitives::device_class(cpu), DeviceClass::cpu);
  EXPECT_EQ(clf::primitives::device_class(accelerator), DeviceClass::other);

  const SortConfig& gpu_sort = clf::primitives::tuning_for(nvidia).sort;
  EXPECT_EQ(gpu_sort.ranking, SortRanking::warp_match);
  EXPECT_EQ(gpu_sort.work_group, 256U);
  EXPECT_EQ(gpu_sort.items[0], 28U);
  EXPECT_EQ(gpu_sort.items_with_values[0], 22U);
  EXPECT_EQ(gpu_sort.raw_tile_keys, (std::array<bool, 3>{false, true, true}));
  EXPECT_FALSE(gpu_sort.large_tiles_with_values[0].enabled());
  // Hopper (measured on the H200): key-value tiles of 512 x 16 with the values' own local array,
  // 256 x 22 in 48 KiB where the compiler refuses them.
  clf::DeviceInfo hopper = nvidia;
  hopper.nv_compute_capability = 90;
  const SortConfig& hopper_sort = clf::primitives::tuning_for(hopper).sort;
  for (const LargeTiles& large : hopper_sort.large_tiles_with_values) {
    EXPECT_EQ(large.to_string(), "512x16/98304/64");
  }
  EXPECT_EQ(hopper_sort.items_with_values, gpu_sort.items_with_values);
  EXPECT_EQ(hopper_sort.items, gpu_sort.items);
  clf::DeviceInfo ampere = nvidia;
  ampere.nv_compute_capability = 80;
  EXPECT_EQ(clf::primitives::tuning_for(ampere).sort.items_with_values[0], 22U);
  EXPECT_EQ(clf::primitives::tuning_for(amd).sort.raw_tile_keys, (std::array<bool, 3>{}));
  EXPECT_EQ(clf::primitives::tuning_for(amd).sort.items_with_values[0], 20U);
  EXPECT_TRUE(gpu_sort.unroll);
  EXPECT_EQ(clf::primitives::tuning_for(amd).sort.ranking, SortRanking::split);
  const SortConfig& cpu_sort = clf::primitives::tuning_for(cpu).sort;
  EXPECT_EQ(cpu_sort.work_group, 64U);
  EXPECT_EQ(cpu_sort.items[2], 16U);
  EXPECT_FALSE(cpu_sort.unroll);
  EXPECT_FALSE(cpu_sort.program_per_key_kind);

  EXPECT_EQ(clf::primitives::tuning_for(nvidia).matmul.tiling.to_string(), "64x128x16/8x8");
  EXPECT_EQ(clf::primitives::tuning_for(cpu).matmul.tiling.to_string(), "32x64x8/4x8");
  EXPECT_EQ(clf::primitives::tuning_for(accelerator).matmul.tiling.to_string(), "64x64x16/4x4");
  EXPECT_EQ(clf::primitives::tuning_for(nvidia).scan.tile.to_string(), "128x32");
  EXPECT_TRUE(clf::primitives::tuning_for(nvidia).matmul.tensor_cores);
  EXPECT_FALSE(clf::primitives::tuning_for(amd).matmul.tensor_cores);
  EXPECT_EQ(clf::primitives::tuning_for(nvidia).matmul.tf32x3.to_string(), "2x2/4x4x16/4");

  // The look-back scan: pipelined work-groups from 2^21 values on, on every NVIDIA GPU.
  EXPECT_EQ(clf::primitives::tuning_for(nvidia).scan.lookback_large_tile.to_string(), "256x32");
  EXPECT_EQ(clf::primitives::tuning_for(nvidia).scan.lookback_groups_per_cu, 4U);
  EXPECT_EQ(clf::primitives::tuning_for(nvidia).scan.lookback_large_from, std::size_t{1} << 21);
  EXPECT_EQ(clf::primitives::tuning_for(cpu).compact.tile.to_string(), "256x16");
}

TEST(Tuning, ConfigsSayWhatIsWrong) {
  SortConfig sort;
  sort.work_group = 48;
  clf_test::expect_error([&] { sort.check(); }, "multiple of 32");
  sort = SortConfig{};
  sort.items_with_values[1] = 4;
  clf_test::expect_error([&] { sort.check(); }, "at least 8 items");
  sort = SortConfig{};
  sort.first_pass_items = 80;  // 256 x 80 keys: beyond the tile kernels' 16384
  clf_test::expect_error([&] { sort.check(); }, "a tile of at most 16384 keys");
  sort = SortConfig{};
  sort.program_per_key_kind = false;
  sort.raw_tile_keys = {false, false, true};
  clf_test::expect_error([&] { sort.check(); }, "raw tile keys need one program per key kind");
  sort.program_per_key_kind = true;
  sort.check();
  sort.large_tiles_with_values[2] = LargeTiles::parse("512x16/40000/64");
  EXPECT_CLF_ERROR(sort.check(), "512x16/40000/64", "float32", "49152");
  sort.large_tiles_with_values[2] = LargeTiles::parse("512x40/98304/64");
  EXPECT_CLF_ERROR(sort.check(), "512x40", "16384 keys");
  sort.large_tiles_with_values[2] = LargeTiles::parse("512x16/98304/64");
  sort.large_tiles_with_values[1] = LargeTiles::parse("256x25/65536/300");
  EXPECT_CLF_ERROR(sort.check(), "256x25/65536/300", "int32", "16 to 255");
  sort.large_tiles_with_values[1] = LargeTiles::parse("none");
  sort.check();
  EXPECT_CLF_ERROR(LargeTiles::parse("512x16/98304"), "512x16/98304", "WORKGROUPxITEMS/BYTES");
  clf::primitives::ScanConfig scan;
  scan.tile = TileShape{128, 12};
  clf_test::expect_error([&] { scan.check(clf::DeviceInfo{}); }, "4, 8, 16 or 32");
  scan = clf::primitives::ScanConfig{};
  scan.lookback_large_tile = TileShape{256, 6};
  EXPECT_CLF_ERROR(scan.check(clf::DeviceInfo{}), "look-back large tile", "256x6", "multiple of 4");
  // Pipelined groups park the large tile in local memory: 256 x 64 needs more than 48 KiB.
  clf::DeviceInfo gpu;
  gpu.name = "a GPU with 48 KiB";
  gpu.local_memory_bytes = 49152;
  scan = clf::primitives::ScanConfig{};
  scan.lookback_large_tile = TileShape{256, 64};
  scan.check(gpu);  // one work-group per tile: the tile stays in registers
  scan.lookback_groups_per_cu = 4;
  EXPECT_CLF_ERROR(scan.check(gpu), "256x64", "park", "82944 bytes", "a GPU with 48 KiB", "49152");
  scan.lookback_large_tile = TileShape{256, 32};
  scan.check(gpu);
  clf_test::expect_error([] { TileShape::parse("128by32"); }, "WORKGROUPxITEMS");
  EXPECT_EQ(TileShape::parse("64x8").tile(), 512U);
}

// Raw tile keys (one program per key kind): the keys stay in their own bits in the tile and each
// digit is taken from the ordered bits, keys only (128 x 32) and key-value; the last tile is partly
// padding. Key-value tiles of 128 x 64 (8192 keys) are too large for the values to have a local
// array of their own in 48 KiB: they wait in registers and go out through the keys' local memory,
// as in NVIDIA's 256 x 22; as large tiles given 128 KiB, they take their own array.
TEST(Tuning, SortWithRawKeys) {
  using sort_test::Pattern;
  clf::Runtime& runtime = clf::Runtime::shared();
  SortConfig config = warp_ranking_config(runtime, 128, 32, 64);
  config.raw_tile_keys = {true, true, true};
  const std::size_t n = 3 * 4096 + 777;
  // Onesweep with warp ranking is NVIDIA's default path (there with the ranking in PTX).
  std::vector<std::string> variants = {"radix-match"};
  if (clf::has_forward_progress(runtime.device())) variants.push_back("onesweep");
  for (const std::string& variant : variants) {
    clf::primitives::Sorter sorter(runtime, variant, config);
    for (const bool with_values : {false, true}) {
      for (const Pattern pattern : {Pattern::random, Pattern::few_distinct}) {
        const std::string what = variant + (with_values ? ", key-value" : ", keys") + ", raw keys";
        sort_test::expect_sorts_each_kind(sorter, n, pattern, 2, with_values, what);
      }
    }
  }
  // Keys, values and counters of 8192 keys: 73 KiB; large tiles need one a compute unit.
  config.large_tiles_with_values.fill(LargeTiles{TileShape{128, 64}, 131072, 0});
  const std::size_t large_n = std::max<std::size_t>(n, runtime.device().compute_units * 8192 + 777);
  clf::primitives::Sorter sorter(runtime, variants.back(), config);
  sort_test::expect_sorts_each_kind(sorter, large_n, Pattern::random, 3, true,
                                    variants.back() + ", key-value, values' own local array");
}

// Key-value tiles of 64 x 16 with large tiles of 128 x 24 in 64 KiB, which the build option
// `refusal` makes every device refuse, ranked by warp (Onesweep where work-groups have forward
// progress); and the variant to sort with.
std::pair<SortConfig, std::string> large_tiles_refused(clf::Runtime& runtime,
                                                       const std::string& refusal) {
  SortConfig config = warp_ranking_config(runtime, 64, 16, 16);
  config.large_tiles_with_values.fill(LargeTiles{TileShape{128, 24}, 65536, 0});
  config.build_options += " " + refusal;
  const bool onesweep = clf::has_forward_progress(runtime.device());
  return {config, onesweep ? "onesweep" : "radix-match"};
}

// Sorts each key kind with values (enough keys for a large tile a compute unit) and checks that
// the Sorter said `notice` once, naming the tiles it falls back to.
void expect_sorts_after_one_notice(clf::Runtime& runtime, clf::primitives::Sorter& sorter,
                                   const std::string& notice, const std::string& what) {
  const std::size_t n = std::max<std::size_t>(2, runtime.device().compute_units) * 3072 + 99;
  ::testing::internal::CaptureStderr();
  sort_test::expect_sorts_each_kind(sorter, n, sort_test::Pattern::random, 5, true, what);
  const std::string log = ::testing::internal::GetCapturedStderr();
  const std::size_t first = log.find(notice);
  EXPECT_NE(first, std::string::npos) << log;
  EXPECT_NE(log.find("tiles of 128x24 in 65536 bytes"), std::string::npos) << log;
  EXPECT_NE(log.find("using 64x16 in 48 KiB"), std::string::npos) << log;
  EXPECT_EQ(log.find(notice, first + 1), std::string::npos) << "said more than once:\n" << log;
}

// Where a device's compiler refuses key-value tiles beyond the 48 KiB of local memory devices
// report (stood in for by a build option under which the kernel refuses them), the Sorter says
// so once and sorts in the config's tiles in 48 KiB; sorts with fewer large tiles than compute
// units do not try them.
TEST(Tuning, SortFallsBackWhereLargerLocalMemoryIsRefused) {
  clf::Runtime& runtime = clf::Runtime::shared();
  const auto [config, variant] = large_tiles_refused(runtime, "-DCLF_TEST_REFUSE_LARGER_LOCAL=1");
  clf::primitives::Sorter sorter(runtime, variant, config);
  const std::string notice = "bytes of local memory do not build";
  if (runtime.device().compute_units >= 2) {
    ::testing::internal::CaptureStderr();
    sort_test::expect_sorts_each_kind(sorter, 3000, sort_test::Pattern::random, 4, true,
                                      variant + ", key-value, too few keys for large tiles");
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(log.find(notice), std::string::npos) << "large tiles tried for 3000 keys:\n" << log;
  }
  expect_sorts_after_one_notice(runtime, sorter, notice,
                                variant + ", key-value, larger local memory refused");
}

// Where a driver builds key-value tiles beyond 48 KiB but refuses to launch them (stood in for by
// a build option under which those kernels require another work-group size), the Sorter says so
// once and sorts again in the config's tiles: the caller's buffers are untouched until the
// second pass.
TEST(Tuning, SortStartsAgainWhereLargeTilesDoNotLaunch) {
  clf::Runtime& runtime = clf::Runtime::shared();
  const auto [config, variant] = large_tiles_refused(runtime, "-DCLF_TEST_REFUSE_LARGE_LAUNCH=1");
  clf::primitives::Sorter sorter(runtime, variant, config);
  expect_sorts_after_one_notice(runtime, sorter, "build but do not launch",
                                variant + ", key-value, large tiles not launched");
}

// Onesweep's unstable first pass (keys only): tiles placed by a global atomic a digit, ranked by
// a local atomic a key; full tiles and a last tile mostly padding, random keys and keys of few
// values (many equal digits across tiles), with the tile keys raw and mapped, and first-pass
// tiles as large as the other passes', larger and smaller. Key-value sorts keep the stable first
// pass.
TEST(Tuning, SortWithUnstableFirstPass) {
  using sort_test::Pattern;
  clf::Runtime& runtime = clf::Runtime::shared();
  if (!clf::has_forward_progress(runtime.device())) GTEST_SKIP() << "no onesweep on this device";
  SortConfig config = warp_ranking_config(runtime, 64, 16, 16);
  config.unstable_first_pass = true;
  const std::size_t n = 5 * 1024 + 37;
  const std::pair<bool, std::size_t> cases[] = {{true, 0}, {false, 24}, {true, 8}};
  for (const auto& [raw, first_items] : cases) {
    config.raw_tile_keys = {raw, raw, raw};
    config.first_pass_items = first_items;
    clf::primitives::Sorter sorter(runtime, "onesweep", config);
    for (const bool with_values : {false, true}) {
      for (const Pattern pattern : {Pattern::random, Pattern::few_distinct}) {
        const std::string what = std::string(with_values ? "key-value" : "keys") +
                                 ", unstable first pass of " +
                                 (first_items == 0 ? "the passes'" : std::to_string(first_items)) +
                                 " items" + (raw ? ", raw keys" : "");
        sort_test::expect_sorts_each_kind(sorter, n, pattern, 5, with_values, what);
      }
    }
  }
}

// The radix sort under shapes and rankings other than the table's: small tiles, warp ranking
// (emulated off NVIDIA), the tiles placed by upsweep and downsweep or by Onesweep's look-back
// (where work-groups have forward progress). Where the table ranks with inline PTX (NVIDIA), also
// the program the Sorter falls back to if the device's compiler refuses inline PTX: split ranking
// and no PTX at all (-DCLF_NO_PTX, device_fence included).
TEST(Tuning, SortUnderOtherConfigs) {
  clf::Runtime& runtime = clf::Runtime::shared();
  const SortConfig table = clf::primitives::tuning_for(runtime.device()).sort;
  SortConfig config = table;
  config.large_tiles_with_values = {};
  config.work_group = 32;
  config.items = {8, 12, 8};
  config.items_with_values = {8, 8, 8};
  config.unroll = false;
  std::vector<std::string> variants = {"radix-tiles", "radix-match", "onesweep", "onesweep-match"};
  if (table.ranking == SortRanking::warp_match) variants.push_back("onesweep-no-ptx");
  // "onesweep" ranks as config.ranking says: both rankings.
  for (const std::string& variant : variants) {
    const bool onesweep = variant.rfind("onesweep", 0) == 0;
    if (onesweep && !clf::has_forward_progress(runtime.device())) continue;
    config.ranking = variant == "onesweep-match" ? SortRanking::warp_match : SortRanking::split;
    config.build_options = variant == "onesweep-no-ptx" ? "-DCLF_NO_PTX=1" : table.build_options;
    clf::primitives::Sorter sorter(runtime, onesweep ? "onesweep" : variant, config);
    const std::vector<cl_uint> keys = random_keys(5000, 1);
    std::vector<cl_uint> expected = keys;
    std::stable_sort(expected.begin(), expected.end());
    clf::DeviceBuffer<cl_uint> device_keys(runtime, keys.size());
    clf::DeviceBuffer<cl_uint> device_values(runtime, keys.size());
    std::vector<cl_uint> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<cl_uint>(i);
    device_keys.write(keys);
    device_values.write(values);
    sorter.sort(device_keys, device_values);
    const std::vector<cl_uint> sorted = device_keys.read();
    const std::vector<cl_uint> permutation = device_values.read();
    EXPECT_EQ(sorted, expected) << variant;
    for (std::size_t i = 0; i < permutation.size(); ++i) {
      ASSERT_EQ(keys[permutation[i]], sorted[i]) << variant << " i=" << i;
      if (i > 0 && sorted[i] == sorted[i - 1]) {
        ASSERT_LT(permutation[i - 1], permutation[i]);
      }
    }
  }
}

TEST(Tuning, ScanUnderAnotherTile) {
  clf::Runtime& runtime = clf::Runtime::shared();
  clf::primitives::ScanConfig config = clf::primitives::tuning_for(runtime.device()).scan;
  config.tile = TileShape{64, 8};
  clf::primitives::Scan<std::int32_t> scan(runtime, "reduce-then-scan", config);
  std::vector<std::int32_t> input(100003);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::int32_t>(i % 7) - 3;
  const std::vector<std::int32_t> result = scan.run(input, clf::primitives::ScanType::inclusive);
  std::int32_t sum = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    sum += input[i];
    ASSERT_EQ(result[i], sum) << "i=" << i;
  }
}

// The look-back scan picks its tile by size: one Scan, reused across sizes on both sides of
// lookback_large_from, gives exact sums each time (the two kernels share the status words and
// the ticket). Runs where the look-back does (NVIDIA GPUs).
TEST(Tuning, LookbackScanSwitchesTileBySize) {
  clf::Runtime& runtime = clf::Runtime::shared();
  if (!clf::primitives::lookback_scan_runs_on(runtime.device())) {
    GTEST_SKIP() << "no look-back scan on this device";
  }
  clf::primitives::ScanConfig config = clf::primitives::tuning_for(runtime.device()).scan;
  config.lookback_tile = TileShape{32, 8};
  config.lookback_large_tile = TileShape{64, 16};
  config.lookback_large_from = 10000;
  clf::primitives::Scan<std::int32_t> scan(runtime, "lookback", config);
  for (const std::size_t n : {5000, 20000, 9999, 300001, 10000, 77}) {
    std::vector<std::int32_t> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<std::int32_t>((i * 13 + n) % 9) - 4;
    const std::vector<std::int32_t> result = scan.run(input, clf::primitives::ScanType::inclusive);
    std::int32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum += input[i];
      ASSERT_EQ(result[i], sum) << "n=" << n << " i=" << i;
    }
  }
}

// The pipelined look-back (a few persistent work-groups that each take tiles until none is left)
// gives exact sums for every shape and size, one tile or many a group, and across calls that
// reuse the ticket and the status words, alone and alternating with the one-group-per-tile kernel
// below lookback_large_from. Runs where the look-back does (NVIDIA GPUs).
TEST(Tuning, PipelinedLookbackScanIsExact) {
  clf::Runtime& runtime = clf::Runtime::shared();
  if (!clf::primitives::lookback_scan_runs_on(runtime.device())) {
    GTEST_SKIP() << "no look-back scan on this device";
  }
  for (const std::size_t groups_per_cu : {1, 4, 7}) {
    for (const TileShape tile :
         {TileShape{32, 8}, TileShape{128, 16}, TileShape{128, 32}, TileShape{256, 32}}) {
      clf::primitives::ScanConfig config = clf::primitives::tuning_for(runtime.device()).scan;
      config.lookback_tile = tile;
      config.lookback_large_tile = tile;
      config.lookback_groups_per_cu = groups_per_cu;
      config.lookback_large_from = groups_per_cu == 4 ? 5000 : 0;
      clf::primitives::Scan<std::int32_t> scan(runtime, "lookback", config);
      for (const std::size_t n : {1, 77, 4096, 300001, 4999, 1000003, 4194309, 5000}) {
        std::vector<std::int32_t> input(n);
        for (std::size_t i = 0; i < n; ++i) {
          input[i] = static_cast<std::int32_t>((i * 7 + n) % 11) - 5;
        }
        const std::vector<std::int32_t> result =
            scan.run(input, clf::primitives::ScanType::exclusive);
        std::int32_t sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(result[i], sum)
              << tile.to_string() << ", " << groups_per_cu << " a CU, n=" << n << " i=" << i;
          sum += input[i];
        }
      }
    }
  }
}

}  // namespace

// Programs are built once per runtime, and binaries are reused from the disk cache across
// runtimes (and processes) with their argument info.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "test_support.hpp"

namespace {

// A fresh cache directory per test, so hits and misses are predictable.
class ProgramCache : public ::testing::Test {
 protected:
  ProgramCache()
      : directory_(std::filesystem::temp_directory_path() /
                   ("clf-cache-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name())),
        env_dir_("CL_CACHE_DIR", directory_.c_str()),
        env_enabled_("CL_CACHE", nullptr) {
    std::filesystem::remove_all(directory_);
  }
  ~ProgramCache() override { std::filesystem::remove_all(directory_); }

  static std::unique_ptr<clf::Runtime> fresh_runtime() {
    return std::make_unique<clf::Runtime>(clf_test::runtime().device(), clf::DeviceRequest{});
  }
  // Source that no other test builds, so nothing else warms the cache.
  static clf::Source unique_source() {
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    return clf::inline_source(
        "cached.cl", "// " + std::to_string(stamp) +
                         "\n__kernel void twice(__global const int* in, __global int* out) {\n"
                         "  out[get_global_id(0)] = 2 * in[get_global_id(0)];\n}\n");
  }

  std::filesystem::path directory_;
  clf_test::ScopedEnv env_dir_;
  clf_test::ScopedEnv env_enabled_;
};

TEST_F(ProgramCache, SameSourceAndOptionsBuildOncePerRuntime) {
  auto runtime = fresh_runtime();
  const clf::Source source = unique_source();
  auto first = runtime->program(source);
  auto second = runtime->program(source);
  EXPECT_EQ(first.get(), second.get());
  auto other_options = runtime->program(source, "-DSOMETHING=1");
  EXPECT_NE(first.get(), other_options.get());
  const clf::ProgramCacheStats stats = runtime->program_cache_stats();
  EXPECT_EQ(stats.builds, 2U);
  EXPECT_EQ(stats.memory_hits, 1U);
  EXPECT_EQ(stats.disk_hits, 0U);
}

TEST_F(ProgramCache, DiskCacheServesANewRuntimeWithArgumentInfo) {
  const clf::Source source = unique_source();
  {
    auto runtime = fresh_runtime();
    runtime->program(source);
    EXPECT_EQ(runtime->program_cache_stats().builds, 1U);
  }
  EXPECT_FALSE(std::filesystem::is_empty(directory_));
  auto runtime = fresh_runtime();
  clf::CLKernel twice(*runtime, source, "twice");
  const clf::ProgramCacheStats stats = runtime->program_cache_stats();
  EXPECT_EQ(stats.disk_hits, 1U);
  EXPECT_EQ(stats.builds, 0U);
  // The binary works, and argument checks and const inference survived the round trip.
  ASSERT_TRUE(twice.info().args_known);
  EXPECT_TRUE(twice.info().args[0].is_const);
  clf::Buffer<int> in(*runtime, std::vector<int>{1, 2, 3});
  clf::Buffer<int> out(*runtime, 3);
  twice(clf::Range::linear(3), in, out);
  EXPECT_EQ(out.host(), (std::vector<int>{2, 4, 6}));
  EXPECT_TRUE(in.host_is_current());
  EXPECT_CLF_ERROR(twice(clf::Range::linear(3), in, 2.0f), "argument 1", "'out'");
}

TEST_F(ProgramCache, CanBeTurnedOff) {
  clf_test::ScopedEnv off("CL_CACHE", "0");
  const clf::Source source = unique_source();
  fresh_runtime()->program(source);
  auto runtime = fresh_runtime();
  runtime->program(source);
  EXPECT_EQ(runtime->program_cache_stats().disk_hits, 0U);
  EXPECT_EQ(runtime->program_cache_stats().builds, 1U);
  EXPECT_FALSE(std::filesystem::exists(directory_) && !std::filesystem::is_empty(directory_));
}

TEST_F(ProgramCache, ACorruptEntryIsRebuilt) {
  const clf::Source source = unique_source();
  fresh_runtime()->program(source);
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    std::filesystem::resize_file(entry.path(), 40);  // truncate every entry
  }
  auto runtime = fresh_runtime();
  clf::CLKernel twice(*runtime, source, "twice");
  EXPECT_EQ(runtime->program_cache_stats().builds, 1U);
  EXPECT_EQ(runtime->program_cache_stats().disk_hits, 0U);
}

TEST_F(ProgramCache, TraceReportsHitsAndMisses) {
  clf_test::ScopedEnv trace("CL_CACHE_TRACE", "1");
  const clf::Source source = unique_source();
  ::testing::internal::CaptureStderr();
  fresh_runtime()->program(source);
  fresh_runtime()->program(source);
  const std::string output = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(output.find("clf cache: miss cached.cl"), std::string::npos) << output;
  EXPECT_NE(output.find("clf cache: hit  cached.cl"), std::string::npos) << output;
}

}  // namespace

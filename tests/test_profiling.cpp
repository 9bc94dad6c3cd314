// Event timings, and recording the launches of a multi-kernel operation.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

const char* kKernel = R"(
__kernel void busy(__global float* data, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float x = data[i];
  for (int k = 0; k < 64; ++k) x = x * 0.999f + 0.5f;
  data[i] = x;
}
)";

TEST(Profiling, EventsCarryTimestampsOnAProfilingRuntime) {
  clf::Runtime& runtime = clf_test::runtime();
  ASSERT_TRUE(runtime.profiling());
  clf::CLKernel busy(runtime, clf::inline_source("busy.cl", kKernel), "busy");
  clf::DeviceBuffer<float> data(runtime, 1 << 16);
  const clf::Event event = busy(clf::Range::linear(1 << 16, 64), data, cl_uint{1 << 16});
  EXPECT_LE(event.queued_ns(), event.start_ns());
  EXPECT_LE(event.start_ns(), event.end_ns());
  EXPECT_GE(event.duration_ms(), 0.0);
  EXPECT_LT(event.duration_ms(), 60'000.0);
}

TEST(Profiling, WithoutProfilingTimestampsSayHowToTurnItOn) {
  clf::Runtime plain(clf_test::runtime().device(), clf::DeviceRequest{});
  ASSERT_FALSE(plain.profiling());
  clf::CLKernel busy(plain, clf::inline_source("busy.cl", kKernel), "busy");
  clf::DeviceBuffer<float> data(plain, 64);
  const clf::Event event = busy(clf::Range::linear(64), data, cl_uint{64});
  EXPECT_CLF_ERROR(event.duration_ms(), "CL_PROFILE=1");
  EXPECT_EQ(plain.span_ms({event}, 7.0), 7.0);  // the host's measure instead
}

// A command that fails after it was enqueued (a user event stands in for it) is reported with
// the kernel, device and range it was launched with, not the wait call alone.
TEST(Profiling, AFailedCommandNamesItsKernelWhenWaitedFor) {
  clf::Runtime& runtime = clf_test::runtime();
  cl::UserEvent failing(runtime.context());
  const clf::Event event(failing, {"busy", runtime.device_name(), "global 64"});
  failing.setStatus(CL_OUT_OF_RESOURCES);
  EXPECT_CLF_ERROR(event.wait(), "clWaitForEvents", "busy", runtime.device_name().c_str(),
                   "global 64");
}

TEST(Profiling, EnvironmentSwitchTurnsProfilingOn) {
  clf_test::ScopedEnv profile("CL_PROFILE", "1");
  clf_test::ScopedEnv quiet("CL_QUIET", "1");
  clf::DeviceRequest request;
  request.device = std::to_string(clf_test::runtime().device().index);
  EXPECT_TRUE(clf::Runtime(request).profiling());
}

TEST(Profiling, RecordingCollectsEveryLaunch) {
  clf::Runtime& runtime = clf_test::runtime();
  clf::CLKernel busy(runtime, clf::inline_source("busy.cl", kKernel), "busy");
  clf::DeviceBuffer<float> data(runtime, 1024);
  busy(clf::Range::linear(1024), data, cl_uint{1024});  // before recording: not recorded
  runtime.start_recording();
  for (int i = 0; i < 3; ++i) busy(clf::Range::linear(1024), data, cl_uint{1024});
  const std::vector<clf::Event> events = runtime.stop_recording();
  busy(clf::Range::linear(1024), data, cl_uint{1024});  // after: not recorded
  ASSERT_EQ(events.size(), 3U);
  EXPECT_LE(events.front().start_ns(), events.back().end_ns());
  // The span of the three on the device clock, not the wall time given for runtimes that do not
  // profile (nor for no events).
  const double span = runtime.span_ms(events, 1e9);
  EXPECT_GE(span, 0.0);
  EXPECT_LT(span, 1e9);
  EXPECT_NEAR(span, static_cast<double>(events.back().end_ns() - events.front().start_ns()) * 1e-6,
              1e-9);
  EXPECT_EQ(runtime.span_ms({}, 7.0), 7.0);
}

}  // namespace

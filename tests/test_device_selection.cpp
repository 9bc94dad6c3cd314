// Device selection rules, on synthetic device lists (so the GPU machine's layout is tested
// everywhere) and on the real devices of this machine.
#include <gtest/gtest.h>

#include "framework/device.hpp"
#include "test_support.hpp"

namespace {

using clf::DeviceInfo;
using clf::DeviceRequest;
using clf::DeviceType;
using clf::select_device;

DeviceInfo make_device(int index, int platform, const std::string& platform_name,
                       const std::string& name, DeviceType type) {
  DeviceInfo device;
  device.index = index;
  device.platform_index = platform;
  device.platform_name = platform_name;
  device.vendor = platform_name;
  device.name = name;
  device.type = type;
  device.driver_version = "1.0";
  return device;
}

// The GPU machine: PoCL is platform 0, NVIDIA platform 1.
std::vector<DeviceInfo> gpu_machine() {
  return {
      make_device(0, 0, "Portable Computing Language", "pthread-sapphirerapids", DeviceType::cpu),
      make_device(1, 1, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", DeviceType::gpu)};
}

std::vector<DeviceInfo> cpu_only_machine() {
  return {make_device(0, 0, "Portable Computing Language", "pthread-haswell", DeviceType::cpu)};
}

TEST(DeviceSelection, DefaultPrefersTheGpuEvenWhenItIsNotOnPlatformZero) {
  const auto choice = select_device(gpu_machine(), DeviceRequest{});
  EXPECT_EQ(choice.position, 1U);
  EXPECT_NE(choice.reason.find("GPU"), std::string::npos);
}

TEST(DeviceSelection, FallsBackToTheCpuWithAReason) {
  const auto choice = select_device(cpu_only_machine(), DeviceRequest{});
  EXPECT_EQ(choice.position, 0U);
  EXPECT_NE(choice.reason.find("no GPU"), std::string::npos);
}

TEST(DeviceSelection, TypeCpuPicksTheCpu) {
  DeviceRequest request;
  request.type = "cpu";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 0U);
  request.type = "GPU";  // case does not matter
  EXPECT_EQ(select_device(gpu_machine(), request).position, 1U);
  request.type = "any";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 1U);
}

TEST(DeviceSelection, DebugAsksForACpu) {
  DeviceRequest request;
  request.debug = true;
  const auto choice = select_device(gpu_machine(), request);
  EXPECT_EQ(choice.position, 0U);
  EXPECT_NE(choice.reason.find("CL_DEBUG"), std::string::npos);
}

TEST(DeviceSelection, DeviceByIndexOrNameSubstring) {
  DeviceRequest request;
  request.device = "0";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 0U);
  request.device = "h100";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 1U);
  request.device = "pthread";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 0U);
}

TEST(DeviceSelection, PlatformSubstringFilters) {
  DeviceRequest request;
  request.platform = "portable";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 0U);
  request.platform = "NVIDIA";
  EXPECT_EQ(select_device(gpu_machine(), request).position, 1U);
}

TEST(DeviceSelection, AMissingDeviceIsAnErrorListingTheDevices) {
  DeviceRequest request;
  request.device = "radeon";
  EXPECT_CLF_ERROR(select_device(gpu_machine(), request), "device 'radeon'", "NVIDIA H100",
                   "pthread-sapphirerapids");
  request.device = "7";
  EXPECT_CLF_ERROR(select_device(gpu_machine(), request), "device '7'", "NVIDIA H100");
}

TEST(DeviceSelection, NoSilentFallbackWhenTheRequestCannotBeMet) {
  DeviceRequest request;
  request.type = "gpu";
  EXPECT_CLF_ERROR(select_device(cpu_only_machine(), request), "type 'gpu'", "pthread-haswell");
  request = DeviceRequest{};
  request.platform = "NVIDIA";
  request.type = "cpu";
  EXPECT_CLF_ERROR(select_device(gpu_machine(), request), "platform 'NVIDIA'");
  request = DeviceRequest{};
  request.device = "h100";
  request.debug = true;  // CL_DEBUG wants a CPU; the named device is a GPU
  EXPECT_CLF_ERROR(select_device(gpu_machine(), request), "CL_DEBUG");
}

TEST(DeviceSelection, UnknownTypeIsAnError) {
  DeviceRequest request;
  request.type = "tpu";
  EXPECT_CLF_ERROR(select_device(gpu_machine(), request), "unknown device type 'tpu'",
                   "gpu, cpu or any");
}

TEST(DeviceSelection, EnvironmentIsReadAndOptionsWin) {
  clf_test::ScopedEnv device("CL_DEVICE", "h100");
  clf_test::ScopedEnv platform("CL_PLATFORM", "nvidia");
  clf_test::ScopedEnv type("CL_DEVICE_TYPE", "gpu");
  clf_test::ScopedEnv debug("CL_DEBUG", "1");
  clf_test::ScopedEnv profile("CL_PROFILE", "1");
  const DeviceRequest from_env = DeviceRequest::from_environment();
  EXPECT_EQ(from_env.device, "h100");
  EXPECT_EQ(from_env.platform, "nvidia");
  EXPECT_EQ(from_env.type, "gpu");
  EXPECT_TRUE(from_env.debug);
  EXPECT_TRUE(from_env.profiling);

  DeviceRequest options;
  options.device = "0";
  const DeviceRequest merged = from_env.merged_with(options);
  EXPECT_EQ(merged.device, "0");
  EXPECT_EQ(merged.platform, "nvidia");
}

TEST(DeviceSelection, DebugZeroIsOff) {
  clf_test::ScopedEnv debug("CL_DEBUG", "0");
  EXPECT_FALSE(DeviceRequest::from_environment().debug);
}

TEST(DeviceSelection, TableListsWhatToolsShow) {
  const std::string table = clf::format_device_table(gpu_machine());
  for (const char* column : {"device", "type", "platform", "driver", "CUs", "global", "local"}) {
    EXPECT_NE(table.find(column), std::string::npos) << column;
  }
  EXPECT_NE(table.find("NVIDIA CUDA"), std::string::npos);
}

// On the real machine: the devices enumerate, and a request that cannot be met throws.
TEST(DeviceSelection, RealDevicesFollowTheSameRules) {
  const auto devices = clf::enumerate_devices();
  ASSERT_FALSE(devices.empty());
  for (std::size_t i = 0; i < devices.size(); ++i) EXPECT_EQ(devices[i].index, static_cast<int>(i));
  const bool has_gpu = std::any_of(devices.begin(), devices.end(),
                                   [](const DeviceInfo& d) { return d.type == DeviceType::gpu; });
  DeviceRequest request;
  request.type = "gpu";
  request.quiet = true;
  if (has_gpu) {
    EXPECT_EQ(clf::Runtime(request).device().type, DeviceType::gpu);
  } else {
    EXPECT_THROW(clf::Runtime{request}, clf::Error);
  }
  request.type = "";
  request.device = "no such device anywhere";
  EXPECT_CLF_ERROR(clf::Runtime{request}, "no such device anywhere", devices[0].name.c_str());
}

TEST(DeviceSelection, SeveralRuntimesLiveInOneProcess) {
  const auto devices = clf::enumerate_devices();
  clf::Runtime first(devices[0], DeviceRequest{});
  clf::Runtime second(devices.back(), DeviceRequest{});
  EXPECT_NE(first.context()(), second.context()());
  const std::vector<float> x{1, 2, 3};
  float scale = 1.0f;
  for (clf::Runtime* runtime : {&first, &second}) {
    clf::Buffer<float> device_x(*runtime, x);
    clf::Buffer<float> device_y(*runtime, 3);
    clf::CLKernel saxpy(*runtime, clf::kernel_source("kernels/cl-info/selftest.cl"), "saxpy");
    saxpy(clf::Range::linear(3), scale, device_x, device_y, cl_uint{3});
    EXPECT_EQ(device_y.host(), (std::vector<float>{scale, 2 * scale, 3 * scale}));
    scale += 1.0f;
  }
}

}  // namespace

// Several devices in one process: which devices --devices / CL_DEVICES names (on synthetic
// listings, so the two-GPU machine is tested everywhere), and running work on each of them.
#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "framework/device_set.hpp"
#include "test_support.hpp"

namespace {

using clf::DeviceInfo;
using clf::DeviceRequest;
using clf::DeviceType;
using clf::select_devices;

DeviceInfo make_device(int index, const std::string& platform, const std::string& name,
                       DeviceType type) {
  DeviceInfo device;
  device.index = index;
  device.platform_index = platform == "NVIDIA CUDA" ? 1 : 0;
  device.platform_name = platform;
  device.vendor = platform;
  device.name = name;
  device.type = type;
  return device;
}

// The two-GPU machine: PoCL's CPU device, then two H200s.
std::vector<DeviceInfo> two_gpu_machine() {
  return {make_device(0, "Portable Computing Language", "cpu-sapphirerapids", DeviceType::cpu),
          make_device(1, "NVIDIA CUDA", "NVIDIA H200", DeviceType::gpu),
          make_device(2, "NVIDIA CUDA", "NVIDIA H200", DeviceType::gpu)};
}

DeviceRequest devices(const std::string& list, const std::string& type = "") {
  DeviceRequest request;
  request.devices = list;
  request.type = type;
  return request;
}

using Positions = std::vector<std::size_t>;

TEST(DeviceSet, AllIsEveryDeviceTheFiltersAdmit) {
  EXPECT_EQ(select_devices(two_gpu_machine(), devices("all")), (Positions{0, 1, 2}));
  EXPECT_EQ(select_devices(two_gpu_machine(), devices("ALL", "gpu")), (Positions{1, 2}));
  DeviceRequest nvidia = devices("all");
  nvidia.platform = "nvidia";
  EXPECT_EQ(select_devices(two_gpu_machine(), nvidia), (Positions{1, 2}));
}

TEST(DeviceSet, ListsOfIndicesAndNamesKeepTheirOrderWithoutRepeats) {
  EXPECT_EQ(select_devices(two_gpu_machine(), devices("2,0")), (Positions{2, 0}));
  EXPECT_EQ(select_devices(two_gpu_machine(), devices("h200")), (Positions{1, 2}));
  EXPECT_EQ(select_devices(two_gpu_machine(), devices("1, h200,1")), (Positions{1, 2}));
}

TEST(DeviceSet, WithoutAListItIsTheOneDeviceTheDefaultsPick) {
  EXPECT_EQ(select_devices(two_gpu_machine(), DeviceRequest{}), (Positions{1}));
  DeviceRequest cpu;
  cpu.type = "cpu";
  EXPECT_EQ(select_devices(two_gpu_machine(), cpu), (Positions{0}));
}

TEST(DeviceSet, AnEntryThatMatchesNothingIsNamedInTheError) {
  EXPECT_CLF_ERROR(select_devices(two_gpu_machine(), devices("1,radeon")), "no device 'radeon'",
                   "NVIDIA H200", "cpu-sapphirerapids");
  EXPECT_CLF_ERROR(select_devices(two_gpu_machine(), devices("0", "gpu")), "no device '0'");
  EXPECT_CLF_ERROR(select_devices(two_gpu_machine(), devices("all", "gpu").merged_with([] {
                     DeviceRequest r;
                     r.platform = "amd";
                     return r;
                   }())),
                   "nothing of that platform and type");
  EXPECT_CLF_ERROR(select_devices(two_gpu_machine(), devices("1,,2")), "empty entry", "'1,,2'");
}

TEST(DeviceSet, TheEnvironmentNamesASetAndTheOptionWins) {
  clf_test::ScopedEnv env("CL_DEVICES", "all");
  EXPECT_EQ(DeviceRequest::from_environment().devices, "all");
  EXPECT_EQ(DeviceRequest::from_environment().merged_with(devices("0")).devices, "0");
  // One device named by the option (--device) wins over the environment's set too.
  DeviceRequest one;
  one.device = "2";
  const DeviceRequest merged = DeviceRequest::from_environment().merged_with(one);
  EXPECT_EQ(select_devices(two_gpu_machine(), merged), (Positions{2}));
}

// On this machine's devices: a set of every device the environment's filters admit (the GPU
// machine's tests run with CL_PLATFORM=NVIDIA), and a command that uses one device given a set
// takes its first.
TEST(DeviceSet, RealDevicesMakeOneRuntimeEach) {
  DeviceRequest request = devices("all");
  request.quiet = true;
  const clf::DeviceSet set(request);
  const DeviceRequest merged = DeviceRequest::from_environment().merged_with(request);
  EXPECT_EQ(set.size(), select_devices(clf::enumerate_devices(), merged).size());
  EXPECT_EQ(clf::Runtime(request).device().index, set.front().device().index);
  EXPECT_NE(set.description().find(set.front().device_name()), std::string::npos);
}

// Two runtimes on one device stand in for two devices where the machine has one.
std::unique_ptr<clf::DeviceSet> two_runtimes() {
  const auto listing = clf::enumerate_devices();
  std::vector<std::unique_ptr<clf::Runtime>> runtimes;
  runtimes.push_back(std::make_unique<clf::Runtime>(listing.front(), DeviceRequest{}));
  runtimes.push_back(std::make_unique<clf::Runtime>(listing.back(), DeviceRequest{}));
  return std::make_unique<clf::DeviceSet>(std::move(runtimes));
}

TEST(DeviceSet, ForEachDeviceRunsEveryDeviceOnItsOwnThread) {
  const auto set = two_runtimes();
  std::atomic<int> calls{0};
  std::set<std::size_t> positions;
  std::mutex mutex;
  clf::for_each_device(*set, [&](std::size_t position, clf::Runtime& runtime) {
    const std::vector<int> data{1, 2, 3};
    clf::Buffer<int> buffer(runtime, data);
    EXPECT_EQ(buffer.host(), data);
    ++calls;
    std::lock_guard<std::mutex> lock(mutex);
    positions.insert(position);
  });
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(positions, (std::set<std::size_t>{0, 1}));
}

TEST(DeviceSet, AFailingDeviceIsNamedAndTheOthersFinish) {
  const auto set = two_runtimes();
  std::atomic<bool> first_finished{false};
  const std::string second = "device " + std::to_string(set->at(1).device().index);
  EXPECT_CLF_ERROR(clf::for_each_device(*set,
                                        [&](std::size_t position, clf::Runtime&) {
                                          if (position == 1)
                                            throw std::runtime_error("out of rays");
                                          first_finished = true;
                                        }),
                   "out of rays", second.c_str(), set->at(1).device_name().c_str());
  EXPECT_TRUE(first_finished.load());
}

}  // namespace

// Finding OpenCL devices and choosing one. The rules live in select_device(), a pure function
// over a list of DeviceInfo, so they are testable without the hardware they describe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "framework/opencl.hpp"

namespace clf {

enum class DeviceType { gpu, cpu, accelerator, other };
const char* to_string(DeviceType type);

// What the framework and the tools need to know about one device.
struct DeviceInfo {
  int index = 0;  // position in the listing over all platforms, as --list-devices shows it
  int platform_index = 0;
  std::string platform_name;
  std::string platform_version;
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string opencl_c_version;
  DeviceType type = DeviceType::other;
  unsigned compute_units = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::size_t max_work_group_size = 0;
  bool has_fp64 = false;
  // NVIDIA devices: compute capability as major * 10 + minor (cl_nv_device_attribute_query);
  // 0 elsewhere.
  unsigned nv_compute_capability = 0;
  cl::Device device;  // empty for synthetic lists in tests
  cl::Platform platform;
};

// Every device of every platform, in platform order. Throws Error when there is no platform.
std::vector<DeviceInfo> enumerate_devices();

// What the user asked for. Empty fields mean "no preference".
struct DeviceRequest {
  std::string device;      // an index into the listing, or a substring of the device name
  std::string platform;    // a substring of the platform name or vendor
  std::string type;        // "gpu", "cpu" or "any"
  std::string devices;     // several devices: "all", or a comma list of indices / name substrings
  bool debug = false;      // CL_DEBUG: a CPU device unless a type is named (runtime.hpp)
  bool profiling = false;  // queue profiling, for event timings
  bool quiet = false;      // no notice on stderr about the chosen device

  // The request the environment makes: CL_DEVICE, CL_DEVICES, CL_PLATFORM, CL_DEVICE_TYPE,
  // CL_DEBUG, CL_PROFILE. Unknown values are reported when the request is resolved, not here.
  static DeviceRequest from_environment();
  // Fields set in `override_with` win over this request's (one device named there also over a
  // set named here).
  DeviceRequest merged_with(const DeviceRequest& override_with) const;
};

struct DeviceChoice {
  std::size_t position;  // into the list given to select_device
  std::string reason;    // why this one, for the notice on stderr
};

// Applies the selection rules: platform and type filters, then an explicit device by index or
// name, else the first GPU, else the first CPU, else the first device. Throws Error naming the
// request and listing the devices when nothing matches; never falls back silently.
DeviceChoice select_device(const std::vector<DeviceInfo>& devices, const DeviceRequest& request);

// The devices a set request names, in the order named (positions into `devices`, no repeats):
// "all" is every device the platform and type filters admit; otherwise each comma-separated
// entry is an index (as --list-devices numbers them) or a substring of device names matching
// every admitted device of that name. Without `request.devices`, the one select_device picks.
// Throws Error naming the entry that matches nothing, and listing the devices.
std::vector<std::size_t> select_devices(const std::vector<DeviceInfo>& devices,
                                        const DeviceRequest& request);

// A table of the devices (name, type, platform, driver, compute units, memories, work-group).
std::string format_device_table(const std::vector<DeviceInfo>& devices);

// Whether work-groups that have started keep running while others wait for them, which
// single-pass algorithms with decoupled look-back need (scan, onesweep radix sort; each group
// takes a ticket when it starts and waits only on groups with earlier tickets). True for NVIDIA
// GPUs (a group that took a ticket is resident) and PoCL's CPU devices (each started group runs
// to completion on one worker thread, and the threads are the OS's); false for any other device,
// where a spinning group may starve the one it waits for. Those use a portable path.
bool has_forward_progress(const DeviceInfo& device);

// "NVIDIA H100 (GPU, NVIDIA CUDA, driver 580.65)"
std::string describe(const DeviceInfo& device);

}  // namespace clf

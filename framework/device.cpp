#include "framework/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "framework/environment.hpp"
#include "framework/error.hpp"

namespace clf {

const char* to_string(DeviceType type) {
  switch (type) {
    case DeviceType::gpu:
      return "GPU";
    case DeviceType::cpu:
      return "CPU";
    case DeviceType::accelerator:
      return "accelerator";
    case DeviceType::other:
      break;
  }
  return "other";
}

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains_ignoring_case(const std::string& haystack, const std::string& needle) {
  return lowercase(haystack).find(lowercase(needle)) != std::string::npos;
}

bool is_index(const std::string& text) {
  return !text.empty() && text.size() < 6 &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Trims the trailing NULs some drivers leave in info strings.
std::string clean(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ')) text.pop_back();
  return text;
}

// major * 10 + minor where the device answers NVIDIA's attribute query, else 0.
unsigned nv_compute_capability(const cl::Device& device) {
  if (device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_device_attribute_query") ==
      std::string::npos) {
    return 0;
  }
  cl_uint major = 0;
  cl_uint minor = 0;
  if (device.getInfo(CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, &major) != CL_SUCCESS ||
      device.getInfo(CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, &minor) != CL_SUCCESS) {
    return 0;
  }
  return major * 10 + minor;
}

DeviceType type_of(cl_device_type type) {
  if ((type & CL_DEVICE_TYPE_GPU) != 0) return DeviceType::gpu;
  if ((type & CL_DEVICE_TYPE_CPU) != 0) return DeviceType::cpu;
  if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) return DeviceType::accelerator;
  return DeviceType::other;
}

std::string describe_request(const DeviceRequest& request) {
  std::vector<std::string> parts;
  if (!request.device.empty()) parts.push_back("device '" + request.device + "'");
  if (!request.platform.empty()) parts.push_back("platform '" + request.platform + "'");
  if (!request.devices.empty()) parts.push_back("devices '" + request.devices + "'");
  if (!request.type.empty()) parts.push_back("type '" + request.type + "'");
  if (request.debug) parts.emplace_back("CL_DEBUG (a CPU device)");
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text.empty() ? "any device" : text;
}

[[noreturn]] void fail_no_match(const std::vector<DeviceInfo>& devices,
                                const DeviceRequest& request, const std::string& why) {
  throw Error("no OpenCL device matches " + describe_request(request) + ": " + why +
              ". Devices found:\n" + format_device_table(devices));
}

}  // namespace

std::vector<DeviceInfo> enumerate_devices() {
  std::vector<cl::Platform> platforms;
  const cl_int status = cl::Platform::get(&platforms);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || platforms.empty()) {
    throw Error(
        "no OpenCL platform found: install an OpenCL driver (e.g. Debian's pocl-opencl-icd for "
        "the CPU) and check that /etc/OpenCL/vendors lists it");
  }
  check(status, "clGetPlatformIDs");

  std::vector<DeviceInfo> devices;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> platform_devices;
    const cl_int got = platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &platform_devices);
    if (got == CL_DEVICE_NOT_FOUND) continue;
    check(got, "clGetDeviceIDs");
    for (const cl::Device& device : platform_devices) {
      DeviceInfo info;
      info.index = static_cast<int>(devices.size());
      info.platform_index = static_cast<int>(p);
      info.platform_name = clean(platforms[p].getInfo<CL_PLATFORM_NAME>());
      info.platform_version = clean(platforms[p].getInfo<CL_PLATFORM_VERSION>());
      info.name = clean(device.getInfo<CL_DEVICE_NAME>());
      info.vendor = clean(device.getInfo<CL_DEVICE_VENDOR>());
      info.driver_version = clean(device.getInfo<CL_DRIVER_VERSION>());
      info.opencl_c_version = clean(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
      info.type = type_of(device.getInfo<CL_DEVICE_TYPE>());
      info.compute_units = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      info.global_memory_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.local_memory_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      info.max_allocation_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.has_fp64 = device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
      info.nv_compute_capability = nv_compute_capability(device);
      info.device = device;
      info.platform = platforms[p];
      devices.push_back(std::move(info));
    }
  }
  if (devices.empty()) throw Error("OpenCL platforms were found, but none has a device");
  return devices;
}

DeviceRequest DeviceRequest::from_environment() {
  DeviceRequest request;
  request.device = env_text("CL_DEVICE");
  request.devices = env_text("CL_DEVICES");
  request.platform = env_text("CL_PLATFORM");
  request.type = env_text("CL_DEVICE_TYPE");
  request.debug = env_flag("CL_DEBUG");
  request.profiling = env_flag("CL_PROFILE");
  request.quiet = env_flag("CL_QUIET");
  return request;
}

DeviceRequest DeviceRequest::merged_with(const DeviceRequest& override_with) const {
  DeviceRequest merged = *this;
  if (!override_with.device.empty()) {
    merged.device = override_with.device;
    // One device named by the caller wins over a set the environment names (a set is used
    // wherever one is named).
    if (override_with.devices.empty()) merged.devices.clear();
  }
  if (!override_with.devices.empty()) merged.devices = override_with.devices;
  if (!override_with.platform.empty()) merged.platform = override_with.platform;
  if (!override_with.type.empty()) merged.type = override_with.type;
  merged.debug = debug || override_with.debug;
  merged.profiling = profiling || override_with.profiling;
  merged.quiet = quiet || override_with.quiet;
  return merged;
}

namespace {

// The type filter of a request, lower case ("" for none); CL_DEBUG alone asks for a CPU.
std::string requested_type(const DeviceRequest& request) {
  const std::string type = lowercase(request.type.empty() && request.debug ? "cpu" : request.type);
  if (!type.empty() && type != "gpu" && type != "cpu" && type != "any") {
    throw Error("unknown device type '" + request.type +
                "' (CL_DEVICE_TYPE or --gpu/--cpu): " + "expected gpu, cpu or any");
  }
  return type;
}

// Whether the platform and type filters of a request let `d` through.
bool admitted(const DeviceInfo& d, const DeviceRequest& request, const std::string& type) {
  if (!request.platform.empty() && !contains_ignoring_case(d.platform_name, request.platform) &&
      !contains_ignoring_case(d.vendor, request.platform)) {
    return false;
  }
  if (type == "gpu") return d.type == DeviceType::gpu;
  if (type == "cpu") return d.type == DeviceType::cpu;
  return true;
}

}  // namespace

DeviceChoice select_device(const std::vector<DeviceInfo>& devices, const DeviceRequest& request) {
  const std::string type = requested_type(request);
  auto admitted = [&](const DeviceInfo& d) { return clf::admitted(d, request, type); };

  if (!request.device.empty()) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const DeviceInfo& d = devices[i];
      const bool named = is_index(request.device) ? std::to_string(d.index) == request.device
                                                  : contains_ignoring_case(d.name, request.device);
      if (named && admitted(d)) return {i, "asked for device '" + request.device + "'"};
    }
    fail_no_match(devices, request, "no such device");
  }

  std::optional<std::size_t> first_cpu;
  std::optional<std::size_t> first_any;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!admitted(devices[i])) continue;
    if (devices[i].type == DeviceType::gpu) {
      return {i, type == "gpu" ? "first GPU, as asked" : "first GPU found"};
    }
    if (devices[i].type == DeviceType::cpu && !first_cpu) first_cpu = i;
    if (!first_any) first_any = i;
  }
  if (first_cpu) {
    std::string reason = "no GPU found, first CPU device";
    if (type == "cpu")
      reason =
          request.debug && request.type.empty() ? "CL_DEBUG asks for a CPU" : "first CPU, as asked";
    return {*first_cpu, reason};
  }
  if (first_any) return {*first_any, "neither GPU nor CPU found, first device"};
  fail_no_match(devices, request, "nothing of that platform and type");
}

std::vector<std::size_t> select_devices(const std::vector<DeviceInfo>& devices,
                                        const DeviceRequest& request) {
  if (request.devices.empty()) return {select_device(devices, request).position};
  const std::string type = requested_type(request);
  std::vector<std::size_t> chosen;
  auto add = [&](std::size_t position) {
    if (std::find(chosen.begin(), chosen.end(), position) == chosen.end()) {
      chosen.push_back(position);
    }
  };
  if (lowercase(request.devices) == "all") {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (admitted(devices[i], request, type)) add(i);
    }
    if (chosen.empty()) fail_no_match(devices, request, "nothing of that platform and type");
    return chosen;
  }
  std::stringstream entries(request.devices);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    entry = clean(entry);
    while (!entry.empty() && entry.front() == ' ') entry.erase(entry.begin());
    if (entry.empty()) {
      throw Error("empty entry in the device list '" + request.devices +
                  "' (--devices or CL_DEVICES): expected all, or indices and names separated "
                  "by commas");
    }
    bool matched = false;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const DeviceInfo& d = devices[i];
      const bool named = is_index(entry) ? std::to_string(d.index) == entry
                                         : contains_ignoring_case(d.name, entry);
      if (named && admitted(d, request, type)) {
        add(i);
        matched = true;
      }
    }
    if (!matched) fail_no_match(devices, request, "no device '" + entry + "'");
  }
  return chosen;
}

std::string format_device_table(const std::vector<DeviceInfo>& devices) {
  auto size = [](std::uint64_t bytes) {
    std::ostringstream text;
    if (bytes >= (1ULL << 30)) {
      text << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1ULL << 30)
           << "G";
    } else {
      text << bytes / 1024 << "K";
    }
    return text.str();
  };
  // Full names, never cut: a name in an error message must match the table.
  std::size_t name_width = 6;
  std::size_t platform_width = 8;
  std::size_t driver_width = 6;
  for (const DeviceInfo& d : devices) {
    name_width = std::max(name_width, d.name.size());
    platform_width = std::max(platform_width, d.platform_name.size());
    driver_width = std::max(driver_width, d.driver_version.size());
  }
  const auto columns = [&](std::ostream& out, const std::string& index, const std::string& name,
                           const std::string& type, const std::string& platform,
                           const std::string& driver) -> std::ostream& {
    return out << std::left << std::setw(3) << index << std::setw(name_width + 2) << name
               << std::setw(6) << type << std::setw(platform_width + 2) << platform
               << std::setw(driver_width + 2) << driver << std::right;
  };
  std::ostringstream out;
  columns(out, "#", "device", "type", "platform", "driver")
      << std::setw(4) << "CUs" << std::setw(9) << "global" << std::setw(8) << "local"
      << std::setw(6) << "wg"
      << "\n";
  for (const DeviceInfo& d : devices) {
    columns(out, std::to_string(d.index), d.name, to_string(d.type), d.platform_name,
            d.driver_version)
        << std::setw(4) << d.compute_units << std::setw(9) << size(d.global_memory_bytes)
        << std::setw(8) << size(d.local_memory_bytes) << std::setw(6) << d.max_work_group_size
        << "\n";
  }
  return out.str();
}

bool has_forward_progress(const DeviceInfo& device) {
  if (device.type == DeviceType::cpu) {
    return contains_ignoring_case(device.platform_name, "Portable Computing Language");
  }
  return device.type == DeviceType::gpu && (contains_ignoring_case(device.vendor, "NVIDIA") ||
                                            contains_ignoring_case(device.platform_name, "NVIDIA"));
}

std::string describe(const DeviceInfo& device) {
  return device.name + " (" + to_string(device.type) + ", " + device.platform_name + ", driver " +
         device.driver_version + ")";
}

}  // namespace clf

#include "framework/cli.hpp"

#include <iostream>

namespace clf {

CLI::Validator not_negative() {
  return CLI::Validator(
      [](std::string& text) {
        const std::size_t first = text.find_first_not_of(" \t");
        if (first == std::string::npos || text[first] != '-') return std::string();
        return "must not be negative, got " + text;
      },
      "NOT NEGATIVE");
}

void DeviceOptions::add_to(CLI::App& app) {
  auto* group = app.add_option_group("Device", "Which OpenCL device runs the work");
  group->add_option("--device", request.device,
                    "device index (as --list-devices numbers them) or a substring of its name; "
                    "default: env CL_DEVICE, else the first GPU, else a CPU");
  auto* devices = group->add_option(
      "--devices", request.devices,
      "several devices: all, or indices and name substrings separated by commas (env "
      "CL_DEVICES); --platform, --gpu and --cpu filter them; commands that use one device take "
      "the first");
  devices->excludes(group->get_option("--device"));
  group->add_option("--platform", request.platform,
                    "substring of the platform name or vendor (env CL_PLATFORM)");
  auto* cpu = group->add_flag_callback(
      "--cpu", [this] { request.type = "cpu"; }, "use a CPU device (env CL_DEVICE_TYPE=cpu)");
  auto* gpu = group->add_flag_callback(
      "--gpu", [this] { request.type = "gpu"; }, "use a GPU device (env CL_DEVICE_TYPE=gpu)");
  cpu->excludes(gpu);
  group->add_flag("--profile", request.profiling, "enable queue profiling (env CL_PROFILE=1)");
  group->add_flag("--list-devices", list_devices, "list the OpenCL devices and exit");
}

std::unique_ptr<DeviceSet> DeviceOptions::make_device_set() const {
  return std::make_unique<DeviceSet>(request);
}

bool DeviceOptions::handle_list_devices() const {
  if (!list_devices) return false;
  std::cout << format_device_table(enumerate_devices());
  return true;
}

std::unique_ptr<Runtime> DeviceOptions::make_runtime() const {
  return std::make_unique<Runtime>(request);
}

}  // namespace clf

#include "framework/device_set.hpp"

#include <exception>
#include <iostream>
#include <mutex>
#include <thread>

#include "framework/error.hpp"

namespace clf {

DeviceSet::DeviceSet(const DeviceRequest& request) {
  const DeviceRequest merged = DeviceRequest::from_environment().merged_with(request);
  const std::vector<DeviceInfo> devices = enumerate_devices();
  const std::vector<std::size_t> positions = select_devices(devices, merged);
  for (std::size_t position : positions) {
    runtimes_.push_back(std::make_unique<Runtime>(devices[position], merged));
  }
  if (!merged.quiet) {
    std::cerr << "clf: using " << (size() == 1 ? "" : std::to_string(size()) + " devices: ")
              << description() << "\n";
  }
}

DeviceSet::DeviceSet(std::vector<std::unique_ptr<Runtime>> runtimes)
    : runtimes_(std::move(runtimes)) {
  if (runtimes_.empty()) throw Error("a device set needs at least one device");
}

std::string DeviceSet::description() const {
  std::vector<std::string> names;
  for (const auto& runtime : runtimes_) names.push_back(describe(runtime->device()));
  return join(names, " + ");
}

std::string device_label(const Runtime& runtime) {
  return "device " + std::to_string(runtime.device().index) + " (" + runtime.device_name() + ")";
}

void for_each_device(const DeviceSet& devices,
                     const std::function<void(std::size_t, Runtime&)>& body) {
  if (devices.size() == 1) {  // on the caller's thread; its errors already name the device
    body(0, devices.front());
    return;
  }
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        body(i, devices.at(i));
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(failures_mutex);
        failures.push_back(device_label(devices.at(i)) + ": " + error.what());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (!failures.empty()) throw Error(join(failures, "\n"));
}

}  // namespace clf

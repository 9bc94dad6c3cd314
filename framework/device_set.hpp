// Several devices in one process: one Runtime per device (its own context and queue), and a way
// to run a piece of work on each of them at once. With one device it is exactly one Runtime.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "framework/device.hpp"
#include "framework/runtime.hpp"

namespace clf {

class DeviceSet {
 public:
  // The devices `request` names (merged over the environment; --devices / CL_DEVICES, else the
  // one device --device or the defaults pick), with one notice line on stderr unless quiet.
  explicit DeviceSet(const DeviceRequest& request = {});
  // Runtimes the caller made (tests, or a set narrowed from another).
  explicit DeviceSet(std::vector<std::unique_ptr<Runtime>> runtimes);

  DeviceSet(const DeviceSet&) = delete;
  DeviceSet& operator=(const DeviceSet&) = delete;

  std::size_t size() const { return runtimes_.size(); }
  Runtime& at(std::size_t i) const { return *runtimes_.at(i); }
  Runtime& front() const { return *runtimes_.front(); }
  // "NVIDIA H100 80GB HBM3 (GPU, ...) + NVIDIA H100 80GB HBM3 (GPU, ...)", for reports.
  std::string description() const;

 private:
  std::vector<std::unique_ptr<Runtime>> runtimes_;
};

// "device 1 (NVIDIA H100 80GB HBM3)": how messages name one device of a set (the index is the
// one --list-devices shows).
std::string device_label(const Runtime& runtime);

// Runs body(position, runtime) for every device of the set, each on a thread of its own, and
// waits for all. With several devices, a failure on any is rethrown as one Error naming the
// device (every failing device, if several failed) once the others have finished what they
// were doing; with one, the body runs on the calling thread and its errors pass unchanged.
void for_each_device(const DeviceSet& devices,
                     const std::function<void(std::size_t, Runtime&)>& body);

}  // namespace clf

// Command-line options every tool shares for choosing a device (CLI11):
// --device, --devices, --platform, --cpu, --gpu, --list-devices, --profile.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

#include "framework/device.hpp"
#include "framework/device_set.hpp"
#include "framework/runtime.hpp"

namespace clf {

// For options that cannot be negative. CLI11 reads "-1" into an unsigned option as 2^64 - 1
// (`--steps -1` would never end), so the sign is refused before the value is read; CLI11 puts
// the option's name before the message ("--steps: must not be negative, got -1").
CLI::Validator not_negative();

struct DeviceOptions {
  DeviceRequest request;
  bool list_devices = false;

  // Adds the options to `app` (and, through CLI11's option inheritance, its subcommands).
  void add_to(CLI::App& app);
  // After parsing: prints the device table and returns true if --list-devices was given.
  bool handle_list_devices() const;
  // A runtime for the device the options and the environment ask for (the options win).
  std::unique_ptr<Runtime> make_runtime() const;
  // The devices --devices (or CL_DEVICES) names; without it, the one device make_runtime picks.
  std::unique_ptr<DeviceSet> make_device_set() const;
};

}  // namespace clf

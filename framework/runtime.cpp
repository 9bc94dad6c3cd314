#include "framework/runtime.hpp"

#include <iostream>

#include "framework/error.hpp"

namespace clf {

Runtime::Runtime(const DeviceRequest& request) {
  const DeviceRequest merged = DeviceRequest::from_environment().merged_with(request);
  const std::vector<DeviceInfo> devices = enumerate_devices();
  DeviceChoice choice{0, ""};
  if (merged.devices.empty()) {
    choice = select_device(devices, merged);
  } else {  // a device set asked of a command that uses one device: the first of the set
    choice = {select_devices(devices, merged).front(),
              "the first of devices '" + merged.devices + "' (this runs on one device)"};
  }
  device_ = devices[choice.position];
  profiling_ = merged.profiling;
  debug_ = merged.debug;
  if (!merged.quiet) {
    std::cerr << "clf: using " << describe(device_) << ": " << choice.reason << "\n";
  }
  create_context_and_queue();
}

Runtime::Runtime(const DeviceInfo& device, const DeviceRequest& settings)
    : device_(device), profiling_(settings.profiling), debug_(settings.debug) {
  create_context_and_queue();
}

void Runtime::create_context_and_queue() {
  const ErrorContext where{"", device_.name, ""};
  cl_int status = CL_SUCCESS;
  context_ = cl::Context(device_.device, nullptr, nullptr, nullptr, &status);
  check(status, "clCreateContext", where);
  const cl_command_queue_properties properties = profiling_ ? CL_QUEUE_PROFILING_ENABLE : 0;
  queue_ = cl::CommandQueue(context_, device_.device, properties, &status);
  check(status, "clCreateCommandQueue", where);
  disk_cache_ = DiskCacheSettings::from_environment();
  if (debug_) disk_cache_.enabled = false;  // debug builds are for stepping through, not reuse
}

Runtime& Runtime::shared() {
  // Never destroyed: at exit, drivers tear down their own state in an order we cannot follow,
  // and releasing a context after that can crash (seen with PoCL).
  static Runtime* runtime = new Runtime();
  return *runtime;
}

std::string base_build_options(bool debug, DeviceType type) {
  std::string options = "-cl-std=CL1.2 -cl-kernel-arg-info";
  // Unoptimized builds are for stepping through kernels in gdb, which a CPU device allows. On
  // NVIDIA they also fail: the kernels' C99 inline helpers are left as calls, with no external
  // definition to link ("ptxas fatal: Unresolved extern function"). Making them static is no
  // way out: PoCL then miscompiles helpers it does not inline (the sort's histogram counted
  // wrong).
  if (debug && type == DeviceType::cpu) options += " -g -cl-opt-disable";
  return options;
}

std::string Runtime::base_build_options() const {
  return clf::base_build_options(debug_, device_.type);
}

std::shared_ptr<const Program> Runtime::program(const Source& source, const std::string& options) {
  const std::string full_options =
      options.empty() ? base_build_options() : base_build_options() + " " + options;
  const std::string key = full_options + '\0' + source.text;
  std::lock_guard<std::mutex> lock(programs_mutex_);
  if (auto found = programs_.find(key); found != programs_.end()) {
    ++cache_stats_.memory_hits;
    return found->second;
  }
  auto built = build_program(context_, device_, source, full_options, disk_cache_, cache_stats_);
  programs_.emplace(key, built);
  return built;
}

ProgramCacheStats Runtime::program_cache_stats() const {
  std::lock_guard<std::mutex> lock(programs_mutex_);
  return cache_stats_;
}

TransferCounts Runtime::transfers() const {
  return TransferCounts{uploads_.load(), downloads_.load(), bytes_uploaded_.load(),
                        bytes_downloaded_.load()};
}

void Runtime::count_upload(std::uint64_t bytes) {
  ++uploads_;
  bytes_uploaded_ += bytes;
}

void Runtime::count_download(std::uint64_t bytes) {
  ++downloads_;
  bytes_downloaded_ += bytes;
}

void Runtime::start_recording() {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  recording_ = true;
  recorded_.clear();
}

std::vector<Event> Runtime::stop_recording() {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  recording_ = false;
  return std::move(recorded_);
}

double Runtime::span_ms(const std::vector<Event>& events, double wall_ms) const {
  if (!profiling_ || events.empty()) return wall_ms;
  return static_cast<double>(events.back().end_ns() - events.front().start_ns()) * 1e-6;
}

void Runtime::record(const Event& event) {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  if (recording_) recorded_.push_back(event);
}

void Runtime::finish() const { check(queue_.finish(), "clFinish", {"", device_.name, ""}); }

}  // namespace clf

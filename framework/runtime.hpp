// A Runtime owns one device's platform, context and in-order queue, and the programs built for
// it. Several can live in one process (one per device), so work can be split across GPUs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "framework/device.hpp"
#include "framework/event.hpp"
#include "framework/opencl.hpp"
#include "framework/program.hpp"
#include "framework/sources.hpp"

namespace clf {

// Host<->device copies made by lazy buffers: tests assert exact counts, benchmarks report them.
struct TransferCounts {
  std::uint64_t uploads = 0;
  std::uint64_t downloads = 0;
  std::uint64_t bytes_uploaded = 0;
  std::uint64_t bytes_downloaded = 0;
};

// The options every program is built with: OpenCL C 1.2 and argument info for the checks; under
// CL_DEBUG on a CPU device also -g -cl-opt-disable (a GPU gets CL_DEBUG's checks on the host
// side, with optimized kernels).
std::string base_build_options(bool debug, DeviceType type);

class Runtime {
 public:
  // Chooses a device by `request` merged over the environment (the request wins; of a device
  // set, the first), prints a one-line notice on stderr unless quiet, and creates the context
  // and queue.
  explicit Runtime(const DeviceRequest& request = {});
  // Uses a device the caller already picked (e.g. one Runtime per GPU).
  Runtime(const DeviceInfo& device, const DeviceRequest& settings);

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The process-wide runtime that CLKernel and CLFunction use when given none; created on
  // first use from the environment.
  static Runtime& shared();

  const DeviceInfo& device() const { return device_; }
  const cl::Context& context() const { return context_; }
  const cl::CommandQueue& queue() const { return queue_; }
  bool profiling() const { return profiling_; }
  bool debug() const { return debug_; }
  // "name (type, platform, driver ...)", for messages.
  const std::string& device_name() const { return device_.name; }

  // The program for `source` built with the framework's options plus `options`: from this
  // runtime's cache, the disk cache, or the compiler, in that order. Thread-safe.
  std::shared_ptr<const Program> program(const Source& source, const std::string& options = "");
  ProgramCacheStats program_cache_stats() const;
  // The options every program on this runtime's device is built with (below).
  std::string base_build_options() const;

  TransferCounts transfers() const;
  void count_upload(std::uint64_t bytes);
  void count_download(std::uint64_t bytes);

  // Blocks until every command enqueued so far has completed.
  void finish() const;

  // While recording, every CLKernel launch on this runtime appends its event, so a benchmark
  // can time a primitive made of several launches (first start to last end) without the
  // primitive's API exposing them. Needs a profiling runtime to read the timestamps.
  void start_recording();
  std::vector<Event> stop_recording();
  void record(const Event& event);
  // Milliseconds from the first of `events` starting to the last one ending (device clock) when
  // this runtime profiles and there are events; otherwise `wall_ms`, what the host measured
  // around them.
  double span_ms(const std::vector<Event>& events, double wall_ms) const;

 private:
  void create_context_and_queue();

  DeviceInfo device_;
  bool profiling_ = false;
  bool debug_ = false;
  cl::Context context_;
  cl::CommandQueue queue_;
  DiskCacheSettings disk_cache_;

  mutable std::mutex programs_mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Program>> programs_;
  ProgramCacheStats cache_stats_;

  std::mutex recording_mutex_;
  bool recording_ = false;
  std::vector<Event> recorded_;

  std::atomic<std::uint64_t> uploads_{0};
  std::atomic<std::uint64_t> downloads_{0};
  std::atomic<std::uint64_t> bytes_uploaded_{0};
  std::atomic<std::uint64_t> bytes_downloaded_{0};
};

}  // namespace clf

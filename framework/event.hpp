// The event of one enqueued command, with its profiling timestamps.
#pragma once

#include <cstdint>
#include <utility>

#include "framework/error.hpp"
#include "framework/opencl.hpp"

namespace clf {

class Event {
 public:
  Event() = default;
  // `where`: the kernel, device and range a failure of the command is reported with.
  explicit Event(cl::Event event, ErrorContext where = {})
      : event_(std::move(event)), where_(std::move(where)) {}

  const cl::Event& handle() const { return event_; }
  void wait() const;

  // Timestamps in nanoseconds (device clock). They need a profiling queue (Runtime with
  // profiling on, or CL_PROFILE=1); otherwise they throw an Error that says so.
  std::uint64_t queued_ns() const;
  std::uint64_t start_ns() const;
  std::uint64_t end_ns() const;
  // end - start, in milliseconds: the time the device spent on the command.
  double duration_ms() const;

 private:
  std::uint64_t timestamp(cl_profiling_info which, const char* name) const;
  cl::Event event_;
  ErrorContext where_;
};

}  // namespace clf

#include "framework/event.hpp"

#include "framework/error.hpp"

namespace clf {

void Event::wait() const {
  if (event_() != nullptr) check(event_.wait(), "clWaitForEvents", where_);
}

std::uint64_t Event::timestamp(cl_profiling_info which, const char* name) const {
  if (event_() == nullptr) throw Error(std::string("Event::") + name + ": the event is empty");
  wait();  // timestamps exist only once the command has completed
  cl_ulong value = 0;
  const cl_int status = event_.getProfilingInfo(which, &value);
  if (status == CL_PROFILING_INFO_NOT_AVAILABLE) {
    throw Error(std::string("Event::") + name +
                ": no profiling information; create the Runtime with profiling on or set "
                "CL_PROFILE=1");
  }
  check(status, "clGetEventProfilingInfo", where_);
  return value;
}

std::uint64_t Event::queued_ns() const {
  return timestamp(CL_PROFILING_COMMAND_QUEUED, "queued_ns");
}
std::uint64_t Event::start_ns() const { return timestamp(CL_PROFILING_COMMAND_START, "start_ns"); }
std::uint64_t Event::end_ns() const { return timestamp(CL_PROFILING_COMMAND_END, "end_ns"); }

double Event::duration_ms() const { return static_cast<double>(end_ns() - start_ns()) * 1e-6; }

}  // namespace clf

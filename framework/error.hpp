// Errors thrown by the framework. Every message names the OpenCL call, the error by name
// (CL_INVALID_WORK_GROUP_SIZE, not -54) and, where known, the kernel and the device.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace clf {

// The symbolic name of an OpenCL status code, e.g. "CL_OUT_OF_RESOURCES".
const char* error_name(int status);

// What was being done when an OpenCL call failed; fields left empty are omitted.
struct ErrorContext {
  std::string kernel;
  std::string device;
  std::string detail;  // e.g. the work sizes of a launch
};

// Any failure inside the framework: a failed OpenCL call, a bad argument, a missing device.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A failed OpenCL API call.
class ApiError : public Error {
 public:
  ApiError(const std::string& call, int status, const ErrorContext& context);
  const std::string& call() const { return call_; }
  int status() const { return status_; }

 private:
  std::string call_;
  int status_;
};

// A program that did not compile: carries the options, the full build log and, for each line
// the log reports, the source lines around it.
class BuildError : public Error {
 public:
  BuildError(const std::string& message, std::string options, std::string log)
      : Error(message), options_(std::move(options)), log_(std::move(log)) {}
  const std::string& options() const { return options_; }
  const std::string& log() const { return log_; }

 private:
  std::string options_;
  std::string log_;
};

// "a, b, c": for messages that list the choices there are (variants, devices, ...).
std::string join(const std::vector<std::string>& names, const std::string& separator = ", ");

// Throws ApiError unless status is CL_SUCCESS.
inline void check(int status, const char* call, const ErrorContext& context = {}) {
  if (status != 0) throw ApiError(call, status, context);
}

}  // namespace clf

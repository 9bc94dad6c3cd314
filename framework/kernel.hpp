// CLKernel: an OpenCL kernel built once and called like a function.
//
//   clf::CLKernel saxpy(clf::kernel_source("kernels/cl-info/selftest.cl"), "saxpy");
//   saxpy(clf::Range::linear(n, 256), 2.0f, x, y, cl_uint(n));
//
// Arguments are checked against the kernel's signature (clGetKernelArgInfo) on every call: a
// wrong count, a buffer where a scalar belongs, a scalar of the wrong size or type, or a buffer
// of the wrong element type throws an Error naming the kernel, the argument and both types.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/event.hpp"
#include "framework/program.hpp"
#include "framework/runtime.hpp"
#include "framework/type_names.hpp"

namespace clf {

// Global and local work sizes of a launch, in 1 to 3 dimensions. A local size of 0 lets the
// driver choose. Global sizes given with a local size are rounded up to a multiple of it, so
// kernels guard their tail (if (i < n)).
struct Range {
  unsigned dims = 1;
  std::array<std::size_t, 3> global{1, 1, 1};
  std::array<std::size_t, 3> local{0, 0, 0};

  static Range linear(std::size_t n, std::size_t local = 0);
  static Range grid(std::size_t x, std::size_t y, std::size_t local_x = 0, std::size_t local_y = 0);
  static Range grid(std::size_t x, std::size_t y, std::size_t z, std::size_t local_x,
                    std::size_t local_y, std::size_t local_z);
  std::size_t total() const { return global[0] * global[1] * global[2]; }
  std::string to_string() const;
};

namespace detail {

// One argument of a launch, with its type erased.
struct LaunchArgument {
  enum class Kind { buffer, local, scalar };
  Kind kind = Kind::scalar;
  BufferBase* buffer = nullptr;
  Access access = Access::inferred;
  const void* value = nullptr;      // scalar bytes, alive for the duration of the call
  std::size_t size = 0;             // scalar or local size in bytes
  const char* type_name = nullptr;  // OpenCL C name of the host type (element type for
                                    // buffers and locals), nullptr when unknown
};

template <typename T>
LaunchArgument make_argument(const T& argument) {
  using Plain = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_base_of_v<BufferBase, Plain>) {
    auto& buffer = const_cast<Plain&>(argument);
    return {LaunchArgument::Kind::buffer, &buffer, Access::inferred, nullptr, 0,
            buffer.element_type_name()};
  } else if constexpr (std::is_same_v<Plain, LocalBytes>) {
    return {
        LaunchArgument::Kind::local, nullptr, Access::inferred, nullptr, argument.bytes, nullptr};
  } else if constexpr (std::is_same_v<Plain, BufferArgument>) {
    return {LaunchArgument::Kind::buffer,        argument.buffer, argument.access, nullptr, 0,
            argument.buffer->element_type_name()};
  } else {
    static_assert(!std::is_pointer_v<Plain>,
                  "pass buffers as clf::Buffer/DeviceBuffer, not host pointers");
    static_assert(std::is_trivially_copyable_v<Plain>, "kernel scalars must be trivially copyable");
    return {LaunchArgument::Kind::scalar,     nullptr, Access::inferred, &argument, sizeof(Plain),
            device_type_name_or_null<Plain>()};
  }
}

template <typename T>
LaunchArgument make_argument(const Local<T>& local) {
  return {LaunchArgument::Kind::local,  nullptr, Access::inferred, nullptr, local.count * sizeof(T),
          device_type_name_or_null<T>()};
}

}  // namespace detail

class CLKernel {
 public:
  CLKernel(Runtime& runtime, const Source& source, const std::string& name,
           const std::string& options = "");
  // On Runtime::shared().
  CLKernel(const Source& source, const std::string& name, const std::string& options = "");

  // Enqueues the kernel over `range`. Lazy buffers are uploaded first where the kernel reads a
  // stale device copy; buffers the kernel may write have their host copy marked stale. A range
  // with no work-items enqueues nothing and returns an empty Event. Safe to call from several
  // threads (launches of one CLKernel are serialised).
  template <typename... Args>
  Event operator()(const Range& range, Args&&... args) {
    std::vector<detail::LaunchArgument> arguments{detail::make_argument(args)...};
    return launch(range, arguments);
  }

  const std::string& name() const { return name_; }
  const KernelInfo& info() const { return *info_; }
  Runtime& runtime() const { return *runtime_; }
  // The largest work-group this kernel can run with on this device: the driver's report, or the
  // kernel's reqd_work_group_size where that is larger and the device allows it.
  std::size_t max_work_group_size() const;
  // The work-group size multiple the device prefers (warp or SIMD width).
  std::size_t preferred_work_group_multiple() const;

 private:
  Event launch(const Range& range, std::vector<detail::LaunchArgument>& arguments);
  void check_arguments(const std::vector<detail::LaunchArgument>& arguments) const;
  void check_work_sizes(const Range& range) const;

  Runtime* runtime_;
  std::shared_ptr<const Program> program_;
  std::string name_;
  const KernelInfo* info_;
  cl::Kernel kernel_;
  std::size_t max_work_group_size_ = 0;
  std::unique_ptr<std::mutex> launch_mutex_ = std::make_unique<std::mutex>();
};

}  // namespace clf

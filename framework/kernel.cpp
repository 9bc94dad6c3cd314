#include "framework/kernel.hpp"

#include <sstream>

namespace clf {

namespace {

std::size_t round_up(std::size_t n, std::size_t multiple) {
  return multiple == 0 ? n : (n + multiple - 1) / multiple * multiple;
}

const char* address_name(AddressSpace address) {
  switch (address) {
    case AddressSpace::global:
      return "__global";
    case AddressSpace::constant:
      return "__constant";
    case AddressSpace::local:
      return "__local";
    case AddressSpace::private_:
      break;
  }
  return "private";
}

// "float*" -> "float", "const struct Boid*" -> "Boid"
std::string element_name(std::string type_name) {
  while (!type_name.empty() && (type_name.back() == '*' || type_name.back() == ' ')) {
    type_name.pop_back();
  }
  for (const char* prefix : {"const ", "struct "}) {
    if (type_name.rfind(prefix, 0) == 0) type_name.erase(0, std::string(prefix).size());
  }
  return type_name;
}

std::string describe_parameter(const KernelArgInfo& arg) {
  if (arg.address == AddressSpace::private_) {
    const auto size = builtin_type_size(arg.type_name);
    return arg.type_name + (size ? " (a scalar of " + std::to_string(*size) + " bytes)" : "");
  }
  return std::string(address_name(arg.address)) + " " + arg.type_name;
}

std::string describe_argument(const detail::LaunchArgument& argument) {
  using Kind = detail::LaunchArgument::Kind;
  const std::string type = argument.type_name != nullptr ? argument.type_name : "an unnamed type";
  switch (argument.kind) {
    case Kind::buffer:
      return "a buffer of " + type;
    case Kind::local:
      return "local memory (" + std::to_string(argument.size) + " bytes)";
    case Kind::scalar:
      break;
  }
  return type + " (a scalar of " + std::to_string(argument.size) + " bytes)";
}

// The driver's CL_KERNEL_WORK_GROUP_SIZE, or the kernel's reqd_work_group_size where that is
// larger and within the device's limit. A compiler that accepts the attribute builds the kernel
// for that size (NVIDIA's emits .reqntid, which bounds the registers to fit), while NVIDIA's
// driver reports 256 for every kernel, the attribute's 512 or 1024 included, and runs them.
std::size_t largest_work_group(const cl::Kernel& kernel, const DeviceInfo& device) {
  const std::size_t reported = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device);
  const auto required = kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(device.device);
  const std::size_t declared = required[0] * required[1] * required[2];
  return declared > reported && declared <= device.max_work_group_size ? declared : reported;
}

}  // namespace

Range Range::linear(std::size_t n, std::size_t local) {
  Range range;
  range.global[0] = round_up(n, local);
  range.local[0] = local;
  return range;
}

Range Range::grid(std::size_t x, std::size_t y, std::size_t local_x, std::size_t local_y) {
  Range range;
  range.dims = 2;
  range.global = {round_up(x, local_x), round_up(y, local_y), 1};
  range.local = {local_x, local_y, 0};
  return range;
}

Range Range::grid(std::size_t x, std::size_t y, std::size_t z, std::size_t local_x,
                  std::size_t local_y, std::size_t local_z) {
  Range range;
  range.dims = 3;
  range.global = {round_up(x, local_x), round_up(y, local_y), round_up(z, local_z)};
  range.local = {local_x, local_y, local_z};
  return range;
}

std::string Range::to_string() const {
  std::ostringstream out;
  out << "global " << global[0];
  for (unsigned d = 1; d < dims; ++d) out << "x" << global[d];
  out << ", local ";
  if (local[0] == 0) {
    out << "auto";
  } else {
    out << local[0];
    for (unsigned d = 1; d < dims; ++d) out << "x" << local[d];
  }
  return out.str();
}

CLKernel::CLKernel(Runtime& runtime, const Source& source, const std::string& name,
                   const std::string& options)
    : runtime_(&runtime), program_(runtime.program(source, options)), name_(name) {
  info_ = &program_->kernel_info(name);
  cl_int status = CL_SUCCESS;
  kernel_ = cl::Kernel(program_->handle(), name.c_str(), &status);
  check(status, "clCreateKernel", {name, runtime.device_name(), ""});
  max_work_group_size_ = largest_work_group(kernel_, runtime.device());
}

CLKernel::CLKernel(const Source& source, const std::string& name, const std::string& options)
    : CLKernel(Runtime::shared(), source, name, options) {}

std::size_t CLKernel::max_work_group_size() const { return max_work_group_size_; }

std::size_t CLKernel::preferred_work_group_multiple() const {
  return kernel_.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(
      runtime_->device().device);
}

void CLKernel::check_arguments(const std::vector<detail::LaunchArgument>& arguments) const {
  using Kind = detail::LaunchArgument::Kind;
  if (arguments.size() != info_->arg_count) {
    std::string signature;
    for (const KernelArgInfo& arg : info_->args) {
      signature += (signature.empty() ? "" : ", ") + arg.type_name + " " + arg.name;
    }
    throw Error("kernel '" + name_ + "' takes " + std::to_string(info_->arg_count) + " arguments" +
                (signature.empty() ? "" : " (" + signature + ")") + ", the call passes " +
                std::to_string(arguments.size()));
  }
  // Each runtime has its own context and queue: a buffer of another one would be uploaded and
  // read on a queue this launch is not ordered with.
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const BufferBase* buffer = arguments[i].buffer;
    if (buffer != nullptr && &buffer->runtime() != runtime_) {
      const std::string name = info_->args_known ? " ('" + info_->args[i].name + "')" : "";
      throw Error("kernel '" + name_ + "' argument " + std::to_string(i) + name +
                  ": the buffer belongs to another runtime (" + buffer->runtime().device_name() +
                  ") than the kernel's (" + runtime_->device_name() +
                  "); make it on the kernel's runtime");
    }
  }
  if (!info_->args_known) return;  // the driver gave no argument info: count is all we check

  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgInfo& parameter = info_->args[i];
    const detail::LaunchArgument& argument = arguments[i];
    const bool pointer =
        parameter.address == AddressSpace::global || parameter.address == AddressSpace::constant;
    bool fits = true;
    if (argument.kind == Kind::buffer) {
      fits = pointer;
    } else if (argument.kind == Kind::local) {
      fits = parameter.address == AddressSpace::local;
    } else {
      fits = parameter.address == AddressSpace::private_;
    }
    const std::string expected = element_name(parameter.type_name);
    if (fits && argument.type_name != nullptr && argument.kind != Kind::scalar) {
      // Untyped device pointers (void*, char*, uchar*) take any buffer.
      const bool untyped = expected == "void" || expected == "char" || expected == "uchar";
      fits = untyped || expected == argument.type_name;
    }
    if (fits && argument.kind == Kind::scalar) {
      if (const auto size = builtin_type_size(parameter.type_name)) {
        fits = *size == argument.size &&
               (argument.type_name == nullptr ||
                is_floating_type_name(argument.type_name) == is_floating_type_name(expected));
      } else if (argument.type_name != nullptr) {
        fits = expected == argument.type_name;
      }
    }
    if (!fits) {
      throw Error("kernel '" + name_ + "' argument " + std::to_string(i) + " ('" + parameter.name +
                  "'): the kernel expects " + describe_parameter(parameter) + ", the call passes " +
                  describe_argument(argument));
    }
  }
}

// Drivers do not all reject a bad local size at enqueue (NVIDIA's can fail the launch later,
// or not visibly at all), so the framework checks what OpenCL 1.2 requires itself.
void CLKernel::check_work_sizes(const Range& range) const {
  if (range.local[0] == 0) return;
  std::size_t group = 1;
  for (unsigned d = 0; d < range.dims; ++d) {
    group *= range.local[d];
    if (range.local[d] == 0 || range.global[d] % range.local[d] != 0) {
      throw ApiError(
          "clEnqueueNDRangeKernel", CL_INVALID_WORK_GROUP_SIZE,
          {name_, runtime_->device_name(),
           range.to_string() + ": the global size must be a multiple of the local size"});
    }
  }
  if (group > max_work_group_size_) {
    throw ApiError("clEnqueueNDRangeKernel", CL_INVALID_WORK_GROUP_SIZE,
                   {name_, runtime_->device_name(),
                    range.to_string() + ": a work-group of " + std::to_string(group) +
                        " is more than this kernel allows on this device (" +
                        std::to_string(max_work_group_size_) + ")"});
  }
}

Event CLKernel::launch(const Range& range, std::vector<detail::LaunchArgument>& arguments) {
  using Kind = detail::LaunchArgument::Kind;
  check_arguments(arguments);
  if (range.total() == 0) return Event();
  check_work_sizes(range);

  const ErrorContext where{name_, runtime_->device_name(), range.to_string()};
  std::lock_guard<std::mutex> lock(*launch_mutex_);
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    detail::LaunchArgument& argument = arguments[i];
    const auto index = static_cast<cl_uint>(i);
    cl_int status = CL_SUCCESS;
    if (argument.kind == Kind::buffer) {
      if (argument.access == Access::inferred) {
        const bool read_only = info_->args_known && info_->args[i].is_const;
        argument.access = read_only ? Access::read : Access::read_write;
      }
      argument.buffer->before_launch(argument.access);
      status = kernel_.setArg(index, argument.buffer->mem());
    } else if (argument.kind == Kind::local) {
      status = kernel_.setArg(index, cl::Local(argument.size));
    } else {
      status = ::clSetKernelArg(kernel_(), index, argument.size, argument.value);
    }
    check(status, "clSetKernelArg",
          {name_, runtime_->device_name(), "argument " + std::to_string(i)});
  }

  const auto to_nd = [&](const std::array<std::size_t, 3>& sizes) {
    return range.dims == 1   ? cl::NDRange(sizes[0])
           : range.dims == 2 ? cl::NDRange(sizes[0], sizes[1])
                             : cl::NDRange(sizes[0], sizes[1], sizes[2]);
  };
  const cl::NDRange local = range.local[0] == 0 ? cl::NullRange : to_nd(range.local);
  cl::Event event;
  check(runtime_->queue().enqueueNDRangeKernel(kernel_, cl::NullRange, to_nd(range.global), local,
                                               nullptr, &event),
        "clEnqueueNDRangeKernel", where);
  for (detail::LaunchArgument& argument : arguments) {
    if (argument.kind == Kind::buffer) argument.buffer->after_launch(argument.access);
  }
  Event launched(event, where);
  runtime_->record(launched);
  return launched;
}

}  // namespace clf

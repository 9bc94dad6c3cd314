#include "framework/buffer.hpp"

#include <algorithm>

namespace clf {

BufferBase::BufferBase(Runtime& runtime, std::size_t bytes, const char* what)
    : runtime_(&runtime), bytes_(bytes) {
  const DeviceInfo& device = runtime.device();
  if (bytes > device.max_allocation_bytes) {
    throw Error(std::string(what) + " of " + std::to_string(bytes) + " bytes is larger than " +
                device.name + " allows in one allocation (" +
                std::to_string(device.max_allocation_bytes) + " bytes)");
  }
  // OpenCL has no empty buffers; an empty Buffer still needs a valid handle to pass to kernels.
  cl_int status = CL_SUCCESS;
  mem_ = cl::Buffer(runtime.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 16), nullptr,
                    &status);
  check(status, "clCreateBuffer", {"", device.name, std::to_string(bytes) + " bytes"});
}

void BufferBase::upload(const void* host, std::size_t bytes, std::size_t offset) {
  if (bytes == 0) return;
  check(runtime_->queue().enqueueWriteBuffer(mem_, CL_TRUE, offset, bytes, host),
        "clEnqueueWriteBuffer", {"", runtime_->device_name(), std::to_string(bytes) + " bytes"});
  runtime_->count_upload(bytes);
}

void BufferBase::fill_zero_bytes() {
  if (bytes_ == 0) return;
  // A kernel of the framework's own (kernels/primitives/zero_bytes.cl says why not the driver's
  // fill); its program is built once per runtime and cached.
  const std::shared_ptr<const Program> program =
      runtime_->program(kernel_source("kernels/primitives/zero_bytes.cl"));
  cl_int status = CL_SUCCESS;
  cl::Kernel kernel(program->handle(), "clf_zero_bytes", &status);
  const ErrorContext context{"clf_zero_bytes", runtime_->device_name(),
                             std::to_string(bytes_) + " bytes"};
  check(status, "clCreateKernel", context);
  check(kernel.setArg(0, mem_), "clSetKernelArg", context);
  check(kernel.setArg(1, static_cast<cl_ulong>(bytes_)), "clSetKernelArg", context);
  // Enough work-items to fill a GPU, no more than there are words.
  const std::size_t items = std::min<std::size_t>(std::size_t{1} << 20, bytes_ / 16 + 1);
  check(runtime_->queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items)),
        "clEnqueueNDRangeKernel", context);
}

void BufferBase::download(void* host, std::size_t bytes, std::size_t offset) const {
  if (bytes == 0) return;
  check(runtime_->queue().enqueueReadBuffer(mem_, CL_TRUE, offset, bytes, host),
        "clEnqueueReadBuffer", {"", runtime_->device_name(), std::to_string(bytes) + " bytes"});
  runtime_->count_download(bytes);
}

}  // namespace clf

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
  // In pieces below 2^31 bytes: NVIDIA's driver hangs or fails on larger fills (pyopencl
  // issue 395; an H100 under driver 580 failed on the 2.3 GB endgame level 29).
  constexpr std::size_t kMostFillBytes = std::size_t{1} << 30;
  const cl_uchar zero = 0;
  for (std::size_t offset = 0; offset < bytes_; offset += kMostFillBytes) {
    const std::size_t bytes = std::min(kMostFillBytes, bytes_ - offset);
    check(runtime_->queue().enqueueFillBuffer(mem_, zero, offset, bytes), "clEnqueueFillBuffer",
          {"", runtime_->device_name(),
           std::to_string(bytes) + " bytes at " + std::to_string(offset)});
  }
}

void BufferBase::download(void* host, std::size_t bytes, std::size_t offset) const {
  if (bytes == 0) return;
  check(runtime_->queue().enqueueReadBuffer(mem_, CL_TRUE, offset, bytes, host),
        "clEnqueueReadBuffer", {"", runtime_->device_name(), std::to_string(bytes) + " bytes"});
  runtime_->count_download(bytes);
}

}  // namespace clf

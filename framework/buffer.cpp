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
  // In pieces of 1 GiB, each filled through a sub-buffer of its own: NVIDIA's fill fails on
  // buffers of 2^31 bytes or more (pyopencl issue 395), and so does a fill at an offset of
  // 2^31 or more (the 2.3 GB endgame level 29 on an H200, driver 580).
  constexpr std::size_t kPieceBytes = std::size_t{1} << 30;  // a multiple of any base alignment
  const cl_uchar zero = 0;
  for (std::size_t offset = 0; offset < bytes_; offset += kPieceBytes) {
    const std::size_t bytes = std::min(kPieceBytes, bytes_ - offset);
    const std::string what = std::to_string(bytes) + " bytes at " + std::to_string(offset);
    cl::Buffer piece = mem_;
    if (bytes != bytes_) {
      const cl_buffer_region region{offset, bytes};
      cl_int status = CL_SUCCESS;
      piece =
          mem_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
      check(status, "clCreateSubBuffer", {"", runtime_->device_name(), what});
    }
    check(runtime_->queue().enqueueFillBuffer(piece, zero, 0, bytes), "clEnqueueFillBuffer",
          {"", runtime_->device_name(), what});
  }
}

void BufferBase::download(void* host, std::size_t bytes, std::size_t offset) const {
  if (bytes == 0) return;
  check(runtime_->queue().enqueueReadBuffer(mem_, CL_TRUE, offset, bytes, host),
        "clEnqueueReadBuffer", {"", runtime_->device_name(), std::to_string(bytes) + " bytes"});
  runtime_->count_download(bytes);
}

}  // namespace clf

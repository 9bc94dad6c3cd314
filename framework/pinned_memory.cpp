#include "framework/pinned_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace clf {

PinnedMemory::~PinnedMemory() {
  // The vectors holding the memory share this object, so none is left; heap blocks are freed
  // should one be.
  for (const Block& block : blocks_) {
    if (block.buffer() == nullptr) std::free(block.host);
  }
}

void* PinnedMemory::allocate(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  cl_int status = CL_SUCCESS;
  cl::Buffer buffer(runtime_->context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr,
                    &status);
  void* host = nullptr;
  if (status == CL_SUCCESS) {
    host = runtime_->queue().enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                              nullptr, nullptr, &status);
  }
  if (status != CL_SUCCESS || host == nullptr) {
    // Pinned memory is scarce on some hosts; ordinary memory is only slower to copy.
    buffer = cl::Buffer();
    host = std::malloc(bytes);
    if (host == nullptr) throw std::bad_alloc();
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  blocks_.push_back({host, buffer});
  return host;
}

void PinnedMemory::release(void* memory) noexcept {
  if (memory == nullptr) return;
  Block block{nullptr, cl::Buffer()};
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = std::find_if(blocks_.begin(), blocks_.end(),
                                    [memory](const Block& b) { return b.host == memory; });
    if (found == blocks_.end()) return;
    block = *found;
    blocks_.erase(found);
  }
  if (block.buffer() == nullptr) {
    std::free(block.host);
    return;
  }
  // Errors here have nowhere to go (a destructor); the context frees the buffer either way.
  runtime_->queue().enqueueUnmapMemObject(block.buffer, block.host);
  runtime_->queue().finish();
}

}  // namespace clf

// Page-locked ("pinned") host memory for the arrays that devices copy to and from every frame or
// level: a device reads into pinned memory by DMA at the bus's speed, where a pageable array
// goes through the driver's staging buffer and a host memcpy (on four H100s of one host, four
// concurrent pageable reads shared about 18 GB/s). It is an OpenCL buffer made with
// CL_MEM_ALLOC_HOST_PTR and mapped for its lifetime, as NVIDIA's OpenCL guide recommends; other
// drivers (PoCL) hand back ordinary memory. If the driver refuses, the memory is ordinary too.
// Memory pinned through one device's context is as fast for the other devices' copies (measured
// on four H200s: each band of a frame read into one image at 23 GB/s), so a device set shares it.
//
// PinnedVector<T> is a std::vector whose allocator does this: made with a Runtime, used like any
// vector (but resize(n) leaves new elements of a trivial type unset), compared with std::vector
// through same_values().
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "framework/runtime.hpp"

namespace clf {

// Allocations of pinned memory on one runtime's context, and their release.
class PinnedMemory {
 public:
  explicit PinnedMemory(Runtime& runtime) : runtime_(&runtime) {}
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;
  ~PinnedMemory();

  void* allocate(std::size_t bytes);
  void release(void* memory) noexcept;
  Runtime& runtime() const { return *runtime_; }

 private:
  struct Block {
    void* host;
    cl::Buffer buffer;  // null when the driver refused and the memory came from the heap
  };
  Runtime* runtime_;
  std::mutex mutex_;
  std::vector<Block> blocks_;
};

template <typename T>
class PinnedAllocator {
 public:
  using value_type = T;

  explicit PinnedAllocator(Runtime& runtime) : memory_(std::make_shared<PinnedMemory>(runtime)) {}
  template <typename U>
  PinnedAllocator(const PinnedAllocator<U>& other) noexcept : memory_(other.memory_) {}

  T* allocate(std::size_t count) { return static_cast<T*>(memory_->allocate(count * sizeof(T))); }
  void deallocate(T* memory, std::size_t /*count*/) noexcept { memory_->release(memory); }

  // Elements made without a value are left as they are (resize(n) writes nothing): devices fill
  // these arrays, and zeroing gigabytes first would cost as much as the copy.
  template <typename U>
  void construct(U* element) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(element)) U;
  }
  template <typename U, typename... Args>
  void construct(U* element, Args&&... args) {
    ::new (static_cast<void*>(element)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const PinnedAllocator<U>& other) const noexcept {
    return memory_ == other.memory_;
  }
  template <typename U>
  bool operator!=(const PinnedAllocator<U>& other) const noexcept {
    return !(*this == other);
  }

 private:
  template <typename U>
  friend class PinnedAllocator;
  std::shared_ptr<PinnedMemory> memory_;
};

template <typename T>
using PinnedVector = std::vector<T, PinnedAllocator<T>>;

// An empty PinnedVector whose memory `runtime`'s device copies to and from at full speed.
template <typename T>
PinnedVector<T> pinned_vector(Runtime& runtime) {
  return PinnedVector<T>(PinnedAllocator<T>(runtime));
}

// Whether two arrays hold the same values, whatever their allocators.
template <typename A, typename B>
bool same_values(const A& a, const B& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace clf

// Buffers. Buffer<T> mirrors a host array and copies lazily: it uploads only when a kernel reads
// a stale device copy and downloads only when the host reads a stale host copy. DeviceBuffer<T>
// lives on the device alone and never copies unless asked. A kernel's access to a buffer is
// inferred from its parameter (`const __global T*` reads, `__global T*` reads and writes) or
// set per call with read_only(), write_only(), read_write() (copy-direction flags, as
// Kloosterman's framework had them).
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "framework/error.hpp"
#include "framework/runtime.hpp"
#include "framework/type_names.hpp"

namespace clf {

enum class Access { inferred, read, write, read_write };

class BufferBase {
 public:
  BufferBase(const BufferBase&) = delete;
  BufferBase& operator=(const BufferBase&) = delete;
  // Never blocks or throws: OpenCL keeps the memory alive until commands using it finish, and
  // lazy buffers make only blocking copies, so no copy still reads the host array.
  virtual ~BufferBase() = default;

  const cl::Buffer& mem() const { return mem_; }
  std::size_t bytes() const { return bytes_; }
  Runtime& runtime() const { return *runtime_; }
  // Element type's OpenCL C name, or nullptr when not known.
  virtual const char* element_type_name() const = 0;

  // Called by CLKernel around each launch. `access` is never Access::inferred here.
  virtual void before_launch(Access access) = 0;
  virtual void after_launch(Access access) = 0;

 protected:
  BufferBase(Runtime& runtime, std::size_t bytes, const char* what);
  BufferBase(BufferBase&&) noexcept = default;
  BufferBase& operator=(BufferBase&&) noexcept = default;

  // `bytes` bytes at byte `offset` of the buffer.
  void upload(const void* host, std::size_t bytes, std::size_t offset = 0);
  void download(void* host, std::size_t bytes, std::size_t offset = 0) const;
  // Zeros in every byte, written by the device (nothing crosses the bus).
  void fill_zero_bytes();

  Runtime* runtime_;
  std::size_t bytes_;
  cl::Buffer mem_;
};

// The bytes of `count` elements of T; throws Error naming `what` where they overflow size_t
// (they would wrap to a small allocation that kernels then index past).
template <typename T>
std::size_t buffer_bytes(std::size_t count, const char* what) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
    throw Error(std::string(what) + " of " + std::to_string(count) + " elements of " +
                std::to_string(sizeof(T)) + " bytes: the size overflows");
  }
  return count * sizeof(T);
}

// A host array with a device mirror, copied only when the other side's copy is stale.
// Not thread-safe: one thread at a time uses a given buffer.
template <typename T>
class Buffer : public BufferBase {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer<T> needs a trivially copyable T");

 public:
  // `count` zero-initialised elements; the host copy is current.
  Buffer(Runtime& runtime, std::size_t count)
      : BufferBase(runtime, buffer_bytes<T>(count, "Buffer"), "Buffer"), host_(count) {}
  Buffer(Runtime& runtime, std::vector<T> initial)
      : BufferBase(runtime, initial.size() * sizeof(T), "Buffer"), host_(std::move(initial)) {}
  explicit Buffer(std::size_t count) : Buffer(Runtime::shared(), count) {}
  explicit Buffer(std::vector<T> initial) : Buffer(Runtime::shared(), std::move(initial)) {}
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(Buffer&&) noexcept = default;

  std::size_t size() const { return host_.size(); }

  // The host copy, downloaded first if a kernel has written the device copy since.
  const std::vector<T>& host() const {
    download_if_stale();
    return host_;
  }
  const T& operator[](std::size_t i) const { return host()[i]; }
  // The host copy for writing: downloaded first if stale; the device copy becomes stale.
  std::vector<T>& host_mutable() {
    download_if_stale();
    device_current_ = false;
    return host_;
  }
  // Replaces the contents without downloading the old ones; the device copy becomes stale.
  void assign(std::vector<T> values) {
    if (values.size() != host_.size()) {
      throw Error("Buffer::assign: " + std::to_string(values.size()) + " elements given for a " +
                  "buffer of " + std::to_string(host_.size()));
    }
    host_ = std::move(values);
    host_current_ = true;
    device_current_ = false;
  }

  bool host_is_current() const { return host_current_; }
  bool device_is_current() const { return device_current_; }
  // Copies made by this buffer.
  const TransferCounts& transfers() const { return transfers_; }

  const char* element_type_name() const override { return device_type_name_or_null<T>(); }

  void before_launch(Access access) override {
    if (access != Access::write && !device_current_ && bytes_ > 0) {
      upload(host_.data(), bytes_);
      ++transfers_.uploads;
      transfers_.bytes_uploaded += bytes_;
      device_current_ = true;
    }
  }
  void after_launch(Access access) override {
    if (access == Access::read) return;
    device_current_ = true;  // a write-only launch leaves the device copy whole and newest
    host_current_ = false;
  }

 private:
  void download_if_stale() const {
    if (host_current_ || bytes_ == 0) return;
    download(const_cast<T*>(host_.data()), bytes_);
    ++transfers_.downloads;
    transfers_.bytes_downloaded += bytes_;
    host_current_ = true;
  }

  std::vector<T> host_;
  mutable bool host_current_ = true;
  bool device_current_ = false;
  mutable TransferCounts transfers_;
};

// Device memory with no host mirror: kernels use it in place and nothing is copied implicitly.
template <typename T>
class DeviceBuffer : public BufferBase {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceBuffer<T> needs a trivially copyable T");

 public:
  DeviceBuffer(Runtime& runtime, std::size_t count)
      : BufferBase(runtime, buffer_bytes<T>(count, "DeviceBuffer"), "DeviceBuffer"),
        count_(count) {}
  explicit DeviceBuffer(std::size_t count) : DeviceBuffer(Runtime::shared(), count) {}
  DeviceBuffer(DeviceBuffer&&) noexcept = default;
  DeviceBuffer& operator=(DeviceBuffer&&) noexcept = default;

  std::size_t size() const { return count_; }

  // Explicit copies (counted by the runtime), for setting up inputs and checking results.
  void write(const std::vector<T>& values) {
    if (values.size() != count_) {
      throw Error("DeviceBuffer::write: " + std::to_string(values.size()) +
                  " elements given for a buffer of " + std::to_string(count_));
    }
    upload(values.data(), bytes_);
  }
  // Every element's bytes zero, set on the device.
  void fill_zero() { fill_zero_bytes(); }
  std::vector<T> read() const {
    std::vector<T> values(count_);
    download(values.data(), bytes_);
    return values;
  }
  // Elements [first, first + count) from or to `values` (count elements), for a buffer whose
  // parts are filled by several devices or processes.
  void write_range(std::size_t first, const T* values, std::size_t count) {
    check_range(first, count, "write_range");
    upload(values, count * sizeof(T), first * sizeof(T));
  }
  void read_range(std::size_t first, T* values, std::size_t count) const {
    check_range(first, count, "read_range");
    download(values, count * sizeof(T), first * sizeof(T));
  }

  const char* element_type_name() const override { return device_type_name_or_null<T>(); }
  void before_launch(Access /*access*/) override {}
  void after_launch(Access /*access*/) override {}

 private:
  void check_range(std::size_t first, std::size_t count, const char* what) const {
    if (first > count_ || count > count_ - first) {
      throw Error(std::string("DeviceBuffer::") + what + ": elements " + std::to_string(first) +
                  ".." + std::to_string(first + count) + " of a buffer of " +
                  std::to_string(count_));
    }
  }

  std::size_t count_ = 0;
};

// A buffer argument with its access stated by the caller instead of inferred.
struct BufferArgument {
  BufferBase* buffer;
  Access access;
};
inline BufferArgument read_only(BufferBase& buffer) { return {&buffer, Access::read}; }
inline BufferArgument write_only(BufferBase& buffer) { return {&buffer, Access::write}; }
inline BufferArgument read_write(BufferBase& buffer) { return {&buffer, Access::read_write}; }

// A __local argument of `count` elements of T.
template <typename T>
struct Local {
  std::size_t count;
};
// A __local argument of `bytes` bytes, for kernels that type it themselves.
struct LocalBytes {
  std::size_t bytes;
};

}  // namespace clf

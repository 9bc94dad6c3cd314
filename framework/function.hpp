// CLFunction: call a plain (non-kernel) OpenCL C function from the host, on one work-item.
//
//   clf::CLFunction<cl_float4(cl_float4, cl_float)> scale(clf::kernel_source("kernels/x.cl"),
//   "scale"); cl_float4 r = scale(v, 2.0f);
//
// The framework generates a wrapper kernel that reads the arguments from a buffer, calls the
// function and writes back its result. A parameter declared as a pointer (`float* out` on the
// device, `cl_float*` in the signature) is an out- or in-out parameter: its value goes in and
// comes back out. Types: built-in scalars and vectors (double where the device has fp64) and
// structs registered with CLF_SHARED_STRUCT. This is how device code is unit-tested.
#pragma once

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/sources.hpp"
#include "framework/type_names.hpp"

namespace clf {

namespace detail {

// How one parameter of a CLFunction travels.
template <typename A>
struct FunctionParameter {
  static constexpr bool is_out = std::is_pointer_v<A> && !std::is_const_v<std::remove_pointer_t<A>>;
  using Value = std::remove_cv_t<std::remove_pointer_t<std::remove_reference_t<A>>>;
  static_assert(!std::is_pointer_v<A> || is_out,
                "CLFunction: pass inputs by value; a (non-const) pointer is an out-parameter");
  static_assert(has_device_type_name<Value>::value,
                "CLFunction: this type has no OpenCL C name (register shared structs with "
                "CLF_SHARED_STRUCT)");
};

inline std::size_t align_up(std::size_t offset, std::size_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

// Slot alignment in the argument buffer: the type's own, and at least 16 bytes.
template <typename T>
constexpr std::size_t slot_alignment() {
  return alignof(T) > 16 ? alignof(T) : 16;
}

// The wrapper kernel's source for `function`, given parameter types and slot offsets.
std::string function_wrapper_source(const std::string& function, const char* result_type,
                                    std::size_t result_offset,
                                    const std::vector<const char*>& parameter_types,
                                    const std::vector<bool>& parameter_is_out,
                                    const std::vector<std::size_t>& parameter_offsets);

}  // namespace detail

template <typename Signature>
class CLFunction;

template <typename R, typename... A>
class CLFunction<R(A...)> {
  static constexpr bool returns_value = !std::is_void_v<R>;

 public:
  CLFunction(Runtime& runtime, const Source& source, const std::string& function,
             const std::string& options = "") {
    std::vector<const char*> types{
        device_type_name_or_null<typename detail::FunctionParameter<A>::Value>()...};
    std::vector<bool> outs{detail::FunctionParameter<A>::is_out...};
    std::size_t offset = 0;
    ((offsets_.push_back(
          offset = detail::align_up(
              offset, detail::slot_alignment<typename detail::FunctionParameter<A>::Value>())),
      offset += sizeof(typename detail::FunctionParameter<A>::Value)),
     ...);
    const char* result_type = "void";
    if constexpr (returns_value) {
      static_assert(has_device_type_name<R>::value,
                    "CLFunction: the result type has no OpenCL C name");
      result_type = DeviceTypeName<R>::value;
      result_offset_ = offset = detail::align_up(offset, detail::slot_alignment<R>());
      offset += sizeof(R);
    }
    bytes_ = offset;

    bool uses_double = false;
    for (const char* type : types)
      uses_double = uses_double || std::strncmp(type, "double", 6) == 0;
    uses_double = uses_double || std::strncmp(result_type, "double", 6) == 0;
    if (uses_double && !runtime.device().has_fp64) {
      throw Error("CLFunction '" + function + "' uses double, which " + runtime.device_name() +
                  " does not support (no cl_khr_fp64)");
    }
    const std::string wrapper = detail::function_wrapper_source(
        function, result_type, result_offset_, types, outs, offsets_);
    std::string text = uses_double ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
    text += source.text + wrapper;
    kernel_ = std::make_unique<CLKernel>(runtime, Source{source.name, text}, "clf_call_" + function,
                                         options);
    arguments_ = std::make_unique<DeviceBuffer<cl_uchar>>(runtime, bytes_ == 0 ? 1 : bytes_);
  }

  CLFunction(const Source& source, const std::string& function, const std::string& options = "")
      : CLFunction(Runtime::shared(), source, function, options) {}
  // Source text given directly; #include "shared/..." works as in kernel files.
  CLFunction(Runtime& runtime, const std::string& source_text, const std::string& function,
             const std::string& options = "")
      : CLFunction(runtime, inline_source(function + ".cl", source_text), function, options) {}

  // Runs the function on one work-item and returns its result; out-parameters are updated.
  R operator()(A... args) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<cl_uchar> bytes(arguments_->size(), 0);
    std::size_t index = 0;
    (pack(bytes, offsets_[index++], args), ...);
    arguments_->write(bytes);
    (*kernel_)(Range::linear(1), *arguments_);
    bytes = arguments_->read();
    index = 0;
    (unpack(bytes, offsets_[index++], args), ...);
    if constexpr (returns_value) {
      R result{};
      std::memcpy(&result, bytes.data() + result_offset_, sizeof(R));
      return result;
    }
  }

  const CLKernel& wrapper_kernel() const { return *kernel_; }

 private:
  template <typename T>
  static void pack(std::vector<cl_uchar>& bytes, std::size_t offset, const T& arg) {
    if constexpr (std::is_pointer_v<T>) {
      if (arg == nullptr) throw Error("CLFunction: an out-parameter pointer is null");
      std::memcpy(bytes.data() + offset, arg, sizeof(*arg));
    } else {
      std::memcpy(bytes.data() + offset, &arg, sizeof(T));
    }
  }
  template <typename T>
  static void unpack(const std::vector<cl_uchar>& bytes, std::size_t offset, const T& arg) {
    if constexpr (std::is_pointer_v<T>) std::memcpy(arg, bytes.data() + offset, sizeof(*arg));
  }

  std::vector<std::size_t> offsets_;
  std::size_t result_offset_ = 0;
  std::size_t bytes_ = 0;
  std::unique_ptr<CLKernel> kernel_;
  std::unique_ptr<DeviceBuffer<cl_uchar>> arguments_;
  std::mutex mutex_;
};

}  // namespace clf

// The OpenCL C names of host types, used to generate CLFunction wrappers and to check kernel
// arguments. Built-in scalars and vectors are named here; shared structs name themselves with
// CLF_SHARED_STRUCT (shared/cl_types.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "framework/opencl.hpp"
#include "shared/cl_types.h"

namespace clf {

#define CLF_DEVICE_TYPE_NAME(host_type, device_name)  \
  template <>                                         \
  struct DeviceTypeName<host_type> {                  \
    static constexpr const char* value = device_name; \
  };
#define CLF_DEVICE_VECTOR_NAMES(prefix, name) \
  CLF_DEVICE_TYPE_NAME(prefix, name)          \
  CLF_DEVICE_TYPE_NAME(prefix##2, name "2")   \
  CLF_DEVICE_TYPE_NAME(prefix##4, name "4")   \
  CLF_DEVICE_TYPE_NAME(prefix##8, name "8")   \
  CLF_DEVICE_TYPE_NAME(prefix##16, name "16")

// cl_float3 and friends are typedefs of the 4-wide types on the host, so they share a name.
CLF_DEVICE_VECTOR_NAMES(cl_char, "char")
CLF_DEVICE_VECTOR_NAMES(cl_uchar, "uchar")
CLF_DEVICE_VECTOR_NAMES(cl_short, "short")
CLF_DEVICE_VECTOR_NAMES(cl_ushort, "ushort")
CLF_DEVICE_VECTOR_NAMES(cl_int, "int")
CLF_DEVICE_VECTOR_NAMES(cl_uint, "uint")
CLF_DEVICE_VECTOR_NAMES(cl_long, "long")
CLF_DEVICE_VECTOR_NAMES(cl_ulong, "ulong")
CLF_DEVICE_VECTOR_NAMES(cl_float, "float")
CLF_DEVICE_VECTOR_NAMES(cl_double, "double")
#undef CLF_DEVICE_VECTOR_NAMES
#undef CLF_DEVICE_TYPE_NAME

template <typename T, typename = void>
struct has_device_type_name : std::false_type {};
template <typename T>
struct has_device_type_name<T, std::void_t<decltype(DeviceTypeName<T>::value)>> : std::true_type {};

// The device name of T, or nullptr when T has none registered.
template <typename T>
constexpr const char* device_type_name_or_null() {
  if constexpr (has_device_type_name<std::remove_cv_t<T>>::value) {
    return DeviceTypeName<std::remove_cv_t<T>>::value;
  } else {
    return nullptr;
  }
}

// Size in bytes of a built-in OpenCL C scalar or vector type named as clGetKernelArgInfo names
// it ("uint", "float4", "double3"); nullopt for anything else (structs, size_t).
std::optional<std::size_t> builtin_type_size(const std::string& type_name);
// True for the float and double families.
bool is_floating_type_name(const std::string& type_name);

}  // namespace clf

// Types that mean the same on the host (C++) and on the device (OpenCL C 1.2), so that one
// header can declare the structs both sides exchange. Write shared structs with the cl_ names
// (cl_int, cl_float4, ...): on the host they come from <CL/cl_platform.h>, on the device they
// are typedefs of the built-in OpenCL C types with the same size and alignment.
#ifndef SHARED_CL_TYPES_H
#define SHARED_CL_TYPES_H

#if defined(__OPENCL_VERSION__)
typedef char cl_char;
typedef uchar cl_uchar;
typedef short cl_short;
typedef ushort cl_ushort;
typedef int cl_int;
typedef uint cl_uint;
typedef long cl_long;
typedef ulong cl_ulong;
typedef float cl_float;
typedef float2 cl_float2;
typedef float4 cl_float4;
typedef float8 cl_float8;
typedef float16 cl_float16;
typedef int2 cl_int2;
typedef int4 cl_int4;
typedef uint2 cl_uint2;
typedef uint4 cl_uint4;
// Marks a struct as shared; on the device there is nothing to register.
#define CLF_SHARED_STRUCT(name)
#else
// Host vectors' .x/.y/.z/.w members (cl_platform.h) need GNU C++ (CMAKE_CXX_EXTENSIONS).
// Same API version as framework/opencl.hpp, for files that include this header first.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl_platform.h>

namespace clf {
// The OpenCL C spelling of a host type; specialised for built-ins in framework/type_names.hpp
// and for shared structs by CLF_SHARED_STRUCT.
template <typename T>
struct DeviceTypeName;
}  // namespace clf

// Registers a shared struct's device name, so CLKernel and CLFunction can name it in
// generated code and in argument-mismatch errors. Use at global scope after the typedef.
#define CLF_SHARED_STRUCT(name)                 \
  template <>                                   \
  struct clf::DeviceTypeName<name> {            \
    static constexpr const char* value = #name; \
  };
#endif

// A function compiled on both sides: the rules, math and checks that host and device share.
// Use only what both languages have: scalars, structs and .x/.y/.z/.w on vectors.
#define CLF_FUNCTION static inline

#endif  // SHARED_CL_TYPES_H

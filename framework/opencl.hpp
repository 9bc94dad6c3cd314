// The one place that configures OpenCL-CLHPP. Every framework file includes this instead of
// <CL/opencl.hpp>, so the whole project agrees on the API version it targets.
//
// Debian 12's OpenCL-CLHPP (2023.02) needs MINIMUM 200 when TARGET is 200 or more; we target
// OpenCL 1.2 on both sides because NVIDIA's OpenCL C is 1.2. Never use the cl::Program
// constructor with build=true: it passes -cl-std=CL2.0, which NVIDIA rejects.
// CLHPP exceptions stay off: framework/error.hpp turns return codes into errors that name the
// call, the kernel and the device.
#pragma once

#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_CL_1_2_DEFAULT_BUILD

#include <CL/opencl.hpp>

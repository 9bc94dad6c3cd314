// The call framework in one include: devices and runtimes, embedded kernel sources, lazy
// buffers, CLKernel and CLFunction. docs/framework.md shows how to use them.
#pragma once

#include "framework/buffer.hpp"
#include "framework/device.hpp"
#include "framework/device_set.hpp"
#include "framework/error.hpp"
#include "framework/event.hpp"
#include "framework/function.hpp"
#include "framework/kernel.hpp"
#include "framework/program.hpp"
#include "framework/runtime.hpp"
#include "framework/sources.hpp"
#include "framework/type_names.hpp"
#include "framework/work_split.hpp"

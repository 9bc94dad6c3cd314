// Build options the framework handles itself: -clf-nv-maxnreg=N, a register cap put into an
// NVIDIA program's PTX (the driver ignores its own -cl-nv-maxrregcount), dropped elsewhere.
#include <gtest/gtest.h>

#include "framework/program.hpp"
#include "framework/ptx_register_cap.hpp"
#include "framework/runtime.hpp"
#include "test_support.hpp"

namespace {

using clf_test::runtime;

TEST(BuildOptions, DebugBuildsAreUnoptimizedOnCpuDevicesOnly) {
  const std::string base = "-cl-std=CL1.2 -cl-kernel-arg-info";
  EXPECT_EQ(clf::base_build_options(false, clf::DeviceType::cpu), base);
  EXPECT_EQ(clf::base_build_options(true, clf::DeviceType::cpu), base + " -g -cl-opt-disable");
  // NVIDIA's unoptimized build leaves the kernels' C99 inline helpers unlinked.
  EXPECT_EQ(clf::base_build_options(true, clf::DeviceType::gpu), base);
  EXPECT_EQ(clf::base_build_options(false, clf::DeviceType::gpu), base);
}

TEST(BuildOptions, RegisterCapIsTakenOutOfTheDriverOptions) {
  const clf::FrameworkBuildOptions split =
      clf::split_build_options("-DA=1  -clf-nv-maxnreg=80 -cl-mad-enable");
  EXPECT_EQ(split.driver_options, "-DA=1 -cl-mad-enable");
  EXPECT_EQ(split.nv_max_registers, 80U);
  const clf::FrameworkBuildOptions untouched = clf::split_build_options("-DB  -DS=\"a  b\"");
  EXPECT_EQ(untouched.driver_options, "-DB  -DS=\"a  b\"");
  EXPECT_EQ(untouched.nv_max_registers, 0U);
  for (const char* bad :
       {"-clf-nv-maxnreg=", "-clf-nv-maxnreg=8", "-clf-nv-maxnreg=300", "-clf-nv-maxnreg=64k"}) {
    EXPECT_CLF_ERROR(clf::split_build_options(std::string("-DA ") + bad), bad, "16 to 255");
  }
}

TEST(BuildOptions, RegisterCapGoesInFrontOfEveryEntryBody) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n"
      ".func (.param .b32 r) helper(.param .b32 x)\n{\n\tret;\n}\n"
      ".entry first(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n{\n\tret;\n}\n"
      ".visible .entry second()\n{\n\tret;\n}\n";
  const std::string capped = clf::with_register_cap(ptx, 72);
  EXPECT_EQ(capped,
            ".version 9.0\n.target sm_90\n"
            ".func (.param .b32 r) helper(.param .b32 x)\n{\n\tret;\n}\n"
            ".entry first(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n.maxnreg 72\n{\n\tret;\n}\n"
            ".visible .entry second()\n.maxnreg 72\n{\n\tret;\n}\n");
  EXPECT_EQ(clf::with_register_cap(".version 9.0\n", 72), ".version 9.0\n");
}

// On NVIDIA the program is built again from capped PTX, elsewhere the option is dropped; either
// way the kernel builds and computes.
TEST(BuildOptions, KernelsBuiltWithARegisterCapCompute) {
  const char* text =
      "__kernel void square(__global uint* data) {\n"
      "  const uint i = get_global_id(0);\n"
      "  data[i] = data[i] * data[i];\n"
      "}\n";
  clf::CLKernel square(runtime(), clf::inline_source("square.cl", text), "square",
                       "-clf-nv-maxnreg=32");
  clf::Buffer<cl_uint> data(runtime(), std::vector<cl_uint>{1, 2, 3, 4});
  square(clf::Range::linear(4), data);
  EXPECT_EQ(data.host(), (std::vector<cl_uint>{1, 4, 9, 16}));
}

}  // namespace

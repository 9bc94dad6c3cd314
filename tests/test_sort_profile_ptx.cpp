// sort-profile (apps/cl-bench/tools/cuda) loads the PTX of NVIDIA's OpenCL compiler through the
// CUDA driver API; the rewrite of the OpenCL launch registers it needs is checked here, where
// there is no CUDA.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "apps/cl-bench/tools/cuda/opencl_ptx.hpp"

namespace {

TEST(SortProfilePtx, LaunchRegistersBecomeWhatCudaSets) {
  const std::string ptx =
      ".entry radix_onesweep()\n{\n"
      "\tmov.u32 \t%r1, %envreg0;\n"
      "\tmov.u32 \t%r2, %envreg3;\n"
      "\tmov.b32 \t%r3, %envreg6;\n"
      "\tadd.s32 \t%r4, %r1, %r2;\n}\n";
  EXPECT_EQ(sort_profile::cuda_ptx(ptx),
            ".entry radix_onesweep()\n{\n"
            "\tmov.u32 \t%r1, 0;\n"
            "\tmov.u32 \t%r2, 0;\n"
            "\tmov.u32 \t%r3, %nctaid.x;\n"
            "\tadd.s32 \t%r4, %r1, %r2;\n}\n");
  EXPECT_EQ(sort_profile::cuda_ptx(".version 9.0\n"), ".version 9.0\n");
}

TEST(SortProfilePtx, NamesAnUnknownRegisterAndItsLine) {
  const std::string ptx = ".entry k()\n{\n\tmov.u32 \t%r1, %envreg12;\n}\n";
  try {
    sort_profile::cuda_ptx(ptx);
    ADD_FAILURE() << "an unknown environment register was taken";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    for (const char* part : {"line 3", "%envreg12", "mov.u32"}) {
      EXPECT_NE(message.find(part), std::string::npos) << "lacks '" << part << "': " << message;
    }
  }
}

}  // namespace

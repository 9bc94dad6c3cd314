// Kernel sources are embedded at build time and their includes resolved from the embedded set.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

TEST(Sources, KernelsAndSharedHeadersAreEmbedded) {
  EXPECT_TRUE(clf::find_embedded("kernels/selftest.cl").has_value());
  EXPECT_TRUE(clf::find_embedded("shared/cl_types.h").has_value());
  EXPECT_FALSE(clf::find_embedded("framework/runtime.cpp").has_value());
}

TEST(Sources, IncludesAreInlinedOnceWithLineMarkers) {
  const clf::Source source = clf::inline_source(
      "main.cl", "#include \"shared/selftest.h\"\n#include \"shared/cl_types.h\"\nint after;\n");
  EXPECT_EQ(source.name, "main.cl");
  EXPECT_NE(source.text.find("typedef struct SelfTestParticle"), std::string::npos);
  EXPECT_EQ(source.text.find("#include \"shared/"), std::string::npos);
  // cl_types.h is included by selftest.h and again by main.cl: its text appears once.
  const std::string marker = "#define CLF_FUNCTION";
  EXPECT_EQ(source.text.find(marker), source.text.rfind(marker));
  EXPECT_NE(source.text.find("#line 1 \"shared/selftest.h\""), std::string::npos);
  EXPECT_NE(source.text.find("#line 3 \"main.cl\"\nint after;"), std::string::npos) << source.text;
}

TEST(Sources, IncludesResolveBesideTheIncludingFile) {
  // kernels/selftest.cl includes "shared/selftest.h" from the root; a relative name works too.
  const clf::Source source = clf::inline_source("shared/probe.h", "#include \"cl_types.h\"\n");
  EXPECT_NE(source.text.find("#line 1 \"shared/cl_types.h\""), std::string::npos);
}

}  // namespace

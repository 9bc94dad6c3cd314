// Build failures carry the options, the full log and the source lines around each error;
// OpenCL errors are named.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using clf_test::runtime;

TEST(BuildErrors, CarryLogOptionsAndTheOffendingLine) {
  const char* broken =
      "#include \"shared/cl-info/selftest.h\"\n"
      "__kernel void broken(__global float* out) {\n"
      "  out[0] = undeclared_variable * 2.0f;\n"
      "}\n";
  try {
    clf::CLKernel kernel(runtime(), clf::inline_source("broken.cl", broken), "broken");
    FAIL() << "expected a BuildError";
  } catch (const clf::BuildError& error) {
    const std::string message = error.what();
    EXPECT_NE(error.log().find("undeclared_variable"), std::string::npos) << error.log();
    EXPECT_NE(error.options().find("-cl-kernel-arg-info"), std::string::npos);
    EXPECT_NE(message.find("failed to build 'broken.cl'"), std::string::npos) << message;
    EXPECT_NE(message.find(runtime().device_name()), std::string::npos) << message;
    // Line 3 of broken.cl, despite the included header in front of it, marked with '>'.
    EXPECT_NE(message.find("broken.cl:3:"), std::string::npos) << message;
    EXPECT_NE(message.find(">    3 |   out[0] = undeclared_variable * 2.0f;"), std::string::npos)
        << message;
  }
}

TEST(BuildErrors, ExcerptFindsLinesInIncludedFiles) {
  const std::string flattened =
      "#line 1 \"main.cl\"\n"
      "a\n"
      "#line 1 \"shared/x.h\"\n"
      "h1\n"
      "h2 bad\n"
      "h3\n"
      "#line 2 \"main.cl\"\n"
      "b\n";
  const std::string excerpt =
      clf::excerpt_reported_lines(flattened, "shared/x.h:2:4: error: something\n");
  EXPECT_NE(excerpt.find("shared/x.h:2:"), std::string::npos) << excerpt;
  EXPECT_NE(excerpt.find(">    2 | h2 bad"), std::string::npos) << excerpt;
  EXPECT_NE(excerpt.find("     1 | h1"), std::string::npos) << excerpt;
}

// NVIDIA ignores #line and reports physical lines of the flattened text as "<kernel>:N".
TEST(BuildErrors, ExcerptMapsPhysicalLinesBackToFiles) {
  const std::string flattened =
      "#line 1 \"main.cl\"\n"     // physical line 1
      "a\n"                       // 2
      "#line 1 \"shared/x.h\"\n"  // 3
      "h1\n"                      // 4
      "h2 bad\n"                  // 5
      "#line 2 \"main.cl\"\n"     // 6
      "b bad\n";                  // 7
  const std::string excerpt = clf::excerpt_reported_lines(
      flattened, "<kernel>:5:3: error: one\n<kernel>:7:1: error: two\n");
  EXPECT_NE(excerpt.find("shared/x.h:2:\n"), std::string::npos) << excerpt;
  EXPECT_NE(excerpt.find(">    2 | h2 bad"), std::string::npos) << excerpt;
  EXPECT_NE(excerpt.find("main.cl:2:\n"), std::string::npos) << excerpt;
  EXPECT_NE(excerpt.find(">    2 | b bad"), std::string::npos) << excerpt;
}

TEST(BuildErrors, UnknownIncludeNamesFileAndLine) {
  EXPECT_CLF_ERROR(clf::inline_source("main.cl", "int x;\n#include \"shared/nope.h\"\n"),
                   "main.cl:2", "shared/nope.h");
}

TEST(BuildErrors, UnknownKernelSourceListsEmbeddedFiles) {
  EXPECT_CLF_ERROR(clf::kernel_source("kernels/nope.cl"), "kernels/nope.cl",
                   "kernels/cl-info/selftest.cl");
}

TEST(BuildErrors, ErrorCodesHaveNames) {
  EXPECT_STREQ(clf::error_name(-54), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_STREQ(clf::error_name(-5), "CL_OUT_OF_RESOURCES");
  EXPECT_STREQ(clf::error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_STREQ(clf::error_name(12345), "CL_UNKNOWN_ERROR");
  const clf::ApiError error("clFoo", -54, {"my_kernel", "my device", "global 3"});
  const std::string message = error.what();
  EXPECT_NE(message.find("clFoo failed: CL_INVALID_WORK_GROUP_SIZE (-54)"), std::string::npos);
  EXPECT_NE(message.find("kernel 'my_kernel'"), std::string::npos);
  EXPECT_NE(message.find("device 'my device'"), std::string::npos);
}

}  // namespace

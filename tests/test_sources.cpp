// Kernel sources are embedded at build time and their includes resolved from the embedded set.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

TEST(Sources, KernelsAndSharedHeadersAreEmbedded) {
  EXPECT_TRUE(clf::find_embedded("kernels/cl-info/selftest.cl").has_value());
  EXPECT_TRUE(clf::find_embedded("shared/cl_types.h").has_value());
  EXPECT_FALSE(clf::find_embedded("framework/runtime.cpp").has_value());
}

TEST(Sources, IncludesAreInlinedOnceWithLineMarkers) {
  const clf::Source source = clf::inline_source(
      "main.cl",
      "#include \"shared/cl-info/selftest.h\"\n#include \"shared/cl_types.h\"\nint after;\n");
  EXPECT_EQ(source.name, "main.cl");
  EXPECT_NE(source.text.find("typedef struct SelfTestParticle"), std::string::npos);
  EXPECT_EQ(source.text.find("#include \"shared/"), std::string::npos);
  // cl_types.h is included by selftest.h and again by main.cl: its text appears once.
  const std::string marker = "#define CLF_FUNCTION";
  EXPECT_EQ(source.text.find(marker), source.text.rfind(marker));
  EXPECT_NE(source.text.find("#line 1 \"shared/cl-info/selftest.h\""), std::string::npos);
  EXPECT_NE(source.text.find("#line 3 \"main.cl\"\nint after;"), std::string::npos) << source.text;
}

TEST(Sources, IncludesResolveBesideTheIncludingFile) {
  // kernels/cl-info/selftest.cl includes "shared/cl-info/selftest.h" from the root; a relative name
  // works too.
  const clf::Source source = clf::inline_source("shared/probe.h", "#include \"cl_types.h\"\n");
  EXPECT_NE(source.text.find("#line 1 \"shared/cl_types.h\""), std::string::npos);
}

// Each target embeds the device code it owns, and its registration reaches the program even
// from a static library whose generated object no other file refers to (clf_embed_sources).
TEST(Sources, EachTargetRegistersTheDeviceCodeItOwns) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"kernels/struct_layouts.cl", "clf"},
      {"shared/random.h", "clf"},
      {"kernels/cl-info/selftest.cl", "cl_info_device_code"},
      {"shared/cl-info/selftest.h", "cl_info_device_code"},
      {"kernels/boids/rules.cl", "boids_core"},
      {"shared/boids/boids.h", "boids_core"},
      {"kernels/mankalah/layered_minimax.cl", "mankalah_core"},
      {"shared/mankalah/kalah.h", "mankalah_core"},
      {"kernels/raytracer/render.cl", "raytracer_core"},
      {"shared/raytracer/types.h", "raytracer_core"},
  };
  for (const auto& [path, owner] : expected) {
    const auto& files = clf::embedded_files();
    const auto file =
        std::find_if(files.begin(), files.end(),
                     [&wanted = path](const clf::EmbeddedFile& f) { return f.path == wanted; });
    ASSERT_NE(file, files.end()) << path << " is not embedded";
    EXPECT_EQ(file->owner, owner) << path;
  }
}

// libclf knows no app: it owns only the primitives' kernels and the top-level shared headers.
TEST(Sources, TheFrameworkEmbedsNoAppCode) {
  const std::regex framework_path(R"(^(shared/[^/]+\.h|kernels/[^/]+\.cl|kernels/primitives/.+)$)");
  std::size_t owned = 0;
  for (const clf::EmbeddedFile& file : clf::embedded_files()) {
    if (file.owner != "clf") continue;
    ++owned;
    EXPECT_TRUE(std::regex_match(std::string(file.path), framework_path))
        << file.path << " is embedded by libclf";
  }
  EXPECT_GT(owned, 0u);
}

}  // namespace

// Every struct in shared/ has the same size and field offsets on the host and on the device.
// Each owner of shared/ headers lists its structs beside them (shared/struct_layouts.h for the
// framework, shared/<app>/struct_layouts.h for an app); this test, which links every app,
// checks each list.
#include <gtest/gtest.h>

#include <cstddef>
#include <regex>
#include <set>

#include "shared/boids/struct_layouts.h"
#include "shared/cl-info/struct_layouts.h"
#include "shared/mankalah/struct_layouts.h"
#include "shared/raytracer/struct_layouts.h"
#include "shared/struct_layouts.h"
#include "test_support.hpp"

namespace {

struct HostLayout {
  std::vector<std::string> labels;  // "Name", then "Name.field" for each field
  std::vector<cl_ulong> values;     // sizeof, then offsetof
};

#define HOST_FIELD(field)                                    \
  layout.labels.push_back(name + std::string(".") + #field); \
  layout.values.push_back(offsetof(Type, field));
#define HOST_STRUCT(type, FIELDS)            \
  {                                          \
    using Type = type;                       \
    const std::string name = #type;          \
    layout.labels.push_back(name + " size"); \
    layout.values.push_back(sizeof(Type));   \
    FIELDS(HOST_FIELD)                       \
  }
#define NAME_STRUCT(type, FIELDS) names.insert(#type);

// One owner's list: the header that holds it, the macro's name, and what the host makes of it.
struct StructList {
  const char* header;
  const char* macro;
  HostLayout (*host_layout)();
  std::set<std::string> (*names)();
};

#define STRUCT_LIST(header, LIST)      \
  StructList {                         \
    header, #LIST,                     \
        [] {                           \
          HostLayout layout;           \
          LIST(HOST_STRUCT)            \
          return layout;               \
        },                             \
        [] {                           \
          std::set<std::string> names; \
          LIST(NAME_STRUCT)            \
          return names;                \
        }                              \
  }

const std::vector<StructList>& struct_lists() {
  static const std::vector<StructList> lists = {
      STRUCT_LIST("shared/struct_layouts.h", CLF_FRAMEWORK_STRUCTS),
      STRUCT_LIST("shared/boids/struct_layouts.h", BOIDS_STRUCTS),
      STRUCT_LIST("shared/cl-info/struct_layouts.h", CL_INFO_STRUCTS),
      STRUCT_LIST("shared/mankalah/struct_layouts.h", MANKALAH_STRUCTS),
      STRUCT_LIST("shared/raytracer/struct_layouts.h", RAYTRACER_STRUCTS),
  };
  return lists;
}

TEST(StructLayout, HostAndDeviceAgree) {
  clf::Runtime& runtime = clf_test::runtime();
  for (const StructList& list : struct_lists()) {
    SCOPED_TRACE(list.macro);
    const HostLayout host = list.host_layout();
    const std::string program = std::string("#include \"") + list.header + "\"\n" +
                                "#define CLF_LAYOUT_STRUCTS " + list.macro + "\n" +
                                "#include \"kernels/struct_layouts.cl\"\n";
    clf::CLKernel layouts(runtime,
                          clf::inline_source(std::string("layouts of ") + list.macro, program),
                          "struct_layouts");
    clf::Buffer<cl_ulong> device(runtime, host.values.size());
    clf::DeviceBuffer<cl_uchar> scratch(runtime, 4096);
    layouts(clf::Range::linear(1), clf::write_only(device), scratch);
    for (std::size_t i = 0; i < host.values.size(); ++i) {
      EXPECT_EQ(device[i], host.values[i]) << host.labels[i] << " differs between host and device";
    }
  }
}

// A struct added to shared/ but to no list would escape the check above.
TEST(StructLayout, EveryStructInSharedIsListed) {
  std::set<std::string> listed;
  for (const StructList& list : struct_lists()) {
    const std::set<std::string> names = list.names();
    listed.insert(names.begin(), names.end());
  }
  const std::regex declaration(R"(\bstruct\s+([A-Za-z_]\w*)\s*\{)");
  for (const clf::EmbeddedFile& file : clf::embedded_files()) {
    if (file.path.rfind("shared/", 0) != 0) continue;
    const std::string text(file.text);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration);
         it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(listed.count((*it)[1]))
          << "struct " << (*it)[1] << " in " << file.path
          << " is in no struct list (shared/struct_layouts.h says how to add it)";
    }
  }
}

}  // namespace

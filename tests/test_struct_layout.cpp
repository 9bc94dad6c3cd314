// Every struct in shared/ has the same size and field offsets on the host and on the device.
#include <gtest/gtest.h>

#include <cstddef>
#include <regex>
#include <set>

#include "shared/struct_layouts.h"
#include "test_support.hpp"

namespace {

struct HostLayout {
  std::vector<std::string> labels;  // "Name", then "Name.field" for each field
  std::vector<cl_ulong> values;     // sizeof, then offsetof
};

HostLayout host_layouts() {
  HostLayout layout;
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
  CLF_SHARED_STRUCTS(HOST_STRUCT)
#undef HOST_STRUCT
#undef HOST_FIELD
  return layout;
}

TEST(StructLayout, HostAndDeviceAgree) {
  const HostLayout host = host_layouts();
  clf::Runtime& runtime = clf_test::runtime();
  clf::CLKernel layouts(runtime, clf::kernel_source("kernels/struct_layouts.cl"), "struct_layouts");
  clf::Buffer<cl_ulong> device(runtime, host.values.size());
  clf::DeviceBuffer<cl_uchar> scratch(runtime, 4096);
  layouts(clf::Range::linear(1), clf::write_only(device), scratch);
  for (std::size_t i = 0; i < host.values.size(); ++i) {
    EXPECT_EQ(device[i], host.values[i]) << host.labels[i] << " differs between host and device";
  }
}

// A struct added to shared/ but not to CLF_SHARED_STRUCTS would escape the check above.
TEST(StructLayout, EveryStructInSharedIsListed) {
  std::set<std::string> listed;
#define LIST_STRUCT(type, FIELDS) listed.insert(#type);
  CLF_SHARED_STRUCTS(LIST_STRUCT)
#undef LIST_STRUCT
  const std::regex declaration(R"(\bstruct\s+([A-Za-z_]\w*)\s*\{)");
  for (const clf::EmbeddedFile& file : clf::embedded_files()) {
    if (file.path.rfind("shared/", 0) != 0) continue;
    const std::string text(file.text);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration);
         it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(listed.count((*it)[1]))
          << "struct " << (*it)[1] << " in " << file.path << " is missing from CLF_SHARED_STRUCTS";
    }
  }
}

}  // namespace

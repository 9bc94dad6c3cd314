// cl-info's self-test: a few kernels run through the framework on one device, each checked
// against the same computation on the host.
#pragma once

#include <string>
#include <vector>

#include "framework/runtime.hpp"

namespace cl_info {

struct CheckResult {
  std::string name;
  bool passed = false;
  std::string detail;  // what was compared, or what went wrong
};

// Runs every check on `runtime`'s device; never throws (a failing call is a failed check).
std::vector<CheckResult> run_self_test(clf::Runtime& runtime);

}  // namespace cl_info

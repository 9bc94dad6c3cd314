// The registry of benchmark cases that bench_<primitive>.cpp files fill at static-initialisation
// time (CLF_BENCH_CASES).
#include "apps/cl-bench/bench_case.hpp"

namespace bench {

namespace {

// A function-local static, so that it exists before the first registration whatever the order
// in which the case files' static initialisers run.
std::vector<std::pair<std::string, CaseFactory>>& registry() {
  static std::vector<std::pair<std::string, CaseFactory>> factories;
  return factories;
}

}  // namespace

bool register_cases(const std::string& primitive, CaseFactory factory) {
  registry().emplace_back(primitive, std::move(factory));
  return true;
}

const std::vector<std::pair<std::string, CaseFactory>>& registered_cases() { return registry(); }

}  // namespace bench

// Choosing the cases to run by primitive, variant and dtype names.
#include "apps/cl-bench/harness.hpp"

#include <iomanip>
#include <map>
#include <set>

#include "apps/cl-bench/harness_helpers.hpp"

namespace bench {

std::vector<std::string> registered_primitives() {
  static const std::vector<std::string> preferred = {"copy", "scan",   "reduce", "compact",
                                                     "sort", "matmul", "random"};
  std::set<std::string> registered;
  for (const auto& entry : registered_cases()) registered.insert(entry.first);
  std::vector<std::string> ordered;
  for (const auto& name : preferred) {
    if (registered.erase(name) > 0) ordered.push_back(name);
  }
  ordered.insert(ordered.end(), registered.begin(), registered.end());
  return ordered;
}

std::vector<std::unique_ptr<BenchCase>> select_cases(const std::vector<std::string>& primitives,
                                                     const std::vector<std::string>& variants,
                                                     const std::vector<std::string>& dtypes) {
  const std::vector<std::string> known = registered_primitives();
  std::vector<std::string> chosen;
  if (selects_all(primitives)) {
    chosen = known;
  } else {
    for (const auto& name : primitives) {
      if (!contains(known, name)) {
        throw UsageError("unknown primitive '" + name + "'; known: " + join(known) + " (or all)");
      }
      if (!contains(chosen, name)) chosen.push_back(name);
    }
  }

  std::vector<std::unique_ptr<BenchCase>> cases;
  for (const auto& name : chosen) {
    for (const auto& [primitive, factory] : registered_cases()) {
      if (primitive != name) continue;
      for (auto& bench_case : factory()) cases.push_back(std::move(bench_case));
    }
  }

  // Each requested name must exist among the chosen primitives' cases; a case is kept when it
  // matches both filters (so `all --variant default` runs every primitive that has a default).
  const auto check_names = [&](const std::vector<std::string>& requested, const char* what,
                               std::string (BenchCase::*field)() const) {
    if (selects_all(requested)) return;
    std::vector<std::string> existing;
    for (const auto& bench_case : cases) {
      const std::string value = ((*bench_case).*field)();
      if (!contains(existing, value)) existing.push_back(value);
    }
    for (const auto& name : requested) {
      if (!contains(existing, name)) {
        throw UsageError(std::string("unknown ") + what + " '" + name + "' for " + join(chosen) +
                         "; known: " + join(existing) + " (or all)");
      }
    }
  };
  check_names(variants, "variant", &BenchCase::variant);
  check_names(dtypes, "dtype", &BenchCase::dtype);

  std::vector<std::unique_ptr<BenchCase>> selected;
  for (auto& bench_case : cases) {
    if ((selects_all(variants) || contains(variants, bench_case->variant())) &&
        (selects_all(dtypes) || contains(dtypes, bench_case->dtype()))) {
      selected.push_back(std::move(bench_case));
    }
  }
  return selected;
}

std::string describe_cases(const std::vector<std::unique_ptr<BenchCase>>& cases) {
  std::ostringstream out;
  std::size_t primitive_width = 9, variant_width = 7, dtype_width = 5;
  for (const auto& c : cases) {
    primitive_width = std::max(primitive_width, c->primitive().size());
    variant_width = std::max(variant_width, c->variant().size());
    dtype_width = std::max(dtype_width, c->dtype().size());
  }
  const auto sizes = [](const std::vector<std::size_t>& list) {
    std::vector<std::string> names;
    for (std::size_t n : list) names.push_back(format_size(n));
    return join(names, ",");
  };
  out << std::left << std::setw(primitive_width + 2) << "primitive" << std::setw(variant_width + 2)
      << "variant" << std::setw(dtype_width + 2) << "dtype" << std::setw(10) << "unit"
      << "default sizes (--quick)\n";
  for (const auto& c : cases) {
    out << std::left << std::setw(primitive_width + 2) << c->primitive()
        << std::setw(variant_width + 2) << c->variant() << std::setw(dtype_width + 2) << c->dtype()
        << std::setw(10) << c->unit() << sizes(c->default_sizes(false)) << " ("
        << sizes(c->default_sizes(true)) << ")\n";
  }
  return out.str();
}

}  // namespace bench

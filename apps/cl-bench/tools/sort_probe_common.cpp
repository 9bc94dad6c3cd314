#include "apps/cl-bench/tools/sort_probe_common.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "apps/cl-bench/harness.hpp"

namespace sort_probe {

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = s.find(c, start);
    out.push_back(s.substr(start, at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<cl_uint> random_keys(std::size_t n) {
  std::vector<cl_uint> keys(n);
  std::uint64_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = static_cast<cl_uint>(z ^ (z >> 31));
  }
  return keys;
}

std::size_t count_argument(const char* name, const char* text, std::size_t least) {
  try {
    const std::size_t count = bench::parse_size(text);
    if (count < least) {
      throw bench::UsageError("'" + std::string(text) + "' is below " + std::to_string(least));
    }
    return count;
  } catch (const bench::UsageError& e) {
    std::fprintf(stderr, "sort-probe: %s: %s\n", name, e.what());
    std::exit(2);
  }
}

}  // namespace sort_probe

// Size lists as `cl-bench --sizes LIST` reads them ("2^20,1M,1Ki..64Ki").
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "apps/cl-bench/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    bench::parse_sizes(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const std::exception&) {
  }
  return 0;
}

// Boid states as `cl-boids run --init FILE` reads them, in 2 and 3 dimensions.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

#include "apps/boids/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (int dims : {2, 3}) {
    std::istringstream in(text);
    try {
      boids::read_csv(in, "fuzz.csv", dims);
    } catch (const std::exception&) {
    }
  }
  return 0;
}

#include "framework/primitives/random_reference.hpp"

#include "framework/error.hpp"
#include "shared/random.h"

namespace clf::primitives {

std::vector<cl_uint> random_uint_reference(std::size_t n, std::uint64_t seed,
                                           const std::string& generator, std::uint64_t stream) {
  std::vector<cl_uint> values(n);
  if (generator == "philox") {
    PhiloxState state = philox_init(seed, stream);
    for (cl_uint& value : values) value = philox_next_uint(&state);
  } else if (generator == "mwc64x") {
    Mwc64xState state = mwc64x_init(seed, stream);
    for (cl_uint& value : values) value = mwc64x_next_uint(&state);
  } else {
    throw Error("random_uint_reference: unknown generator '" + generator + "'");
  }
  return values;
}

std::vector<cl_float> random_float_reference(std::size_t n, std::uint64_t seed,
                                             const std::string& generator, std::uint64_t stream) {
  const std::vector<cl_uint> bits = random_uint_reference(n, seed, generator, stream);
  std::vector<cl_float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = clf_uint_to_unit_float(bits[i]);
  return values;
}

}  // namespace clf::primitives

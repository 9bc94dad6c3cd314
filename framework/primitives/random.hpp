// Filling device buffers with reproducible random numbers, and the generators app kernels use.
//
//   clf::DeviceBuffer<cl_float> noise(runtime, n);
//   clf::primitives::fill_random(noise, /*seed=*/42);               // Philox, uniform [0, 1)
//   clf::primitives::fill_random(bits, 42, "mwc64x", /*stream=*/3); // Kloosterman's MWC64X
//
// Element i of a fill is number i of stream `stream` of the generator under `seed`, exactly as
// shared/random.h defines it (philox_next_uint / mwc64x_next_uint from *_init(seed, stream)),
// so kernels that draw per-work-item streams and the host references agree bit for bit.
// Floats are uniform on [0, 1): the top 24 bits over 2^24. At most 2^32 - 1 elements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

// "philox" (the default: counter-based, one block of 4 per work-item), "mwc64x".
const std::vector<std::string>& random_generators();

// One generator's fill kernels, built once (what cl-bench times). Throws Error for an unknown
// generator name.
class RandomFiller {
 public:
  RandomFiller(Runtime& runtime, const std::string& generator = "philox");
  ~RandomFiller();
  RandomFiller(const RandomFiller&) = delete;
  RandomFiller& operator=(const RandomFiller&) = delete;

  const std::string& generator() const { return generator_; }
  // Enqueue the fill; nothing is read back. Throw Error for a buffer of another runtime.
  void fill(DeviceBuffer<cl_uint>& out, std::uint64_t seed, std::uint64_t stream = 0);
  void fill(DeviceBuffer<cl_float>& out, std::uint64_t seed, std::uint64_t stream = 0);

 private:
  template <typename T>
  void fill_impl(DeviceBuffer<T>& out, std::uint64_t seed, std::uint64_t stream, CLKernel& kernel);

  Runtime* runtime_;
  std::string generator_;
  std::unique_ptr<CLKernel> fill_uint_;
  std::unique_ptr<CLKernel> fill_float_;
};

// One-shot fills on the buffer's runtime.
void fill_random(DeviceBuffer<cl_uint>& out, std::uint64_t seed,
                 const std::string& generator = "philox", std::uint64_t stream = 0);
void fill_random(DeviceBuffer<cl_float>& out, std::uint64_t seed,
                 const std::string& generator = "philox", std::uint64_t stream = 0);

}  // namespace clf::primitives

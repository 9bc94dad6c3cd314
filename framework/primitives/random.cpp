#include "framework/primitives/random.hpp"

#include <algorithm>
#include <limits>

#include "framework/error.hpp"
#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"
#include "shared/random.h"

namespace clf::primitives {

namespace {

constexpr std::size_t kGroupSize = 256;
// Numbers one MWC64X work-item draws in sequence after its skip-ahead: long enough to pay for
// the skip (about 40 modular multiplications), short enough for parallelism.
constexpr cl_uint kMwc64xChunk = 256;

}  // namespace

const std::vector<std::string>& random_generators() {
  static const std::vector<std::string> names = {"philox", "mwc64x"};
  return names;
}

RandomFiller::RandomFiller(Runtime& runtime, const std::string& generator)
    : runtime_(&runtime), generator_(generator) {
  if (generator != "philox" && generator != "mwc64x") {
    throw Error("fill_random: unknown generator '" + generator +
                "' (known: " + join(random_generators()) + ")");
  }
  const Source source = kernel_source("kernels/primitives/random/" + generator + ".cl");
  fill_uint_ = std::make_unique<CLKernel>(runtime, source, generator + "_fill_uint");
  fill_float_ = std::make_unique<CLKernel>(runtime, source, generator + "_fill_float");
}

RandomFiller::~RandomFiller() = default;

template <typename T>
void RandomFiller::fill_impl(DeviceBuffer<T>& out, std::uint64_t seed, std::uint64_t stream,
                             CLKernel& kernel) {
  if (&out.runtime() != runtime_) {
    throw Error("fill_random: the buffer belongs to another runtime (" +
                out.runtime().device_name() + ")");
  }
  const std::size_t n = out.size();
  if (n > std::numeric_limits<cl_uint>::max()) {
    throw Error("fill_random: " + std::to_string(n) +
                " elements is more than the limit of 2^32 - 1");
  }
  if (n == 0) return;
  const std::size_t local = std::min(kGroupSize, runtime_->device().max_work_group_size);
  if (generator_ == "philox") {
    const std::size_t blocks = ceil_div(n, 4);
    kernel(Range::linear(blocks, local), out, static_cast<cl_uint>(n), cl_ulong{seed},
           cl_ulong{stream});
  } else {
    const std::size_t items = ceil_div(n, kMwc64xChunk);
    const Mwc64xState start = mwc64x_init(seed, stream);
    const cl_ulong chunk_multiplier = mwc64x_pow_mod(CLF_MWC64X_A, kMwc64xChunk);
    kernel(Range::linear(items, local), out, static_cast<cl_uint>(n), start, kMwc64xChunk,
           chunk_multiplier);
  }
}

void RandomFiller::fill(DeviceBuffer<cl_uint>& out, std::uint64_t seed, std::uint64_t stream) {
  fill_impl(out, seed, stream, *fill_uint_);
}

void RandomFiller::fill(DeviceBuffer<cl_float>& out, std::uint64_t seed, std::uint64_t stream) {
  fill_impl(out, seed, stream, *fill_float_);
}

void fill_random(DeviceBuffer<cl_uint>& out, std::uint64_t seed, const std::string& generator,
                 std::uint64_t stream) {
  RandomFiller(out.runtime(), generator).fill(out, seed, stream);
}

void fill_random(DeviceBuffer<cl_float>& out, std::uint64_t seed, const std::string& generator,
                 std::uint64_t stream) {
  RandomFiller(out.runtime(), generator).fill(out, seed, stream);
}

}  // namespace clf::primitives

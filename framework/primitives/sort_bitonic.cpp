// Gruber's bitonic sorts (sections 5.2.1 and 5.2.2 of the thesis docs/primitives.md cites;
// docs/sort.md), reference algorithms the benchmarks reproduce. They pad to a power of
// two with keys that sort last; key-value sorting orders 64-bit (key, index) pairs, so that it
// is stable too.
#include <algorithm>

#include "framework/primitives/sort_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::sorting {

namespace {

constexpr const char* kFile = "kernels/primitives/sort/bitonic.cl";
// The local-memory kernel: work-group and the elements it sorts.
constexpr std::size_t kLocalWorkGroup = 256;
constexpr std::size_t kLocalElements = kLocalWorkGroup * 4;

class BitonicSort : public SortAlgorithm {
 public:
  BitonicSort(Runtime& runtime, unsigned elements_per_item)
      : SortAlgorithm(runtime), elements_per_item_(elements_per_item) {}

  // The padded array (a power of two) of 4- or 8-byte elements must fit one allocation.
  std::size_t max_keys(bool with_values) const override {
    const std::uint64_t allocation = runtime().device().max_allocation_bytes;
    const std::uint64_t element = with_values ? sizeof(cl_ulong) : sizeof(cl_uint);
    std::size_t padded = 1;
    while (padded * 2 * element <= allocation && padded * 2 <= kMaxKeys) padded *= 2;
    return std::min(SortAlgorithm::max_keys(with_values), padded);
  }

  void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
            unsigned /*key_bits: 32*/) override {
    const bool with_values = values != nullptr;
    const std::string options = values_option(with_values);
    const auto key_kind = static_cast<cl_uint>(kind);
    const std::size_t padded = next_power_of_two(n);
    BufferBase& elements = with_values
                               ? static_cast<BufferBase&>(temporary<cl_ulong>("bitonic", padded))
                               : static_cast<BufferBase&>(temporary<cl_uint>("bitonic", padded));
    const auto count = static_cast<cl_uint>(n);
    kernel(kFile, "bitonic_prepare", options)(Range::linear(padded, 256), keys, key_kind, elements,
                                              count, static_cast<cl_uint>(padded));
    if (elements_per_item_ == 0) {
      global_steps(elements, padded, options);
    } else {
      fused_steps(elements, padded, options);
    }
    if (with_values) {
      auto& values_copy = temporary<cl_uint>("values", n);
      copy(*values, values_copy, n * sizeof(cl_uint));
      kernel(kFile, "bitonic_finish", options)(Range::linear(n, 256), elements, keys, key_kind,
                                               read_only(values_copy), *values, count);
    } else {
      kernel(kFile, "bitonic_finish", options)(Range::linear(n, 256), elements, keys, key_kind,
                                               count);
    }
  }

 private:
  // 5.2.1: one launch per column of the network.
  void global_steps(BufferBase& elements, std::size_t padded, const std::string& options) {
    CLKernel& step = kernel(kFile, "bitonic_step", options);
    const Range range = Range::linear(padded / 2, std::min<std::size_t>(256, padded / 2));
    for (cl_uint width = 2; width <= padded; width <<= 1) {
      for (cl_uint inc = width >> 1; inc > 0; inc >>= 1) step(range, elements, inc, width);
    }
  }

  // 5.2.2: columns whose comparators span less than a local chunk run in local memory; wider
  // ones in fused register kernels of up to elements_per_item_ elements per work-item.
  void fused_steps(BufferBase& elements, std::size_t padded, const std::string& options) {
    const std::size_t chunk = std::min(padded, kLocalElements);
    const auto chunk_count = static_cast<cl_uint>(chunk);
    CLKernel& local = kernel(kFile, "bitonic_local", options);
    const Range local_range = Range::linear(padded / chunk * kLocalWorkGroup, kLocalWorkGroup);
    local(local_range, elements, chunk_count, cl_uint{0});
    for (std::size_t width = chunk * 2; width <= padded; width <<= 1) {
      std::size_t inc = width >> 1;
      while (inc >= chunk) {
        unsigned level = elements_per_item_;
        while (level > 2 && inc / (level / 2) < chunk) level /= 2;
        CLKernel& fused = kernel(kFile, "bitonic_fused" + std::to_string(level), options);
        const std::size_t items = padded / level;
        fused(Range::linear(items, std::min<std::size_t>(256, items)), elements,
              static_cast<cl_uint>(inc), static_cast<cl_uint>(width));
        inc /= level;
      }
      local(local_range, elements, chunk_count, static_cast<cl_uint>(width));
    }
  }

  unsigned elements_per_item_;
};

}  // namespace

std::unique_ptr<SortAlgorithm> make_bitonic_sort(Runtime& runtime, unsigned elements_per_item) {
  return std::make_unique<BitonicSort>(runtime, elements_per_item);
}

}  // namespace clf::primitives::sorting

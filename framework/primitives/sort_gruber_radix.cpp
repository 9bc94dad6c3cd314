// Gruber's radix sorts (sections 5.2.3 to 5.2.5 of the thesis docs/primitives.md cites;
// docs/sort.md), reference algorithms the benchmarks reproduce: 4-bit digits, eight
// passes of a histogram kernel, a scan and a permute kernel.
#include "framework/primitives/sort_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::sorting {

namespace {

constexpr std::size_t kWorkGroup = 64;
constexpr std::size_t kBuckets = 16;

class GruberRadixSort : public SortAlgorithm {
 public:
  GruberRadixSort(Runtime& runtime, GruberHistograms histograms)
      : SortAlgorithm(runtime),
        local_histograms_(histograms != GruberHistograms::private_memory),
        vector_loads_(histograms == GruberHistograms::local_memory_vector_loads) {}

  void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
            unsigned /*key_bits: 32*/) override {
    const char* file = "kernels/primitives/sort/radix_gruber.cl";
    const std::size_t block = vector_loads_ ? 128 : 32;
    const std::string options =
        values_option(values != nullptr, "-DBLOCK_SIZE=" + std::to_string(block) +
                                             " -DHIST_LOCAL=" + (local_histograms_ ? "1" : "0") +
                                             " -DVECTOR_LOADS=" + (vector_loads_ ? "1" : "0"));
    const Range range = Range::linear(ceil_div(n, block), kWorkGroup);
    const std::size_t items = range.global[0];
    auto& histograms = temporary<cl_uint>("histograms", items * kBuckets);
    CLKernel& histogram = kernel(file, "radix_gruber_histogram", options);
    CLKernel& permute = kernel(file, "radix_gruber_permute", options);
    const auto count = static_cast<cl_uint>(n);
    const auto key_kind = static_cast<cl_uint>(kind);
    const Local<cl_uint> local_memory{kWorkGroup * kBuckets};
    // The kernels' signatures differ by build (local histograms take local memory, key-value
    // sorts take the values), hence the four calls.
    ping_pong(keys, values, kind, n, 8,
              [&](cl_uint pass, BufferBase& from, BufferBase& to,
                  DeviceBuffer<cl_uint>* values_from, DeviceBuffer<cl_uint>* values_to) {
                const cl_uint shift = 4 * pass;
                if (local_histograms_) {
                  histogram(range, from, key_kind, histograms, count, shift, local_memory);
                } else {
                  histogram(range, from, key_kind, histograms, count, shift);
                }
                scan_exclusive(histograms, items * kBuckets);
                if (values != nullptr && local_histograms_) {
                  permute(range, from, to, key_kind, *values_from, *values_to, histograms, count,
                          shift, local_memory);
                } else if (values != nullptr) {
                  permute(range, from, to, key_kind, *values_from, *values_to, histograms, count,
                          shift);
                } else if (local_histograms_) {
                  permute(range, from, to, key_kind, histograms, count, shift, local_memory);
                } else {
                  permute(range, from, to, key_kind, histograms, count, shift);
                }
              });
  }

 private:
  bool local_histograms_;
  bool vector_loads_;
};

}  // namespace

std::unique_ptr<SortAlgorithm> make_gruber_radix_sort(Runtime& runtime,
                                                      GruberHistograms histograms) {
  return std::make_unique<GruberRadixSort>(runtime, histograms);
}

}  // namespace clf::primitives::sorting

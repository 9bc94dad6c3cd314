// What the sort algorithms share (internal to framework/primitives/sort*.cpp): the base class
// that keeps an algorithm's compiled kernels and temporary buffers, and the factories the Sorter
// chooses from (one file per algorithm, after the Boost.Compute model).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/tuning.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives::sorting {

// Matches KEY_KIND in kernels/primitives/sort/common.cl.
enum class KeyKind { uint32 = 0, int32 = 1, float32 = 2 };

// Kernels index with 32-bit integers.
constexpr std::size_t kMaxKeys = std::size_t{1} << 31;

// One algorithm's kernels and temporaries (they grow to the largest size seen).
class SortAlgorithm {
 public:
  explicit SortAlgorithm(Runtime& runtime) : runtime_(&runtime) {}
  virtual ~SortAlgorithm() = default;
  SortAlgorithm(const SortAlgorithm&) = delete;
  SortAlgorithm& operator=(const SortAlgorithm&) = delete;

  // Sorts keys[0, n) by their ordered bits' low `key_bits` bits (32: the whole key; fewer only
  // where orders_by_low_bits()), permuting values along when given; 2 <= n <= max_keys(), sizes
  // checked.
  virtual void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
                    unsigned key_bits) = 0;
  // Whether sort() takes key_bits below 32.
  virtual bool orders_by_low_bits() const { return false; }
  // The most keys the algorithm sorts on the device: temporaries must fit one allocation.
  virtual std::size_t max_keys(bool with_values) const;
  // What runs, for the "default" variant's algorithm(): "radix" or "onesweep".
  virtual std::string name() const { return {}; }

  Runtime& runtime() const { return *runtime_; }
  std::size_t temporary_bytes() const;

 protected:
  // A kernel of `file` built with `options`, kept for later calls.
  CLKernel& kernel(const char* file, const std::string& name, const std::string& options);
  // A temporary of at least `count` elements, kept for later calls.
  template <typename T>
  DeviceBuffer<T>& temporary(const std::string& role, std::size_t count) {
    std::unique_ptr<BufferBase>& slot = temporaries_[role];
    auto* buffer = dynamic_cast<DeviceBuffer<T>*>(slot.get());
    if (buffer == nullptr || buffer->size() < count) {
      slot.reset();  // free the old one first
      slot = std::make_unique<DeviceBuffer<T>>(*runtime_, count);
      buffer = static_cast<DeviceBuffer<T>*>(slot.get());
    }
    return *buffer;
  }
  BufferBase& temporary_keys(KeyKind kind, std::size_t count, const std::string& role);
  void copy(const BufferBase& from, BufferBase& to, std::size_t bytes);
  // In-place exclusive scan of data[0, count) (kernels/primitives/sort/scan.cl); block sums are
  // scanned recursively.
  void scan_exclusive(DeviceBuffer<cl_uint>& data, std::size_t count, unsigned depth = 0);

  // Runs `pass(p, from, to, values_from, values_to)` for p = 0 .. passes - 1, from the caller's
  // buffers back to them: an even number of passes alternates with temporaries, an odd number
  // from three on rotates through two sets of them (no copy), and one pass alone goes to
  // temporaries and is copied back.
  template <typename Pass>
  void ping_pong(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
                 cl_uint passes, Pass pass) {
    const bool two_sets = passes % 2 == 1 && passes > 1;
    BufferBase* key_buffers[3] = {&keys, &temporary_keys(kind, n, "keys"),
                                  two_sets ? &temporary_keys(kind, n, "keys-2") : nullptr};
    DeviceBuffer<cl_uint>* value_buffers[3] = {
        values, values != nullptr ? &temporary<cl_uint>("values", n) : nullptr,
        values != nullptr && two_sets ? &temporary<cl_uint>("values-2", n) : nullptr};
    // Which buffers hold the keys after `done` passes.
    const auto holding = [&](cl_uint done) {
      if (done == 0 || (done == passes && passes > 1)) return 0;
      return done % 2 == 1 ? 1 : two_sets ? 2 : 0;
    };
    for (cl_uint p = 0; p < passes; ++p) {
      const int from = holding(p), to = holding(p + 1);
      pass(p, *key_buffers[from], *key_buffers[to], value_buffers[from], value_buffers[to]);
    }
    if (holding(passes) != 0) {
      copy(*key_buffers[1], keys, n * sizeof(cl_uint));  // every key kind is 32 bits wide
      if (values != nullptr) copy(*value_buffers[1], *values, n * sizeof(cl_uint));
    }
  }

  // -DWITH_VALUES=0|1, then `extra`.
  static std::string values_option(bool with_values, const std::string& extra = "");

 private:
  Runtime* runtime_;
  std::map<std::string, std::unique_ptr<CLKernel>> kernels_;
  std::map<std::string, std::unique_ptr<BufferBase>> temporaries_;
};

// LSD radix sort with 8-bit digits (sort_radix.cpp). Tiles: on GPUs tiles ranked in local
// memory, on CPUs long chunks (device_choice); or tiles anywhere ranked by splits or by warp
// multi-split. Onesweep: one pass per digit with a decoupled look-back; `onesweep_only` limits
// the keys to what onesweep handles instead of falling back to the upsweep/downsweep passes.
enum class RadixTiles { device_choice, split, warp_match };
std::unique_ptr<SortAlgorithm> make_radix_sort(Runtime& runtime, const SortConfig& config,
                                               RadixTiles tiles, bool onesweep, bool onesweep_only);

// Gruber's bitonic sorts (sort_bitonic.cpp): `elements_per_item` 0 for one launch per column in
// global memory (5.2.1), else 2, 4, 8 or 16 elements per work-item in registers (5.2.2).
std::unique_ptr<SortAlgorithm> make_bitonic_sort(Runtime& runtime, unsigned elements_per_item);

// Gruber's radix sorts with 4-bit digits (sort_gruber_radix.cpp): histograms in private memory
// (5.2.3), in local memory (5.2.4), in local memory with uint16 loads (5.2.5).
enum class GruberHistograms { private_memory, local_memory, local_memory_vector_loads };
std::unique_ptr<SortAlgorithm> make_gruber_radix_sort(Runtime& runtime,
                                                      GruberHistograms histograms);

}  // namespace clf::primitives::sorting

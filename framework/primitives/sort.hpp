// Sorting device buffers of 32-bit keys, optionally carrying uint32 values.
//
//   clf::primitives::Sorter sorter(runtime);            // "default": the fastest for the device
//   sorter.sort(keys);                                  // DeviceBuffer<cl_uint|cl_int|cl_float>
//   sorter.sort(keys, values);                          // values: DeviceBuffer<cl_uint>, same size
//   sorter.sort(cells, values, KeyBits{18});            // uint32 keys ordered by their low 18 bits
//
// Every variant sorts ascending and stably (equal keys keep their values' order) and takes any
// length, 0 included. Float keys are ordered by IEEE 754 totalOrder: -NaN < -inf < ... < -0 < +0 <
// ... < +inf < +NaN, i.e. -0 sorts before +0, NaNs with the sign bit clear sort last and NaNs
// with the sign bit set sort first; every key's bits come back unchanged.
//
// Variants (sort_variants() lists them):
//   default          radix sort, 8-bit digits, local ranking; "onesweep" where work-groups make
//                    forward progress (NVIDIA GPUs), "radix" elsewhere
//   radix            portable LSD radix, 8-bit digits: upsweep (histograms), scan, downsweep
//                    (scatter). On GPUs tiles of 7168 keys (5120 with values) ranked in local
//                    memory (docs/sort.md); on CPUs one long chunk of keys per work-item (what
//                    CPUs do fast)
//   radix-tiles      "radix" with tiles on any device, ranked by two 4-bit splits
//   radix-match      "radix" with tiles on any device, ranked by warp multi-split: inline PTX
//                    (ballots, shfl.sync) on NVIDIA, emulated with barriers elsewhere (slow; it
//                    tests the NVIDIA code's structure on PoCL)
//   onesweep         one pass per digit with a decoupled look-back; throws Error on devices
//                    without forward progress between work-groups
// Tile ranking on GPUs ("radix", "onesweep", "default"): warp multi-split on NVIDIA when its
// inline PTX builds (else, and on other GPUs, two 4-bit splits). Tile shapes and ranking come
// from a SortConfig (framework/primitives/tuning.hpp; default: the tuning table's for the
// device). docs/sort.md has the design and figures.
// Gruber's variants (docs/primitives.md cites the thesis), reference algorithms for the benchmarks:
//   bitonic          Gruber 5.2.1: one launch per column of the network, global memory
//   bitonic-fused-K  Gruber 5.2.2 with K = 2, 4, 8 or 16 elements per work-item in registers,
//                    plus local-memory kernels for the columns that fit in one work-group
//                    ("bitonic-fused" means bitonic-fused-16)
//   radix-private    Gruber 5.2.3: 4-bit digits, per-work-item histograms in private memory
//   radix-local      Gruber 5.2.4: the same with the histograms in local memory
//   radix-local-vec  Gruber 5.2.5: local histograms and uint16 loads
// Bitonic variants pad to a power of two (with keys that sort last); key-value bitonic sorts 64-bit
// (key, index) pairs so that it is stable too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/primitives/tuning.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

// The variant names a Sorter accepts, in the order cl-bench runs them.
const std::vector<std::string>& sort_variants();
// Throws Error for an unknown variant, or one that cannot run on `device` ("onesweep" where
// work-groups lack forward progress: has_forward_progress()).
void check_sort_variant(const std::string& variant, const DeviceInfo& device);

// How many low bits of uint32 keys order them (CUB's end_bit, from bit 0): a sort with
// KeyBits{k} orders the keys by key mod 2^k, stably (keys equal there keep their order, and
// their values'), and leaves every key's bits as they were. The radix variants take ceil(k / 8)
// passes instead of four, so keys known to be below 2^k (cell ids, bucket numbers) sort faster
// (1.2-2.3x on an H200 at 2^28, docs/sort.md); the other variants order by whole keys only and
// throw Error for k < 32.
struct KeyBits {
  unsigned bits = 32;
  // The fewest bits (at least one) that hold every key below `bound` (a count of cells, say).
  static KeyBits below(std::uint64_t bound) {
    unsigned bits = 1;
    while (bits < 32 && (bound - 1) >> bits != 0) ++bits;
    return KeyBits{bits};
  }
};

// Sorts buffers with one variant, keeping its compiled kernels and temporary buffers between
// calls (they grow to the largest size seen). Not thread-safe; use one Sorter per thread.
class Sorter {
 public:
  // Throws Error as check_sort_variant does.
  explicit Sorter(Runtime& runtime, const std::string& variant = "default");
  // The radix variants ("default", "radix", "radix-tiles", "radix-match", "onesweep") take
  // their tile shapes and ranking from `config`; the others ignore it. Throws Error for a config
  // whose rule SortConfig::check() names.
  Sorter(Runtime& runtime, const std::string& variant, const SortConfig& config);
  explicit Sorter(const std::string& variant = "default");
  ~Sorter();
  Sorter(Sorter&&) noexcept;
  Sorter& operator=(Sorter&&) noexcept;

  // The variant as asked for, and the algorithm it runs ("default" -> "onesweep" or "radix").
  const std::string& variant() const;
  const std::string& algorithm() const;

  // Sorts keys in place; with values, permutes them along (values.size() must equal
  // keys.size()). Throws Error on mismatched sizes or a size the variant cannot handle.
  void sort(DeviceBuffer<cl_uint>& keys);
  void sort(DeviceBuffer<cl_int>& keys);
  void sort(DeviceBuffer<cl_float>& keys);
  void sort(DeviceBuffer<cl_uint>& keys, DeviceBuffer<cl_uint>& values);
  void sort(DeviceBuffer<cl_int>& keys, DeviceBuffer<cl_uint>& values);
  void sort(DeviceBuffer<cl_float>& keys, DeviceBuffer<cl_uint>& values);
  // By the keys' low key_bits.bits bits (KeyBits); Error for bits outside 1..32, or below 32
  // with a variant other than the radix ones.
  void sort(DeviceBuffer<cl_uint>& keys, KeyBits key_bits);
  void sort(DeviceBuffer<cl_uint>& keys, DeviceBuffer<cl_uint>& values, KeyBits key_bits);

  // The most keys this variant sorts on this device (temporaries must fit one allocation;
  // kernels index with 32 bits), and the check sort() makes: Error above that.
  std::size_t max_keys(bool with_values) const;
  void check_size(std::size_t n, bool with_values) const;

  // Bytes of device memory the temporaries hold now.
  std::size_t temporary_bytes() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Convenience: host vectors in, sorted on the device, host vectors out (K: cl_uint, cl_int,
// cl_float). Each call compiles nothing new after the first, but allocates its buffers.
template <typename K>
void sort(std::vector<K>& keys, const std::string& variant = "default",
          Runtime& runtime = Runtime::shared());
template <typename K>
void sort_by_key(std::vector<K>& keys, std::vector<cl_uint>& values,
                 const std::string& variant = "default", Runtime& runtime = Runtime::shared());

}  // namespace clf::primitives

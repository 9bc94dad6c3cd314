#include "framework/primitives/sort.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

#include "framework/kernel.hpp"

namespace clf::primitives {

namespace {

// Matches KEY_KIND in kernels/primitives/sort/common.cl.
enum class KeyKind { uint32 = 0, int32 = 1, float32 = 2 };

template <typename K>
constexpr KeyKind kind_of() {
  if constexpr (std::is_same_v<K, cl_uint>) return KeyKind::uint32;
  if constexpr (std::is_same_v<K, cl_int>) return KeyKind::int32;
  return KeyKind::float32;
}

enum class Algorithm { bitonic, bitonic_fused, radix_seed, radix, onesweep };

struct Variant {
  const char* name;
  Algorithm algorithm;
  unsigned parameter;  // bitonic-fused: elements per work-item; radix_seed: which seed kernel
};

enum SeedRadix : unsigned { seed_private, seed_local, seed_local_vec };

// Radix parameter: how tiles are formed and ranked.
enum RadixShape : unsigned { radix_device_choice, radix_tiles_split, radix_tiles_match };

// Tile ranking, as RANK_MATCH in kernels/primitives/sort/radix.cl.
enum class Ranking { split = 0, match_emulated = 1, match_ptx = 2 };

const Variant kVariants[] = {
    {"default", Algorithm::radix, 0},  // resolved per device in the Sorter
    {"radix", Algorithm::radix, 0},
    {"radix-tiles", Algorithm::radix, radix_tiles_split},  // GPU shape, split ranking, anywhere
    {"radix-match", Algorithm::radix, radix_tiles_match},  // GPU shape, warp ranking, anywhere
    {"onesweep", Algorithm::onesweep, 0},
    {"bitonic", Algorithm::bitonic, 0},
    {"bitonic-fused-2", Algorithm::bitonic_fused, 2},
    {"bitonic-fused-4", Algorithm::bitonic_fused, 4},
    {"bitonic-fused-8", Algorithm::bitonic_fused, 8},
    {"bitonic-fused-16", Algorithm::bitonic_fused, 16},
    {"radix-private", Algorithm::radix_seed, seed_private},
    {"radix-local", Algorithm::radix_seed, seed_local},
    {"radix-local-vec", Algorithm::radix_seed, seed_local_vec},
};

// Work-group and tile sizes; they must match the kernels' defaults or be passed as -D options.
constexpr std::size_t kDigits = 256;
constexpr std::size_t kPasses = 4;
constexpr std::size_t kScanWorkGroup = 256;
// GLOBAL_WG in kernels/primitives/sort/radix.cl: the onesweep histogram and scan kernels.
constexpr std::size_t kGlobalWorkGroup = 256;
constexpr std::size_t kScanBlock = kScanWorkGroup * 8;
constexpr std::size_t kBitonicLocalWorkGroup = 256;
constexpr std::size_t kBitonicLocalN = kBitonicLocalWorkGroup * 4;
constexpr std::size_t kSeedWorkGroup = 64;
constexpr std::size_t kSeedBuckets = 16;
// Onesweep packs a count into 30 bits of a look-back word.
constexpr std::size_t kOnesweepMaxKeys = (std::size_t{1} << 30) - 1;
// Kernels index with 32-bit integers.
constexpr std::size_t kMaxKeys = std::size_t{1} << 31;

std::size_t next_power_of_two(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

bool is_nvidia_gpu(const DeviceInfo& device) {
  auto has = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    return text.find("nvidia") != std::string::npos;
  };
  return device.type == DeviceType::gpu && (has(device.vendor) || has(device.platform_name));
}

// A positive integer from the environment (benchmark knobs), or `fallback`.
std::size_t env_size(const char* name, std::size_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  const long value = std::strtol(text, nullptr, 10);
  if (value <= 0)
    throw Error(std::string("sort: ") + name + "='" + text + "' is not a positive integer");
  return static_cast<std::size_t>(value);
}

// A 0/1 switch from the environment (benchmark knobs), or `fallback`.
bool env_flag(const char* name, bool fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  const std::string value = text;
  if (value != "0" && value != "1")
    throw Error(std::string("sort: ") + name + "='" + value + "' is not 0 or 1");
  return value == "1";
}

std::string variant_list() {
  std::vector<std::string> names;
  for (const Variant& v : kVariants) names.emplace_back(v.name);
  names.emplace_back("bitonic-fused");
  return join(names);
}

}  // namespace

const std::vector<std::string>& sort_variants() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const Variant& v : kVariants) list.emplace_back(v.name);
    return list;
  }();
  return names;
}

struct Sorter::Impl {
  Runtime* runtime;
  std::string variant;
  std::string algorithm_name;
  Algorithm algorithm;
  unsigned parameter;
  std::map<std::string, std::unique_ptr<CLKernel>> kernels;
  std::map<std::string, std::unique_ptr<BufferBase>> temporaries;
  // Radix tile shape: RADIX_WG work-items with RADIX_ITEMS keys each. GPUs get 256 x 28 (keys
  // only) or 256 x 20 (key-value) with the per-item loops unrolled; CPUs (PoCL) 64 x 16 and no
  // unrolling, which compiles several times faster there and runs faster too.
  std::size_t radix_work_group = 256;
  std::size_t radix_items = 16;
  // Items per work-item by key kind (uint, int, float), keys only and key-value; radix_items
  // is set from them per sort.
  std::size_t kind_items[3] = {28, 28, 28};
  std::size_t kind_items_kv[3] = {20, 20, 20};
  // Warp ranking with the tile's digits counted first (RANK_EARLY in radix.cl), keys only and
  // key-value.
  bool rank_early = true;
  bool rank_early_kv = true;
  // Onesweep global histogram: counter copies per work-group (HIST_COPIES) and work-groups per
  // compute unit.
  std::size_t hist_copies = 1;
  std::size_t hist_groups_per_cu = 8;
  // The onesweep status array the first pass uses, and whether all of it is zero: every pass
  // clears the other array for the next one, so after a whole sort the first pass's array is
  // zero again where a pass used it, and it needs clearing only when it is new.
  // (A reallocated array is larger, so the pair (buffer, size) tells a new one.)
  cl_mem status_even_cleared = nullptr;
  std::size_t status_even_cleared_size = 0;
  bool radix_unroll = true;
  Ranking ranking = Ranking::split;
  // Onesweep look-back: status words read at once per step (LOOKBACK_WINDOW in radix.cl).
  std::size_t lookback_window = 4;
  // GPUs build one program per key kind (KEY_KIND a compile-time constant); CPUs share one
  // program between the kinds (PoCL compiles slowly).
  bool key_kind_options = true;
  // CLF_SORT_OPTIONS: extra build options for the radix kernels (benchmarks and experiments).
  std::string extra_options;
  std::size_t radix_tile() const { return radix_work_group * radix_items; }
  std::string radix_options(KeyKind kind, bool with_values) const {
    const bool early = with_values ? rank_early_kv : rank_early;
    std::string text = "-DRADIX_WG=" + std::to_string(radix_work_group) +
                       " -DRADIX_ITEMS=" + std::to_string(radix_items) +
                       " -DRADIX_UNROLL_LOOPS=" + (radix_unroll ? "1" : "0") +
                       " -DRANK_MATCH=" + std::to_string(static_cast<int>(ranking)) +
                       " -DLOOKBACK_WINDOW=" + std::to_string(lookback_window) +
                       " -DRANK_EARLY=" + (early ? "1" : "0") +
                       " -DHIST_COPIES=" + std::to_string(hist_copies);
    if (key_kind_options) text += " -DKEY_KIND=" + std::to_string(static_cast<int>(kind));
    if (!extra_options.empty()) text += " " + extra_options;
    return text;
  }

  Impl(Runtime& rt, const std::string& name) : runtime(&rt), variant(name) {
    const std::string lookup = name == "bitonic-fused" ? "bitonic-fused-16" : name;
    const Variant* found = nullptr;
    for (const Variant& v : kVariants) {
      if (lookup == v.name) found = &v;
    }
    if (found == nullptr) {
      throw Error("sort: unknown variant '" + name + "' (known: " + variant_list() + ")");
    }
    algorithm = found->algorithm;
    parameter = found->parameter;
    algorithm_name = found->name;
    if (name == "default") {
      const bool onesweep = has_forward_progress(rt.device());
      algorithm = onesweep ? Algorithm::onesweep : Algorithm::radix;
      algorithm_name = onesweep ? "onesweep" : "radix";
    }
    // Read on every device, so that PoCL can test both (radix-match).
    rank_early = env_flag("CLF_SORT_EARLY", rank_early);
    rank_early_kv = env_flag("CLF_SORT_EARLY_KV", rank_early_kv);
    if (rt.device().type == DeviceType::cpu) {
      radix_work_group = 64;
      radix_unroll = false;
      key_kind_options = false;
    } else {
      lookback_window = env_size("CLF_SORT_LOOKBACK", lookback_window);
      if (const char* extra = std::getenv("CLF_SORT_OPTIONS")) extra_options = extra;
      // Benchmark knobs; the defaults are the fastest measured (docs/sort.md).
      radix_work_group = env_size("CLF_SORT_WG", radix_work_group);
      for (std::size_t& items : kind_items) items = env_size("CLF_SORT_ITEMS", items);
      kind_items[2] = env_size("CLF_SORT_ITEMS_FLOAT", kind_items[2]);
      for (std::size_t& items : kind_items_kv) items = env_size("CLF_SORT_ITEMS_KV", items);
      hist_copies = env_size("CLF_SORT_HIST_COPIES", hist_copies);
      if (hist_copies > 8 || (hist_copies & (hist_copies - 1)) != 0) {
        throw Error("sort: CLF_SORT_HIST_COPIES=" + std::to_string(hist_copies) +
                    " (known: 1, 2, 4, 8)");
      }
      // 8 copies take 32 KiB of local memory a work-group: 6 fit a compute unit (228 KiB).
      hist_groups_per_cu = env_size("CLF_SORT_HIST_GROUPS_PER_CU", hist_copies >= 8 ? 6 : 8);
      std::size_t fewest = *std::min_element(std::begin(kind_items), std::end(kind_items));
      std::size_t most = *std::max_element(std::begin(kind_items), std::end(kind_items));
      fewest =
          std::min(fewest, *std::min_element(std::begin(kind_items_kv), std::end(kind_items_kv)));
      most = std::max(most, *std::max_element(std::begin(kind_items_kv), std::end(kind_items_kv)));
      if (radix_work_group % 32 != 0 || radix_work_group > 1024 || fewest < 8 ||
          radix_work_group * most > 16384) {
        throw Error("sort: CLF_SORT_WG=" + std::to_string(radix_work_group) + " and " +
                    std::to_string(fewest) + " to " + std::to_string(most) +
                    " items per work-item (CLF_SORT_ITEMS*) need a work-group of a multiple of 32 "
                    "up to 1024, at least 8 items and a tile of at most 16384 keys");
      }
    }
    // Warp ranking with inline PTX on NVIDIA GPUs (kept only if it builds, see radix_kernel);
    // two 4-bit splits elsewhere. "radix-tiles" and "radix-match" fix the ranking.
    const bool nvidia = is_nvidia_gpu(rt.device());
    ranking = nvidia ? Ranking::match_ptx : Ranking::split;
    if (const char* rank = std::getenv("CLF_SORT_RANK"); rank != nullptr && *rank != '\0') {
      const std::string choice = rank;
      if (choice != "split" && choice != "match") {
        throw Error("sort: CLF_SORT_RANK='" + choice + "' (known: split, match)");
      }
      ranking = choice == "split" ? Ranking::split
                : nvidia          ? Ranking::match_ptx
                                  : Ranking::match_emulated;
    }
    if (algorithm == Algorithm::radix && parameter == radix_tiles_split) ranking = Ranking::split;
    if (algorithm == Algorithm::radix && parameter == radix_tiles_match) {
      ranking = nvidia ? Ranking::match_ptx : Ranking::match_emulated;
    }
    if (algorithm == Algorithm::onesweep && !has_forward_progress(rt.device())) {
      throw Error("sort: variant 'onesweep' needs forward progress between work-groups, which " +
                  describe(rt.device()) + " does not guarantee; use 'radix' or 'default'");
    }
  }

  // --- sizes -------------------------------------------------------------------------------

  std::size_t max_keys(bool with_values) const {
    const std::uint64_t allocation = runtime->device().max_allocation_bytes;
    std::size_t limit = std::min<std::uint64_t>(kMaxKeys, allocation / sizeof(cl_uint));
    if (algorithm == Algorithm::bitonic || algorithm == Algorithm::bitonic_fused) {
      // The padded array (a power of two) of 4- or 8-byte elements must fit one allocation.
      const std::uint64_t element = with_values ? sizeof(cl_ulong) : sizeof(cl_uint);
      std::size_t padded = 1;
      while (padded * 2 * element <= allocation && padded * 2 <= kMaxKeys) padded *= 2;
      limit = std::min(limit, padded);
    }
    if (algorithm == Algorithm::onesweep && variant == "onesweep") {
      limit = std::min(limit, kOnesweepMaxKeys);
    }
    return limit;
  }

  void check_size(std::size_t n, bool with_values) const {
    const std::size_t limit = max_keys(with_values);
    if (n > limit) {
      throw Error("sort: " + std::to_string(n) + " keys is more than variant '" + variant +
                  "' can sort on " + runtime->device_name() + " (at most " + std::to_string(limit) +
                  (with_values ? " with values)" : " keys only)"));
    }
  }

  // --- kernels and temporaries -------------------------------------------------------------

  CLKernel& kernel(const char* file, const std::string& name, const std::string& options) {
    const std::string key = std::string(file) + "|" + name + "|" + options;
    auto found = kernels.find(key);
    if (found == kernels.end()) {
      found = kernels
                  .emplace(key,
                           std::make_unique<CLKernel>(*runtime, kernel_source(file), name, options))
                  .first;
    }
    return *found->second;
  }

  // A kernel of kernels/primitives/sort/radix.cl. The inline-PTX ranking is tried first where
  // chosen; if the device's compiler rejects it, the sorter falls back to split ranking for good.
  CLKernel& radix_kernel(const std::string& name, bool with_values, KeyKind kind) {
    const char* file = "kernels/primitives/sort/radix.cl";
    if (ranking != Ranking::match_ptx)
      return kernel(file, name, options(with_values, radix_options(kind, with_values)));
    try {
      return kernel(file, name, options(with_values, radix_options(kind, with_values)));
    } catch (const Error& error) {
      std::cerr << "sort: the warp-match ranking (inline PTX) does not build on "
                << runtime->device_name() << "; using split ranking: " << error.what() << "\n";
      ranking = Ranking::split;
      return kernel(file, name, options(with_values, radix_options(kind, with_values)));
    }
  }

  // Key types share programs (the kernels take the key kind as an argument): PoCL compiles
  // slowly, and fewer programs keep first runs and the tests short.
  static std::string options(bool with_values, const std::string& extra = "") {
    return std::string("-DWITH_VALUES=") + (with_values ? "1" : "0") +
           (extra.empty() ? "" : " " + extra);
  }

  // A temporary of at least `count` elements, kept for later calls.
  template <typename T>
  DeviceBuffer<T>& temporary(const std::string& role, std::size_t count) {
    std::unique_ptr<BufferBase>& slot = temporaries[role];
    auto* buffer = dynamic_cast<DeviceBuffer<T>*>(slot.get());
    if (buffer == nullptr || buffer->size() < count) {
      slot.reset();  // free the old one first
      slot = std::make_unique<DeviceBuffer<T>>(*runtime, count);
      buffer = static_cast<DeviceBuffer<T>*>(slot.get());
    }
    return *buffer;
  }

  BufferBase& temporary_keys(KeyKind kind, std::size_t count) {
    switch (kind) {
      case KeyKind::uint32:
        return temporary<cl_uint>("keys", count);
      case KeyKind::int32:
        return temporary<cl_int>("keys", count);
      case KeyKind::float32:
        break;
    }
    return temporary<cl_float>("keys", count);
  }

  void copy(const BufferBase& from, BufferBase& to, std::size_t bytes) {
    if (bytes == 0) return;
    cl::Event event;
    check(runtime->queue().enqueueCopyBuffer(from.mem(), to.mem(), 0, 0, bytes, nullptr, &event),
          "clEnqueueCopyBuffer", {"", runtime->device_name(), std::to_string(bytes) + " bytes"});
    runtime->record(Event(event));
  }

  // In-place exclusive scan of data[0, count); block sums are scanned recursively.
  void scan_exclusive(DeviceBuffer<cl_uint>& data, std::size_t count, unsigned depth = 0) {
    const std::size_t blocks = ceil_div(count, kScanBlock);
    auto& sums = temporary<cl_uint>("scan-sums-" + std::to_string(depth), blocks);
    const auto n = static_cast<cl_uint>(count);
    const Range range = Range::linear(blocks * kScanWorkGroup, kScanWorkGroup);
    kernel("kernels/primitives/sort/scan.cl", "scan_blocks", "")(range, data, sums, n);
    if (blocks > 1) {
      scan_exclusive(sums, blocks, depth + 1);
      kernel("kernels/primitives/sort/scan.cl", "scan_add_block_offsets", "")(range, data,
                                                                              read_only(sums), n);
    }
  }

  // --- algorithms --------------------------------------------------------------------------

  void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    if (values != nullptr && values->size() != n) {
      throw Error("sort: " + std::to_string(n) + " keys but " + std::to_string(values->size()) +
                  " values; key-value sorting needs one value per key");
    }
    check_size(n, values != nullptr);
    if (n <= 1) return;
    if (runtime->device().type != DeviceType::cpu) {
      radix_items = (values != nullptr ? kind_items_kv : kind_items)[static_cast<int>(kind)];
    }
    switch (algorithm) {
      case Algorithm::bitonic:
      case Algorithm::bitonic_fused:
        return sort_bitonic(keys, values, kind, n);
      case Algorithm::radix_seed:
        return sort_radix_seed(keys, values, kind, n);
      case Algorithm::radix:
        return sort_radix(keys, values, kind, n);
      case Algorithm::onesweep:
        return n <= kOnesweepMaxKeys ? sort_onesweep(keys, values, kind, n)
                                     : sort_radix(keys, values, kind, n);
    }
  }

  void sort_bitonic(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    const bool with_values = values != nullptr;
    const std::string opts = options(with_values);
    const auto key_kind = static_cast<cl_uint>(kind);
    const char* file = "kernels/primitives/sort/bitonic.cl";
    const std::size_t padded = next_power_of_two(n);
    BufferBase& elements = with_values
                               ? static_cast<BufferBase&>(temporary<cl_ulong>("bitonic", padded))
                               : static_cast<BufferBase&>(temporary<cl_uint>("bitonic", padded));
    const auto count = static_cast<cl_uint>(n);
    const auto padded_count = static_cast<cl_uint>(padded);
    kernel(file, "bitonic_prepare", opts)(Range::linear(padded, 256), keys, key_kind, elements,
                                          count, padded_count);
    if (algorithm == Algorithm::bitonic) {
      CLKernel& step = kernel(file, "bitonic_step", opts);
      const Range range = Range::linear(padded / 2, std::min<std::size_t>(256, padded / 2));
      for (cl_uint width = 2; width <= padded; width <<= 1) {
        for (cl_uint inc = width >> 1; inc > 0; inc >>= 1) step(range, elements, inc, width);
      }
    } else {
      // Columns whose comparators span less than a local chunk run in local memory; wider ones
      // in fused register kernels of up to `parameter` elements per work-item.
      const std::size_t chunk = std::min(padded, kBitonicLocalN);
      const auto chunk_count = static_cast<cl_uint>(chunk);
      CLKernel& local = kernel(file, "bitonic_local", opts);
      const Range local_range =
          Range::linear(padded / chunk * kBitonicLocalWorkGroup, kBitonicLocalWorkGroup);
      local(local_range, elements, chunk_count, cl_uint{0});
      for (std::size_t width = chunk * 2; width <= padded; width <<= 1) {
        std::size_t inc = width >> 1;
        while (inc >= chunk) {
          unsigned level = parameter;
          while (level > 2 && inc / (level / 2) < chunk) level /= 2;
          CLKernel& fused = kernel(file, "bitonic_fused" + std::to_string(level), opts);
          const std::size_t items = padded / level;
          fused(Range::linear(items, std::min<std::size_t>(256, items)), elements,
                static_cast<cl_uint>(inc), static_cast<cl_uint>(width));
          inc /= level;
        }
        local(local_range, elements, chunk_count, static_cast<cl_uint>(width));
      }
    }
    if (with_values) {
      auto& values_copy = temporary<cl_uint>("values", n);
      copy(*values, values_copy, n * sizeof(cl_uint));
      kernel(file, "bitonic_finish", opts)(Range::linear(n, 256), elements, keys, key_kind,
                                           read_only(values_copy), *values, count);
    } else {
      kernel(file, "bitonic_finish", opts)(Range::linear(n, 256), elements, keys, key_kind, count);
    }
  }

  void sort_radix_seed(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind,
                       std::size_t n) {
    const bool local_histograms = parameter != seed_private;
    const bool vector_loads = parameter == seed_local_vec;
    const std::size_t block = vector_loads ? 128 : 32;
    const std::string opts =
        options(values != nullptr, "-DBLOCK_SIZE=" + std::to_string(block) +
                                       " -DHIST_LOCAL=" + (local_histograms ? "1" : "0") +
                                       " -DVECTOR_LOADS=" + (vector_loads ? "1" : "0"));
    const char* file = "kernels/primitives/sort/radix_seed.cl";
    const Range range = Range::linear(ceil_div(n, block), kSeedWorkGroup);
    const std::size_t items = range.global[0];
    auto& histograms = temporary<cl_uint>("histograms", items * kSeedBuckets);
    BufferBase& other_keys = temporary_keys(kind, n);
    DeviceBuffer<cl_uint>* other_values =
        values != nullptr ? &temporary<cl_uint>("values", n) : nullptr;
    CLKernel& histogram = kernel(file, "radix_seed_histogram", opts);
    CLKernel& permute = kernel(file, "radix_seed_permute", opts);
    const auto count = static_cast<cl_uint>(n);
    const auto key_kind = static_cast<cl_uint>(kind);
    const Local<cl_uint> local_memory{kSeedWorkGroup * kSeedBuckets};
    BufferBase* from = &keys;
    BufferBase* to = &other_keys;
    DeviceBuffer<cl_uint>* values_from = values;
    DeviceBuffer<cl_uint>* values_to = other_values;
    // Eight passes: the result ends where it started, in `keys`.
    for (cl_uint shift = 0; shift < 32; shift += 4) {
      if (local_histograms) {
        histogram(range, *from, key_kind, histograms, count, shift, local_memory);
      } else {
        histogram(range, *from, key_kind, histograms, count, shift);
      }
      scan_exclusive(histograms, items * kSeedBuckets);
      if (values != nullptr && local_histograms) {
        permute(range, *from, *to, key_kind, *values_from, *values_to, histograms, count, shift,
                local_memory);
      } else if (values != nullptr) {
        permute(range, *from, *to, key_kind, *values_from, *values_to, histograms, count, shift);
      } else if (local_histograms) {
        permute(range, *from, *to, key_kind, histograms, count, shift, local_memory);
      } else {
        permute(range, *from, *to, key_kind, histograms, count, shift);
      }
      std::swap(from, to);
      std::swap(values_from, values_to);
    }
  }

  // Runs `pass(shift, from, to, values_from, values_to)` four times, ping-ponging between the
  // caller's buffers and temporaries; four passes leave the result in the caller's buffers.
  template <typename Pass>
  void radix_passes(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
                    Pass pass) {
    BufferBase* from = &keys;
    BufferBase* to = &temporary_keys(kind, n);
    DeviceBuffer<cl_uint>* values_from = values;
    DeviceBuffer<cl_uint>* values_to =
        values != nullptr ? &temporary<cl_uint>("values", n) : nullptr;
    for (cl_uint p = 0; p < kPasses; ++p) {
      pass(p, *from, *to, values_from, values_to);
      std::swap(from, to);
      std::swap(values_from, values_to);
    }
  }

  void sort_radix(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    const auto key_kind = static_cast<cl_uint>(kind);
    const bool with_values = values != nullptr;
    // CPUs: a few long chunks, one per work-item; elsewhere tiles ranked in local memory.
    const bool chunks =
        runtime->device().type == DeviceType::cpu && parameter == radix_device_choice;
    const std::size_t parts =
        chunks ? std::min<std::size_t>(n, 8 * std::max(1U, runtime->device().compute_units))
               : ceil_div(n, radix_tile());
    const auto chunk = static_cast<cl_uint>(ceil_div(n, parts));
    const Range range = chunks ? Range::linear(parts, 1)
                               : Range::linear(parts * radix_work_group, radix_work_group);
    auto& counts = temporary<cl_uint>("tile-counts", parts * kDigits);
    // The downsweep first: its build decides the ranking, which is part of every program's options.
    CLKernel& downsweep =
        radix_kernel(chunks ? "radix_chunk_downsweep" : "radix_downsweep", with_values, kind);
    CLKernel& upsweep =
        radix_kernel(chunks ? "radix_chunk_upsweep" : "radix_upsweep", with_values, kind);
    const auto count = static_cast<cl_uint>(n);
    radix_passes(
        keys, values, kind, n,
        [&](cl_uint pass, BufferBase& from, BufferBase& to, DeviceBuffer<cl_uint>* values_from,
            DeviceBuffer<cl_uint>* values_to) {
          const cl_uint shift = 8 * pass;
          if (chunks) {
            upsweep(range, read_only(from), key_kind, counts, count, shift, chunk);
          } else {
            upsweep(range, read_only(from), key_kind, counts, count, shift);
          }
          scan_exclusive(counts, parts * kDigits);
          if (values != nullptr && chunks) {
            downsweep(range, read_only(from), to, key_kind, read_only(*values_from), *values_to,
                      read_only(counts), count, shift, chunk);
          } else if (values != nullptr) {
            downsweep(range, read_only(from), to, key_kind, read_only(*values_from), *values_to,
                      read_only(counts), count, shift);
          } else if (chunks) {
            downsweep(range, read_only(from), to, key_kind, read_only(counts), count, shift, chunk);
          } else {
            downsweep(range, read_only(from), to, key_kind, read_only(counts), count, shift);
          }
        });
  }

  void sort_onesweep(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    const auto key_kind = static_cast<cl_uint>(kind);
    const bool with_values = values != nullptr;
    // The pass kernel first: its build decides the ranking, part of every program's options.
    CLKernel& onesweep = radix_kernel("radix_onesweep", with_values, kind);
    const std::size_t tiles = ceil_div(n, radix_tile());
    const std::size_t status_words = tiles * kDigits;
    auto& status_even = temporary<cl_uint>("status-even", status_words);
    auto& status_odd = temporary<cl_uint>("status-odd", status_words);
    auto& tickets = temporary<cl_uint>("tickets", kPasses);
    auto& digit_offsets = temporary<cl_uint>("digit-offsets", kPasses * kDigits);
    const auto count = static_cast<cl_uint>(n);
    // The init kernel zeroes the tickets and digit counts, and the first pass's status array
    // only where it is new (see status_even_cleared).
    const bool clear_status = status_even_cleared != status_even.mem()() ||
                              status_even_cleared_size != status_even.size();
    const std::size_t clear_words = clear_status ? status_even.size() : 0;
    radix_kernel("radix_onesweep_init", with_values, kind)(
        Range::linear(std::max(clear_words, kPasses * kDigits), 256), status_even,
        static_cast<cl_uint>(clear_words), tickets, digit_offsets);
    status_even_cleared = nullptr;  // until all four passes are enqueued
    // Enough work-groups to fill the device (hist_groups_per_cu per compute unit, each at most
    // 8 keys per work-item per round); each strides over the keys.
    const std::size_t groups = std::max<std::size_t>(
        1, std::min<std::size_t>(ceil_div(n, 8 * kGlobalWorkGroup),
                                 hist_groups_per_cu * runtime->device().compute_units));
    radix_kernel("radix_global_histogram", with_values, kind)(
        Range::linear(groups * kGlobalWorkGroup, kGlobalWorkGroup), read_only(keys), key_kind,
        count, digit_offsets);
    radix_kernel("radix_global_scan", with_values, kind)(
        Range::linear(kGlobalWorkGroup, kGlobalWorkGroup), digit_offsets);
    const Range range = Range::linear(tiles * radix_work_group, radix_work_group);
    radix_passes(keys, values, kind, n,
                 [&](cl_uint pass, BufferBase& from, BufferBase& to,
                     DeviceBuffer<cl_uint>* values_from, DeviceBuffer<cl_uint>* values_to) {
                   const cl_uint shift = 8 * pass;
                   auto& status = pass % 2 == 0 ? status_even : status_odd;
                   auto& next_status = pass % 2 == 0 ? status_odd : status_even;
                   if (values != nullptr) {
                     onesweep(range, read_only(from), to, key_kind, read_only(*values_from),
                              *values_to, count, shift, pass, tickets, read_only(digit_offsets),
                              status, next_status);
                   } else {
                     onesweep(range, read_only(from), to, key_kind, count, shift, pass, tickets,
                              read_only(digit_offsets), status, next_status);
                   }
                 });
    status_even_cleared = status_even.mem()();
    status_even_cleared_size = status_even.size();
  }
};

Sorter::Sorter(Runtime& runtime, const std::string& variant)
    : impl_(std::make_unique<Impl>(runtime, variant)) {}
Sorter::Sorter(const std::string& variant) : Sorter(Runtime::shared(), variant) {}
Sorter::~Sorter() = default;
Sorter::Sorter(Sorter&&) noexcept = default;
Sorter& Sorter::operator=(Sorter&&) noexcept = default;

const std::string& Sorter::variant() const { return impl_->variant; }
const std::string& Sorter::algorithm() const { return impl_->algorithm_name; }
std::size_t Sorter::max_keys(bool with_values) const { return impl_->max_keys(with_values); }
void Sorter::check_size(std::size_t n, bool with_values) const {
  impl_->check_size(n, with_values);
}

std::size_t Sorter::temporary_bytes() const {
  std::size_t bytes = 0;
  for (const auto& entry : impl_->temporaries) bytes += entry.second ? entry.second->bytes() : 0;
  return bytes;
}

void Sorter::sort(DeviceBuffer<cl_uint>& keys) {
  impl_->sort(keys, nullptr, KeyKind::uint32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_int>& keys) {
  impl_->sort(keys, nullptr, KeyKind::int32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_float>& keys) {
  impl_->sort(keys, nullptr, KeyKind::float32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_uint>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::uint32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_int>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::int32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_float>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::float32, keys.size());
}

template <typename K>
void sort(std::vector<K>& keys, const std::string& variant, Runtime& runtime) {
  Sorter sorter(runtime, variant);
  DeviceBuffer<K> device_keys(runtime, keys.size());
  device_keys.write(keys);
  sorter.sort(device_keys);
  keys = device_keys.read();
}

template <typename K>
void sort_by_key(std::vector<K>& keys, std::vector<cl_uint>& values, const std::string& variant,
                 Runtime& runtime) {
  Sorter sorter(runtime, variant);
  if (values.size() != keys.size()) {
    throw Error("sort_by_key: " + std::to_string(keys.size()) + " keys but " +
                std::to_string(values.size()) +
                " values; key-value sorting needs one value per key");
  }
  DeviceBuffer<K> device_keys(runtime, keys.size());
  DeviceBuffer<cl_uint> device_values(runtime, values.size());
  device_keys.write(keys);
  device_values.write(values);
  sorter.sort(device_keys, device_values);
  keys = device_keys.read();
  values = device_values.read();
}

template void sort<cl_uint>(std::vector<cl_uint>&, const std::string&, Runtime&);
template void sort<cl_int>(std::vector<cl_int>&, const std::string&, Runtime&);
template void sort<cl_float>(std::vector<cl_float>&, const std::string&, Runtime&);
template void sort_by_key<cl_uint>(std::vector<cl_uint>&, std::vector<cl_uint>&, const std::string&,
                                   Runtime&);
template void sort_by_key<cl_int>(std::vector<cl_int>&, std::vector<cl_uint>&, const std::string&,
                                  Runtime&);
template void sort_by_key<cl_float>(std::vector<cl_float>&, std::vector<cl_uint>&,
                                    const std::string&, Runtime&);

}  // namespace clf::primitives

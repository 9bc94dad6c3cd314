// The default sort: LSD radix sort with 8-bit digits (kernels/primitives/sort/radix.cl,
// docs/sort.md). Two ways to place a tile's digit runs: upsweep (tile histograms), scan,
// downsweep, portable; or Onesweep (Adinets & Merrill 2022), one pass per digit chained by a
// decoupled look-back, which needs forward progress between work-groups (NVIDIA GPUs).
#include <algorithm>
#include <iostream>

#include "framework/primitives/sort_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives::sorting {

namespace {

constexpr const char* kFile = "kernels/primitives/sort/radix.cl";
constexpr std::size_t kDigits = 256;
constexpr unsigned kDigitBits = 8;
// PASSES in radix.cl: a whole 32-bit key's passes.
constexpr cl_uint kPasses = 4;
// GLOBAL_WG in radix_onesweep.cl: the onesweep histogram kernel.
constexpr std::size_t kGlobalWorkGroup = 256;
// ONESWEEP_COUNTERS in radix_onesweep.cl: a ticket counter per pass, the histogram's done count.
constexpr std::size_t kCounterWords = kPasses + 1;
// Onesweep packs a count into 30 bits of a look-back word.
constexpr std::size_t kOnesweepMaxKeys = (std::size_t{1} << 30) - 1;

// Tile ranking, as RANK_MATCH in radix.cl.
enum class Ranking { split = 0, match_emulated = 1, match_ptx = 2 };

// The ranking `tiles` and `config` ask for on `device`: warp multi-split is inline PTX on NVIDIA
// GPUs and emulated with barriers elsewhere.
Ranking choose_ranking(const DeviceInfo& device, const SortConfig& config, RadixTiles tiles) {
  const bool nvidia = device_class(device) == DeviceClass::nvidia_gpu;
  const Ranking match = nvidia ? Ranking::match_ptx : Ranking::match_emulated;
  switch (tiles) {
    case RadixTiles::split:
      return Ranking::split;
    case RadixTiles::warp_match:
      return match;
    case RadixTiles::device_choice:
      break;
  }
  return config.ranking == SortRanking::warp_match ? match : Ranking::split;
}

class RadixSort : public SortAlgorithm {
 public:
  RadixSort(Runtime& runtime, const SortConfig& config, RadixTiles tiles, bool onesweep,
            bool onesweep_only)
      : SortAlgorithm(runtime),
        config_(config),
        onesweep_(onesweep),
        onesweep_only_(onesweep_only),
        // CPUs: a few long chunks, one per work-item; elsewhere tiles ranked in local memory.
        chunks_(runtime.device().type == DeviceType::cpu && tiles == RadixTiles::device_choice),
        ranking_(choose_ranking(runtime.device(), config, tiles)) {
    config_.check();
  }

  std::string name() const override { return onesweep_ ? "onesweep" : "radix"; }
  bool orders_by_low_bits() const override { return true; }

  std::size_t max_keys(bool with_values) const override {
    const std::size_t limit = SortAlgorithm::max_keys(with_values);
    return onesweep_only_ ? std::min(limit, kOnesweepMaxKeys) : limit;
  }

  void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
            unsigned key_bits) override {
    const bool with_values = values != nullptr;
    keys_ = n;
    key_bits_ = key_bits;
    choose_tiles(kind, with_values);
    try {
      sort_in_tiles(keys, values, kind, n);
    } catch (const ApiError& error) {
      // A driver that builds large tiles but refuses to launch them: until the second pass
      // starts, nothing has been written to the caller's buffers, so the sort starts again in the
      // config's tiles.
      if (large_tiles(kind, with_values) == nullptr || !callers_buffers_untouched_ ||
          error.call() != "clEnqueueNDRangeKernel") {
        throw;
      }
      refuse_large_tiles(kind, with_values, "build but do not launch", error);
      sort_in_tiles(keys, values, kind, n);
    }
  }

 private:
  std::size_t tile() const { return work_group_ * items_; }

  // One pass a digit of the sort's key bits.
  cl_uint passes() const { return static_cast<cl_uint>(ceil_div(key_bits_, kDigitBits)); }
  // The shift of each pass's digit: 8 bits a pass, the last one's below the key bits' top
  // (overlapping the pass before where they are not a whole number of digits: a stable pass by
  // bits already in order keeps that order). Below 8 key bits the programs mask the digit.
  cl_uint top_shift() const { return key_bits_ > kDigitBits ? key_bits_ - kDigitBits : 0; }
  cl_uint pass_shift(cl_uint pass) const { return std::min(kDigitBits * pass, top_shift()); }

  void sort_in_tiles(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    callers_buffers_untouched_ = true;
    if (onesweep_ && n <= kOnesweepMaxKeys) {
      sort_onesweep(keys, values, kind, n);
    } else {
      sort_passes(keys, values, kind, n);
    }
  }

  // Sorts in the config's tiles from now on and says on stderr that the large tiles `failed` on
  // this device.
  void refuse_large_tiles(KeyKind kind, bool with_values, const char* failed, const Error& error) {
    const LargeTiles& large = config_.large_tiles_with_values[static_cast<std::size_t>(kind)];
    large_tiles_refused_ = true;
    choose_tiles(kind, with_values);
    std::cerr << "sort: key-value tiles of " << large.shape.to_string() << " in "
              << large.local_bytes << " bytes of local memory " << failed << " on "
              << runtime().device_name() << "; using " << work_group_ << "x" << items_
              << " in 48 KiB: " << error.what() << "\n";
  }

  // The tile shape of the sort in progress (`kind` keys, with values or not).
  void choose_tiles(KeyKind kind, bool with_values) {
    const auto kind_index = static_cast<std::size_t>(kind);
    work_group_ = config_.work_group;
    items_ = (with_values ? config_.items_with_values : config_.items)[kind_index];
    if (const LargeTiles* large = large_tiles(kind, with_values)) {
      work_group_ = large->shape.work_group;
      items_ = large->shape.items;
    }
  }

  // Keys per work-item of the unstable first pass.
  std::size_t first_pass_items() const {
    return config_.first_pass_items != 0 ? config_.first_pass_items : items_;
  }

  // Key-value tiles in more local memory than devices report, where the config asks for them,
  // the tiles rank by warp, the device's compiler has not refused them and the sort in progress
  // has one for every compute unit (with fewer, smaller tiles finish sooner: 2^16-2^18 key-value
  // on the H200); otherwise null.
  const LargeTiles* large_tiles(KeyKind kind, bool with_values) const {
    const LargeTiles& large = config_.large_tiles_with_values[static_cast<std::size_t>(kind)];
    const bool usable =
        with_values && large.enabled() && ranking_ != Ranking::split && !large_tiles_refused_;
    const std::size_t units = std::max(1U, runtime().device().compute_units);
    return usable && ceil_div(keys_, large.shape.tile()) >= units ? &large : nullptr;
  }

  // Key-value onesweep passes through (key, value) pairs (PAIRS_IN and PAIRS_OUT in radix.cl):
  // where the config asks for them and the device holds two buffers of pairs beside the caller's
  // (with room to spare: otherwise the passes take half the memory, as keys and values).
  bool pair_passes(bool with_values, std::size_t n) const {
    const DeviceInfo& device = runtime().device();
    const std::uint64_t pair_bytes = std::uint64_t{8} * n;
    return with_values && config_.pair_passes && passes() >= 2 &&
           pair_bytes <= device.max_allocation_bytes &&
           4 * pair_bytes <= device.global_memory_bytes;
  }

  // The build options of pass `pass` of a sort through pairs: all but the first read pairs, all
  // but the last write them.
  std::string pair_options(bool pairs, cl_uint pass) const {
    if (!pairs) return "";
    return std::string(pass > 0 ? " -DPAIRS_IN=1" : "") +
           (pass + 1 < passes() ? " -DPAIRS_OUT=1" : "");
  }

  std::string options(KeyKind kind, bool with_values, std::size_t items) const {
    std::string text = "-DRADIX_WG=" + std::to_string(work_group_) +
                       " -DRADIX_ITEMS=" + std::to_string(items) +
                       " -DRADIX_UNROLL_LOOPS=" + (config_.unroll ? "1" : "0") +
                       " -DRANK_MATCH=" + std::to_string(static_cast<int>(ranking_)) +
                       " -DLOOKBACK_WINDOW=" + std::to_string(config_.lookback_window);
    if (config_.program_per_key_kind) {
      text += " -DKEY_KIND=" + std::to_string(static_cast<int>(kind));
    }
    if (config_.raw_tile_keys[static_cast<std::size_t>(kind)]) text += " -DRAW_KEYS=1";
    if (const LargeTiles* large = large_tiles(kind, with_values)) {
      text += " -DVALUES_LOCAL_WORDS=" + std::to_string(large->local_bytes / sizeof(cl_uint));
      if (large->registers != 0) text += " -clf-nv-maxnreg=" + std::to_string(large->registers);
    }
    // Inline PTX: the ranking's where it builds, and none at all (device_fence() included)
    // where it did not.
    if (ranking_ == Ranking::match_ptx) text += " -DCLF_PTX=1";
    if (inline_ptx_rejected_) text += " -DCLF_NO_PTX=1";
    if (key_bits_ < kDigitBits) text += " -DDIGIT_MASK=" + std::to_string((1U << key_bits_) - 1);
    if (!config_.build_options.empty()) text += " " + config_.build_options;
    return values_option(with_values, text);
  }

  // A kernel of radix.cl, built for tiles of `items` keys per work-item (0: the sort's). Large
  // key-value tiles (beyond the 48 KiB of local memory devices report) are tried first where the
  // config asks for them (ptxas itself refuses static local memory beyond 48 KiB; NVIDIA's driver
  // takes it on Hopper), and the inline-PTX ranking where chosen; if the device's compiler
  // rejects either, the sorter falls back to the config's tiles in 48 KiB, then to split
  // ranking, for good. The first kernel a sort builds is a tile kernel, so a fallback comes
  // before anything is enqueued.
  CLKernel& radix_kernel(const std::string& name, bool with_values, KeyKind kind,
                         std::size_t items = 0, const std::string& extra = "") {
    const auto build = [&] {
      return &kernel(kFile, name, options(kind, with_values, items != 0 ? items : items_) + extra);
    };
    if (large_tiles(kind, with_values) != nullptr) {
      try {
        return *build();
      } catch (const Error& error) {
        refuse_large_tiles(kind, with_values, "do not build", error);
      }
    }
    if (ranking_ != Ranking::match_ptx) return *build();
    try {
      return *build();
    } catch (const Error& error) {
      std::cerr << "sort: the warp-match ranking (inline PTX) does not build on "
                << runtime().device_name() << "; using split ranking: " << error.what() << "\n";
      ranking_ = Ranking::split;
      inline_ptx_rejected_ = true;
      return *build();
    }
  }

  // Upsweep, scan, downsweep per digit. The kernels' signatures differ by build (CPU chunks take
  // the chunk length, key-value sorts the values), hence the branches.
  void sort_passes(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    const auto key_kind = static_cast<cl_uint>(kind);
    const bool with_values = values != nullptr;
    const std::size_t parts =
        chunks_ ? std::min<std::size_t>(
                      n, std::size_t{8} * std::max(1U, runtime().device().compute_units))
                : ceil_div(n, tile());
    const auto chunk = static_cast<cl_uint>(ceil_div(n, parts));
    const Range range =
        chunks_ ? Range::linear(parts, 1) : Range::linear(parts * work_group_, work_group_);
    auto& counts = temporary<cl_uint>("tile-counts", parts * kDigits);
    // The downsweep first: its build decides the ranking, part of every program's options.
    CLKernel& downsweep =
        radix_kernel(chunks_ ? "radix_chunk_downsweep" : "radix_downsweep", with_values, kind);
    CLKernel& upsweep =
        radix_kernel(chunks_ ? "radix_chunk_upsweep" : "radix_upsweep", with_values, kind);
    const auto count = static_cast<cl_uint>(n);
    ping_pong(keys, values, kind, n, passes(),
              [&](cl_uint pass, BufferBase& from, BufferBase& to,
                  DeviceBuffer<cl_uint>* values_from, DeviceBuffer<cl_uint>* values_to) {
                if (pass > 0) callers_buffers_untouched_ = false;  // pass 1 writes them
                const cl_uint shift = pass_shift(pass);
                if (chunks_) {
                  upsweep(range, read_only(from), key_kind, counts, count, shift, chunk);
                } else {
                  upsweep(range, read_only(from), key_kind, counts, count, shift);
                }
                scan_exclusive(counts, parts * kDigits);
                if (with_values && chunks_) {
                  downsweep(range, read_only(from), to, key_kind, read_only(*values_from),
                            *values_to, read_only(counts), count, shift, chunk);
                } else if (with_values) {
                  downsweep(range, read_only(from), to, key_kind, read_only(*values_from),
                            *values_to, read_only(counts), count, shift);
                } else if (chunks_) {
                  downsweep(range, read_only(from), to, key_kind, read_only(counts), count, shift,
                            chunk);
                } else {
                  downsweep(range, read_only(from), to, key_kind, read_only(counts), count, shift);
                }
              });
  }

  void sort_onesweep(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n) {
    const auto key_kind = static_cast<cl_uint>(kind);
    const bool with_values = values != nullptr;
    const bool pairs = pair_passes(with_values, n);
    // The pass kernel first: its build decides the ranking, part of every program's options.
    CLKernel& onesweep =
        radix_kernel("radix_onesweep", with_values, kind, 0, pair_options(pairs, 0));
    const std::size_t tiles = ceil_div(n, tile());
    const std::size_t status_words = tiles * kDigits;
    // Pass p looks back in status[(p + clean_status) % 2] and clears the other one for pass p + 1.
    DeviceBuffer<cl_uint>* status[2] = {&temporary<cl_uint>("status-0", status_words),
                                        &temporary<cl_uint>("status-1", status_words)};
    auto& counters = temporary<cl_uint>("counters", kCounterWords);
    auto& digit_counts = temporary<cl_uint>("digit-counts", kPasses * kDigits);
    auto& digit_offsets = temporary<cl_uint>("digit-offsets", kPasses * kDigits);
    const auto count = static_cast<cl_uint>(n);
    const std::pair<unsigned, std::size_t> zero =
        zero_for_sort(status, status_words, counters, digit_counts, with_values, kind);
    unsigned clean_status = zero.first;
    std::size_t status_zero_words = zero.second;
    zeroed_ = {};  // until all the passes are enqueued
    enqueue_histogram(keys, with_values, kind, n, counters, digit_counts, digit_offsets);
    const Range range = Range::linear(tiles * work_group_, work_group_);
    // The kernel exists where the pass kernel ranks by warp (ranking_ is settled now that the
    // pass kernel is built). Keys equal in every sorted bit are equal keys only when all 32 bits
    // are sorted.
    const bool unstable_first = !with_values && key_bits_ == 32 && config_.unstable_first_pass &&
                                ranking_ != Ranking::split;
    const std::size_t first_tile = work_group_ * first_pass_items();
    const Range first_range = Range::linear(ceil_div(n, first_tile) * work_group_, work_group_);
    const auto run_pass = [&](cl_uint pass, BufferBase& from, BufferBase& to,
                              DeviceBuffer<cl_uint>* values_from,
                              DeviceBuffer<cl_uint>* values_to) {
      const cl_uint shift = pass_shift(pass);
      auto& pass_status = *status[(pass + clean_status) % 2];
      auto& next_status = *status[(pass + clean_status + 1) % 2];
      if (pass == 0 && unstable_first) {
        // It advances the first row of digit_offsets (the first pass's cursors) and
        // clears the second pass's status words, whatever its own tiles.
        radix_kernel("radix_onesweep_unstable", with_values, kind, first_pass_items())(
            first_range, read_only(from), to, key_kind, count, digit_offsets, next_status,
            static_cast<cl_uint>(status_words));
      } else if (with_values) {
        CLKernel& kernel =
            pass == 0 ? onesweep
                      : radix_kernel("radix_onesweep", true, kind, 0, pair_options(pairs, pass));
        kernel(range, read_only(from), to, key_kind, read_only(*values_from), *values_to, count,
               shift, pass, counters, read_only(digit_offsets), pass_status, next_status);
      } else {
        onesweep(range, read_only(from), to, key_kind, count, shift, pass, counters,
                 read_only(digit_offsets), pass_status, next_status);
      }
    };
    if (pairs) {
      through_pairs(keys, *values, n, run_pass);
    } else {
      ping_pong(keys, values, kind, n, passes(),
                [&](cl_uint pass, BufferBase& from, BufferBase& to,
                    DeviceBuffer<cl_uint>* values_from, DeviceBuffer<cl_uint>* values_to) {
                  if (pass > 0) callers_buffers_untouched_ = false;  // pass 1 writes them
                  run_pass(pass, from, to, values_from, values_to);
                });
    }
    // Each pass clears the other status array over this sort's tiles only. An even number of
    // passes ends on the array the sort began with, zero where it was (over these tiles at
    // least); an odd number on the other one, zero over these tiles only (beyond them, a sort of
    // more keys may have left its words).
    if (passes() % 2 == 1) {
      clean_status = 1 - clean_status;
      status_zero_words = status_words;
    }
    zeroed_ = {status[clean_status]->mem()(), status_zero_words, counters.mem()(),
               digit_counts.mem()()};
    if (runtime().debug()) {
      check_left_zero(*status[clean_status], status_zero_words, counters, digit_counts);
    }
  }

  // A whole sort leaves one status array (the one after its last pass's: this sort's first),
  // the histogram's done count and the digit counts zero for the next one; the init kernel
  // zeroes them where they are new, or where that status array is not known to be zero over
  // this sort's tiles (see zeroed_). Returns which status array the first pass looks back in and
  // over how many words it is zero.
  std::pair<unsigned, std::size_t> zero_for_sort(DeviceBuffer<cl_uint>* const (&status)[2],
                                                 std::size_t status_words,
                                                 DeviceBuffer<cl_uint>& counters,
                                                 DeviceBuffer<cl_uint>& digit_counts,
                                                 bool with_values, KeyKind kind) {
    const unsigned clean_status = zeroed_.status == status[1]->mem()() ? 1 : 0;
    if (zeroed_.holds_for(status[clean_status]->mem()(), status_words, counters.mem()(),
                          digit_counts.mem()())) {
      return {clean_status, zeroed_.status_zero_words};
    }
    radix_kernel("radix_onesweep_init", with_values, kind)(
        Range::linear(std::max<std::size_t>(status[0]->size(), kPasses * kDigits), 256), *status[0],
        static_cast<cl_uint>(status[0]->size()), counters, digit_counts);
    return {0, status[0]->size()};
  }

  // The global histogram: every pass's digits counted in one read of the keys, then each
  // digit's first output index (digit_offsets). Enough work-groups to fill the device
  // (histogram_groups_per_cu per compute unit, each at most 8 keys per work-item per round);
  // each strides over the keys.
  void enqueue_histogram(BufferBase& keys, bool with_values, KeyKind kind, std::size_t n,
                         DeviceBuffer<cl_uint>& counters, DeviceBuffer<cl_uint>& digit_counts,
                         DeviceBuffer<cl_uint>& digit_offsets) {
    const std::size_t groups = std::max<std::size_t>(
        1,
        std::min<std::size_t>(ceil_div(n, 8 * kGlobalWorkGroup),
                              config_.histogram_groups_per_cu * runtime().device().compute_units));
    radix_kernel("radix_global_histogram", with_values, kind)(
        Range::linear(groups * kGlobalWorkGroup, kGlobalWorkGroup), read_only(keys),
        static_cast<cl_uint>(kind), static_cast<cl_uint>(n), passes(), top_shift(), digit_counts,
        counters, digit_offsets);
  }

  // Runs `pass(p, from, to, values_from, values_to)` for each pass of a key-value sort through
  // (key, value) pairs: keys, values -> pairs A -> pairs B -> pairs A ... -> keys, values, a
  // buffer of pairs being both the keys and the values argument.
  template <typename Pass>
  void through_pairs(BufferBase& keys, DeviceBuffer<cl_uint>& values, std::size_t n, Pass pass) {
    DeviceBuffer<cl_uint>* pairs[2] = {
        &temporary<cl_uint>("pairs-a", 2 * n),
        passes() > 2 ? &temporary<cl_uint>("pairs-b", 2 * n) : nullptr};
    for (cl_uint p = 0; p < passes(); ++p) {
      const bool last = p + 1 == passes();
      if (last) callers_buffers_untouched_ = false;
      DeviceBuffer<cl_uint>* from = p == 0 ? &values : pairs[(p - 1) % 2];
      DeviceBuffer<cl_uint>* to = last ? &values : pairs[p % 2];
      pass(p, p == 0 ? keys : *from, last ? keys : *to, from, to);
    }
  }

  // CL_DEBUG: what a sort leaves zero for the next one (zeroed_) must be: the status array the
  // next first pass looks back in, the histogram's count of finished work-groups (the passes'
  // tickets are reset by the next histogram) and the digit counts. A stale look-back word
  // misplaces keys only where work-groups run at once, and rarely, so on a CPU device this check
  // is what finds one.
  void check_left_zero(const DeviceBuffer<cl_uint>& status, std::size_t status_zero_words,
                       const DeviceBuffer<cl_uint>& counters,
                       const DeviceBuffer<cl_uint>& digit_counts) const {
    const auto expect_zero = [&](const char* what, const std::vector<cl_uint>& words,
                                 std::size_t first) {
      const auto nonzero =
          std::find_if(words.begin() + first, words.end(), [](cl_uint w) { return w != 0; });
      if (nonzero == words.end()) return;
      throw Error("onesweep sort of " + std::to_string(keys_) + " keys on " +
                  runtime().device_name() + ": the " + what + " it leaves for the next sort " +
                  "is not zero (word " + std::to_string(nonzero - words.begin()) + " of " +
                  std::to_string(words.size()) + " is " + std::to_string(*nonzero) + ")");
    };
    std::vector<cl_uint> status_words(status_zero_words);
    status.read_range(0, status_words.data(), status_zero_words);
    expect_zero("look-back status array", status_words, 0);
    expect_zero("count of finished histogram work-groups", counters.read(), kPasses);
    expect_zero("digit counts", digit_counts.read(), 0);
  }

  SortConfig config_;
  bool onesweep_;
  bool onesweep_only_;
  bool chunks_;
  Ranking ranking_;
  // Whether the device's compiler refused the inline-PTX ranking (then no inline PTX at all).
  bool inline_ptx_rejected_ = false;
  bool large_tiles_refused_ = false;
  // Whether the sort in progress has written nothing to the caller's buffers yet.
  bool callers_buffers_untouched_ = true;
  // The keys, their sorted bits and the tile shape of the sort in progress (by key kind and
  // values).
  std::size_t keys_ = 0;
  unsigned key_bits_ = 32;
  std::size_t work_group_ = 256;
  std::size_t items_ = 16;
  // The onesweep buffers a whole sort leaves zero (one of the two status arrays, the next sort's
  // first, over its first status_zero_words words: every pass clears the other array for the
  // next one; the histogram's done count and the digit counts: its last work-group), as they were
  // when the last sort was enqueued whole; empty while a sort is being enqueued, so a sort cut
  // short leaves them to the init kernel. (A reallocated status array is larger than the words
  // known zero in the old one, so a new one is never taken for zero.)
  struct ZeroedState {
    cl_mem status = nullptr;
    std::size_t status_zero_words = 0;
    cl_mem counters = nullptr;
    cl_mem digit_counts = nullptr;
    // Whether a sort looking back over `words` of `status` first finds them zero.
    bool holds_for(cl_mem status_now, std::size_t words, cl_mem counters_now,
                   cl_mem digit_counts_now) const {
      return status != nullptr && status == status_now && words <= status_zero_words &&
             counters == counters_now && digit_counts == digit_counts_now;
    }
  };
  ZeroedState zeroed_;
};

}  // namespace

std::unique_ptr<SortAlgorithm> make_radix_sort(Runtime& runtime, const SortConfig& config,
                                               RadixTiles tiles, bool onesweep,
                                               bool onesweep_only) {
  return std::make_unique<RadixSort>(runtime, config, tiles, onesweep, onesweep_only);
}

}  // namespace clf::primitives::sorting

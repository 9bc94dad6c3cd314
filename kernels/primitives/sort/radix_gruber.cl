// Gruber's GPU radix sorts (5.2.3-5.2.5, after the AMD APP SDK sample): 4-bit digits,
// eight passes. Each work-item counts the digits of BLOCK_SIZE consecutive keys; the histograms
// are stored bucket-major (all work-items' counts of digit 0, then digit 1, ...) so one exclusive
// scan turns them into stable scatter offsets. Variants, by -D options:
//   HIST_LOCAL=0: the histogram lives in a private array (radix-private)
//   HIST_LOCAL=1: it lives in local memory, one row per work-item (radix-local)
//   VECTOR_LOADS=1: keys are read as uint16 (radix-local-vec, BLOCK_SIZE 128)
// Keys past n are skipped, so any length works.
#include "kernels/primitives/sort/common.cl"

#define RADIX 4
#define BUCKETS (1 << RADIX)
#define RADIX_MASK (BUCKETS - 1)
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 32
#endif
#ifndef HIST_LOCAL
#define HIST_LOCAL 0
#endif
#ifndef VECTOR_LOADS
#define VECTOR_LOADS 0
#endif
#ifndef WITH_VALUES
#define WITH_VALUES 0
#endif

#if HIST_LOCAL
#define HIST_PARAM , __local uint* local_hist
#define HIST_DECLARE __local uint* hist = local_hist + get_local_id(0) * BUCKETS
#else
#define HIST_PARAM
#define HIST_DECLARE uint hist[BUCKETS]
#endif

// Calls BODY(i, ordered_key) for each of the work-item's keys below n, in order.
#if VECTOR_LOADS
#define FOR_EACH_KEY(keys, BODY)                                                               \
  for (uint v = 0; v < BLOCK_SIZE / 16; ++v) {                                                 \
    const uint first = begin + v * 16;                                                         \
    if (first + 16 <= n) {                                                                     \
      const uint16 loaded = vload16(0, keys + first);                                          \
      const uint lane[16] = {loaded.s0, loaded.s1, loaded.s2, loaded.s3, loaded.s4, loaded.s5, \
                             loaded.s6, loaded.s7, loaded.s8, loaded.s9, loaded.sa, loaded.sb, \
                             loaded.sc, loaded.sd, loaded.se, loaded.sf};                      \
      for (uint l = 0; l < 16; ++l) {                                                          \
        const uint i = first + l;                                                              \
        const uint ordered = to_ordered(lane[l], key_kind);                                    \
        BODY                                                                                   \
      }                                                                                        \
    } else {                                                                                   \
      for (uint i = first; i < min(first + 16, n); ++i) {                                      \
        const uint ordered = to_ordered(keys[i], key_kind);                                    \
        BODY                                                                                   \
      }                                                                                        \
    }                                                                                          \
  }
#else
#define FOR_EACH_KEY(keys, BODY)                              \
  for (uint i = begin; i < min(begin + BLOCK_SIZE, n); ++i) { \
    const uint ordered = to_ordered(keys[i], key_kind);       \
    BODY                                                      \
  }
#endif

__kernel void radix_gruber_histogram(KEYS_IN(keys), uint key_kind, __global uint* histograms,
                                     uint n, uint shift HIST_PARAM) {
  BIND_KEYS_IN(keys);
  const uint id = get_global_id(0);
  const uint items = get_global_size(0);
  const uint begin = id * BLOCK_SIZE;
  HIST_DECLARE;
  for (uint b = 0; b < BUCKETS; ++b) hist[b] = 0;
  FOR_EACH_KEY(keys, { hist[(ordered >> shift) & RADIX_MASK]++; })
  for (uint b = 0; b < BUCKETS; ++b) histograms[b * items + id] = hist[b];
}

#if WITH_VALUES
#define MOVE_VALUE(to, from) values_out[to] = values[from];
#else
#define MOVE_VALUE(to, from)
#endif

__kernel void radix_gruber_permute(KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind,
#if WITH_VALUES
                                   const __global uint* values, __global uint* values_out,
#endif
                                   const __global uint* scanned, uint n, uint shift HIST_PARAM) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  const uint id = get_global_id(0);
  const uint items = get_global_size(0);
  const uint begin = id * BLOCK_SIZE;
  HIST_DECLARE;
  for (uint b = 0; b < BUCKETS; ++b) hist[b] = scanned[b * items + id];
  FOR_EACH_KEY(keys, {
    const uint index = hist[(ordered >> shift) & RADIX_MASK]++;
    keys_out[index] = from_ordered(ordered, key_kind);
    MOVE_VALUE(index, i)
  })
}

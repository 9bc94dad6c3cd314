// Part of radix.cl (included there, after its definitions): the local memory of a tile, the
// tile's load and scatter, and the portable ranking by two 4-bit splits.
// The local memory every tile kernel uses.
typedef struct {
  __local uint* keys;       // PADDED(TILE) tile keys (ordered bits, or raw: RAW_KEYS)
  __local ushort* indices;  // PADDED(TILE) positions in the loaded tile (key-value only)
  __local uint* counters;   // split: PADDED(COUNTER_WORDS), 16 packed 16-bit counters per
                            // work-item; warp ranking: WARPS * DIGITS per-warp digit counts
  __local uint* scratch;    // RADIX_WG + 32, for the work-group scan
  __local uint* run_start;  // DIGITS
  __local uint* run_end;    // DIGITS
  __local uint* run_base;   // DIGITS: output index of a run's key minus its local position
  __local uint* values;     // PADDED(TILE) ranked values (VALUES_LOCAL only)
} TileMemory;

#define TILE_KEY_WORDS PADDED(TILE)
#define COUNTER_ARRAY_WORDS (RANK_MATCH ? WARPS * DIGITS : PADDED(COUNTER_WORDS))
// Key-value with warp ranking: the ranked values get their own local array beside the keys
// where both fit the local memory a work-group may take (VALUES_LOCAL_WORDS: the 48 KiB devices
// report, or what the host knows the device runs), so keys and values go out in one sweep
// (otherwise the values follow the keys through the keys' array).
#ifndef VALUES_LOCAL_WORDS
#define VALUES_LOCAL_WORDS 12288
#endif
// Tests stand in for a compiler that refuses local memory beyond the reported 48 KiB with this
// option, to exercise the Sorter's fallback on every device.
#if defined(CLF_TEST_REFUSE_LARGER_LOCAL) && VALUES_LOCAL_WORDS > 12288
#error "local memory beyond 48 KiB refused (CLF_TEST_REFUSE_LARGER_LOCAL)"
#endif
// The tile kernels' reqd_work_group_size. Tests stand in for a driver that builds tiles beyond
// 48 KiB but refuses to launch them with this option: those kernels then require twice the
// work-group they are launched with.
#if defined(CLF_TEST_REFUSE_LARGE_LAUNCH) && VALUES_LOCAL_WORDS > 12288
#define TILE_WG_REQUIRED (2 * RADIX_WG)
#else
#define TILE_WG_REQUIRED RADIX_WG
#endif
#define VALUES_LOCAL                                                                        \
  (WITH_VALUES && RANK_MATCH &&                                                             \
   TILE_KEY_WORDS + PADDED(TILE) + COUNTER_ARRAY_WORDS + RADIX_WG + 32 + 3 * DIGITS + 64 <= \
       VALUES_LOCAL_WORDS)
#define DECLARE_TILE_MEMORY(name)                                                   \
  __local uint name##_keys[TILE_KEY_WORDS];                                         \
  __local uint name##_values[VALUES_LOCAL ? PADDED(TILE) : 1];                      \
  __local ushort name##_indices[WITH_VALUES && !RANK_MATCH ? PADDED(TILE) : 1];     \
  __local uint name##_counters[COUNTER_ARRAY_WORDS];                                \
  __local uint name##_scratch[RANK_MATCH == 1 ? 2 * RADIX_WG + 32 : RADIX_WG + 32]; \
  __local uint name##_start[DIGITS];                                                \
  __local uint name##_end[DIGITS];                                                  \
  __local uint name##_base[DIGITS];                                                 \
  TileMemory name = {name##_keys,  name##_indices, name##_counters, name##_scratch, \
                     name##_start, name##_end,     name##_base,     name##_values}

// Loads tile `tile` (coalesced), padding past n with all-ones, which sorts last.
inline void load_tile(const __global uint* keys, uint key_kind, uint n, uint tile, TileMemory m) {
  const uint lid = get_local_id(0);
  const uint base = tile * TILE;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    m.keys[SW(i)] = base + i < n ? ORDERED_IN(KEY_IN(keys, base + i), key_kind) : 0xffffffffu;
#if WITH_VALUES
    m.indices[SW(i)] = (ushort)i;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// One stable split of the tile by the low (upper 0) or high (upper 1) 4 bits of the digit at
// `shift`. Each work-item ranks its RADIX_ITEMS consecutive keys with its own 16 counters (no
// atomics), then an exclusive scan over the counters in digit-major order gives each (digit,
// work-item) its first position.
inline void split_by_4_bits(uint shift, uint upper, TileMemory m) {
  const uint lid = get_local_id(0);
  uint key[RADIX_ITEMS];
  uint rank[RADIX_ITEMS];
#if WITH_VALUES
  ushort index[RADIX_ITEMS];
#endif
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    key[j] = m.keys[SW(lid * RADIX_ITEMS + j)];
#if WITH_VALUES
    index[j] = m.indices[SW(lid * RADIX_ITEMS + j)];
#endif
  }
  // Counter of digit b: word (b & 7) of this work-item, 16-bit half (b >> 3).
  RADIX_UNROLL
  for (uint w = 0; w < 8; ++w) m.counters[SW(w * RADIX_WG + lid)] = 0;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint b = (DIGIT(key[j], shift) >> (4 * upper)) & 15;
    const uint half_shift = (b >> 3) * 16;
    const uint at = SW((b & 7) * RADIX_WG + lid);
    const uint c = m.counters[at];
    rank[j] = (c >> half_shift) & 0xffff;
    m.counters[at] = c + (1u << half_shift);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint words[8];
  uint sum = 0;
  RADIX_UNROLL
  for (uint i = 0; i < 8; ++i) {
    words[i] = m.counters[SW(lid * 8 + i)];
    sum += words[i];
  }
  uint total;
  uint prefix = wg_exclusive_scan(sum, m.scratch, RADIX_WG, &total);
  // Digits 8..15 (high halves) come after all of digits 0..7 (low halves).
  prefix += (total & 0xffff) << 16;
  RADIX_UNROLL
  for (uint i = 0; i < 8; ++i) {
    m.counters[SW(lid * 8 + i)] = prefix;
    prefix += words[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint b = (DIGIT(key[j], shift) >> (4 * upper)) & 15;
    const uint position =
        ((m.counters[SW((b & 7) * RADIX_WG + lid)] >> ((b >> 3) * 16)) & 0xffff) + rank[j];
    m.keys[SW(position)] = key[j];
#if WITH_VALUES
    m.indices[SW(position)] = index[j];
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Sorts the loaded tile by the digit at `shift` and records where each digit's run of the
// first `valid` keys starts and ends (empty runs: start == end == 0).
inline void sort_tile(uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
  split_by_4_bits(shift, 0, m);
  split_by_4_bits(shift, 1, m);
  for (uint d = lid; d < DIGITS; d += RADIX_WG) {
    m.run_start[d] = 0;
    m.run_end[d] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < valid; i += RADIX_WG) {
    const uint d = DIGIT(m.keys[SW(i)], shift);
    if (i == 0 || DIGIT(m.keys[SW(i - 1)], shift) != d) m.run_start[d] = i;
    if (i + 1 == valid || DIGIT(m.keys[SW(i + 1)], shift) != d) m.run_end[d] = i + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Writes the sorted tile's keys (and values) to run_base[digit] + local position.
inline void scatter_tile(__global uint* keys_out, uint key_kind,
#if WITH_VALUES
                         const __global uint* values, __global uint* values_out,
#endif
                         uint n, uint tile, uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
#if WITH_VALUES
  uint destination[RADIX_ITEMS];
  ushort source[RADIX_ITEMS];
#endif
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (i < valid) {
      const uint ordered = m.keys[SW(i)];
      const uint to = m.run_base[DIGIT(ordered, shift)] + i;
      KEY_OUT(keys_out, to) = BITS_OUT(ordered, key_kind);
#if WITH_VALUES
      destination[j] = to;
      source[j] = m.indices[SW(i)];
#endif
    }
  }
#if WITH_VALUES
  // The tile's values go through local memory (where the keys were) in load order, then out.
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint base = tile * TILE;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (base + i < n) m.keys[SW(i)] = VALUE_IN(values, base + i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (i < valid) VALUE_OUT(values_out, destination[j]) = m.keys[SW(source[j])];
  }
#endif
}

// Part of radix.cl (included there, after the tile steps): the Onesweep kernels.
// --- onesweep (forward progress between work-groups required) --------------------------------

// The sort's counters: a ticket counter per pass, then the histogram's count of finished
// work-groups.
#define ONESWEEP_DONE PASSES
#define ONESWEEP_COUNTERS (PASSES + 1)

// Zeroes the look-back status of the first pass, the counters and the digit counts. Every sort
// leaves them zero for the next one (the passes clear the status, the histogram's last
// work-group the rest), so the host runs this only for new buffers.
__kernel void radix_onesweep_init(__global uint* status, uint status_words, __global uint* counters,
                                  __global uint* digit_counts) {
  const uint i = get_global_id(0);
  if (i < status_words) status[i] = 0;
  if (i < ONESWEEP_COUNTERS) counters[i] = 0;
  if (i < PASSES * DIGITS) digit_counts[i] = 0;
}

// The global histogram runs with work-groups of GLOBAL_WG, whatever the tile shape.
#define GLOBAL_WG 256

// Counts the digits of all the sort's passes in one read of the keys: uint4 loads, two in flight
// per work-item, into per-work-group counters in local memory, added to digit_counts. The last
// work-group to finish turns the counts into each digit's first output index (digit_offsets)
// and leaves the counts and counters zero for the next sort, so that a sort is five launches.
#define HIST_WORDS (PASSES * DIGITS)
#define COUNT_KEY(bits)                                                                         \
  do {                                                                                          \
    const uint ordered_ = to_ordered(bits, key_kind);                                           \
    for (uint p = 0; p < PASSES; ++p) {                                                         \
      if (p < passes) atomic_inc(&counts[p * DIGITS + DIGIT(ordered_, min(8 * p, top_shift))]); \
    }                                                                                           \
  } while (0)
#define COUNT_QUAD(q) \
  do {                \
    COUNT_KEY(q.x);   \
    COUNT_KEY(q.y);   \
    COUNT_KEY(q.z);   \
    COUNT_KEY(q.w);   \
  } while (0)
// This work-item's share of the counts of `passes` passes, pass p's digit at min(8p, top_shift).
inline void count_digits(const __global uint* keys, uint key_kind, uint n, uint passes,
                         uint top_shift, __local uint* counts) {
  // Buffers start aligned (CL_DEVICE_MEM_BASE_ADDR_ALIGN is at least 128 bits).
  const __global uint4* quads = (const __global uint4*)keys;
  const uint quad_count = n / 4;
  const uint stride = get_global_size(0);
  uint i = get_global_id(0);
  for (; i + stride < quad_count; i += 2 * stride) {
    const uint4 a = quads[i];
    const uint4 b = quads[i + stride];
    COUNT_QUAD(a);
    COUNT_QUAD(b);
  }
  if (i < quad_count) {
    const uint4 a = quads[i];
    COUNT_QUAD(a);
  }
  const uint tail = 4 * quad_count + get_global_id(0);
  if (tail < n) COUNT_KEY(keys[tail]);
}

__kernel __attribute__((reqd_work_group_size(GLOBAL_WG, 1, 1))) void radix_global_histogram(
    KEYS_IN(keys), uint key_kind, uint n, uint passes, uint top_shift, __global uint* digit_counts,
    __global uint* counters, __global uint* digit_offsets) {
  BIND_KEYS_IN(keys);
  __local uint counts[HIST_WORDS];
  __local uint scratch[GLOBAL_WG + 32];
  __local uint last_group;
  const uint lid = get_local_id(0);
  for (uint d = lid; d < HIST_WORDS; d += GLOBAL_WG) counts[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Whole keys with constant passes and shifts: the guards and shifts known only at run time
  // would cost the common sort ~2 % of this kernel.
  if (passes == PASSES && top_shift == 8 * (PASSES - 1)) {
    count_digits(keys, key_kind, n, PASSES, 8 * (PASSES - 1), counts);
  } else {
    count_digits(keys, key_kind, n, passes, top_shift, counts);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < PASSES * DIGITS; d += GLOBAL_WG) {
    const uint sum = counts[d];
    if (sum != 0) atomic_add(&digit_counts[d], sum);
  }
  // Every work-item's additions before its group counts itself done.
  device_fence();
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    last_group = atomic_inc(&counters[ONESWEEP_DONE]) == get_num_groups(0) - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!last_group) return;
  device_fence();
  for (uint p = 0; p < PASSES; ++p) {
    uint carry = 0;
    for (uint d0 = 0; d0 < DIGITS; d0 += GLOBAL_WG) {
      const uint d = d0 + lid;
      // Read through the atomic, which also zeroes the count for the next sort.
      const uint count = d < DIGITS ? atomic_xchg(&digit_counts[p * DIGITS + d], 0) : 0;
      uint total;
      const uint prefix = wg_exclusive_scan(count, scratch, GLOBAL_WG, &total);
      if (d < DIGITS) digit_offsets[p * DIGITS + d] = carry + prefix;
      carry += total;
    }
  }
  // The previous sort's passes have finished (they ran before this kernel), and this sort's
  // start after it.
  if (lid < ONESWEEP_COUNTERS) counters[lid] = 0;
}
#undef COUNT_QUAD
#undef COUNT_KEY
#undef HIST_WORDS

// Digit d's exclusive prefix for `tile` (> 0): the sum of the counts published by the tiles
// before it, back to the first one that has published its inclusive prefix (which includes
// the digit's global start). LOOKBACK_WINDOW status words are read at once; a word not yet
// published (0) ends the window, and the next window starts there.
inline uint look_back(__global uint* status, uint tile, uint d) {
  const volatile __global uint* words = (const volatile __global uint*)status;
  uint exclusive = 0;
  int t = (int)tile - 1;
  for (;;) {
    uint word[LOOKBACK_WINDOW];
    for (int k = 0; k < LOOKBACK_WINDOW; ++k) {
      word[k] = t - k >= 0 ? words[(t - k) * DIGITS + d] : FLAG_PREFIX;
    }
    int k = 0;
    for (; k < LOOKBACK_WINDOW; ++k) {
      if (word[k] == 0) break;  // tile t - k has not published yet
      exclusive += word[k] & VALUE_MASK;
      if (word[k] & FLAG_PREFIX) return exclusive;
    }
    t -= k;
  }
}

// Publishes a counted tile's digit counts (tile 0: its inclusive prefixes, which include the
// digits' global starts).
inline void publish_counts(__global uint* status, uint tile, const __global uint* digit_start,
                           TileMemory m) {
  for (uint d = get_local_id(0); d < DIGITS; d += RADIX_WG) {
    const uint count = m.run_end[d] - m.run_start[d];
    atomic_xchg(status + tile * DIGITS + d,
                tile == 0 ? FLAG_PREFIX | (digit_start[d] + count) : FLAG_AGGREGATE | count);
  }
}

// Looks back for the tile's digits, publishes its inclusive prefixes and sets run_base.
inline void resolve_runs(__global uint* status, uint tile, const __global uint* digit_start,
                         TileMemory m) {
  for (uint d = get_local_id(0); d < DIGITS; d += RADIX_WG) {
    uint exclusive = digit_start[d];
    if (tile != 0) {
      exclusive = look_back(status, tile, d);
      atomic_xchg(status + tile * DIGITS + d,
                  FLAG_PREFIX | (exclusive + m.run_end[d] - m.run_start[d]));
    }
    m.run_base[d] = exclusive - m.run_start[d];
  }
}

__kernel __attribute__((reqd_work_group_size(TILE_WG_REQUIRED, 1, 1))) void radix_onesweep(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS, uint n, uint shift, uint pass,
    __global uint* counters, const __global uint* digit_offsets, __global uint* status,
    __global uint* next_status) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  DECLARE_TILE_MEMORY(m);
  __local uint tile_id;
  const uint lid = get_local_id(0);
  // Tiles are numbered in the order work-groups start, so every tile a work-group waits for
  // below has started and will finish.
  if (lid == 0) tile_id = atomic_inc(&counters[pass]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_id;
  // The next pass uses the other status array; this pass clears it (the pass before this one,
  // which also used it, has finished).
  for (uint d = lid; d < DIGITS; d += RADIX_WG) next_status[tile * DIGITS + d] = 0;
  const uint valid = min((uint)TILE, n - tile * TILE);
  const __global uint* digit_start = digit_offsets + pass * DIGITS;
#if RANK_MATCH
  TILE_REGISTERS;
  LOAD_TILE_STRIPED;
  count_tile_early(key, shift, valid, m);
  // The tile's digit counts are known before ranking: publish them now, so that later tiles'
  // look-backs find them sooner; the look-back itself comes after the ranking.
  publish_counts(status, tile, digit_start, m);
  RANK_STORE_EARLY;
#else  // split ranking: the counts come out of the sorted tile
  load_tile(keys, key_kind, n, tile, m);
  sort_tile(shift, valid, m);
  publish_counts(status, tile, digit_start, m);
#endif
  resolve_runs(status, tile, digit_start, m);
  barrier(CLK_LOCAL_MEM_FENCE);
  SCATTER_TILE;
}

#if RANK_MATCH && !WITH_VALUES
// Ranks the tile's first `valid` keys unstably: one local atomic_inc a key on the warp's digit
// counter, which starts at the warp's first place (count_tile_early). Padding keys are not ranked,
// so the digit's last run ends with the tile's own keys; full tiles (all but the last) skip that
// check a key.
inline void rank_store_unstable(const uint* key, uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
  __local uint* warp_counts = m.counters + (lid / WARP) * DIGITS;
  if (valid == TILE) {
    RADIX_UNROLL
    for (uint j = 0; j < RADIX_ITEMS; ++j) {
      const uint place = atomic_inc(&warp_counts[TILE_DIGIT(key[j], shift)]);
      m.keys[SW(place)] = key[j];
    }
  } else {
    const uint first = (lid / WARP) * WARP_KEYS + lid % WARP;
    RADIX_UNROLL
    for (uint j = 0; j < RADIX_ITEMS; ++j) {
      if (first + j * WARP < valid) {
        const uint place = atomic_inc(&warp_counts[TILE_DIGIT(key[j], shift)]);
        m.keys[SW(place)] = key[j];
      }
    }
  }
}

// The first pass of a keys-only sort, unstable: keys equal in the low digit may come out in any
// order, because the later passes are stable and keys equal in every digit are equal keys. So its
// tiles wait for no other work-group (no ticket, no look-back): each claims its digits' places
// in the output with one global atomic_add a digit on the digit's cursor, which starts at the
// digit's first output index (`cursors`: the first row of digit_offsets, used up by this pass),
// and ranks with one local atomic a key. The claims' round trip overlaps the ranking.
#define CLAIMS ((DIGITS + RADIX_WG - 1) / RADIX_WG)
__kernel __attribute__((reqd_work_group_size(TILE_WG_REQUIRED, 1, 1))) void radix_onesweep_unstable(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind, uint n, __global uint* cursors,
    __global uint* next_status, uint next_status_words) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  DECLARE_TILE_MEMORY(m);
  const uint lid = get_local_id(0);
  const uint tile = get_group_id(0);
  // The second pass looks back on next_status: zero it, as the stable passes do (its tiles may
  // be smaller than this pass's, so all of it, spread over the work-groups).
  for (uint i = get_global_id(0); i < next_status_words; i += get_global_size(0)) {
    next_status[i] = 0;
  }
  const uint valid = min((uint)TILE, n - tile * TILE);
  TILE_REGISTERS;
  LOAD_TILE_STRIPED;
  count_tile_early(key, 0, valid, m);
  uint claimed[CLAIMS];
  RADIX_UNROLL
  for (uint k = 0; k < CLAIMS; ++k) {
    const uint d = lid + k * RADIX_WG;
    const uint count = d < DIGITS ? m.run_end[d] - m.run_start[d] : 0;
    claimed[k] = count != 0 ? atomic_add(&cursors[d], count) : 0;
  }
  rank_store_unstable(key, 0, valid, m);
  RADIX_UNROLL
  for (uint k = 0; k < CLAIMS; ++k) {
    const uint d = lid + k * RADIX_WG;
    if (d < DIGITS) m.run_base[d] = claimed[k] - m.run_start[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  scatter_ranked(keys_out, key_kind, 0, valid, m);
}
#undef CLAIMS
#endif  // RANK_MATCH && !WITH_VALUES

// The default sort: LSD radix sort with 8-bit digits (four passes for 32-bit keys). Each pass
// works on tiles of TILE = RADIX_WG * RADIX_ITEMS keys. A work-group loads its tile into local
// memory, sorts it there by the pass's digit (two stable 4-bit splits, each ranking keys with
// per-work-item counters and a work-group scan: barriers only, no lockstep assumptions), finds
// where each digit's run starts, and writes every run to its place in the output with
// consecutive work-items writing consecutive addresses.
//
// Where a tile's runs go (the digit's global start plus the counts of that digit in earlier
// tiles) comes from one of two schemes:
//   radix_upsweep + scan + radix_downsweep: portable (any OpenCL device). Tile histograms are
//     written digit-major, scanned, and read back by the tile.
//   radix_global_histogram + radix_global_scan once, then radix_onesweep per pass: Onesweep
//     (Adinets & Merrill 2022). Tiles take ids from an atomic ticket and chain their digit
//     counts through a decoupled look-back, so each pass reads and writes the keys once. This
//     waits on other work-groups and so needs forward progress between them (NVIDIA GPUs): the
//     host never chooses it elsewhere.
#include "kernels/sort/common.cl"

#ifndef RADIX_WG
#define RADIX_WG 256
#endif
#ifndef RADIX_ITEMS
#define RADIX_ITEMS 16
#endif
#ifndef WITH_VALUES
#define WITH_VALUES 0
#endif
#define TILE (RADIX_WG * RADIX_ITEMS)
// Unrolling the per-item loops keeps their arrays in registers on GPUs; PoCL compiles much faster
// without it and its work-item loops vectorise anyway.
#ifndef RADIX_UNROLL_LOOPS
#define RADIX_UNROLL_LOOPS 0
#endif
#if RADIX_UNROLL_LOOPS
#define RADIX_UNROLL _Pragma("unroll")
#else
#define RADIX_UNROLL
#endif
#define DIGITS 256
#define PASSES 4
// Local arrays are padded by one word in 32, so that work-items reading RADIX_ITEMS (or 8)
// consecutive words hit different banks.
#define SW(a) ((a) + ((a) >> 5))
#define PADDED(n) ((n) + ((n) >> 5))
#define COUNTER_WORDS (8 * RADIX_WG)
#define DIGIT(ordered, shift) (((ordered) >> (shift)) & (DIGITS - 1))

// Look-back status words: two flag bits over a 30-bit count (n < 2^30 for onesweep).
#define FLAG_AGGREGATE 0x40000000u
#define FLAG_PREFIX 0x80000000u
#define VALUE_MASK 0x3fffffffu

// The local memory every tile kernel uses.
typedef struct {
  __local uint* keys;       // PADDED(TILE) ordered keys
  __local ushort* indices;  // PADDED(TILE) positions in the loaded tile (key-value only)
  __local uint* counters;   // PADDED(COUNTER_WORDS): 16 packed 16-bit counters per work-item
  __local uint* scratch;    // RADIX_WG + 32, for the work-group scan
  __local uint* run_start;  // DIGITS
  __local uint* run_end;    // DIGITS
  __local uint* run_base;   // DIGITS: output index of a run's key minus its local position
} TileMemory;

#define DECLARE_TILE_MEMORY(name)                          \
  __local uint name##_keys[PADDED(TILE)];                  \
  __local ushort name##_indices[WITH_VALUES ? PADDED(TILE) : 1]; \
  __local uint name##_counters[PADDED(COUNTER_WORDS)];     \
  __local uint name##_scratch[RADIX_WG + 32];              \
  __local uint name##_start[DIGITS];                       \
  __local uint name##_end[DIGITS];                         \
  __local uint name##_base[DIGITS];                        \
  TileMemory name = {name##_keys,    name##_indices, name##_counters, name##_scratch, \
                     name##_start, name##_end,     name##_base}

// Loads tile `tile` (coalesced), padding past n with all-ones, which sorts last.
inline void load_tile(const __global uint* keys, uint key_kind, uint n, uint tile, TileMemory m) {
  const uint lid = get_local_id(0);
  const uint base = tile * TILE;
RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    m.keys[SW(i)] = base + i < n ? to_ordered(keys[base + i], key_kind) : 0xffffffffu;
#if WITH_VALUES
    m.indices[SW(i)] = (ushort)i;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// One stable split of the tile by the 4 bits at `bits`. Each work-item ranks its RADIX_ITEMS
// consecutive keys with its own 16 counters (no atomics), then an exclusive scan over the
// counters in digit-major order gives each (digit, work-item) its first position.
inline void split_by_4_bits(uint bits, TileMemory m) {
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
    const uint b = (key[j] >> bits) & 15;
    const uint shift = (b >> 3) * 16;
    const uint at = SW((b & 7) * RADIX_WG + lid);
    const uint c = m.counters[at];
    rank[j] = (c >> shift) & 0xffff;
    m.counters[at] = c + (1u << shift);
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
    const uint b = (key[j] >> bits) & 15;
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
  split_by_4_bits(shift, m);
  split_by_4_bits(shift + 4, m);
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
      keys_out[to] = from_ordered(ordered, key_kind);
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
    if (base + i < n) m.keys[SW(i)] = values[base + i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (i < valid) values_out[destination[j]] = m.keys[SW(source[j])];
  }
#endif
}

#if WITH_VALUES
#define VALUE_PARAMS , const __global uint *values, __global uint *values_out
#define VALUE_ARGS values, values_out,
#else
#define VALUE_PARAMS
#define VALUE_ARGS
#endif

// --- portable: upsweep, scan (kernels/sort/scan.cl), downsweep -------------------------------

// Digit counts of each tile, digit-major: tile_counts[digit * tiles + tile].
__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_upsweep(
    KEYS_IN(keys), uint key_kind, __global uint* tile_counts, uint n, uint shift) {
  BIND_KEYS_IN(keys);
  __local uint counts[DIGITS];
  const uint lid = get_local_id(0);
  const uint tile = get_group_id(0);
  const uint tiles = get_num_groups(0);
  for (uint d = lid; d < DIGITS; d += RADIX_WG) counts[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint base = tile * TILE;
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = base + lid + j * RADIX_WG;
    if (i < n) atomic_inc(&counts[DIGIT(to_ordered(keys[i], key_kind), shift)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < DIGITS; d += RADIX_WG) tile_counts[d * tiles + tile] = counts[d];
}

// `offsets` is tile_counts after an exclusive scan: where each (digit, tile) run starts.
__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_downsweep(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS, const __global uint* offsets,
    uint n, uint shift) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  DECLARE_TILE_MEMORY(m);
  const uint tile = get_group_id(0);
  const uint tiles = get_num_groups(0);
  const uint valid = min((uint)TILE, n - tile * TILE);
  load_tile(keys, key_kind, n, tile, m);
  sort_tile(shift, valid, m);
  for (uint d = get_local_id(0); d < DIGITS; d += RADIX_WG) {
    m.run_base[d] = offsets[d * tiles + tile] - m.run_start[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  scatter_tile(keys_out, key_kind, VALUE_ARGS n, tile, shift, valid, m);
}

// --- portable, for CPUs: the same three steps with one long run of keys per work-item ---------
// A CPU runs each work-item's loop sequentially and fast; what costs there is barriers and
// per-work-item state kept across them. So each work-item counts and then scatters its own
// contiguous chunk with a private histogram, like a sequential radix sort. Counts are stored
// digit-major (chunk_counts[digit * chunks + chunk]) so one scan gives stable offsets.

__kernel void radix_chunk_upsweep(KEYS_IN(keys), uint key_kind, __global uint* chunk_counts,
                                  uint n, uint shift, uint chunk) {
  BIND_KEYS_IN(keys);
  const uint id = get_global_id(0);
  const uint chunks = get_global_size(0);
  uint counts[DIGITS];
  for (uint d = 0; d < DIGITS; ++d) counts[d] = 0;
  const uint begin = min(n, id * chunk);
  const uint end = min(n, begin + chunk);
  for (uint i = begin; i < end; ++i) ++counts[DIGIT(to_ordered(keys[i], key_kind), shift)];
  for (uint d = 0; d < DIGITS; ++d) chunk_counts[d * chunks + id] = counts[d];
}

__kernel void radix_chunk_downsweep(KEYS_IN(keys), KEYS_OUT(keys_out),
                                    uint key_kind VALUE_PARAMS, const __global uint* offsets,
                                    uint n, uint shift, uint chunk) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  const uint id = get_global_id(0);
  const uint chunks = get_global_size(0);
  uint next[DIGITS];
  for (uint d = 0; d < DIGITS; ++d) next[d] = offsets[d * chunks + id];
  const uint begin = min(n, id * chunk);
  const uint end = min(n, begin + chunk);
  for (uint i = begin; i < end; ++i) {
    const uint key = keys[i];
    const uint to = next[DIGIT(to_ordered(key, key_kind), shift)]++;
    keys_out[to] = key;
#if WITH_VALUES
    values_out[to] = values[i];
#endif
  }
}

// --- onesweep (forward progress between work-groups required) --------------------------------

// Zeroes the look-back status of the first pass, the tickets and the digit counts.
__kernel void radix_onesweep_init(__global uint* status, uint status_words,
                                  __global uint* tickets, __global uint* digit_counts) {
  const uint i = get_global_id(0);
  if (i < status_words) status[i] = 0;
  if (i < PASSES) tickets[i] = 0;
  if (i < PASSES * DIGITS) digit_counts[i] = 0;
}

// Counts the digits of all four passes in one read of the keys.
__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_global_histogram(
    KEYS_IN(keys), uint key_kind, uint n, __global uint* digit_counts) {
  BIND_KEYS_IN(keys);
  __local uint counts[PASSES * DIGITS];
  const uint lid = get_local_id(0);
  for (uint d = lid; d < PASSES * DIGITS; d += RADIX_WG) counts[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint ordered = to_ordered(keys[i], key_kind);
    for (uint p = 0; p < PASSES; ++p) atomic_inc(&counts[p * DIGITS + DIGIT(ordered, 8 * p)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < PASSES * DIGITS; d += RADIX_WG) {
    if (counts[d] != 0) atomic_add(&digit_counts[d], counts[d]);
  }
}

// One work-group: digit counts -> each digit's first output index, per pass, in place.
__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_global_scan(
    __global uint* digit_counts) {
  __local uint scratch[RADIX_WG + 32];
  const uint lid = get_local_id(0);
  for (uint p = 0; p < PASSES; ++p) {
    uint carry = 0;
    for (uint d0 = 0; d0 < DIGITS; d0 += RADIX_WG) {
      const uint d = d0 + lid;
      const uint count = d < DIGITS ? digit_counts[p * DIGITS + d] : 0;
      uint total;
      const uint prefix = wg_exclusive_scan(count, scratch, RADIX_WG, &total);
      if (d < DIGITS) digit_counts[p * DIGITS + d] = carry + prefix;
      carry += total;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_onesweep(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS, uint n, uint shift, uint pass, __global uint* tickets, const __global uint* digit_offsets, __global uint* status,
    __global uint* next_status) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  DECLARE_TILE_MEMORY(m);
  __local uint tile_id;
  const uint lid = get_local_id(0);
  // Tiles are numbered in the order work-groups start, so every tile a work-group waits for
  // below has started and will finish.
  if (lid == 0) tile_id = atomic_inc(&tickets[pass]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_id;
  // The next pass uses the other status array; this pass clears it (the pass before this one,
  // which also used it, has finished).
  for (uint d = lid; d < DIGITS; d += RADIX_WG) next_status[tile * DIGITS + d] = 0;
  const uint valid = min((uint)TILE, n - tile * TILE);
  load_tile(keys, key_kind, n, tile, m);
  sort_tile(shift, valid, m);
  for (uint d = lid; d < DIGITS; d += RADIX_WG) {
    const uint count = m.run_end[d] - m.run_start[d];
    volatile __global uint* mine = status + tile * DIGITS + d;
    uint exclusive;
    if (tile == 0) {
      exclusive = digit_offsets[pass * DIGITS + d];
    } else {
      atomic_xchg(mine, FLAG_AGGREGATE | count);
      exclusive = 0;
      for (uint t = tile - 1;;) {
        const uint s = ((volatile __global uint*)status)[t * DIGITS + d];
        if (s == 0) continue;  // tile t has not published yet
        exclusive += s & VALUE_MASK;
        if (s & FLAG_PREFIX) break;
        --t;
      }
    }
    atomic_xchg(mine, FLAG_PREFIX | (exclusive + count));
    m.run_base[d] = exclusive - m.run_start[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  scatter_tile(keys_out, key_kind, VALUE_ARGS n, tile, shift, valid, m);
}

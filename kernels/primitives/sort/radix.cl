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
//   radix_global_histogram once (its last work-group scans the counts), then radix_onesweep
//     per pass: Onesweep (Adinets & Merrill 2022). Tiles take ids from an atomic ticket and
//     chain their digit counts through a decoupled look-back, so each pass reads and writes the
//     keys once. This waits on other work-groups and so needs forward progress between them
//     (NVIDIA GPUs, PoCL's CPU drivers): the host checks for it. Keys only, the first pass need
//     not be stable: radix_onesweep_unstable places its tiles by global atomics instead.
//
// The parts: radix_tile.cl (tile memory, load, scatter, split ranking), radix_warp_rank.cl (warp
// multi-split), this file's portable kernels, radix_onesweep.cl (the Onesweep kernels).
#include "kernels/primitives/sort/common.cl"

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
// How a tile is ranked by its 8-bit digit:
//   0  two stable 4-bit splits in local memory (per-work-item counters, work-group scans)
//   1  warp multi-split (see radix_warp_rank.cl) with the warp-level matching emulated through
//      local memory and barriers: portable and slow, it tests the structure of mode 2 anywhere
//   2  warp multi-split with NVIDIA's match.any.sync / shfl.sync in inline PTX (sm_70 and
//      later); the host only asks for it on NVIDIA GPUs, after a trial build succeeds
#ifndef RANK_MATCH
#define RANK_MATCH 0
#endif
// Warp ranking with one program per key kind: 1 keeps the tile's keys in their own bits from
// load to store (int32 and float32 tiles then load as uint32's do); see TILE_DIGIT in
// radix_warp_rank.cl.
#ifndef RAW_KEYS
#define RAW_KEYS 0
#endif
#if RAW_KEYS && !defined(KEY_KIND)
#error "RAW_KEYS needs -DKEY_KIND"
#endif
#if RANK_MATCH == 2
#include "kernels/primitives/common/nvidia_warp.cl"
#endif
#include "kernels/primitives/common/device_fence.cl"
// Onesweep look-back: each digit's work-item reads LOOKBACK_WINDOW predecessor tiles' status
// words at once (independent loads) instead of one at a time.
#ifndef LOOKBACK_WINDOW
#define LOOKBACK_WINDOW 1
#endif
#define WARP 32
#define WARPS (RADIX_WG / WARP)
#define WARP_KEYS (WARP * RADIX_ITEMS)
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
// consecutive words hit different banks. Warp ranking reads none that way, but unpadded its
// key-value passes were 5 % slower and keys-only sorts of 2^20 6 % slower on the H200
// (docs/sort-log.md, eighteenth session). SW evaluates its argument twice: no side effects in it
// (an atomic there counts twice).
#define SW(a) ((a) + ((a) >> 5))
#define PADDED(n) ((n) + ((n) >> 5))
#define COUNTER_WORDS (8 * RADIX_WG)
// Sorts by fewer than 8 key bits (KeyBits in sort.hpp) build with the digit masked to them; wider
// bit ranges need no mask: their last pass takes the 8 bits below the range's top, overlapping
// the pass before, which LSD order allows.
#ifndef DIGIT_MASK
#define DIGIT_MASK (DIGITS - 1)
#endif
#define DIGIT(ordered, shift) (((ordered) >> (shift)) & DIGIT_MASK)

// Look-back status words: two flag bits over a 30-bit count (n < 2^30 for onesweep).
#define FLAG_AGGREGATE 0x40000000u
#define FLAG_PREFIX 0x80000000u
#define VALUE_MASK 0x3fffffffu

// Key-value onesweep passes read (PAIRS_IN) or write (PAIRS_OUT) keys and values interleaved, as
// (key, value) pairs in one buffer, between their first pass and their last: the host passes
// that buffer as both the keys and the values argument. Where a tile keeps each value beside its
// key, a key and its value move as one 64-bit load and store, and a digit's run goes out as one
// run of stores instead of two (docs/sort.md).
#ifndef PAIRS_IN
#define PAIRS_IN 0
#endif
#ifndef PAIRS_OUT
#define PAIRS_OUT 0
#endif
#if (PAIRS_IN || PAIRS_OUT) && !WITH_VALUES
#error "PAIRS_IN and PAIRS_OUT are for key-value sorts"
#endif
#define KEY_IN(keys, i) (keys)[PAIRS_IN ? 2 * (i) : (i)]
#define VALUE_IN(values, i) (values)[PAIRS_IN ? 2 * (i) + 1 : (i)]
#define KEY_OUT(keys_out, i) (keys_out)[PAIRS_OUT ? 2 * (i) : (i)]
#define VALUE_OUT(values_out, i) (values_out)[PAIRS_OUT ? 2 * (i) + 1 : (i)]
// Pairs carry the keys' ordered bits: the pass that writes them maps each key once, the passes
// between read and write them with no map (int32 and float32 passes run as uint32's: 4-5 % faster
// a pass on the H200), and the last pass maps them back. A pass reading pairs has no raw keys.
#if PAIRS_IN
#define ORDERED_IN(bits, key_kind) (bits)
#undef RAW_KEYS
#define RAW_KEYS 0
#else
#define ORDERED_IN(bits, key_kind) to_ordered(bits, key_kind)
#endif
#if PAIRS_OUT
#define BITS_OUT(ordered, key_kind) (ordered)
#else
#define BITS_OUT(ordered, key_kind) from_ordered(ordered, key_kind)
#endif

#include "kernels/primitives/sort/radix_tile.cl"
#include "kernels/primitives/sort/radix_warp_rank.cl"

#if WITH_VALUES
#define VALUE_PARAMS , const __global uint *values, __global uint *values_out
#define VALUE_ARGS values, values_out,
#else
#define VALUE_PARAMS
#define VALUE_ARGS
#endif

// The tile steps the downsweep and onesweep kernels share: load, rank and (after the caller has
// set run_base) scatter, in the ranking mode's way.
#if RANK_MATCH && VALUES_LOCAL
#define TILE_REGISTERS uint key[RADIX_ITEMS], value[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, values, value, n, tile, key)
#define RANK_STORE_EARLY rank_store_early(key, value, shift, m)
#define SCATTER_TILE scatter_ranked(keys_out, key_kind, values_out, shift, valid, m)
#elif RANK_MATCH && WITH_VALUES
#define TILE_REGISTERS uint key[RADIX_ITEMS], value[RADIX_ITEMS], position[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, values, value, n, tile, key)
#define RANK_STORE_EARLY rank_store_early(key, position, shift, m)
#define SCATTER_TILE \
  scatter_ranked(keys_out, key_kind, values_out, value, position, shift, valid, m)
#elif RANK_MATCH
#define TILE_REGISTERS uint key[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, n, tile, key)
#define RANK_STORE_EARLY rank_store_early(key, shift, m)
#define SCATTER_TILE scatter_ranked(keys_out, key_kind, shift, valid, m)
#else
#define SCATTER_TILE scatter_tile(keys_out, key_kind, VALUE_ARGS n, tile, shift, valid, m)
#endif
#if RANK_MATCH
#define RANKED_TILE_BEGIN                 \
  TILE_REGISTERS;                         \
  LOAD_TILE_STRIPED;                      \
  count_tile_early(key, shift, valid, m); \
  RANK_STORE_EARLY
#endif

// --- portable: upsweep, scan (kernels/primitives/sort/scan.cl), downsweep
// -------------------------------

// Digit counts of each tile, digit-major: tile_counts[digit * tiles + tile].
__kernel __attribute__((reqd_work_group_size(TILE_WG_REQUIRED, 1, 1))) void radix_upsweep(
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
__kernel __attribute__((reqd_work_group_size(TILE_WG_REQUIRED, 1, 1))) void radix_downsweep(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS, const __global uint* offsets,
    uint n, uint shift) {
  BIND_KEYS_IN(keys);
  BIND_KEYS_OUT(keys_out);
  DECLARE_TILE_MEMORY(m);
  const uint tile = get_group_id(0);
  const uint tiles = get_num_groups(0);
  const uint valid = min((uint)TILE, n - tile * TILE);
#if RANK_MATCH
  RANKED_TILE_BEGIN;
#else
  load_tile(keys, key_kind, n, tile, m);
  sort_tile(shift, valid, m);
#endif
  for (uint d = get_local_id(0); d < DIGITS; d += RADIX_WG) {
    m.run_base[d] = offsets[d * tiles + tile] - m.run_start[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  SCATTER_TILE;
}

// --- portable, for CPUs: the same three steps with one long run of keys per work-item ---------
// A CPU runs each work-item's loop sequentially and fast; what costs there is barriers and
// per-work-item state kept across them. So each work-item counts and then scatters its own
// contiguous chunk with a private histogram, like a sequential radix sort. Counts are stored
// digit-major (chunk_counts[digit * chunks + chunk]) so one scan gives stable offsets.

__kernel void radix_chunk_upsweep(KEYS_IN(keys), uint key_kind, __global uint* chunk_counts, uint n,
                                  uint shift, uint chunk) {
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

__kernel void radix_chunk_downsweep(KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS,
                                    const __global uint* offsets, uint n, uint shift, uint chunk) {
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

#include "kernels/primitives/sort/radix_onesweep.cl"

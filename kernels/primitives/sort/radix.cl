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
//   1  warp multi-split (see rank_tile_match) with the warp-level matching emulated through
//      local memory and barriers: portable and slow, it tests the structure of mode 2 anywhere
//   2  warp multi-split with NVIDIA's match.any.sync / shfl.sync in inline PTX (sm_70 and
//      later); the host only asks for it on NVIDIA GPUs, after a trial build succeeds
#ifndef RANK_MATCH
#define RANK_MATCH 0
#endif
// Warp ranking (RANK_MATCH 1 and 2) with the tile's digits counted first ("early counts"): one
// local atomic per key gives per-warp digit counts, a prefix over (digit, warp) turns them into
// each warp's first place per digit, and the ranking rounds then yield final places, so every key
// goes to local memory as soon as it is ranked (no place array in registers) and onesweep can
// publish the tile's counts before ranking. 0: count while ranking, places fixed afterwards.
#ifndef RANK_EARLY
#define RANK_EARLY 1
#endif
#if RANK_MATCH == 2
#include "kernels/primitives/common/nvidia_warp.cl"
#endif
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
  __local uint* counters;   // split: PADDED(COUNTER_WORDS), 16 packed 16-bit counters per
                            // work-item; RANK_EARLY: WARPS * DIGITS per-warp digit counts
  __local uint* scratch;    // RADIX_WG + 32, for the work-group scan
  __local uint* run_start;  // DIGITS
  __local uint* run_end;    // DIGITS
  __local uint* run_base;   // DIGITS: output index of a run's key minus its local position
  __local uint* values;     // PADDED(TILE) ranked values (VALUES_LOCAL only)
} TileMemory;

// In match mode the keys array first holds the per-warp digit counters (WARPS * DIGITS words):
// the keys are in registers until they have been ranked.
// (RANK_EARLY: the counters have their own array, the keys go to local memory while ranking.)
#define TILE_KEY_WORDS \
  (RANK_MATCH && !RANK_EARLY && WARPS * DIGITS > PADDED(TILE) ? WARPS * DIGITS : PADDED(TILE))
#define COUNTER_ARRAY_WORDS (RANK_MATCH ? (RANK_EARLY ? WARPS * DIGITS : 1) : PADDED(COUNTER_WORDS))
// Key-value with warp ranking: the ranked values get their own local array beside the keys
// where both fit the 48 KiB a work-group may have, so keys and values go out in one sweep
// (otherwise the values follow the keys through the keys' array).
#define VALUES_LOCAL            \
  (WITH_VALUES && RANK_MATCH && \
   TILE_KEY_WORDS + PADDED(TILE) + COUNTER_ARRAY_WORDS + RADIX_WG + 32 + 3 * DIGITS + 64 <= 12288)
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

// --- ranking by warp multi-split (RANK_MATCH 1 and 2) ----------------------------------------
// Keys sit in registers "warp-striped": key j of lane l in warp w is tile key
// w * WARP_KEYS + j * WARP + l, so each load and store of a warp covers 32 consecutive words.
// Ranking goes round by round (j), in tile order: in each round a warp finds, for every lane,
// the lanes holding the same digit (its peers); the lowest peer adds their number to the warp's
// counter of that digit and hands the old value to them; each key's rank in its warp is that
// value plus its peers in lower lanes. Per-warp counters then get a prefix over the warps and
// over the digits, and a key's place in the tile sorted by digit is its rank plus its
// (warp, digit) offset. Stable: ties keep tile order (warp, round, lane).

#if RANK_MATCH == 2
// Lanes are the work-item's position in its warp: NVIDIA forms warps from consecutive local ids.
// The peers (lanes with the same digit) come from eight vote.sync.ballot, one per digit bit, as
// in CUB's MatchAny: several times faster than match.any.sync, which the H200 runs slowly
// (docs/sort.md). The .sync instructions wait for all 32 lanes,
// so no lockstep execution is assumed; the leader's atomic counter update completes (its result
// is shuffled) before any lane enters the next round, which keeps the updates of successive
// rounds in order.
inline uint warp_peers(uint digit) {
  uint peers = 0xffffffffu;
  RADIX_UNROLL
  for (uint b = 0; b < 8; ++b) {
    uint same;
    // same = the lanes whose bit b equals this lane's bit b.
    asm("{\n\t.reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(same)
        : "r"(digit), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

inline uint warp_rank(uint digit, __local uint* warp_counts, uint lane, __local uint* unused) {
  const uint peers = warp_peers(digit);
  const uint below = popcount(peers & ((1u << lane) - 1u));
  const uint leader = 31u - clz(peers);  // the highest peer
  uint base = 0;
  if (lane == leader) base = atomic_add(&warp_counts[digit], popcount(peers));
  return shfl_idx(base, leader) + below;
}
#elif RANK_MATCH == 1
// The same with local memory and two barriers: `lanes` holds 2 * RADIX_WG words (each
// work-item's digit, then the leaders' counter values).
inline uint warp_rank(uint digit, __local uint* warp_counts, uint lane, __local uint* lanes) {
  const uint lid = get_local_id(0);
  __local uint* warp_digits = lanes + (lid - lane);
  __local uint* warp_bases = lanes + RADIX_WG + (lid - lane);
  warp_digits[lane] = digit;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint below = 0;
  uint peers = 0;
  uint leader = WARP;
  for (uint l = 0; l < WARP; ++l) {
    if (warp_digits[l] == digit) {
      ++peers;
      below += l < lane ? 1 : 0;
      leader = min(leader, l);
    }
  }
  if (lane == leader) {
    const uint base = warp_counts[digit];
    warp_counts[digit] = base + peers;
    warp_bases[lane] = base;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return warp_bases[leader] + below;
}
#endif

#if RANK_MATCH
// Loads tile `tile` warp-striped into registers, padding past n with all-ones (sorts last).
inline void load_tile_striped(const __global uint* keys, uint key_kind,
#if WITH_VALUES
                              const __global uint* values, uint* value,
#endif
                              uint n, uint tile, uint* key) {
  const uint lid = get_local_id(0);
  const uint base = tile * TILE + (lid / WARP) * WARP_KEYS + lid % WARP;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = base + j * WARP;
    key[j] = i < n ? to_ordered(keys[i], key_kind) : 0xffffffffu;
#if WITH_VALUES
    value[j] = i < n ? values[i] : 0;
#endif
  }
}

#if RANK_MATCH == 2
// The work-group scans of the warp ranking on NVIDIA: shfl.sync within each warp and one
// barrier (elsewhere wg_exclusive_scan, barriers only).
// Exclusive prefix sum of one value per work-item: shfl.sync within each warp, then the warps'
// totals through local memory (one barrier). *total gets the sum over the work-group.
inline uint block_exclusive_scan(uint value, __local uint* scratch, uint* total) {
  const uint lid = get_local_id(0);
  const uint lane = lid % WARP;
  const uint warp = lid / WARP;
  uint inclusive = value;
  RADIX_UNROLL
  for (uint delta = 1; delta < WARP; delta <<= 1) {
    const uint up = shfl_up(inclusive, delta);
    if (lane >= delta) inclusive += up;
  }
  if (lane == WARP - 1) scratch[warp] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint before = 0;
  uint all = 0;
  RADIX_UNROLL
  for (uint w = 0; w < WARPS; ++w) {
    const uint s = scratch[w];
    before += w < warp ? s : 0;
    all += s;
  }
  *total = all;
  return before + inclusive - value;
}
#else
inline uint block_exclusive_scan(uint value, __local uint* scratch, uint* total) {
  return wg_exclusive_scan(value, scratch, RADIX_WG, total);
}
#endif

// Per-warp digit counts counts[w * DIGITS + d] -> in place, each warp's first place for digit d
// in the tile sorted by digit (order: digit, then warp); run_start / run_end get the digit runs
// of the first `valid` keys. Ends with local memory synchronised.
inline void warp_digit_prefix(__local uint* counts, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
  // Work-item lid owns digits [lid * PER_ITEM, (lid + 1) * PER_ITEM): exclusive prefix over the
  // warps in place, the digit's tile total kept.
#define PER_ITEM ((DIGITS + RADIX_WG - 1) / RADIX_WG)
  uint digit_total[PER_ITEM];
  uint sum = 0;
  for (uint k = 0; k < PER_ITEM; ++k) {
    const uint d = lid * PER_ITEM + k;
    uint running = 0;
    if (d < DIGITS) {
      for (uint w = 0; w < WARPS; ++w) {
        const uint c = counts[w * DIGITS + d];
        counts[w * DIGITS + d] = running;
        running += c;
      }
    }
    digit_total[k] = running;
    sum += running;
  }
  uint total;
  uint prefix = block_exclusive_scan(sum, m.scratch, &total);
  for (uint k = 0; k < PER_ITEM; ++k) {
    const uint d = lid * PER_ITEM + k;
    if (d < DIGITS) {
      for (uint w = 0; w < WARPS; ++w) counts[w * DIGITS + d] += prefix;
      m.run_start[d] = prefix;
      // Padding keys (all-ones) are the last of digit DIGITS - 1 and not part of its run.
      m.run_end[d] = prefix + digit_total[k] - (d == DIGITS - 1 ? TILE - valid : 0);
    }
    prefix += digit_total[k];
  }
#undef PER_ITEM
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Ranks the keys in registers (see above): position[j] becomes key j's index in the tile sorted
// by digit, and run_start / run_end the digit runs of the first `valid` keys. Afterwards the
// keys array is free (it held the counters) and local memory is synchronised.
inline void rank_tile_match(const uint* key, uint shift, uint valid, uint* position, TileMemory m) {
  const uint lid = get_local_id(0);
  const uint lane = lid % WARP;
  __local uint* counts = m.keys;  // counts[w * DIGITS + d]
  for (uint i = lid; i < WARPS * DIGITS; i += RADIX_WG) counts[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* warp_counts = counts + (lid / WARP) * DIGITS;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    position[j] = warp_rank(DIGIT(key[j], shift), warp_counts, lane, m.scratch);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  warp_digit_prefix(counts, valid, m);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) position[j] += warp_counts[DIGIT(key[j], shift)];
  barrier(CLK_LOCAL_MEM_FENCE);
}

#if RANK_EARLY
// Early counts, step 1: per-warp digit counts (one local atomic per key), then their prefix:
// m.counters holds each warp's first place per digit, run_start / run_end the tile's digit runs.
inline void count_tile_early(const uint* key, uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
  __local uint* counts = m.counters;  // counts[w * DIGITS + d]
  for (uint i = lid; i < WARPS * DIGITS; i += RADIX_WG) counts[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* warp_counts = counts + (lid / WARP) * DIGITS;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) atomic_inc(&warp_counts[DIGIT(key[j], shift)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  warp_digit_prefix(counts, valid, m);
}

// Early counts, step 2: the ranking rounds, starting from the warp's first places, give each
// key its final place in the tile; it (and its value) goes to local memory at once.
inline void rank_store_early(const uint* key,
#if VALUES_LOCAL
                             const uint* value,
#elif WITH_VALUES
                             uint* position,
#endif
                             uint shift, TileMemory m) {
  const uint lid = get_local_id(0);
  const uint lane = lid % WARP;
  __local uint* warp_counts = m.counters + (lid / WARP) * DIGITS;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint place = warp_rank(DIGIT(key[j], shift), warp_counts, lane, m.scratch);
    m.keys[SW(place)] = key[j];
#if VALUES_LOCAL
    m.values[SW(place)] = value[j];
#elif WITH_VALUES
    position[j] = place;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif  // RANK_EARLY

// Puts the ranked keys (and, VALUES_LOCAL, values) into local memory in digit order.
inline void store_ranked(const uint* key,
#if VALUES_LOCAL
                         const uint* value,
#endif
                         const uint* position, TileMemory m) {
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    m.keys[SW(position[j])] = key[j];
#if VALUES_LOCAL
    m.values[SW(position[j])] = value[j];
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Writes the tile's keys, sorted in local memory, to run_base[digit] + local position: runs of
// one digit go out from consecutive work-items to consecutive addresses. With values, the
// values follow the same way through local memory (where the keys were).
inline void scatter_ranked(__global uint* keys_out, uint key_kind,
#if VALUES_LOCAL
                           __global uint* values_out,
#elif WITH_VALUES
                           __global uint* values_out, const uint* value, const uint* position,
#endif
                           uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
#if VALUES_LOCAL
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    const uint ordered = m.keys[SW(i)];
    const uint to = m.run_base[DIGIT(ordered, shift)] + i;
    if (i < valid) {
      keys_out[to] = from_ordered(ordered, key_kind);
      values_out[to] = m.values[SW(i)];
    }
  }
  return;
#endif
#if WITH_VALUES && !VALUES_LOCAL
  uint destination[RADIX_ITEMS];
#endif
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    const uint ordered = m.keys[SW(i)];
    const uint to = m.run_base[DIGIT(ordered, shift)] + i;
    if (i < valid) keys_out[to] = from_ordered(ordered, key_kind);
#if WITH_VALUES && !VALUES_LOCAL
    destination[j] = to;
#endif
  }
#if WITH_VALUES && !VALUES_LOCAL
  barrier(CLK_LOCAL_MEM_FENCE);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) m.keys[SW(position[j])] = value[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (i < valid) values_out[destination[j]] = m.keys[SW(i)];
  }
#endif
}
#endif  // RANK_MATCH

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
#define TILE_REGISTERS uint key[RADIX_ITEMS], value[RADIX_ITEMS], position[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, values, value, n, tile, key)
#define STORE_RANKED store_ranked(key, value, position, m)
#define SCATTER_TILE scatter_ranked(keys_out, key_kind, values_out, shift, valid, m)
#elif RANK_MATCH && WITH_VALUES
#define TILE_REGISTERS uint key[RADIX_ITEMS], value[RADIX_ITEMS], position[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, values, value, n, tile, key)
#define STORE_RANKED store_ranked(key, position, m)
#define SCATTER_TILE \
  scatter_ranked(keys_out, key_kind, values_out, value, position, shift, valid, m)
#elif RANK_MATCH
#define TILE_REGISTERS uint key[RADIX_ITEMS], position[RADIX_ITEMS]
#define LOAD_TILE_STRIPED load_tile_striped(keys, key_kind, n, tile, key)
#define STORE_RANKED store_ranked(key, position, m)
#define SCATTER_TILE scatter_ranked(keys_out, key_kind, shift, valid, m)
#else
#define SCATTER_TILE scatter_tile(keys_out, key_kind, VALUE_ARGS n, tile, shift, valid, m)
#endif
#if RANK_MATCH && RANK_EARLY
#if VALUES_LOCAL
#define RANK_STORE_EARLY rank_store_early(key, value, shift, m)
#elif WITH_VALUES
#define RANK_STORE_EARLY rank_store_early(key, position, shift, m)
#else
#define RANK_STORE_EARLY rank_store_early(key, shift, m)
#endif
#define RANK_TILE_STRIPED                 \
  count_tile_early(key, shift, valid, m); \
  RANK_STORE_EARLY;
#elif RANK_MATCH
#define RANK_TILE_STRIPED                          \
  rank_tile_match(key, shift, valid, position, m); \
  STORE_RANKED;
#endif
#if RANK_MATCH
#define RANKED_TILE_BEGIN \
  TILE_REGISTERS;         \
  LOAD_TILE_STRIPED;      \
  RANK_TILE_STRIPED
#endif

// --- portable: upsweep, scan (kernels/primitives/sort/scan.cl), downsweep
// -------------------------------

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
#if RANK_MATCH
  RANKED_TILE_BEGIN
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

// --- onesweep (forward progress between work-groups required) --------------------------------

// Zeroes the look-back status of the first pass, the tickets and the digit counts.
__kernel void radix_onesweep_init(__global uint* status, uint status_words, __global uint* tickets,
                                  __global uint* digit_counts) {
  const uint i = get_global_id(0);
  if (i < status_words) status[i] = 0;
  if (i < PASSES) tickets[i] = 0;
  if (i < PASSES * DIGITS) digit_counts[i] = 0;
}

// The global histogram and scan run with work-groups of GLOBAL_WG, whatever the tile shape.
#define GLOBAL_WG 256

// Counts the digits of all four passes in one read of the keys: uint4 loads, two in flight per
// work-item, into per-work-group counters in local memory.
#define HIST_WORDS (PASSES * DIGITS)
#define COUNT_KEY(bits)                                                                         \
  do {                                                                                          \
    const uint ordered_ = to_ordered(bits, key_kind);                                           \
    for (uint p = 0; p < PASSES; ++p) atomic_inc(&counts[p * DIGITS + DIGIT(ordered_, 8 * p)]); \
  } while (0)
#define COUNT_QUAD(q) \
  do {                \
    COUNT_KEY(q.x);   \
    COUNT_KEY(q.y);   \
    COUNT_KEY(q.z);   \
    COUNT_KEY(q.w);   \
  } while (0)
__kernel __attribute__((reqd_work_group_size(GLOBAL_WG, 1, 1))) void radix_global_histogram(
    KEYS_IN(keys), uint key_kind, uint n, __global uint* digit_counts) {
  BIND_KEYS_IN(keys);
  __local uint counts[HIST_WORDS];
  const uint lid = get_local_id(0);
  for (uint d = lid; d < HIST_WORDS; d += GLOBAL_WG) counts[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
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
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < PASSES * DIGITS; d += GLOBAL_WG) {
    const uint sum = counts[d];
    if (sum != 0) atomic_add(&digit_counts[d], sum);
  }
}
#undef COUNT_QUAD
#undef COUNT_KEY
#undef HIST_WORDS

// One work-group: digit counts -> each digit's first output index, per pass, in place.
__kernel __attribute__((reqd_work_group_size(GLOBAL_WG, 1, 1))) void radix_global_scan(
    __global uint* digit_counts) {
  __local uint scratch[GLOBAL_WG + 32];
  const uint lid = get_local_id(0);
  for (uint p = 0; p < PASSES; ++p) {
    uint carry = 0;
    for (uint d0 = 0; d0 < DIGITS; d0 += GLOBAL_WG) {
      const uint d = d0 + lid;
      const uint count = d < DIGITS ? digit_counts[p * DIGITS + d] : 0;
      uint total;
      const uint prefix = wg_exclusive_scan(count, scratch, GLOBAL_WG, &total);
      if (d < DIGITS) digit_counts[p * DIGITS + d] = carry + prefix;
      carry += total;
    }
  }
}

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

__kernel __attribute__((reqd_work_group_size(RADIX_WG, 1, 1))) void radix_onesweep(
    KEYS_IN(keys), KEYS_OUT(keys_out), uint key_kind VALUE_PARAMS, uint n, uint shift, uint pass,
    __global uint* tickets, const __global uint* digit_offsets, __global uint* status,
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
  const __global uint* digit_start = digit_offsets + pass * DIGITS;
#if RANK_MATCH && RANK_EARLY
  TILE_REGISTERS;
  LOAD_TILE_STRIPED;
  count_tile_early(key, shift, valid, m);
  // The tile's digit counts are known before ranking: publish them now, so that later tiles'
  // look-backs find them sooner; the look-back itself comes after the ranking.
  for (uint d = lid; d < DIGITS; d += RADIX_WG) {
    const uint count = m.run_end[d] - m.run_start[d];
    atomic_xchg(status + tile * DIGITS + d,
                tile == 0 ? FLAG_PREFIX | (digit_start[d] + count) : FLAG_AGGREGATE | count);
  }
  RANK_STORE_EARLY;
  for (uint d = lid; d < DIGITS; d += RADIX_WG) {
    uint exclusive = digit_start[d];
    if (tile != 0) {
      exclusive = look_back(status, tile, d);
      atomic_xchg(status + tile * DIGITS + d,
                  FLAG_PREFIX | (exclusive + m.run_end[d] - m.run_start[d]));
    }
    m.run_base[d] = exclusive - m.run_start[d];
  }
#else  // ranking and look-back one after the other
#if RANK_MATCH
  TILE_REGISTERS;
  LOAD_TILE_STRIPED;
  RANK_TILE_STRIPED
#else
  load_tile(keys, key_kind, n, tile, m);
  sort_tile(shift, valid, m);
#endif
  for (uint d = lid; d < DIGITS; d += RADIX_WG) {
    const uint count = m.run_end[d] - m.run_start[d];
    uint exclusive = digit_start[d];
    __global uint* mine = status + tile * DIGITS + d;
    atomic_xchg(mine, (tile == 0 ? FLAG_PREFIX | (exclusive + count) : FLAG_AGGREGATE | count));
    if (tile != 0) {
      exclusive = look_back(status, tile, d);
      atomic_xchg(mine, FLAG_PREFIX | (exclusive + count));
    }
    m.run_base[d] = exclusive - m.run_start[d];
  }
#endif  // RANK_MATCH && RANK_EARLY
  barrier(CLK_LOCAL_MEM_FENCE);
  SCATTER_TILE;
}

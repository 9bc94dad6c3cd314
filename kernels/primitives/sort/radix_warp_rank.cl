// Part of radix.cl (included there, after radix_tile.cl): tile ranking by warp multi-split
// (RANK_MATCH 1 and 2).
// --- ranking by warp multi-split (RANK_MATCH 1 and 2) ----------------------------------------
// Keys sit in registers "warp-striped": key j of lane l in warp w is tile key
// w * WARP_KEYS + j * WARP + l, so each load and store of a warp covers 32 consecutive words.
// The tile's digits are counted first ("early counts"): one local atomic a key into its warp's
// 256 counters, and a prefix over (digit, warp) turns them into each warp's first place per digit
// in the tile sorted by digit (onesweep publishes the tile's counts here, before ranking). Ranking
// then goes round by round (j), in tile order: in each round a warp finds, for every lane, the
// lanes holding the same digit (its peers); one peer (the leader) adds their number to the warp's
// counter of that digit and hands the old value to them; each key's place is that value plus its
// peers in lower lanes, and the key goes to local memory at once. Stable: ties keep tile order
// (warp, round, lane).

// Tile keys in registers and local memory are ordered bits, mapped on load and back on store, or
// with RAW_KEYS the keys' own bits, each use taking the digit of the ordered bits. Mapped on load,
// int32 and float32 passes take 8-14 % longer than uint32's on the H100 and H200 (ptxas issues the
// loads in batches with the maps between them); raw, 1-2 % (docs/sort.md).
#if RAW_KEYS
// On NVIDIA the map is inline PTX, so that each use maps its own copy: in C the compiler keeps a
// mapped copy of every key beside the raw one (int32: 127 registers, two groups an SM, not four).
inline uint tile_ordered(uint tile_key) {
#if RANK_MATCH == 2 && KEY_KIND == 1
  uint ordered;
  asm volatile("xor.b32 %0, %1, 0x80000000;" : "=r"(ordered) : "r"(tile_key));
  return ordered;
#elif RANK_MATCH == 2 && KEY_KIND == 2
  uint ordered;
  asm volatile(
      "{\n\t.reg .b32 flip;\n\tshr.s32 flip, %1, 31;\n\tor.b32 flip, flip, 0x80000000;\n\t"
      "xor.b32 %0, %1, flip;\n\t}"
      : "=r"(ordered)
      : "r"(tile_key));
  return ordered;
#else
  return to_ordered(tile_key, KEY_KIND);
#endif
}
#define TILE_KEY(bits, key_kind) (bits)
#if PAIRS_OUT
#define OUT_KEY(tile_key, key_kind) tile_ordered(tile_key)
#else
#define OUT_KEY(tile_key, key_kind) (tile_key)
#endif
#define TILE_DIGIT(tile_key, shift) DIGIT(tile_ordered(tile_key), shift)
#define TILE_PAD from_ordered(0xffffffffu, KEY_KIND)
#else
#define TILE_KEY(bits, key_kind) ORDERED_IN(bits, key_kind)
#define OUT_KEY(tile_key, key_kind) BITS_OUT(tile_key, key_kind)
#define TILE_DIGIT(tile_key, shift) DIGIT(tile_key, shift)
#define TILE_PAD 0xffffffffu
#endif

#if RANK_MATCH == 2
// Lanes are the work-item's position in its warp: NVIDIA forms warps from consecutive local ids.
// The peers (lanes with the same digit) come from eight vote.sync.ballot, one per digit bit, as
// in CUB's MatchAny: several times faster than match.any.sync, which the H200 runs slowly
// (docs/sort.md). The .sync instructions wait for all 32 lanes,
// so no lockstep execution is assumed; the leader's counter update completes (its result is
// shuffled; key-value: its store is ordered by a warp barrier) before any lane enters the next
// round, which keeps the updates of successive rounds in order.
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
#if WITH_VALUES
  // Key-value passes: a plain load and store, ordered before the next round's by the warp
  // barrier, are 2-3.5 % faster a pass than the atomic on the H200; keys-only passes are not
  // faster and at 2^24 up to 4 % slower that way (docs/sort.md).
  if (lane == leader) {
    base = warp_counts[digit];
    warp_counts[digit] = base + popcount(peers);
  }
  const uint rank = shfl_idx(base, leader) + below;
  warp_sync();
  return rank;
#else
  if (lane == leader) base = atomic_add(&warp_counts[digit], popcount(peers));
  return shfl_idx(base, leader) + below;
#endif
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
#if PAIRS_IN
    // Ordered bits: no map, so the padding can be the value the load replaces (a select after
    // the load made the passes reading pairs 9 % slower on the H200).
    uint2 pair = (uint2)(TILE_PAD, 0);
    if (i < n) pair = ((const __global uint2*)keys)[i];
    key[j] = pair.x;
    value[j] = pair.y;
#else
    key[j] = i < n ? TILE_KEY(keys[i], key_kind) : TILE_PAD;
#if WITH_VALUES
    value[j] = i < n ? values[i] : 0;
#endif
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

// Early counts, step 1: per-warp digit counts (one local atomic per key), then their prefix:
// m.counters holds each warp's first place per digit, run_start / run_end the tile's digit runs.
inline void count_tile_early(const uint* key, uint shift, uint valid, TileMemory m) {
  const uint lid = get_local_id(0);
  __local uint* counts = m.counters;  // counts[w * DIGITS + d]
  for (uint i = lid; i < WARPS * DIGITS; i += RADIX_WG) counts[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* warp_counts = counts + (lid / WARP) * DIGITS;
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) atomic_inc(&warp_counts[TILE_DIGIT(key[j], shift)]);
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
    const uint place = warp_rank(TILE_DIGIT(key[j], shift), warp_counts, lane, m.scratch);
    m.keys[SW(place)] = key[j];
#if VALUES_LOCAL
    m.values[SW(place)] = value[j];
#elif WITH_VALUES
    position[j] = place;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Writes the tile's keys, sorted in local memory, to run_base[digit] + local position: runs of
// one digit go out from consecutive work-items to consecutive addresses. With values, the
// values follow the same way from registers through local memory (their own array, or where the
// keys were).
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
    const uint tile_key = m.keys[SW(i)];
    const uint to = m.run_base[TILE_DIGIT(tile_key, shift)] + i;
    if (i < valid) {
#if PAIRS_OUT
      ((__global uint2*)keys_out)[to] = (uint2)(OUT_KEY(tile_key, key_kind), m.values[SW(i)]);
#else
      keys_out[to] = OUT_KEY(tile_key, key_kind);
      values_out[to] = m.values[SW(i)];
#endif
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
    const uint tile_key = m.keys[SW(i)];
    const uint to = m.run_base[TILE_DIGIT(tile_key, shift)] + i;
    if (i < valid) KEY_OUT(keys_out, to) = OUT_KEY(tile_key, key_kind);
#if WITH_VALUES && !VALUES_LOCAL
    destination[j] = to;
#endif
  }
#if WITH_VALUES && !VALUES_LOCAL
  barrier(CLK_LOCAL_MEM_FENCE);
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) m.keys[SW(position[j])] = value[j];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if WITH_VALUES && !VALUES_LOCAL
  RADIX_UNROLL
  for (uint j = 0; j < RADIX_ITEMS; ++j) {
    const uint i = lid + j * RADIX_WG;
    if (i < valid) VALUE_OUT(values_out, destination[j]) = m.keys[SW(i)];
  }
#endif
}
#endif  // RANK_MATCH

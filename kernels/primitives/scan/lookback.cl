// `lookback`: single-pass scan with decoupled look-back (Merrill and Garland 2016, CUB's
// DeviceScan), for NVIDIA GPUs: warp operations in inline PTX (shfl.sync, vote.sync; sm_70 and
// later). The host builds it with -DCLF_PTX only where lookback_scan_runs_on() (NVIDIA GPUs).
//
// A tile is TILE = WG_SIZE * ITEMS values in the striped layout of common.cl: CHUNKS rows of
// WG_SIZE runs of 4 values, so every load and store is an int4 access and each warp instruction
// covers 512 contiguous bytes. A *segment* is one warp's 32 runs of one row (128 consecutive
// values); segments are numbered row by row (segment = row * WARPS + warp), which is their
// order in the tile.
//
//  1. Each warp scans its run sums of every row with shuffles (no barrier) and lane 31 writes the
//     segment totals to local memory. One barrier.
//  2. Warp 0 alone scans the SEGMENTS totals (shuffles), publishes the tile's aggregate, looks
//     back (below), publishes the tile's inclusive prefix and writes each segment's offset
//     (tile prefix + segments before it) to local memory. One barrier.
//  3. Each work-item scans its runs from its segment offsets and stores them.
//
// Two kernels run these steps: `lookback_scan`, one work-group per tile, and
// `lookback_scan_pipelined` (at the end of the file), a few persistent work-groups a compute unit
// that overlap a tile's look-back with the next tile's loads.
//
// Look-back: lane l < WINDOW of warp 0 reads the status of tile - 1 - l (coalesced), spinning
// until it is published; a ballot finds the nearest inclusive prefix, a warp sum adds the window
// up to it, and the window moves WINDOW tiles further back when there is none.
//
// Tiles are numbered by an atomic ticket, so a tile only ever waits for tiles that started
// before it (the group id, as CUB uses, would rely on the hardware starting groups in order).
// Waiting on other work-groups needs forward progress between them, which OpenCL does not
// promise. Warp 0 sleeps before and between polls (FIRST_DELAY, BACKOFF below). Whole tiles are
// loaded and stored with streaming (evict-first, .cs) accesses.
//
// A tile's status is one 64-bit word, written and read whole, so flag and value can never be
// seen apart (no fences needed): bits 0-31 the value's bits, 32-33 the flag, 34-63 the epoch.
// The host passes a new epoch on every call, so words left by earlier calls read as "not yet
// published" and the status array needs no clearing between calls; likewise tickets keep
// counting across calls and the host passes the first ticket of this call.
#include "kernels/primitives/common/nvidia_warp.cl"
#include "kernels/primitives/scan/common.cl"

#ifndef CLF_PTX
#error \
    "kernels/primitives/scan/lookback.cl uses NVIDIA inline PTX: the host builds it with -DCLF_PTX"
#endif
// Look-back delays, as CUB's fixed_delay_constructor_t (in launches of at least DELAY_MIN_TILES
// tiles only): FIRST_DELAY ns between publishing the aggregate and the first look-back read,
// BACKOFF ns between polls of a status not yet published. Without them every waiting warp polls
// the newest statuses back to back (presumably crowding the L2 that the tiles stream through),
// and the scan loses a sixth of its speed (docs/scan.md has the measurements).
#ifndef FIRST_DELAY
#define FIRST_DELAY 3000
#endif
#ifndef BACKOFF
#define BACKOFF 648
#endif
#ifndef DELAY_MIN_TILES
#define DELAY_MIN_TILES 500
#endif
// Tiles a look-back step reads: 16 read 1-2 % faster than the whole warp's 32 on the H200, 8
// and 4 slower, and reading several statuses a lane (64 to 256 tiles a step) was slower still
// (docs/scan.md).
#ifndef WINDOW
#define WINDOW 16
#endif
#if WINDOW < 1 || WINDOW > 32
#error "WINDOW (tiles a look-back step reads, one a lane of warp 0) must be 1 to 32"
#endif

#define WARP 32
#define WARPS (WG_SIZE / WARP)
#define SEGMENTS (CHUNKS * WARPS)
#define SEGMENT_ROUNDS ((SEGMENTS + WARP - 1) / WARP)

#define FLAG_AGGREGATE 1UL
#define FLAG_PREFIX 2UL

// --- warp operations (shfl_up, shfl_xor, shfl_idx, ballot):
// kernels/primitives/common/nvidia_warp.cl

// Sum of `value` over lanes 0..lane.
inline T warp_inclusive_scan(T value, uint lane) {
#pragma unroll
  for (uint delta = 1; delta < WARP; delta <<= 1) {
    const T other = AS_T(shfl_up(as_uint(value), delta));
    value += lane >= delta ? other : (T)0;
  }
  return value;
}

// Sum over lanes 0..lane - 1 (0 in lane 0), given the inclusive scan.
inline T warp_exclusive_from_inclusive(T inclusive, uint lane) {
  const T before = AS_T(shfl_up(as_uint(inclusive), 1));
  return lane == 0 ? (T)0 : before;
}

inline T warp_broadcast(T value, uint lane) { return AS_T(shfl_idx(as_uint(value), lane)); }

// Sum over the warp, in every lane.
inline T warp_sum(T value) {
#pragma unroll
  for (uint mask = WARP / 2; mask > 0; mask >>= 1) value += AS_T(shfl_xor(as_uint(value), mask));
  return value;
}

// --- whole-tile loads and stores (the tile lies below n) ----------------------------------
inline T4 load_full_run(const global T* in, uint first) {
  uint x, y, z, w;
  asm volatile("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
               : "l"(in + first));
  return (T4)(AS_T(x), AS_T(y), AS_T(z), AS_T(w));
}
inline void store_full_run(global T* out, uint first, T4 v) {
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(out + first), "r"(as_uint(v.s0)),
               "r"(as_uint(v.s1)), "r"(as_uint(v.s2)), "r"(as_uint(v.s3))
               : "memory");
}

inline ulong pack_status(ulong flag, T value, uint epoch) {
  return ((ulong)epoch << 34) | (flag << 32) | (ulong)as_uint(value);
}

inline void sleep_ns(uint ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }

// Warp 0: the sum of every tile before `tile` (> 0), from the published statuses, reading
// `window` of them a step; sleeps first_delay ns before the first read where `delays` says so.
inline T look_back(volatile global ulong* status, uint tile, uint lane, uint epoch, bool delays,
                   uint first_delay, uint window) {
  if (delays && first_delay > 0) sleep_ns(first_delay);
  T prefix = 0;
  int last = (int)tile - 1;
  for (;;) {
    const int p = last - (int)lane;
    // Before tile 0: an inclusive prefix of 0; lanes past the window: nothing.
    ulong word = lane < window ? FLAG_PREFIX << 32 : 0UL;
    if (p >= 0 && lane < window) {
      for (;;) {
        word = status[p];
        if ((uint)(word >> 34) == epoch) break;
#if BACKOFF > 0
        if (delays) sleep_ns(BACKOFF);
#endif
      }
    }
    const uint prefixes = ballot(((uint)(word >> 32) & 3U) == (uint)FLAG_PREFIX);
    // The nearest inclusive prefix is the lowest such lane; without one, the whole window.
    const uint stop = prefixes != 0 ? 31U - clz(prefixes & (0U - prefixes)) : WARP - 1;
    prefix += warp_sum(lane <= stop ? AS_T((uint)word) : (T)0);
    if (prefixes != 0) return prefix;  // the same in every lane
    last -= window;
  }
}

// Loads the tile at `tile_first` into the work-item's runs.
inline void load_tile(const global T* in, uint tile_first, uint n, T4* runs) {
  if (tile_first + TILE <= n) {
#pragma unroll
    for (uint row = 0; row < CHUNKS; ++row) {
      runs[row] = load_full_run(in, run_first(tile_first, row));
    }
  } else {
    load_runs(in, tile_first, n, runs);
  }
}

// Step 1: offsets[row] gets the sum of the values before run `row` in its segment; lane 31 of
// each warp writes the segment totals to `segments`. The caller puts a barrier after it.
inline void scan_segments(const T4* runs, T* offsets, local T* segments, uint lane, uint warp) {
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) {
    const T within = warp_inclusive_scan(sum_run(runs[row]), lane);
    offsets[row] = warp_exclusive_from_inclusive(within, lane);
    if (lane == WARP - 1) segments[row * WARPS + warp] = within;
  }
}

// Step 2a, in warp 0: scans the segment totals into `before` (each segment's offset within the
// tile, SEGMENT_ROUNDS a lane) and publishes the tile's aggregate (tile 0: its inclusive prefix).
// Returns the aggregate, the same in every lane.
inline T publish_aggregate(const local T* segments, volatile global ulong* status, uint tile,
                           uint lane, uint epoch, T* before) {
  T aggregate = 0;
#pragma unroll
  for (uint round = 0; round < SEGMENT_ROUNDS; ++round) {
    const uint s = round * WARP + lane;
    const T total = s < SEGMENTS ? segments[s] : (T)0;
    const T running = warp_inclusive_scan(total, lane);
    before[round] = aggregate + warp_exclusive_from_inclusive(running, lane);
    aggregate += warp_broadcast(running, WARP - 1);
  }
  if (lane == 0) {
    status[tile] = pack_status(tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, aggregate, epoch);
  }
  return aggregate;
}

// Step 2b, in warp 0: looks back for the sum of the tiles before `tile`, publishes the tile's
// inclusive prefix and writes each segment's offset in the output (`before` plus that sum) to
// `segments`. The caller puts a barrier after it.
inline void resolve_tile(local T* segments, volatile global ulong* status, uint tile, T aggregate,
                         const T* before, uint lane, uint epoch, bool delays, uint first_delay,
                         uint window) {
  T prefix = 0;
  if (tile != 0) {
    prefix = look_back(status, tile, lane, epoch, delays, first_delay, window);
    if (lane == 0) status[tile] = pack_status(FLAG_PREFIX, prefix + aggregate, epoch);
  }
#pragma unroll
  for (uint round = 0; round < SEGMENT_ROUNDS; ++round) {
    const uint s = round * WARP + lane;
    if (s < SEGMENTS) segments[s] = prefix + before[round];
  }
}

// Step 3: scans the runs from their segments' offsets and stores them.
inline void store_tile(global T* out, uint tile_first, uint n, T4* runs, T* offsets,
                       const local T* segments, uint warp, uint inclusive) {
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) offsets[row] += segments[row * WARPS + warp];
  scan_runs(runs, offsets, (T)0, inclusive);
  if (tile_first + TILE <= n) {
#pragma unroll
    for (uint row = 0; row < CHUNKS; ++row) {
      store_full_run(out, run_first(tile_first, row), runs[row]);
    }
  } else {
    store_runs(out, tile_first, n, runs);
  }
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void lookback_scan(
    const global T* in, global T* out, volatile global ulong* status, volatile global uint* ticket,
    uint n, uint first_ticket, uint epoch, uint inclusive) {
  local T segments[SEGMENTS];
  const uint lid = get_local_id(0);
  const uint lane = lid % WARP;
  const uint warp = lid / WARP;
  local uint tile_shared;
  if (lid == 0) tile_shared = atomic_inc(ticket) - first_ticket;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_shared;
  const uint tile_first = tile * TILE;
  T4 runs[CHUNKS];
  load_tile(in, tile_first, n, runs);
  T offsets[CHUNKS];
  scan_segments(runs, offsets, segments, lane, warp);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (warp == 0) {
    T before[SEGMENT_ROUNDS];
    const T aggregate = publish_aggregate(segments, status, tile, lane, epoch, before);
    resolve_tile(segments, status, tile, aggregate, before, lane, epoch,
                 get_num_groups(0) >= DELAY_MIN_TILES, FIRST_DELAY, WINDOW);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  store_tile(out, tile_first, n, runs, offsets, segments, warp, inclusive);
}

// Pipelined persistent work-groups (launched a few per compute unit, not one per tile): each
// group takes tickets until none is left, and before it looks back for its current tile it loads
// its next tile and publishes that tile's aggregate. Those loads take the first delay's place
// (no sleep before the first read), and later tiles find the aggregate of every ticket taken so
// far published or about to be: between taking a ticket and publishing its aggregate a group
// waits for nothing, so no tile waits on a group busy with an earlier one. (Taking the next ticket
// before resolving, to hide its latency, breaks that and was 17 % slower on the H200.) The
// current tile waits in local memory ("parked"), so only the next one takes registers (64 instead
// of 128 at 256 x 32) and twice as many groups fit a compute unit: 481-485 Gelem/s at 2^28 on the
// H200 with four a CU, against 450-453 with both tiles in registers and two a CU. Two segment
// arrays alternate between the current and the next tile. Every group takes exactly one ticket
// past the last tile (tiles + groups in all). The look-back reads PIPELINED_WINDOW statuses a
// step (32 read 2 % faster than 16 with 128 x 32 tiles, docs/scan.md).
#ifndef PIPELINED_WINDOW
#define PIPELINED_WINDOW 32
#endif
#if PIPELINED_WINDOW < 1 || PIPELINED_WINDOW > 32
#error "PIPELINED_WINDOW (tiles a look-back step reads, one a lane of warp 0) must be 1 to 32"
#endif

// The current tile waits in local memory, each work-item's runs and offsets in its own slots (so
// no barrier guards them), which keeps only the next tile in registers.
inline void park_tile(local T4* parked_runs, local T* parked_offsets, const T4* runs,
                      const T* offsets) {
  const uint lid = get_local_id(0);
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) {
    parked_runs[row * WG_SIZE + lid] = runs[row];
    parked_offsets[row * WG_SIZE + lid] = offsets[row];
  }
}

// Stores the parked tile, row by row, and parks the next one in its place if there is one.
inline void store_parked_tile(global T* out, uint tile_first, uint n, local T4* parked_runs,
                              local T* parked_offsets, const local T* segments, uint warp,
                              uint inclusive, bool has_next, const T4* next_runs,
                              const T* next_offsets) {
  const uint lid = get_local_id(0);
  const bool full = tile_first + TILE <= n;
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) {
    const uint slot = row * WG_SIZE + lid;
    const T4 v =
        scan_run(parked_runs[slot], parked_offsets[slot] + segments[row * WARPS + warp], inclusive);
    if (full) {
      store_full_run(out, run_first(tile_first, row), v);
    } else {
      store_run(out, run_first(tile_first, row), n, v);
    }
    if (has_next) {
      parked_runs[slot] = next_runs[row];
      parked_offsets[slot] = next_offsets[row];
    }
  }
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void lookback_scan_pipelined(
    const global T* in, global T* out, volatile global ulong* status, volatile global uint* ticket,
    uint n, uint first_ticket, uint epoch, uint inclusive) {
  local T segments[2][SEGMENTS];
  local uint ticket_shared;
  local T4 parked_runs[CHUNKS * WG_SIZE];
  local T parked_offsets[CHUNKS * WG_SIZE];
  const uint lid = get_local_id(0);
  const uint lane = lid % WARP;
  const uint warp = lid / WARP;
  const uint tiles = n / TILE + (n % TILE != 0 ? 1 : 0);
  const bool delays = tiles >= DELAY_MIN_TILES;

  if (lid == 0) ticket_shared = atomic_inc(ticket) - first_ticket;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint tile = ticket_shared;
  if (tile >= tiles) return;
  T4 runs[CHUNKS];
  T offsets[CHUNKS];
  load_tile(in, tile * TILE, n, runs);
  scan_segments(runs, offsets, segments[0], lane, warp);
  park_tile(parked_runs, parked_offsets, runs, offsets);
  barrier(CLK_LOCAL_MEM_FENCE);
  T before[SEGMENT_ROUNDS];
  T aggregate = 0;
  if (warp == 0) aggregate = publish_aggregate(segments[0], status, tile, lane, epoch, before);

  for (uint current = 0;; current ^= 1) {
    // Everyone read ticket_shared before the last barrier of the previous round.
    if (lid == 0) ticket_shared = atomic_inc(ticket) - first_ticket;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint next = ticket_shared;
    const bool has_next = next < tiles;
    T4 next_runs[CHUNKS];
    T next_offsets[CHUNKS];
    if (has_next) {
      load_tile(in, next * TILE, n, next_runs);
      scan_segments(next_runs, next_offsets, segments[current ^ 1], lane, warp);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (warp == 0) {
      T next_before[SEGMENT_ROUNDS];
      T next_aggregate = 0;
      if (has_next) {
        next_aggregate =
            publish_aggregate(segments[current ^ 1], status, next, lane, epoch, next_before);
      }
      resolve_tile(segments[current], status, tile, aggregate, before, lane, epoch, delays, 0,
                   PIPELINED_WINDOW);
      aggregate = next_aggregate;
#pragma unroll
      for (uint round = 0; round < SEGMENT_ROUNDS; ++round) before[round] = next_before[round];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    store_parked_tile(out, tile * TILE, n, parked_runs, parked_offsets, segments[current], warp,
                      inclusive, has_next, next_runs, next_offsets);
    if (!has_next) return;
    tile = next;
  }
}

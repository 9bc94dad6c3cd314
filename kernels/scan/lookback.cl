// `lookback`: single-pass scan with decoupled look-back (Merrill and Garland 2016, CUB's
// DeviceScan). Tiles of TILE = WG_SIZE * ITEMS values (in the striped layout of common.cl) are
// numbered by an atomic ticket, so a tile only ever waits for tiles that started before it. Each
// tile publishes its aggregate at once, then sums its predecessors' published values,
// LOOKBACK_WINDOW at a time, back to the first inclusive prefix, and publishes its own inclusive
// prefix.
//
// Waiting on other work-groups needs forward progress between them, which OpenCL does not
// promise: the host runs this only on NVIDIA GPUs (all groups that hold a ticket are resident).
//
// A tile's status is one 64-bit word, written and read whole, so flag and value can never be
// seen apart (no fences needed): bits 0-31 the value's bits, 32-33 the flag, 34-63 the epoch.
// The host passes a new epoch on every call, so words left by earlier calls read as "not yet
// published" and the status array needs no clearing between calls; likewise tickets keep
// counting across calls and the host passes the first ticket of this call.
#include "kernels/scan/common.cl"

#define FLAG_AGGREGATE 1UL
#define FLAG_PREFIX 2UL

inline ulong pack_status(ulong flag, T value, uint epoch) {
  return ((ulong)epoch << 34) | (flag << 32) | (ulong)as_uint(value);
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void lookback_scan(
    const global T* in, global T* out, volatile global ulong* status, volatile global uint* ticket,
    uint n, uint first_ticket, uint epoch, uint inclusive) {
  local TQ scratch[WG_SIZE + SCAN_ROWS];
  local uint tile_shared;
  local T window_values[LOOKBACK_WINDOW];
  local uint window_flags[LOOKBACK_WINDOW];
  const uint lid = get_local_id(0);
  if (lid == 0) tile_shared = atomic_inc(ticket) - first_ticket;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_shared;

  const uint tile_first = tile * TILE;
  T4 runs[CHUNKS];
  load_runs(in, tile_first, n, runs);
  T offsets[CHUNKS];
  const T aggregate = scan_run_sums(runs, scratch, offsets);

  T prefix = 0;
  if (tile == 0) {
    if (lid == 0) status[0] = pack_status(FLAG_PREFIX, aggregate, epoch);
  } else {
    if (lid == 0) status[tile] = pack_status(FLAG_AGGREGATE, aggregate, epoch);
    // Look back a window of predecessors at a time: each of the first LOOKBACK_WINDOW work-items
    // waits for one of them to publish; then every work-item sums the window up to the nearest
    // inclusive prefix (all compute the same, so the loop exit is uniform).
    int last = (int)tile - 1;
    for (;;) {
      if (lid < LOOKBACK_WINDOW) {
        const int p = last - (int)lid;
        ulong word = ((ulong)FLAG_PREFIX << 32);  // before tile 0: an inclusive prefix of 0
        if (p >= 0) {
          do {
            word = status[p];
          } while ((uint)(word >> 34) != epoch);
        }
        window_flags[lid] = (uint)(word >> 32) & 3U;
        window_values[lid] = AS_T((uint)word);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      T sum = 0;
      bool found = false;
#pragma unroll
      for (uint k = 0; k < LOOKBACK_WINDOW; ++k) {
        if (!found) {
          sum += window_values[k];
          found = window_flags[k] == (uint)FLAG_PREFIX;
        }
      }
      prefix += sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (found) break;
      last -= LOOKBACK_WINDOW;
    }
    if (lid == 0) status[tile] = pack_status(FLAG_PREFIX, prefix + aggregate, epoch);
  }

  scan_runs(runs, offsets, prefix, inclusive);
  store_runs(out, tile_first, n, runs);
}

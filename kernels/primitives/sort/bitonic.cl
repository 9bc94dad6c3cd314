// Bitonic sorting networks (Gruber 5.2.1-5.2.2, after Bainville 2011) over a power-of-two array
// of ELEM, sorted ascending as plain integers. The host fills that array with ordered key bits
// (keys only: ELEM = uint) or with (ordered key << 32 | original index) (key-value: ELEM =
// ulong, which makes every element distinct and so the network's result stable), padded with
// all-ones so the padding sorts last.
#include "kernels/primitives/sort/common.cl"

#ifndef WITH_VALUES
#define WITH_VALUES 0
#endif
#if WITH_VALUES
#define ELEM ulong
#else
#define ELEM uint
#endif

#ifndef LOCAL_WG
#define LOCAL_WG 256
#endif
// Elements one work-group sorts or merges in local memory.
#define LOCAL_N (LOCAL_WG * 4)

__kernel void bitonic_prepare(KEYS_IN(keys), uint key_kind, __global ELEM* elements, uint n,
                              uint padded) {
  BIND_KEYS_IN(keys);
  const uint i = get_global_id(0);
  if (i >= padded) return;
#if WITH_VALUES
  elements[i] = i < n ? ((ulong)to_ordered(keys[i], key_kind) << 32) | i : ~(ulong)0;
#else
  elements[i] = i < n ? to_ordered(keys[i], key_kind) : ~0u;
#endif
}

#if WITH_VALUES
// Keys come back from the high halves; values are gathered through the original indices.
__kernel void bitonic_finish(const __global ELEM* elements, KEYS_OUT(keys), uint key_kind,
                             const __global uint* values_copy, __global uint* values, uint n) {
  BIND_KEYS_OUT(keys);
  const uint i = get_global_id(0);
  if (i >= n) return;
  const ulong e = elements[i];
  keys[i] = from_ordered((uint)(e >> 32), key_kind);
  values[i] = values_copy[(uint)e];
}
#else
__kernel void bitonic_finish(const __global ELEM* elements, KEYS_OUT(keys), uint key_kind, uint n) {
  BIND_KEYS_OUT(keys);
  const uint i = get_global_id(0);
  if (i < n) keys[i] = from_ordered(elements[i], key_kind);
}
#endif

// One column of comparators (Gruber listing 25): n/2 work-items, one comparator each.
__kernel void bitonic_step(__global ELEM* data, uint inc, uint boxwidth) {
  const uint id = get_global_id(0);
  const uint low = id & (inc - 1);
  const uint i = (id << 1) - low;
  const bool ascending = (i & boxwidth) == 0;
  data += i;
  const ELEM x0 = data[0];
  const ELEM x1 = data[inc];
  if (ascending ^ (x0 < x1)) {
    data[0] = x1;
    data[inc] = x0;
  }
}

// Fused columns (Gruber listing 27): each work-item loads LEVEL elements at stride `inc` (the
// smallest of the fused increments) and runs log2(LEVEL) columns on them in registers.
inline void bitonic_order(ELEM* x, uint a, uint b, bool ascending) {
  const ELEM xa = x[a];
  const ELEM xb = x[b];
  const bool swap = ascending ^ (xa < xb);
  x[a] = swap ? xb : xa;
  x[b] = swap ? xa : xb;
}

#define BITONIC_MERGE1(x, asc)
#define BITONIC_DEFINE_MERGE(LEVEL, HALF)                                     \
  inline void bitonic_merge##LEVEL(ELEM* x, bool ascending) {                 \
    for (uint j = 0; j < HALF; ++j) bitonic_order(x, j, j + HALF, ascending); \
    BITONIC_MERGE##HALF(x, ascending);                                        \
    BITONIC_MERGE##HALF(x + HALF, ascending);                                 \
  }
BITONIC_DEFINE_MERGE(2, 1)
#define BITONIC_MERGE2(x, asc) bitonic_merge2(x, asc)
BITONIC_DEFINE_MERGE(4, 2)
#define BITONIC_MERGE4(x, asc) bitonic_merge4(x, asc)
BITONIC_DEFINE_MERGE(8, 4)
#define BITONIC_MERGE8(x, asc) bitonic_merge8(x, asc)
BITONIC_DEFINE_MERGE(16, 8)

#define BITONIC_DEFINE_FUSED(LEVEL, LOG_LEVEL)                                       \
  __kernel void bitonic_fused##LEVEL(__global ELEM* data, uint inc, uint boxwidth) { \
    const uint id = get_global_id(0);                                                \
    inc >>= (LOG_LEVEL - 1);                                                         \
    const uint low = id & (inc - 1);                                                 \
    const uint i = ((id - low) << LOG_LEVEL) + low;                                  \
    const bool ascending = (boxwidth & i) == 0;                                      \
    data += i;                                                                       \
    ELEM x[LEVEL];                                                                   \
    for (uint k = 0; k < LEVEL; ++k) x[k] = data[k * inc];                           \
    bitonic_merge##LEVEL(x, ascending);                                              \
    for (uint k = 0; k < LEVEL; ++k) data[k * inc] = x[k];                           \
  }
BITONIC_DEFINE_FUSED(2, 1)
BITONIC_DEFINE_FUSED(4, 2)
BITONIC_DEFINE_FUSED(8, 3)
BITONIC_DEFINE_FUSED(16, 4)

// All columns whose comparators stay inside one chunk of `chunk` (<= LOCAL_N) elements, in
// local memory. boxwidth == 0: sort each chunk from scratch (box widths 2..chunk); otherwise
// finish the merge of that box width (increments chunk/2..1).
__kernel __attribute__((reqd_work_group_size(LOCAL_WG, 1, 1))) void bitonic_local(
    __global ELEM* data, uint chunk, uint boxwidth) {
  __local ELEM tile[LOCAL_N];
  const uint lid = get_local_id(0);
  const uint base = get_group_id(0) * chunk;
  for (uint i = lid; i < chunk; i += LOCAL_WG) tile[i] = data[base + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint first_width = boxwidth == 0 ? 2 : boxwidth;
  const uint last_width = boxwidth == 0 ? chunk : boxwidth;
  for (uint width = first_width; width <= last_width; width <<= 1) {
    for (uint inc = min(width, chunk) >> 1; inc > 0; inc >>= 1) {
      for (uint c = lid; c < chunk / 2; c += LOCAL_WG) {
        const uint i = (c << 1) - (c & (inc - 1));
        const bool ascending = ((base + i) & width) == 0;
        const ELEM x0 = tile[i];
        const ELEM x1 = tile[i + inc];
        if (ascending ^ (x0 < x1)) {
          tile[i] = x1;
          tile[i + inc] = x0;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  for (uint i = lid; i < chunk; i += LOCAL_WG) data[base + i] = tile[i];
}

// `chunks`: the scan for CPU devices, two launches of one-item work-groups over G + 1 long
// contiguous chunks (kernels/primitives/common/chunks.cl), G the grid. chunk_sums: work-item 0
// scans chunk 0 outright, work-items 1 .. G-1 sum chunks 1 .. G-1 (the last chunk's sum is never
// needed). chunk_scan: work-item g scans chunk g + 1 from the sum of the chunks before it. The
// input is read about twice and the output written once, without local memory or barriers.
// Build options: T (int, uint or float); CHUNK_SCAN_SERIAL for a plain serial scan (integers,
// whose additions take a cycle), else 8 values at a time (floats, whose additions take several).
#include "kernels/primitives/common/chunks.cl"

#define CHUNK_CONCAT_(a, b) a##b
#define CHUNK_CONCAT(a, b) CHUNK_CONCAT_(a, b)
#define T8 CHUNK_CONCAT(T, 8)
#define T4 CHUNK_CONCAT(T, 4)

// The inclusive scan of 8 values in three steps instead of a chain of 7 additions.
inline T8 scan8(T8 v) {
  v.s1357 += v.s0246;
  v.s2367 += (T4)(v.s1, v.s1, v.s5, v.s5);
  v.s4567 += (T4)(v.s3);
  return v;
}

// Scans in[i, end) into out from `carry`; returns the total carried past `end`.
inline T scan_chunk(const global T* in, global T* out, uint i, uint end, T carry, uint inclusive) {
#ifndef CHUNK_SCAN_SERIAL
  if (inclusive) {
    for (; i + 8 <= end; i += 8) {
      const T8 v = scan8(vload8(0, in + i)) + carry;
      vstore8(v, 0, out + i);
      carry = v.s7;
    }
  } else {
    for (; i + 8 <= end; i += 8) {
      const T8 v = scan8(vload8(0, in + i)) + carry;
      vstore8((T8)(carry, v.s0123, v.s456), 0, out + i);
      carry = v.s7;
    }
  }
#endif
  if (inclusive) {
    for (; i < end; ++i) {
      carry += in[i];
      out[i] = carry;
    }
  } else {
    for (; i < end; ++i) {
      const T value = in[i];
      out[i] = carry;
      carry += value;
    }
  }
  return carry;
}

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_sums(const global T* in,
                                                                      global T* out, global T* sums,
                                                                      uint n, uint inclusive) {
  const uint g = get_global_id(0);
  const uint chunk = chunk_length_of(n, get_global_size(0) + 1);
  const uint first = chunk_start(n, chunk, g);
  const uint end = chunk_end(n, first, chunk);
  if (g == 0) {
    sums[0] = scan_chunk(in, out, first, end, 0, inclusive);
    return;
  }
  T8 lanes = 0;
  uint i = first;
  for (; i + 8 <= end; i += 8) lanes += vload8(0, in + i);
  T sum = ((lanes.s0 + lanes.s1) + (lanes.s2 + lanes.s3)) +
          ((lanes.s4 + lanes.s5) + (lanes.s6 + lanes.s7));
  for (; i < end; ++i) sum += in[i];
  sums[g] = sum;
}

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_scan(const global T* in,
                                                                      global T* out,
                                                                      const global T* sums, uint n,
                                                                      uint inclusive) {
  const uint g = get_global_id(0);
  const uint chunk = chunk_length_of(n, get_global_size(0) + 1);
  const uint first = chunk_start(n, chunk, g + 1);
  T carry = 0;
  for (uint k = 0; k <= g; ++k) carry += sums[k];
  scan_chunk(in, out, first, chunk_end(n, first, chunk), carry, inclusive);
}

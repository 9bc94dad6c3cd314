// `chunks`: the scan for CPU devices. Each work-item owns one long contiguous chunk
// (kernels/primitives/common/chunks.cl): chunk_sums sums every chunk with 8-wide vector loads,
// then chunk_scan adds up the sums of the chunks before its own (a few dozen) and scans its chunk
// 8 values at a time, carrying the running total in a register. Two passes over the input, no
// local memory, no barriers. Build options: T (int, uint or float).
#include "kernels/primitives/common/chunks.cl"

#define CHUNK_CONCAT_(a, b) a##b
#define CHUNK_CONCAT(a, b) CHUNK_CONCAT_(a, b)
#define T8 CHUNK_CONCAT(T, 8)
#define T4 CHUNK_CONCAT(T, 4)

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_sums(const global T* in,
                                                                      global T* sums, uint n) {
  const uint chunk = chunk_length(n);
  const uint first = chunk_first(n, chunk);
  const uint end = chunk_end(n, first, chunk);
  T8 lanes = 0;
  uint i = first;
  for (; i + 8 <= end; i += 8) lanes += vload8(0, in + i);
  T sum = ((lanes.s0 + lanes.s1) + (lanes.s2 + lanes.s3)) +
          ((lanes.s4 + lanes.s5) + (lanes.s6 + lanes.s7));
  for (; i < end; ++i) sum += in[i];
  sums[get_global_id(0)] = sum;
}

// The inclusive scan of 8 values in three steps (the dependency chain of a serial scan would be
// 8 additions long; a float addition takes several cycles).
inline T8 scan8(T8 v) {
  v.s1357 += v.s0246;
  v.s2367 += (T4)(v.s1, v.s1, v.s5, v.s5);
  v.s4567 += (T4)(v.s3);
  return v;
}

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_scan(const global T* in,
                                                                      global T* out,
                                                                      const global T* sums, uint n,
                                                                      uint inclusive) {
  const uint chunk = chunk_length(n);
  const uint first = chunk_first(n, chunk);
  const uint end = chunk_end(n, first, chunk);
  T carry = 0;
  for (uint g = 0; g < get_global_id(0); ++g) carry += sums[g];
  uint i = first;
  if (inclusive) {
    for (; i + 8 <= end; i += 8) {
      const T8 v = scan8(vload8(0, in + i)) + carry;
      vstore8(v, 0, out + i);
      carry = v.s7;
    }
    for (; i < end; ++i) {
      carry += in[i];
      out[i] = carry;
    }
  } else {
    for (; i + 8 <= end; i += 8) {
      const T8 v = scan8(vload8(0, in + i)) + carry;
      vstore8((T8)(carry, v.s0123, v.s456), 0, out + i);
      carry = v.s7;
    }
    for (; i < end; ++i) {
      const T value = in[i];
      out[i] = carry;
      carry += value;
    }
  }
}

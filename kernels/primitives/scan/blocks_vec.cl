// `blocks-vec`: the recursive block scan with 8-wide vectors (Gruber's ScanBlocksVec): each
// work-item loads two T8 vectors (16 consecutive values), scans each in registers, and only the
// two vector sums take part in the local-memory scan, so a block holds 16 * get_local_size(0)
// values and the recursion shrinks the input 8 times faster than `blocks`.
#include "kernels/primitives/scan/blocks.cl"
#include "kernels/primitives/scan/common.cl"

// The 8 values from in[first], zero at or beyond n; one vector load when all are in range.
inline T8 load8(const global T* in, uint first, uint n) {
  if (first + 8 <= n) return *(const global T8*)(in + first);
  T8 v = (T8)(0);
  if (first + 0 < n) v.s0 = in[first + 0];
  if (first + 1 < n) v.s1 = in[first + 1];
  if (first + 2 < n) v.s2 = in[first + 2];
  if (first + 3 < n) v.s3 = in[first + 3];
  if (first + 4 < n) v.s4 = in[first + 4];
  if (first + 5 < n) v.s5 = in[first + 5];
  if (first + 6 < n) v.s6 = in[first + 6];
  if (first + 7 < n) v.s7 = in[first + 7];
  return v;
}

inline void store8(global T* out, uint first, uint n, T8 v) {
  if (first + 8 <= n) {
    *(global T8*)(out + first) = v;
    return;
  }
  if (first + 0 < n) out[first + 0] = v.s0;
  if (first + 1 < n) out[first + 1] = v.s1;
  if (first + 2 < n) out[first + 2] = v.s2;
  if (first + 3 < n) out[first + 3] = v.s3;
  if (first + 4 < n) out[first + 4] = v.s4;
  if (first + 5 < n) out[first + 5] = v.s5;
  if (first + 6 < n) out[first + 6] = v.s6;
  if (first + 7 < n) out[first + 7] = v.s7;
}

// Inclusive scan of the 8 lanes, in registers.
inline T8 scan8_inclusive(T8 v) {
  v.s1 += v.s0;
  v.s2 += v.s1;
  v.s3 += v.s2;
  v.s4 += v.s3;
  v.s5 += v.s4;
  v.s6 += v.s5;
  v.s7 += v.s6;
  return v;
}

// The exclusive scan from the inclusive one: shift the lanes up by one.
inline T8 shift8(T8 inclusive) {
  return (T8)((T)0, inclusive.s0, inclusive.s1, inclusive.s2, inclusive.s3, inclusive.s4,
              inclusive.s5, inclusive.s6);
}

// As scan_blocks, with blocks of 16 * get_local_size(0) values (first a multiple of 8, so the
// vector loads are aligned).
kernel void scan_blocks_vec(const global T* in, global T* out, global T* sums, uint n,
                            uint inclusive, local T* shared) {
  const uint lid = get_local_id(0);
  const uint first = (get_group_id(0) * 2 * get_local_size(0) + 2 * lid) * 8;
  const T8 a = scan8_inclusive(load8(in, first, n));
  const T8 b = scan8_inclusive(load8(in, first + 8, n));
  shared[2 * lid] = a.s7;
  shared[2 * lid + 1] = b.s7;
  const T total = local_blelloch_exclusive(shared);
  if (lid == 0) sums[get_group_id(0)] = total;
  const T8 a_out = (inclusive ? a : shift8(a)) + shared[2 * lid];
  const T8 b_out = (inclusive ? b : shift8(b)) + shared[2 * lid + 1];
  store8(out, first, n, a_out);
  store8(out, first + 8, n, b_out);
}

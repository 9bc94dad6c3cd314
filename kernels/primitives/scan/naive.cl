// `naive`: Hillis and Steele's scan in global memory (Gruber's ScanNaive), one launch per
// power-of-two offset, ping-ponging between two buffers. O(n log n) work.
#include "kernels/primitives/scan/common.cl"

// The value the inclusive passes start from: in[i], or in[i - 1] (0 at i = 0) for an exclusive
// scan, so that the inclusive scan of the shifted input is the exclusive scan of the input.
inline T naive_shifted(const global T* in, uint i, uint exclusive) {
  if (!exclusive) return in[i];
  return i > 0 ? in[i - 1] : (T)0;
}

// The first pass (offset 1), reading the input: dst[i] = x[i] + x[i - 1].
kernel void naive_scan_first(const global T* in, global T* dst, uint n, uint exclusive) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  T value = naive_shifted(in, i, exclusive);
  if (i >= 1) value += naive_shifted(in, i - 1, exclusive);
  dst[i] = value;
}

// Every later pass: dst[i] = src[i] + src[i - offset], or src[i] where there is no such element.
kernel void naive_scan_pass(const global T* src, global T* dst, uint n, uint offset) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  dst[i] = i >= offset ? src[i] + src[i - offset] : src[i];
}

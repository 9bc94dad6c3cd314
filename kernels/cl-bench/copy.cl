// Device copy bandwidth for cl-bench: dst = src over n uints, as uint4 loads and stores. Each
// work-item moves COPY_VECTORS_PER_ITEM vectors, all loads issued before the stores so that
// several are in flight per work-item; the vectors of a work-group are contiguous and each step
// is coalesced across the group. The n % 4 trailing uints are copied singly by the first
// work-items. Buffers are at least 16-byte aligned (CL_DEVICE_MEM_BASE_ADDR_ALIGN), so the
// uint4 view of a uint buffer is aligned. The host sets COPY_VECTORS_PER_ITEM (it sizes the grid).
#ifndef COPY_VECTORS_PER_ITEM
#define COPY_VECTORS_PER_ITEM 4
#endif

__kernel void copy_uint4(__global const uint* src, __global uint* dst, uint n) {
  const uint vectors = n / 4;
  const __global uint4* src4 = (const __global uint4*)src;
  __global uint4* dst4 = (__global uint4*)dst;
  const size_t local_size = get_local_size(0);
  const size_t first = get_group_id(0) * local_size * COPY_VECTORS_PER_ITEM + get_local_id(0);
  uint4 values[COPY_VECTORS_PER_ITEM];
  for (int k = 0; k < COPY_VECTORS_PER_ITEM; ++k) {
    const size_t i = first + k * local_size;
    if (i < vectors) values[k] = src4[i];
  }
  for (int k = 0; k < COPY_VECTORS_PER_ITEM; ++k) {
    const size_t i = first + k * local_size;
    if (i < vectors) dst4[i] = values[k];
  }
  const size_t tail = (size_t)vectors * 4 + get_global_id(0);
  if (tail < n) dst[tail] = src[tail];
}

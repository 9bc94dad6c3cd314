// Zeros in the first `count` bytes of a buffer, for clf::DeviceBuffer::fill_zero. The driver's
// clEnqueueFillBuffer is not used: NVIDIA's fails at offsets of 2^31 bytes or more and runs at
// host-copy speed on sub-buffers. A fixed number of work-items loop over the buffer, 16 bytes at
// a time (buffers are allocated aligned to far more), the last bytes one at a time.
__kernel void clf_zero_bytes(__global uchar* bytes, ulong count) {
  const ulong stride = get_global_size(0);
  const ulong words = count / 16;
  __global uint4* body = (__global uint4*)bytes;
  for (ulong i = get_global_id(0); i < words; i += stride) body[i] = (uint4)(0);
  for (ulong i = words * 16 + get_global_id(0); i < count; i += stride) bytes[i] = 0;
}

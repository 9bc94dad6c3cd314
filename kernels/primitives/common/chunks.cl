// The chunk layout of the CPU algorithms (Layout::chunks in framework/primitives/tuning.hpp):
// work-item g of a grid of one-item work-groups owns elements [first, end) of n, consecutive
// chunks of one length, a multiple of 16 so that every chunk but the last starts 64-byte
// aligned. Every kernel of an algorithm cuts the same way, so the host passes only n.
#ifndef KERNELS_PRIMITIVES_COMMON_CHUNKS_CL
#define KERNELS_PRIMITIVES_COMMON_CHUNKS_CL

inline uint chunk_length(uint n) {
  const uint items = (n + get_global_size(0) - 1) / get_global_size(0);
  return (items + 15) & ~15u;
}

inline uint chunk_first(uint n, uint chunk) { return min(n, (uint)get_global_id(0) * chunk); }

inline uint chunk_end(uint n, uint first, uint chunk) { return min(n - first, chunk) + first; }

#endif  // KERNELS_PRIMITIVES_COMMON_CHUNKS_CL

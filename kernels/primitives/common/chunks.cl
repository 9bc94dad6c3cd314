// The chunk layout of the CPU algorithms (Layout::chunks in framework/primitives/tuning.hpp):
// n elements cut into consecutive chunks of one length, a multiple of 16 so that every chunk
// but the last starts 64-byte aligned; by default one chunk per work-item of a grid of one-item
// work-groups. Every kernel of an algorithm cuts the same way, so the host passes only n.
#ifndef KERNELS_PRIMITIVES_COMMON_CHUNKS_CL
#define KERNELS_PRIMITIVES_COMMON_CHUNKS_CL

// The length of each of `chunks` chunks.
inline uint chunk_length_of(uint n, uint chunks) {
  const uint items = (n + chunks - 1) / chunks;
  return (items + 15) & ~15u;
}

// Where chunk `index` starts and ends, at most n.
inline uint chunk_start(uint n, uint chunk, uint index) { return min(n, index * chunk); }
inline uint chunk_end(uint n, uint first, uint chunk) { return min(n - first, chunk) + first; }

// One chunk per work-item.
inline uint chunk_length(uint n) { return chunk_length_of(n, get_global_size(0)); }
inline uint chunk_first(uint n, uint chunk) { return chunk_start(n, chunk, get_global_id(0)); }

#endif  // KERNELS_PRIMITIVES_COMMON_CHUNKS_CL

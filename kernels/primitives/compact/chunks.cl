// Stream compaction for CPU devices: each work-item owns one long contiguous chunk
// (kernels/primitives/common/chunks.cl). chunk_count counts the selected elements of each chunk;
// chunk_scatter adds up the counts of the chunks before its own and writes its selected
// elements (or their indices, with WRITE_INDICES) from there, in order. No local memory, no
// barriers, no scan launch. Build options: T; WRITE_INDICES.
#include "kernels/primitives/common/chunks.cl"
#include "kernels/primitives/compact/predicate.cl"

#ifdef WRITE_INDICES
#define OUT_T uint
#else
#define OUT_T T
#endif

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_count(const global T* in,
                                                                       global uint* counts, uint n,
                                                                       uint comparison, T value) {
  const uint chunk = chunk_length(n);
  const uint first = chunk_first(n, chunk);
  const uint end = chunk_end(n, first, chunk);
  uint count = 0;
  for (uint i = first; i < end; ++i) count += is_selected(in[i], comparison, value);
  counts[get_global_id(0)] = count;
}

// The last work-item also writes the number of selected elements to *selected_count.
kernel __attribute__((reqd_work_group_size(1, 1, 1))) void chunk_scatter(
    const global T* in, const global uint* counts, global OUT_T* out, global uint* selected_count,
    uint n, uint comparison, T value) {
  const uint chunk = chunk_length(n);
  const uint first = chunk_first(n, chunk);
  const uint end = chunk_end(n, first, chunk);
  uint offset = 0;
  for (uint g = 0; g < get_global_id(0); ++g) offset += counts[g];
  // Every element is written at the next free slot, which a selected one then keeps: no branch
  // on the data, which a predicate selecting about half at random would mispredict. The guard
  // fails only past this chunk's last selected element, so the next chunk's slots are never
  // written.
  const uint end_offset = offset + counts[get_global_id(0)];
  for (uint i = first; i < end; ++i) {
    const T x = in[i];
#ifdef WRITE_INDICES
    if (offset < end_offset) out[offset] = i;
#else
    if (offset < end_offset) out[offset] = x;
#endif
    offset += is_selected(x, comparison, value);
  }
  if (get_global_id(0) == get_global_size(0) - 1) *selected_count = offset;
}

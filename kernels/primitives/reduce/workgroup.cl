// Work-group helpers from Kloosterman's project (societies/util/max_min.cl, choose_thread.cl),
// for app kernels to #include "kernels/primitives/reduce/workgroup.cl". OpenCL C 1.2, 1-D
// work-groups. Every work-item of the group must call each helper (they contain barriers), with the
// same uniform arguments; each returns the same answer in every work-item and ends with a barrier,
// so scratch memory can be reused right away. Any work-group size works, powers of two or not.
//
// Arg max/min over __local values (Gruber's max/min tree, with its mask):
//   int wg_masked_argmax_float(values, mask, n, scratch_values, scratch_indices)
//   int wg_masked_argmin_float(...), wg_argmax_float(values, n, ...), wg_argmin_float(...)
//   (and _int, _uint): the index of the largest (smallest) values[i], i < n, among those with
//   mask[i] != 0; the lowest such index among ties; -1 if none is eligible. NaN never wins.
//   scratch_values and scratch_indices hold get_local_size(0) elements each.
// The n largest (smallest):
//   uint wg_max_n_indices_float(values, mask, n, k, out_indices, scratch_values, scratch_indices)
//   writes the indices of the k largest eligible values to out_indices[0..k) (largest first,
//   ties by lowest index), clears their mask entries, fills slots past the number found with -1
//   and returns that number. wg_min_n_indices_*: the k smallest.
// Append array (a variable-length list in __local memory):
//   wg_append_reset(&count); ... int slot = wg_append_int(&count, items, capacity, value); ...
//   barrier(CLK_LOCAL_MEM_FENCE); uint size = wg_append_size(&count, capacity);
//   wg_append_* is called by any subset of work-items (no barrier inside); it returns the slot
//   written, or -1 when the list is full. The count keeps growing past capacity, so
//   wg_append_overflowed() reports that values were dropped. Slot order follows atomic order,
//   which is not deterministic.
// Choosing one of several willing work-items:
//   int wg_choose_lowest(wants, &scratch_uint): the lowest local id whose `wants` is non-zero.
//   int wg_choose_random(wants, random, flags): the (random % count)-th willing work-item in
//   local-id order (`random` the same in every work-item, flags[get_local_size(0)] ints), so
//   the choice is reproducible from the random number. Both return -1 when nobody is willing.
#ifndef KERNELS_REDUCE_WORKGROUP_CL
#define KERNELS_REDUCE_WORKGROUP_CL

// Whether candidate value a at index ia beats b at ib (indices -1 mean "nothing yet"): the
// better value, or the lower index among equals.
#define WG_BEATS(BETTER, a, ia, b, ib) \
  ((ia) >= 0 && ((ib) < 0 || BETTER(a, b) || (!BETTER(b, a) && (ia) < (ib))))
#define WG_GREATER(a, b) ((a) > (b))
#define WG_LESS(a, b) ((a) < (b))

#define WG_DEFINE_ARG(SUFFIX, TYPE, BETTER)                                                        \
  inline int wg_arg_##SUFFIX(__local const TYPE* values, __local const int* mask, int use_mask,    \
                             uint n, __local TYPE* scratch_values, __local int* scratch_indices) { \
    const uint lid = get_local_id(0);                                                              \
    const uint size = get_local_size(0);                                                           \
    int best = -1;                                                                                 \
    TYPE best_value = 0;                                                                           \
    /* Own elements in increasing index order: a strictly better value replaces. */                \
    for (uint i = lid; i < n; i += size) {                                                         \
      const TYPE v = values[i];                                                                    \
      if ((use_mask && mask[i] == 0) || v != v) continue; /* v != v: NaN */                        \
      if (best < 0 || BETTER(v, best_value)) {                                                     \
        best = (int)i;                                                                             \
        best_value = v;                                                                            \
      }                                                                                            \
    }                                                                                              \
    scratch_values[lid] = best_value;                                                              \
    scratch_indices[lid] = best;                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    /* The tree: the upper half of the active items folds onto the lower half. */                  \
    for (uint active = size; active > 1;) {                                                        \
      const uint kept = (active + 1) / 2;                                                          \
      if (lid < active - kept) {                                                                   \
        const TYPE other_value = scratch_values[lid + kept];                                       \
        const int other = scratch_indices[lid + kept];                                             \
        if (WG_BEATS(BETTER, other_value, other, best_value, best)) {                              \
          best = other;                                                                            \
          best_value = other_value;                                                                \
          scratch_values[lid] = best_value;                                                        \
          scratch_indices[lid] = best;                                                             \
        }                                                                                          \
      }                                                                                            \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      active = kept;                                                                               \
    }                                                                                              \
    const int winner = scratch_indices[0];                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    return winner;                                                                                 \
  }

#define WG_DEFINE_TYPE(TYPE)                                                                       \
  WG_DEFINE_ARG(max_##TYPE, TYPE, WG_GREATER)                                                      \
  WG_DEFINE_ARG(min_##TYPE, TYPE, WG_LESS)                                                         \
  inline int wg_masked_argmax_##TYPE(__local const TYPE* values, __local const int* mask, uint n,  \
                                     __local TYPE* scratch_values, __local int* scratch_indices) { \
    return wg_arg_max_##TYPE(values, mask, 1, n, scratch_values, scratch_indices);                 \
  }                                                                                                \
  inline int wg_masked_argmin_##TYPE(__local const TYPE* values, __local const int* mask, uint n,  \
                                     __local TYPE* scratch_values, __local int* scratch_indices) { \
    return wg_arg_min_##TYPE(values, mask, 1, n, scratch_values, scratch_indices);                 \
  }                                                                                                \
  /* No mask: scratch_indices stands in for it and is never read as one. */                        \
  inline int wg_argmax_##TYPE(__local const TYPE* values, uint n, __local TYPE* scratch_values,    \
                              __local int* scratch_indices) {                                      \
    return wg_arg_max_##TYPE(values, scratch_indices, 0, n, scratch_values, scratch_indices);      \
  }                                                                                                \
  inline int wg_argmin_##TYPE(__local const TYPE* values, uint n, __local TYPE* scratch_values,    \
                              __local int* scratch_indices) {                                      \
    return wg_arg_min_##TYPE(values, scratch_indices, 0, n, scratch_values, scratch_indices);      \
  }                                                                                                \
  WG_DEFINE_N_INDICES(max_n_indices_##TYPE, wg_arg_max_##TYPE, TYPE)                               \
  WG_DEFINE_N_INDICES(min_n_indices_##TYPE, wg_arg_min_##TYPE, TYPE)                               \
  inline int wg_append_##TYPE(volatile __local uint* count, __local TYPE* items, uint capacity,    \
                              TYPE value) {                                                        \
    const uint slot = atomic_inc(count);                                                           \
    if (slot >= capacity) return -1;                                                               \
    items[slot] = value;                                                                           \
    return (int)slot;                                                                              \
  }

// k rounds of the masked arg max/min, each removing its winner from the mask.
#define WG_DEFINE_N_INDICES(NAME, ARG, TYPE)                                           \
  inline uint wg_##NAME(__local const TYPE* values, __local int* mask, uint n, uint k, \
                        __local int* out_indices, __local TYPE* scratch_values,        \
                        __local int* scratch_indices) {                                \
    uint found = 0;                                                                    \
    for (uint round = 0; round < k; ++round) {                                         \
      const int winner = ARG(values, mask, 1, n, scratch_values, scratch_indices);     \
      if (get_local_id(0) == 0) {                                                      \
        out_indices[round] = winner;                                                   \
        if (winner >= 0) mask[winner] = 0;                                             \
      }                                                                                \
      barrier(CLK_LOCAL_MEM_FENCE);                                                    \
      if (winner >= 0) ++found;                                                        \
    }                                                                                  \
    return found;                                                                      \
  }

WG_DEFINE_TYPE(float)
WG_DEFINE_TYPE(int)
WG_DEFINE_TYPE(uint)

// Empties an append list. All work-items call it; it ends with a barrier.
inline void wg_append_reset(volatile __local uint* count) {
  if (get_local_id(0) == 0) *count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
}
// After a barrier that follows the appends: how many items the list holds.
inline uint wg_append_size(volatile __local uint* count, uint capacity) {
  return min(*count, capacity);
}
// After a barrier that follows the appends: whether appends were dropped for lack of room.
inline int wg_append_overflowed(volatile __local uint* count, uint capacity) {
  return *count > capacity;
}

inline int wg_choose_lowest(int wants, volatile __local uint* scratch) {
  if (get_local_id(0) == 0) *scratch = UINT_MAX;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (wants) atomic_min(scratch, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint chosen = *scratch;
  barrier(CLK_LOCAL_MEM_FENCE);
  return chosen == UINT_MAX ? -1 : (int)chosen;
}

inline int wg_choose_random(int wants, uint random, __local int* flags) {
  const uint size = get_local_size(0);
  flags[get_local_id(0)] = wants != 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Every work-item counts the willing and walks to the chosen rank itself: no broadcast.
  uint count = 0;
  for (uint i = 0; i < size; ++i) count += (uint)flags[i];
  int chosen = -1;
  if (count > 0) {
    uint rank = random % count;
    for (uint i = 0; i < size && chosen < 0; ++i) {
      if (flags[i] != 0) {
        if (rank == 0) chosen = (int)i;
        --rank;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return chosen;
}

#endif  // KERNELS_REDUCE_WORKGROUP_CL

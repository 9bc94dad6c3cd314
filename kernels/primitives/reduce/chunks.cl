// The reduction for CPU devices, pass 1 of 2: each work-item of a grid of one-item work-groups
// reduces one long contiguous chunk (kernels/primitives/common/chunks.cl) into 8 lanes with
// 8-wide vector loads, then folds the lanes: no local memory, no barriers. reduce_partials
// (common.cl) with one work-item finishes. Built with REDUCE_GROUP_SIZE=1.
#include "kernels/primitives/common/chunks.cl"
#include "kernels/primitives/reduce/common.cl"

#define CHUNK_CONCAT_(a, b) a##b
#define CHUNK_CONCAT(a, b) CHUNK_CONCAT_(a, b)
#define T8 CHUNK_CONCAT(T, 8)
#define ACC8 CHUNK_CONCAT(ACC, 8)
#define CONVERT_ACC8 CHUNK_CONCAT(convert_, ACC8)

#if defined(REDUCE_OP_SUM)
#define LANES_COMBINE(a, b) ((a) + (b))
#elif defined(REDUCE_OP_MIN) && defined(T_IS_FLOAT)
#define LANES_COMBINE(a, b) fmin(a, b)
#elif defined(REDUCE_OP_MAX) && defined(T_IS_FLOAT)
#define LANES_COMBINE(a, b) fmax(a, b)
#elif defined(REDUCE_OP_MIN)
#define LANES_COMBINE(a, b) min(a, b)
#elif defined(REDUCE_OP_MAX)
#define LANES_COMBINE(a, b) max(a, b)
#endif

// Reduces in[i, end) 8 values at a time into the partial of the 8 lanes, i advanced past them.
inline Partial reduce_lanes(const __global T* input, uint* i, uint end) {
  Partial mine = partial_identity();
  if (*i + 8 > end) return mine;
#if defined(REDUCE_HAS_INDEX)
  // Lane k keeps the best of elements k mod 8 and where it is; a strictly better value
  // replaces it, so each lane keeps its first (lowest) index among equals.
  T8 best = vload8(0, input + *i);
  const uint8 lane = (uint8)(0, 1, 2, 3, 4, 5, 6, 7);
  uint8 where = lane + *i;
  for (*i += 8; *i + 8 <= end; *i += 8) {
    const T8 v = vload8(0, input + *i);
#if defined(REDUCE_WANTS_LOW)
    CHUNK_CONCAT(int, 8) better = v < best;
#else
    CHUNK_CONCAT(int, 8) better = v > best;
#endif
#if defined(T_IS_FLOAT)
    better |= isnan(best) & ~isnan(v);  // any number beats NaN
#endif
    best = select(best, v, better);
    where = select(where, lane + *i, better);
  }
  T values[8];
  uint indices[8];
  vstore8(best, 0, values);
  vstore8(where, 0, indices);
  for (uint k = 0; k < 8; ++k) mine = partial_combine(mine, partial_of(values[k], indices[k]));
#else
  ACC8 lanes = (ACC8)(mine.value);
  for (; *i + 8 <= end; *i += 8) lanes = LANES_COMBINE(lanes, CONVERT_ACC8(vload8(0, input + *i)));
  ACC values[8];
  vstore8(lanes, 0, values);
  for (uint k = 0; k < 8; ++k) {
    Partial lane;
    lane.value = values[k];
    lane.index = 0;
    mine = partial_combine(mine, lane);
  }
#endif
  return mine;
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void reduce_chunks(
    const __global T* input, uint n, __global ACC* partial_values, __global uint* partial_indices) {
  const uint chunk = chunk_length(n);
  uint i = chunk_first(n, chunk);
  const uint end = chunk_end(n, i, chunk);
  Partial mine = reduce_lanes(input, &i, end);
  for (; i < end; ++i) mine = partial_combine(mine, partial_of(input[i], i));
  store_partial(mine, get_group_id(0), partial_values, partial_indices);
}

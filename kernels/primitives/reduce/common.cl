// What every reduce variant shares: the element type, the operator and its identity, how two
// partial results combine, the work-group tree in __local memory, and the kernel that reduces
// per-group partials. Chosen at build time by the host (framework/primitives/reduce.cpp):
//   -DREDUCE_TYPE_INT | -DREDUCE_TYPE_UINT | -DREDUCE_TYPE_FLOAT
//   -DREDUCE_OP_SUM | -DREDUCE_OP_MIN | -DREDUCE_OP_MAX | -DREDUCE_OP_ARGMIN | -DREDUCE_OP_ARGMAX
//   -DREDUCE_GROUP_SIZE=<power of two>
// Integer sums are exact: int accumulates in long, uint in ulong. Float sums accumulate in float.
// Float min/max ignore NaN (fmin/fmax); argmin/argmax ignore NaN too and return the lowest index
// among equal values (-0 == +0); an all-NaN input gives NaN at index 0.
#ifndef KERNELS_REDUCE_COMMON_CL
#define KERNELS_REDUCE_COMMON_CL

#if defined(REDUCE_TYPE_INT)
#define T int
#define T4 int4
#define T_LOWEST INT_MIN
#define T_HIGHEST INT_MAX
#define SUM_T long
#elif defined(REDUCE_TYPE_UINT)
#define T uint
#define T4 uint4
#define T_LOWEST 0u
#define T_HIGHEST UINT_MAX
#define SUM_T ulong
#elif defined(REDUCE_TYPE_FLOAT)
#define T float
#define T4 float4
#define T_IS_FLOAT 1
#define SUM_T float
#else
#error "reduce: define REDUCE_TYPE_INT, REDUCE_TYPE_UINT or REDUCE_TYPE_FLOAT"
#endif

#if defined(REDUCE_OP_SUM)
#define ACC SUM_T
#else
#define ACC T
#endif
#if defined(REDUCE_OP_ARGMIN) || defined(REDUCE_OP_ARGMAX)
#define REDUCE_HAS_INDEX 1
#endif
#if defined(REDUCE_OP_MIN) || defined(REDUCE_OP_ARGMIN)
#define REDUCE_WANTS_LOW 1
#endif

#ifndef REDUCE_GROUP_SIZE
#error "reduce: define REDUCE_GROUP_SIZE"
#endif

// A partial result: the value so far and, for argmin/argmax, where it was found.
typedef struct {
  ACC value;
  uint index;
} Partial;

inline Partial partial_identity(void) {
  Partial p;
  p.index = UINT_MAX;
#if defined(REDUCE_OP_SUM)
  p.value = 0;
#elif defined(T_IS_FLOAT)
  p.value = NAN;  // every number beats NaN, so NaN is the identity of the NaN-ignoring ops
#elif defined(REDUCE_WANTS_LOW)
  p.value = T_HIGHEST;
#else
  p.value = T_LOWEST;
#endif
  return p;
}

inline Partial partial_of(T value, uint index) {
  Partial p;
  p.value = (ACC)value;
  p.index = index;
  return p;
}

// a combined with b; commutative and associative, so any tree of combines gives the same result
// (up to float rounding for sums).
inline Partial partial_combine(Partial a, Partial b) {
#if defined(REDUCE_OP_SUM)
  a.value += b.value;
  return a;
#elif defined(REDUCE_OP_MIN) && defined(T_IS_FLOAT)
  a.value = fmin(a.value, b.value);
  return a;
#elif defined(REDUCE_OP_MAX) && defined(T_IS_FLOAT)
  a.value = fmax(a.value, b.value);
  return a;
#elif defined(REDUCE_OP_MIN)
  a.value = min(a.value, b.value);
  return a;
#elif defined(REDUCE_OP_MAX)
  a.value = max(a.value, b.value);
  return a;
#else
#if defined(REDUCE_WANTS_LOW)
  const bool b_better = b.value < a.value;
#else
  const bool b_better = b.value > a.value;
#endif
  const bool tie_lower = b.value == a.value && b.index < a.index;
#if defined(T_IS_FLOAT)
  const bool take_b = isnan(b.value) ? (isnan(a.value) && b.index < a.index)
                                     : (isnan(a.value) || b_better || tie_lower);
#else
  const bool take_b = b_better || tie_lower;
#endif
  return take_b ? b : a;
#endif
}

// The four lanes of a vector starting at element `index`, combined as a small tree.
inline Partial partial_of4(T4 v, uint index) {
  return partial_combine(partial_combine(partial_of(v.x, index), partial_of(v.y, index + 1)),
                         partial_combine(partial_of(v.z, index + 2), partial_of(v.w, index + 3)));
}

// Combines every work-item's `mine` over the work-group (REDUCE_GROUP_SIZE items, all must
// call). The result is valid in work-item 0.
inline Partial group_reduce(Partial mine, __local ACC* values, __local uint* indices) {
  const uint lid = get_local_id(0);
  values[lid] = mine.value;
#if defined(REDUCE_HAS_INDEX)
  indices[lid] = mine.index;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = REDUCE_GROUP_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      Partial other;
      other.value = values[lid + stride];
#if defined(REDUCE_HAS_INDEX)
      other.index = indices[lid + stride];
#else
      other.index = 0;
#endif
      mine = partial_combine(mine, other);
      values[lid] = mine.value;
#if defined(REDUCE_HAS_INDEX)
      indices[lid] = mine.index;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return mine;
}

// Work-item 0 stores the group's result at `slot`.
inline void store_partial(Partial p, uint slot, __global ACC* out_values,
                          __global uint* out_indices) {
  if (get_local_id(0) != 0) return;
  out_values[slot] = p.value;
#if defined(REDUCE_HAS_INDEX)
  out_indices[slot] = p.index;
#endif
}

// Reduces m partials to one per work-group: each work-item combines the partials at its global
// id plus multiples of the global size. One group finishes a two-pass reduction; launched with
// m / (2 * group size) groups it is one level of the pairwise tree. out_indices is only
// written for argmin/argmax.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP_SIZE, 1, 1))) void reduce_partials(
    const __global ACC* in_values, const __global uint* in_indices, uint m,
    __global ACC* out_values, __global uint* out_indices) {
  __local ACC scratch_values[REDUCE_GROUP_SIZE];
  __local uint scratch_indices[REDUCE_GROUP_SIZE];
  Partial mine = partial_identity();
  for (uint i = get_global_id(0); i < m; i += get_global_size(0)) {
    Partial p;
    p.value = in_values[i];
#if defined(REDUCE_HAS_INDEX)
    p.index = in_indices[i];
#else
    p.index = 0;
#endif
    mine = partial_combine(mine, p);
  }
  mine = group_reduce(mine, scratch_values, scratch_indices);
  store_partial(mine, get_group_id(0), out_values, out_indices);
}

#endif  // KERNELS_REDUCE_COMMON_CL

// Helpers shared by the sort kernels.
//
// Keys travel in memory with their own bits and are compared through an order-preserving map to
// uint ("ordered bits"):
//   uint:  unchanged
//   int:   sign bit flipped, so INT_MIN maps to 0
//   float: negative numbers have all bits flipped, others get the sign bit set. This is IEEE 754
//          totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. Negative-sign NaNs sort
//          first, positive NaNs last; -0 sorts before +0. Bits are restored exactly.
#ifndef KERNELS_SORT_COMMON_CL
#define KERNELS_SORT_COMMON_CL

// Keys reach kernels as `__global void*` (any 32-bit key buffer) and are read as uint bits;
// `key_kind` (a kernel argument, so one program serves all three types) says how to order them:
// 0 uint, 1 int, 2 float. Built with -DKEY_KIND=k, the argument is ignored and the key kind is a
// compile-time constant (GPUs: no per-key selection between the three maps).
#define KEY_T uint
// Kernel parameters for key buffers, and the typed views kernels use.
#define KEYS_IN(name) const __global void* name##_bits
#define KEYS_OUT(name) __global void* name##_bits
#define BIND_KEYS_IN(name) const __global uint* name = (const __global uint*)name##_bits
#define BIND_KEYS_OUT(name) __global uint* name = (__global uint*)name##_bits

inline uint to_ordered(uint bits, uint key_kind) {
#ifdef KEY_KIND
  key_kind = KEY_KIND;
#endif
  const uint sign = bits & 0x80000000u;
  const uint flip = key_kind == 0   ? 0u
                    : key_kind == 1 ? 0x80000000u
                    : sign          ? 0xffffffffu
                                    : 0x80000000u;
  return bits ^ flip;
}

inline uint from_ordered(uint ordered, uint key_kind) {
#ifdef KEY_KIND
  key_kind = KEY_KIND;
#endif
  const uint sign = ordered & 0x80000000u;
  const uint flip = key_kind == 0   ? 0u
                    : key_kind == 1 ? 0x80000000u
                    : sign          ? 0x80000000u
                                    : 0xffffffffu;
  return ordered ^ flip;
}

// Exclusive prefix sum of one value per work-item over a 1D work-group of `size` items (a
// multiple of 32, at most 1024). `scratch` holds size + 32 uints. Barriers only: no assumption
// about lockstep execution. Returns the work-item's exclusive prefix; *total gets the sum.
inline uint wg_exclusive_scan(uint value, __local uint* scratch, uint size, uint* total) {
  const uint lid = get_local_id(0);
  const uint per_raker = size / 32;
  __local uint* partials = scratch + size;
  scratch[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32) {
    uint sum = 0;
    for (uint i = 0; i < per_raker; ++i) {
      const uint v = scratch[lid * per_raker + i];
      scratch[lid * per_raker + i] = sum;
      sum += v;
    }
    partials[lid] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Each work-item sums the partials before its raker itself: 32 reads at most, no more barriers.
  uint offset = 0;
  uint all = 0;
  const uint raker = lid / per_raker;
  for (uint r = 0; r < 32; ++r) {
    const uint p = partials[r];
    offset += r < raker ? p : 0;
    all += p;
  }
  const uint result = scratch[lid] + offset;
  *total = all;
  barrier(CLK_LOCAL_MEM_FENCE);  // scratch may be reused by the caller
  return result;
}

#endif  // KERNELS_SORT_COMMON_CL

// NVIDIA warp instructions as inline PTX (sm_70 and later), for the kernels' fast paths that the
// host builds only for NVIDIA GPUs. Lanes are consecutive local ids (NVIDIA forms warps that
// way); every lane of the warp takes part in each call (the .sync forms wait for all 32).
#ifndef KERNELS_COMMON_NVIDIA_WARP_CL
#define KERNELS_COMMON_NVIDIA_WARP_CL

// `value` from lane - delta (lanes below delta get their own).
inline uint shfl_up(uint value, uint delta) {
  uint result;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;"
               : "=r"(result)
               : "r"(value), "r"(delta));
  return result;
}

// `value` from lane ^ mask.
inline uint shfl_xor(uint value, uint mask) {
  uint result;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=r"(result)
               : "r"(value), "r"(mask));
  return result;
}

// `value` from lane `lane`.
inline uint shfl_idx(uint value, uint lane) {
  uint result;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=r"(result)
               : "r"(value), "r"(lane));
  return result;
}

// Bit l set where lane l's `predicate` is nonzero.
inline uint ballot(uint predicate) {
  uint result;
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
      : "=r"(result)
      : "r"(predicate));
  return result;
}

// Waits for every lane and orders their memory accesses before it before those after it
// (bar.warp.sync, CUDA's __syncwarp).
inline void warp_sync(void) { asm volatile("bar.warp.sync -1;" ::: "memory"); }

#endif  // KERNELS_COMMON_NVIDIA_WARP_CL

// device_fence(): orders this work-item's earlier global memory accesses before its later ones as
// other work-groups see them (CUDA's __threadfence()), for a flag or counter that tells another
// work-group that data is ready. OpenCL C 1.2's mem_fence orders accesses as the work-group sees
// them, and NVIDIA compiles mem_fence(CLK_GLOBAL_MEM_FENCE) to membar.cta; on NVIDIA's compiler
// (-DCLF_PTX from the host, or its cl_nv_pragma_unroll extension macro) the fence is membar.gl,
// unless the host found inline PTX refused there (-DCLF_NO_PTX).
#ifndef KERNELS_COMMON_DEVICE_FENCE_CL
#define KERNELS_COMMON_DEVICE_FENCE_CL

inline void device_fence(void) {
#if (defined(CLF_PTX) || defined(cl_nv_pragma_unroll)) && !defined(CLF_NO_PTX)
  asm volatile("membar.gl;" ::: "memory");
#else
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
}

#endif  // KERNELS_COMMON_DEVICE_FENCE_CL

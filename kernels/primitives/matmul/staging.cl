// Shared by the kernels that stage pieces of A and B in local memory with a register prefetch
// (register_tiles.cl, tf32x3.cl): the global loads of one step. Include after defining THREADS
// (work-items), BK, BN, A_LOADS (= BM * BK / 4 / THREADS) and B_LOADS (= BK * BN / 4 / THREADS).
#ifndef KERNELS_MATMUL_STAGING_CL
#define KERNELS_MATMUL_STAGING_CL

#include "kernels/primitives/matmul/common.cl"

// The float4s one work-item copies from global memory for one step.
typedef struct {
  float4 a[A_LOADS];
  float4 b[B_LOADS];
} Staged;

// Loads the pieces of A and B for depth k0 into registers. Piece float4 f of A is row f / (BK/4),
// depths 4 (f % (BK/4)) ..; of B it is depth f / (BN/4), columns 4 (f % (BN/4)) ..; consecutive
// work-items take consecutive float4s of a row, so global reads coalesce.
inline Staged load_step(const __global float* a, const __global float* b, uint m, uint k, uint n,
                        uint row0, uint col0, uint k0, uint tid) {
  Staged staged;
#pragma unroll
  for (uint i = 0; i < A_LOADS; ++i) {
    const uint f = tid + i * THREADS;
    staged.a[i] = matmul_load4(a, m, k, row0 + f / (BK / 4), k0 + 4 * (f % (BK / 4)));
  }
#pragma unroll
  for (uint i = 0; i < B_LOADS; ++i) {
    const uint f = tid + i * THREADS;
    staged.b[i] = matmul_load4(b, k, n, k0 + f / (BN / 4), col0 + 4 * (f % (BN / 4)));
  }
  return staged;
}

#endif  // KERNELS_MATMUL_STAGING_CL

// One work-item per element of C: the dot product of a row of A and a column of B, read
// straight from global memory (Gruber, listing 5). Range: (N, M), any local size.
#include "kernels/primitives/matmul/common.cl"

__kernel void matmul_naive(const __global float* a, const __global float* b, __global float* c,
                           uint m, uint k, uint n) {
  const uint col = get_global_id(0);
  const uint row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (uint i = 0; i < k; ++i) sum = fma(a[row * k + i], b[i * n + col], sum);
  c[row * n + col] = sum;
}

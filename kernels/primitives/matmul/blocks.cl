// Each work-item computes a 4 x 4 block of C as four float4 rows, reading 4 x 4 blocks of A and
// B from global memory as float4 rows (Gruber, listing 9, which the thesis prints garbled: this
// is the intended kernel, C_block += A_block . B_block over the blocks along K).
// Range: (ceil(N / 4), ceil(M / 4)), any local size.
#include "kernels/primitives/matmul/common.cl"

__kernel void matmul_blocks(const __global float* a, const __global float* b, __global float* c,
                            uint m, uint k, uint n) {
  const uint col = get_global_id(0) * 4;
  const uint row = get_global_id(1) * 4;
  if (row >= m || col >= n) return;
  float4 sum0 = (float4)(0.0f);
  float4 sum1 = (float4)(0.0f);
  float4 sum2 = (float4)(0.0f);
  float4 sum3 = (float4)(0.0f);
  for (uint i = 0; i < k; i += 4) {
    const float4 b0 = matmul_load4(b, k, n, i + 0, col);
    const float4 b1 = matmul_load4(b, k, n, i + 1, col);
    const float4 b2 = matmul_load4(b, k, n, i + 2, col);
    const float4 b3 = matmul_load4(b, k, n, i + 3, col);
    sum0 = matmul_row_times_block(sum0, matmul_load4(a, m, k, row + 0, i), b0, b1, b2, b3);
    sum1 = matmul_row_times_block(sum1, matmul_load4(a, m, k, row + 1, i), b0, b1, b2, b3);
    sum2 = matmul_row_times_block(sum2, matmul_load4(a, m, k, row + 2, i), b0, b1, b2, b3);
    sum3 = matmul_row_times_block(sum3, matmul_load4(a, m, k, row + 3, i), b0, b1, b2, b3);
  }
  matmul_store4(c, m, n, row + 0, col, sum0);
  matmul_store4(c, m, n, row + 1, col, sum1);
  matmul_store4(c, m, n, row + 2, col, sum2);
  matmul_store4(c, m, n, row + 3, col, sum3);
}

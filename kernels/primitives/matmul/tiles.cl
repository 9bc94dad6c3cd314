// One work-item per element of C; each work-group stages TILE x TILE pieces of A and B in local
// memory so that every element is read from global memory once per work-group (Gruber,
// listing 7). Instead of Gruber's padded copies, loads outside the matrices read 0 and the
// store is guarded, so any size works. Range: (N, M) rounded up to TILE, local (TILE, TILE).
#include "kernels/primitives/matmul/common.cl"

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void matmul_tiles(
    const __global float* a, const __global float* b, __global float* c, uint m, uint k, uint n) {
  __local float tile_a[TILE][TILE];
  __local float tile_b[TILE][TILE];
  const uint local_col = get_local_id(0);
  const uint local_row = get_local_id(1);
  const uint col = get_global_id(0);
  const uint row = get_global_id(1);
  float sum = 0.0f;
  for (uint k0 = 0; k0 < k; k0 += TILE) {
    tile_a[local_row][local_col] = matmul_load(a, m, k, row, k0 + local_col);
    tile_b[local_row][local_col] = matmul_load(b, k, n, k0 + local_row, col);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint i = 0; i < TILE; ++i) sum = fma(tile_a[local_row][i], tile_b[i][local_col], sum);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

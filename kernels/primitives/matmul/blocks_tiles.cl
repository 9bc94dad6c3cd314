// Both ideas (Gruber, listing 11): a TILE x TILE work-group computes a (4 TILE) x (4 TILE) piece
// of C, each work-item a 4 x 4 block as float4 rows; the work-group stages (4 TILE)-square pieces
// of A and B in local memory as float4, each work-item copying a 4 x 4 block of each.
// Range: (ceil(N / 4), ceil(M / 4)) rounded up to TILE, local (TILE, TILE).
#include "kernels/primitives/matmul/common.cl"

#define TILE 16
#define SPAN (4 * TILE)  // rows, columns and depth of C, A and B one work-group covers per step

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void matmul_blocks_tiles(
    const __global float* a, const __global float* b, __global float* c, uint m, uint k, uint n) {
  // tile_a[r][q]: row r of the A piece, depth 4q .. 4q + 3; tile_b[d][q]: depth d of the B
  // piece, columns 4q .. 4q + 3.
  __local float4 tile_a[SPAN][TILE];
  __local float4 tile_b[SPAN][TILE];
  const uint x = get_local_id(0);
  const uint y = get_local_id(1);
  const uint col = get_global_id(0) * 4;
  const uint row = get_global_id(1) * 4;
  float4 sum[4] = {(float4)(0.0f), (float4)(0.0f), (float4)(0.0f), (float4)(0.0f)};
  for (uint k0 = 0; k0 < k; k0 += SPAN) {
    for (uint r = 0; r < 4; ++r) {
      tile_a[4 * y + r][x] = matmul_load4(a, m, k, row + r, k0 + 4 * x);
      tile_b[4 * y + r][x] = matmul_load4(b, k, n, k0 + 4 * y + r, col);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 4
    for (uint q = 0; q < TILE; ++q) {
      const float4 b0 = tile_b[4 * q + 0][x];
      const float4 b1 = tile_b[4 * q + 1][x];
      const float4 b2 = tile_b[4 * q + 2][x];
      const float4 b3 = tile_b[4 * q + 3][x];
#pragma unroll
      for (uint r = 0; r < 4; ++r) {
        sum[r] = matmul_row_times_block(sum[r], tile_a[4 * y + r][q], b0, b1, b2, b3);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint r = 0; r < 4; ++r) matmul_store4(c, m, n, row + r, col, sum[r]);
}

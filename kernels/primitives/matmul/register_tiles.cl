// The fast default: 2D register tiling. A work-group of (BN / TN) x (BM / TM) work-items computes
// a BM x BN tile of C; each work-item keeps a TM x TN piece of it in registers. Per step of BK
// along K, the work-group stages a BM x BK piece of A (transposed, so a work-item reads 4 rows of
// A at one depth as one float4) and a BK x BN piece of B in local memory, double-buffered: the
// next step's pieces are loaded from global memory into registers before this step's products
// and stored to the other buffer after them, so one barrier per step suffices.
//
// A work-item's TM rows are TM / 4 groups of 4 adjacent rows, BM / (TM / 4) apart (likewise for
// columns), so that the work-items of a warp read adjacent float4s of local memory (no bank
// conflicts) and write adjacent float4s of C.
//
// Build options (the host chooses them per device, framework/primitives/matmul.cpp):
//   BM, BN, BK, TM, TN   tile sizes; TM, TN and BK multiples of 4
//   MATMUL_CHECK_BOUNDS  1 unless M % BM == N % BN == K % BK == 0
// Range: (ceil(N / BN) * BN / TN, ceil(M / BM) * BM / TM), local (BN / TN, BM / TM).

#define THREADS_X (BN / TN)
#define THREADS_Y (BM / TM)
#define THREADS (THREADS_X * THREADS_Y)
// Padding of the transposed A piece: its rows are written column-wise, and a row length that is
// a multiple of 32 floats would put a warp's 4 depths in one bank.
#define A_STRIDE (BM + 4)
#define A_LOADS (BM * BK / 4 / THREADS)  // float4s of A each work-item copies per step
#define B_LOADS (BK * BN / 4 / THREADS)

#include "kernels/primitives/matmul/staging.cl"

// Stores staged pieces into local memory: A transposed (depth-major), B as it is.
inline void store_step(const Staged* staged, __local float* tile_a, __local float4* tile_b,
                       uint tid) {
#pragma unroll
  for (uint i = 0; i < A_LOADS; ++i) {
    const uint f = tid + i * THREADS;
    __local float* column = tile_a + 4 * (f % (BK / 4)) * A_STRIDE + f / (BK / 4);
    column[0 * A_STRIDE] = staged->a[i].x;
    column[1 * A_STRIDE] = staged->a[i].y;
    column[2 * A_STRIDE] = staged->a[i].z;
    column[3 * A_STRIDE] = staged->a[i].w;
  }
#pragma unroll
  for (uint i = 0; i < B_LOADS; ++i) tile_b[tid + i * THREADS] = staged->b[i];
}

__kernel __attribute__((reqd_work_group_size(THREADS_X, THREADS_Y, 1))) void matmul_register_tiles(
    const __global float* a, const __global float* b, __global float* c, uint m, uint k, uint n) {
  // float4 arrays keep the pieces 16-byte aligned for vector reads.
  __local float4 tile_a_storage[2][BK * A_STRIDE / 4];
  __local float4 tile_b_storage[2][BK * BN / 4];

  const uint tx = get_local_id(0);
  const uint ty = get_local_id(1);
  const uint tid = ty * THREADS_X + tx;
  const uint row0 = get_group_id(1) * BM;
  const uint col0 = get_group_id(0) * BN;

  float4 acc[TM][TN / 4];
#pragma unroll
  for (uint i = 0; i < TM; ++i) {
#pragma unroll
    for (uint j = 0; j < TN / 4; ++j) acc[i][j] = (float4)(0.0f);
  }

  const uint steps = (k + BK - 1) / BK;
  Staged staged = load_step(a, b, m, k, n, row0, col0, 0, tid);
  store_step(&staged, (__local float*)tile_a_storage[0], tile_b_storage[0], tid);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint step = 0; step < steps; ++step) {
    const uint current = step & 1;
    const bool more = step + 1 < steps;
    if (more) staged = load_step(a, b, m, k, n, row0, col0, (step + 1) * BK, tid);

    const __local float4* tile_a = tile_a_storage[current];
    const __local float4* tile_b = tile_b_storage[current];
#pragma unroll
    for (uint d = 0; d < BK; ++d) {
      float a_values[TM];
      float4 b_values[TN / 4];
#pragma unroll
      for (uint i = 0; i < TM / 4; ++i) {
        const float4 v = tile_a[d * (A_STRIDE / 4) + i * THREADS_Y + ty];
        a_values[4 * i + 0] = v.x;
        a_values[4 * i + 1] = v.y;
        a_values[4 * i + 2] = v.z;
        a_values[4 * i + 3] = v.w;
      }
#pragma unroll
      for (uint j = 0; j < TN / 4; ++j) b_values[j] = tile_b[d * (BN / 4) + j * THREADS_X + tx];
#pragma unroll
      for (uint i = 0; i < TM; ++i) {
#pragma unroll
        for (uint j = 0; j < TN / 4; ++j)
          acc[i][j] = fma((float4)(a_values[i]), b_values[j], acc[i][j]);
      }
    }

    if (more) {
      store_step(&staged, (__local float*)tile_a_storage[current ^ 1], tile_b_storage[current ^ 1],
                 tid);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (uint i = 0; i < TM; ++i) {
    const uint row = row0 + (i / 4) * (4 * THREADS_Y) + 4 * ty + i % 4;
#pragma unroll
    for (uint j = 0; j < TN / 4; ++j) {
      matmul_store4(c, m, n, row, col0 + j * (4 * THREADS_X) + 4 * tx, acc[i][j]);
    }
  }
}

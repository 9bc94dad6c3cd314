// Shared by the matrix-multiply kernels: row-major fp32 matrices, C (M x N) = A (M x K) . B (K x
// N).
//
// Built with MATMUL_CHECK_BOUNDS=1 when M, N or K is not a multiple of what the kernel's tiles
// cover: loads outside a matrix then read as 0 and stores outside C are dropped, so any size is
// correct. Without it, rows are read and written as aligned float4 with no checks (the host
// only does that when every tile lies inside the matrices and rows are 16-byte aligned).
#ifndef KERNELS_MATMUL_COMMON_CL
#define KERNELS_MATMUL_COMMON_CL

#ifndef MATMUL_CHECK_BOUNDS
#define MATMUL_CHECK_BOUNDS 0
#endif

// Element (row, col) of a rows x cols matrix, 0 outside it.
inline float matmul_load(const __global float* m, uint rows, uint cols, uint row, uint col) {
#if MATMUL_CHECK_BOUNDS
  return (row < rows && col < cols) ? m[row * cols + col] : 0.0f;
#else
  (void)rows;
  return m[row * cols + col];
#endif
}

// Elements (row, col .. col + 3), 0 where outside the matrix.
inline float4 matmul_load4(const __global float* m, uint rows, uint cols, uint row, uint col) {
#if MATMUL_CHECK_BOUNDS
  return (float4)(matmul_load(m, rows, cols, row, col), matmul_load(m, rows, cols, row, col + 1),
                  matmul_load(m, rows, cols, row, col + 2),
                  matmul_load(m, rows, cols, row, col + 3));
#else
  (void)rows;
  return *(const __global float4*)(m + row * cols + col);
#endif
}

// Stores elements (row, col .. col + 3), dropping those outside the matrix.
inline void matmul_store4(__global float* m, uint rows, uint cols, uint row, uint col,
                          float4 value) {
#if MATMUL_CHECK_BOUNDS
  if (row >= rows) return;
  __global float* out = m + row * cols;
  if (col < cols) out[col] = value.x;
  if (col + 1 < cols) out[col + 1] = value.y;
  if (col + 2 < cols) out[col + 2] = value.z;
  if (col + 3 < cols) out[col + 3] = value.w;
#else
  (void)rows;
  *(__global float4*)(m + row * cols + col) = value;
#endif
}

// acc + a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3: one row of A's 4-wide piece times a 4 x 4
// block of B held as its rows b0..b3.
inline float4 matmul_row_times_block(float4 acc, float4 a, float4 b0, float4 b1, float4 b2,
                                     float4 b3) {
  acc = fma((float4)(a.x), b0, acc);
  acc = fma((float4)(a.y), b1, acc);
  acc = fma((float4)(a.z), b2, acc);
  return fma((float4)(a.w), b3, acc);
}

#endif  // KERNELS_MATMUL_COMMON_CL

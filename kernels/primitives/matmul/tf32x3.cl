// fp32 matrix multiply on tensor cores: every element x of A and B is split into two TF32 numbers
// (11 significant bits each), big = round(x) and small = round(x - big), and C accumulates
// a_small * b_big + a_big * b_small + a_big * b_big in fp32. The dropped a_small * b_small and the
// rounding of the small parts leave an error of at most about 3 * 2^-22 |a| |b| per product, within
// fp32's (K + 2) * 2^-24 * sum |a| |b| from moderate depths on (the host runs the register-tiled
// kernel below kTf32x3MinDepth). This is the "3xTF32" of NVIDIA's CUTLASS.
//
// ACCUMULATION: the tensor cores' additions do not round to nearest (Fasi et al., 2021, found
// them truncating on earlier chips), so a long chain of mma.sync into one accumulator drifts
// (measured on an H200 at K = 1024: 8x the worst error of the fp32 kernel). With PARTIAL_STEPS
// = S > 0 the products of S steps of BK go into partial sums on the tensor cores, which are then
// added to the accumulators with fp32's round-to-nearest; S = 0 chains everything on the tensor
// cores. A tile whose sums come out not all finite (infinities, NaN, overflow) is computed again
// in fp32 at the end, so that such inputs give fp32's results.
//
// A work-group of WARPS_M x WARPS_N warps computes a BM x BN tile of C; each warp a 16 TILES_M x
// 8 TILES_N piece of it as TILES_M x TILES_N fragments of mma.m16n8k8 (PTX's layout: lane l is
// in group g = l / 4 at place t = l % 4; A fragment (g | g + 8, t | t + 4), B fragment
// (t | t + 4, g), C fragment (g | g + 8, 2 t | 2 t + 1)). Per step of BK along K the work-group
// stages A's BM x BK piece (row-major) and B's BK x BN piece in local memory, double-buffered
// with a register prefetch as in register_tiles.cl. The pieces' rows are padded so that the 32
// lanes of a fragment read hit 32 different banks (A: rows of BK + 4; B: rows of BN + 8).
//
// With CLF_PTX (NVIDIA GPUs) the products are mma.sync instructions; without it (any other
// device: tests, not speed) each warp's products go through local memory, the same fragments
// and layouts, so PoCL tests everything but the instruction itself.
//
// Build options: WARPS_M, WARPS_N, TILES_M, TILES_N, BK (a multiple of 8), PARTIAL_STEPS;
// MATMUL_CHECK_BOUNDS as in common.cl. Range: (ceil(N / BN) * THREADS, ceil(M / BM)), local
// (THREADS, 1).

#define WARP 32
#define BM (WARPS_M * 16 * TILES_M)
#define BN (WARPS_N * 8 * TILES_N)
#define THREADS (WARPS_M * WARPS_N * WARP)
#define A_STRIDE (BK + 4)
#define B_STRIDE (BN + 8)
#define A_LOADS (BM * BK / 4 / THREADS)  // float4s of A each work-item copies per step
#define B_LOADS (BK * BN / 4 / THREADS)

#include "kernels/primitives/matmul/staging.cl"

// Stores staged pieces into local memory as they are, in the padded rows.
inline void store_step(const Staged* staged, __local float* tile_a, __local float* tile_b,
                       uint tid) {
#pragma unroll
  for (uint i = 0; i < A_LOADS; ++i) {
    const uint f = tid + i * THREADS;
    vstore4(staged->a[i], 0, tile_a + (f / (BK / 4)) * A_STRIDE + 4 * (f % (BK / 4)));
  }
#pragma unroll
  for (uint i = 0; i < B_LOADS; ++i) {
    const uint f = tid + i * THREADS;
    vstore4(staged->b[i], 0, tile_b + (f / (BN / 4)) * B_STRIDE + 4 * (f % (BN / 4)));
  }
}

// One warp's fragments at one depth of 8, each element as its two TF32 parts: A's for one
// fragment row, B's for one fragment column.
typedef struct {
  uint4 big, small;
} FragmentA;
typedef struct {
  uint2 big, small;
} FragmentB;

// The TF32 numbers (1 + 8 + 10 bits) nearest to x, ties away from zero (PTX's cvt.rna.tf32.f32),
// as fp32 bits.
#define TF32_ROUND(x) ((as_uint4(x) + 0x1000u) & 0xFFFFE000u)

// x = big + small to within 2^-22 |x| for each element.
inline FragmentA split_a(float4 x) {
  FragmentA parts;
  parts.big = TF32_ROUND(x);
  parts.small = TF32_ROUND(x - as_float4(parts.big));
  return parts;
}

inline FragmentB split_b(float2 x) {
  const FragmentA parts = split_a((float4)(x, 0.0f, 0.0f));
  FragmentB result = {parts.big.xy, parts.small.xy};
  return result;
}

#if CLF_PTX

// c + a * b for one m16n8k8 fragment.
inline float4 mma_tf32(float4 c, uint4 a, uint2 b) {
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b.x), "r"(b.y), "f"(c.x), "f"(c.y), "f"(c.z),
        "f"(c.w));
  return (float4)(d0, d1, d2, d3);
}

// sums[j] += a * b[j] in three TF32 products, the small ones first.
inline void warp_row_products(float4* sums, const FragmentA* a, const FragmentB* b,
                              __local float* scratch, uint lane) {
  (void)scratch;
  (void)lane;
#pragma unroll
  for (uint j = 0; j < TILES_N; ++j) {
    sums[j] = mma_tf32(sums[j], a->small, b[j].big);
    sums[j] = mma_tf32(sums[j], a->big, b[j].small);
    sums[j] = mma_tf32(sums[j], a->big, b[j].big);
  }
}

#else

#define SCRATCH_A (2 * 16 * 8)
#define SCRATCH_FLOATS (SCRATCH_A + 2 * 8 * 8 * TILES_N)

// What mma_tf32 computes, the warp's fragments exchanged through its `scratch`: A as 16 x 8 big
// then small, B as 8 x (8 TILES_N) big then small. Every work-item of the work-group calls it.
inline void warp_row_products(float4* sums, const FragmentA* a, const FragmentB* b,
                              __local float* scratch, uint lane) {
  const uint g = lane / 4;
  const uint t = lane % 4;
  __local float* a_parts = scratch;
  __local float* b_parts = scratch + SCRATCH_A;
  const uint4 a_words[2] = {a->big, a->small};
  for (uint part = 0; part < 2; ++part) {
    __local float* rows = a_parts + part * 16 * 8;
    rows[g * 8 + t] = as_float(a_words[part].x);
    rows[(g + 8) * 8 + t] = as_float(a_words[part].y);
    rows[g * 8 + t + 4] = as_float(a_words[part].z);
    rows[(g + 8) * 8 + t + 4] = as_float(a_words[part].w);
  }
  for (uint j = 0; j < TILES_N; ++j) {
    const uint2 b_words[2] = {b[j].big, b[j].small};
    for (uint part = 0; part < 2; ++part) {
      __local float* columns = b_parts + part * 8 * 8 * TILES_N;
      columns[t * 8 * TILES_N + 8 * j + g] = as_float(b_words[part].x);
      columns[(t + 4) * 8 * TILES_N + 8 * j + g] = as_float(b_words[part].y);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // (A part, B part) of the three products, in mma order.
  const uint a_part[3] = {1, 0, 0};
  const uint b_part[3] = {0, 1, 0};
  for (uint j = 0; j < TILES_N; ++j) {
    float c[4] = {sums[j].x, sums[j].y, sums[j].z, sums[j].w};
    for (uint product = 0; product < 3; ++product) {
      const __local float* rows = a_parts + a_part[product] * 16 * 8;
      const __local float* columns = b_parts + b_part[product] * 8 * 8 * TILES_N;
      for (uint q = 0; q < 4; ++q) {
        const uint row = g + (q / 2) * 8;
        const uint column = 8 * j + 2 * t + q % 2;
        float sum = 0.0f;
        for (uint d = 0; d < 8; ++d) sum += rows[row * 8 + d] * columns[d * 8 * TILES_N + column];
        c[q] += sum;
      }
    }
    sums[j] = (float4)(c[0], c[1], c[2], c[3]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

#endif

// Stores C's elements (row, col) and (row, col + 1), dropping those outside the matrix.
inline void store_pair(__global float* c, uint m, uint n, uint row, uint col, float2 value) {
#if MATMUL_CHECK_BOUNDS
  if (row >= m) return;
  if (col < n) c[row * n + col] = value.x;
  if (col + 1 < n) c[row * n + col + 1] = value.y;
#else
  (void)m;
  vstore2(value, 0, c + row * n + col);
#endif
}

// Element (row, col) of A . B in fp32, one fused multiply-add after the other.
inline float fp32_dot(const __global float* a, const __global float* b, uint m, uint k, uint n,
                      uint row, uint col) {
  float sum = 0.0f;
  for (uint d = 0; d < k; ++d) {
    sum = fma(matmul_load(a, m, k, row, d), matmul_load(b, k, n, d, col), sum);
  }
  return sum;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void matmul_tf32x3(
    const __global float* a, const __global float* b, __global float* c, uint m, uint k, uint n) {
  __local float4 tile_a_storage[2][BM * A_STRIDE / 4];
  __local float4 tile_b_storage[2][BK * B_STRIDE / 4];
  __local uint not_finite;
#if CLF_PTX
  __local float* scratch = 0;
#else
  __local float scratch_storage[THREADS / WARP][SCRATCH_FLOATS];
#endif

  const uint tid = get_local_id(0);
  const uint lane = tid % WARP;
  const uint warp = tid / WARP;
  const uint g = lane / 4;
  const uint t = lane % 4;
  const uint warp_row0 = (warp / WARPS_N) * 16 * TILES_M;
  const uint warp_col0 = (warp % WARPS_N) * 8 * TILES_N;
  const uint row0 = get_group_id(1) * BM;
  const uint col0 = get_group_id(0) * BN;
#if !CLF_PTX
  __local float* scratch = scratch_storage[warp];
#endif

  float4 acc[TILES_M][TILES_N];
#if PARTIAL_STEPS > 0
  float4 partial[TILES_M][TILES_N];
#define SUMS partial
#else
#define SUMS acc
#endif
#pragma unroll
  for (uint i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (uint j = 0; j < TILES_N; ++j) {
      acc[i][j] = (float4)(0.0f);
#if PARTIAL_STEPS > 0
      partial[i][j] = (float4)(0.0f);
#endif
    }
  }

  if (tid == 0) not_finite = 0;
  const uint steps = (k + BK - 1) / BK;
  Staged staged = load_step(a, b, m, k, n, row0, col0, 0, tid);
  store_step(&staged, (__local float*)tile_a_storage[0], (__local float*)tile_b_storage[0], tid);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint step = 0; step < steps; ++step) {
    const uint current = step & 1;
    const bool more = step + 1 < steps;
    if (more) staged = load_step(a, b, m, k, n, row0, col0, (step + 1) * BK, tid);

    const __local float* tile_a = (const __local float*)tile_a_storage[current];
    const __local float* tile_b = (const __local float*)tile_b_storage[current];
#pragma unroll
    for (uint d = 0; d < BK; d += 8) {
      FragmentB fragments_b[TILES_N];
#pragma unroll
      for (uint j = 0; j < TILES_N; ++j) {
        const __local float* column = tile_b + (d + t) * B_STRIDE + warp_col0 + 8 * j + g;
        fragments_b[j] = split_b((float2)(column[0], column[4 * B_STRIDE]));
      }
#pragma unroll
      for (uint i = 0; i < TILES_M; ++i) {
        const __local float* rows = tile_a + (warp_row0 + 16 * i + g) * A_STRIDE + d + t;
        const FragmentA fragment_a =
            split_a((float4)(rows[0], rows[8 * A_STRIDE], rows[4], rows[8 * A_STRIDE + 4]));
        warp_row_products(SUMS[i], &fragment_a, fragments_b, scratch, lane);
      }
    }
#if PARTIAL_STEPS > 0
    if ((step + 1) % PARTIAL_STEPS == 0 || !more) {
#pragma unroll
      for (uint i = 0; i < TILES_M; ++i) {
#pragma unroll
        for (uint j = 0; j < TILES_N; ++j) {
          acc[i][j] += partial[i][j];
          partial[i][j] = (float4)(0.0f);
        }
      }
    }
#endif

    if (more) {
      store_step(&staged, (__local float*)tile_a_storage[current ^ 1],
                 (__local float*)tile_b_storage[current ^ 1], tid);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // An inf or NaN among the inputs makes NaN of the TF32 parts (inf - inf) where fp32 may give
  // inf, and an element within 2^-12 of FLT_MAX rounds to inf: a tile whose sums are not all
  // finite is computed again in fp32, so such inputs (and overflows) give fp32's results.
  bool finite = true;
#pragma unroll
  for (uint i = 0; i < TILES_M; ++i) {
#pragma unroll
    for (uint j = 0; j < TILES_N; ++j) finite = finite && all(isfinite(acc[i][j]));
  }
  if (!finite) atomic_or(&not_finite, 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (not_finite != 0) {
    // Element e of this work-item: fragment (i, j), place q (C's layout above). Not unrolled,
    // and acc left alone, so that this rare path costs the common one no registers.
#pragma unroll 1
    for (uint e = 0; e < TILES_M * TILES_N * 4; ++e) {
      const uint i = e / (4 * TILES_N);
      const uint j = (e / 4) % TILES_N;
      const uint q = e % 4;
      const uint row = row0 + warp_row0 + 16 * i + g + 8 * (q / 2);
      const uint col = col0 + warp_col0 + 8 * j + 2 * t + q % 2;
      if (row < m && col < n) c[row * n + col] = fp32_dot(a, b, m, k, n, row, col);
    }
    return;
  }

#pragma unroll
  for (uint i = 0; i < TILES_M; ++i) {
    const uint row = row0 + warp_row0 + 16 * i + g;
#pragma unroll
    for (uint j = 0; j < TILES_N; ++j) {
      const uint col = col0 + warp_col0 + 8 * j + 2 * t;
      store_pair(c, m, n, row, col, acc[i][j].xy);
      store_pair(c, m, n, row + 8, col, acc[i][j].zw);
    }
  }
}

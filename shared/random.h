// Random number generators compiled on both sides, so the host computes exactly what the device
// does (tests compare bit for bit). App kernels #include "shared/random.h" (or
// "kernels/primitives/random/random.cl") and keep one state per work-item:
//
//   PhiloxState rng = philox_init(seed, get_global_id(0));   // stream = work-item
//   cl_uint bits = philox_next_uint(&rng);  cl_float u = philox_next_float(&rng);  // [0, 1)
//
//   Mwc64xState rng = mwc64x_init(seed, get_global_id(0));   // Kloosterman's MWC64X
//   cl_uint bits = mwc64x_next_uint(&rng);
//
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) is
// counter-based: number i of stream s under seed k is word i % 4 of
// philox4x32_10(counter = (i / 4 low, i / 4 high, s low, s high), key = (k low, k high)), so
// any number is computable directly and streams never overlap (2^66 numbers each).
// MWC64X (D. Thomas, 2011) is a multiply-with-carry generator, x' = A x + c mod 2^32, with
// period about 2^63. The seed is hashed (splitmix64) into a starting point of the cycle; stream
// s starts 2^40 steps after stream s - 1, reached by skip-ahead (the generator is an LCG modulo
// M = A 2^32 - 1 in disguise, so skipping d steps is one modular power).
// Streams 0 .. 2^23 - 1 are disjoint runs of 2^40 numbers; larger stream numbers wrap (s 2^40 is
// taken modulo 2^64) and may overlap others.
// Floats are the top 24 bits over 2^24: uniform on [0, 1) with 2^-24 spacing, exact both sides.
#ifndef SHARED_RANDOM_H
#define SHARED_RANDOM_H

#include "shared/cl_types.h"

// ---- Philox4x32-10 ----

#define CLF_PHILOX_M0 0xD2511F53u
#define CLF_PHILOX_M1 0xCD9E8D57u
#define CLF_PHILOX_W0 0x9E3779B9u
#define CLF_PHILOX_W1 0xBB67AE85u

// A Philox stream: its key (the seed), the counter of the next block, the block being used up
// and how many of its words are used.
typedef struct PhiloxState {
  cl_uint2 key;
  cl_uint4 counter;
  cl_uint4 block;
  cl_uint used;
} PhiloxState;
CLF_SHARED_STRUCT(PhiloxState)
#define PHILOX_STATE_FIELDS(FIELD) FIELD(key) FIELD(counter) FIELD(block) FIELD(used)

CLF_FUNCTION cl_uint clf_mul_hi32(cl_uint a, cl_uint b) {
#if defined(__OPENCL_VERSION__)
  return mul_hi(a, b);
#else
  return (cl_uint)(((cl_ulong)a * b) >> 32);
#endif
}

// The Philox4x32 bijection with 10 rounds (Random123's philox4x32_R(10, ...)).
CLF_FUNCTION cl_uint4 philox4x32_10(cl_uint4 counter, cl_uint2 key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.x += CLF_PHILOX_W0;
      key.y += CLF_PHILOX_W1;
    }
    const cl_uint hi0 = clf_mul_hi32(CLF_PHILOX_M0, counter.x);
    const cl_uint lo0 = CLF_PHILOX_M0 * counter.x;
    const cl_uint hi1 = clf_mul_hi32(CLF_PHILOX_M1, counter.z);
    const cl_uint lo1 = CLF_PHILOX_M1 * counter.z;
    cl_uint4 next;
    next.x = hi1 ^ counter.y ^ key.x;
    next.y = lo1;
    next.z = hi0 ^ counter.w ^ key.y;
    next.w = lo0;
    counter = next;
  }
  return counter;
}

// Block `block` (4 numbers) of stream `stream` under `seed`.
CLF_FUNCTION cl_uint4 philox_block(cl_ulong seed, cl_ulong stream, cl_ulong block) {
  cl_uint4 counter;
  counter.x = (cl_uint)block;
  counter.y = (cl_uint)(block >> 32);
  counter.z = (cl_uint)stream;
  counter.w = (cl_uint)(stream >> 32);
  cl_uint2 key;
  key.x = (cl_uint)seed;
  key.y = (cl_uint)(seed >> 32);
  return philox4x32_10(counter, key);
}

CLF_FUNCTION PhiloxState philox_init(cl_ulong seed, cl_ulong stream) {
  PhiloxState s;
  s.key.x = (cl_uint)seed;
  s.key.y = (cl_uint)(seed >> 32);
  s.counter.x = 0;
  s.counter.y = 0;
  s.counter.z = (cl_uint)stream;
  s.counter.w = (cl_uint)(stream >> 32);
  s.block.x = s.block.y = s.block.z = s.block.w = 0;
  s.used = 4;  // no block drawn yet
  return s;
}

CLF_FUNCTION cl_uint philox_next_uint(PhiloxState* s) {
  if (s->used == 4) {
    s->block = philox4x32_10(s->counter, s->key);
    s->used = 0;
    s->counter.x += 1;
    if (s->counter.x == 0) s->counter.y += 1;
  }
  const cl_uint word = s->used++;
  return word == 0 ? s->block.x : word == 1 ? s->block.y : word == 2 ? s->block.z : s->block.w;
}

// Uniform on [0, 1): the top 24 bits, scaled exactly.
CLF_FUNCTION cl_float clf_uint_to_unit_float(cl_uint bits) {
  return (cl_float)(bits >> 8) * (1.0f / 16777216.0f);
}

CLF_FUNCTION cl_float philox_next_float(PhiloxState* s) {
  return clf_uint_to_unit_float(philox_next_uint(s));
}

// ---- MWC64X ----

#define CLF_MWC64X_A 4294883355u
#define CLF_MWC64X_M 18446383549859758079UL  // A * 2^32 - 1
#define CLF_MWC64X_STREAM_GAP_LOG2 40

typedef struct Mwc64xState {
  cl_uint x;
  cl_uint c;
} Mwc64xState;
CLF_SHARED_STRUCT(Mwc64xState)
#define MWC64X_STATE_FIELDS(FIELD) FIELD(x) FIELD(c)

// (a + b) mod M for a, b < M, without overflow.
CLF_FUNCTION cl_ulong mwc64x_add_mod(cl_ulong a, cl_ulong b) {
  cl_ulong v = a + b;
  if (v >= CLF_MWC64X_M || v < a) v -= CLF_MWC64X_M;
  return v;
}

// (a * b) mod M by doubling and adding: portable, no 128-bit arithmetic.
CLF_FUNCTION cl_ulong mwc64x_mul_mod(cl_ulong a, cl_ulong b) {
  cl_ulong r = 0;
  while (a != 0) {
    if (a & 1) r = mwc64x_add_mod(r, b);
    b = mwc64x_add_mod(b, b);
    a >>= 1;
  }
  return r;
}

// base^exponent mod M.
CLF_FUNCTION cl_ulong mwc64x_pow_mod(cl_ulong base, cl_ulong exponent) {
  cl_ulong square = base;
  cl_ulong result = 1;
  while (exponent != 0) {
    if (exponent & 1) result = mwc64x_mul_mod(result, square);
    square = mwc64x_mul_mod(square, square);
    exponent >>= 1;
  }
  return result;
}

// The state as a residue modulo M, where one step multiplies by A, and back.
CLF_FUNCTION cl_ulong mwc64x_to_residue(Mwc64xState s) {
  return (cl_ulong)s.x * CLF_MWC64X_A + s.c;
}
CLF_FUNCTION Mwc64xState mwc64x_from_residue(cl_ulong r) {
  Mwc64xState s;
  s.x = (cl_uint)(r / CLF_MWC64X_A);
  s.c = (cl_uint)(r % CLF_MWC64X_A);
  return s;
}

// The state `distance` steps after s; `multiplier` = A^distance mod M when the caller has it.
CLF_FUNCTION Mwc64xState mwc64x_skip_by_multiplier(Mwc64xState s, cl_ulong multiplier) {
  return mwc64x_from_residue(mwc64x_mul_mod(mwc64x_to_residue(s), multiplier));
}
CLF_FUNCTION Mwc64xState mwc64x_skip(Mwc64xState s, cl_ulong distance) {
  return mwc64x_skip_by_multiplier(s, mwc64x_pow_mod(CLF_MWC64X_A, distance));
}

// splitmix64's finaliser: spreads seeds that differ in one bit over the whole cycle.
CLF_FUNCTION cl_ulong clf_splitmix64(cl_ulong z) {
  z += 0x9E3779B97F4A7C15UL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
  return z ^ (z >> 31);
}

// Stream `stream` of `seed`: the hashed seed's point of the cycle, 2^40 steps per stream on.
CLF_FUNCTION Mwc64xState mwc64x_init(cl_ulong seed, cl_ulong stream) {
  const cl_ulong start = 1 + clf_splitmix64(seed) % (CLF_MWC64X_M - 1);  // never 0
  const cl_ulong jump = mwc64x_pow_mod(CLF_MWC64X_A, stream << CLF_MWC64X_STREAM_GAP_LOG2);
  return mwc64x_from_residue(mwc64x_mul_mod(start, jump));
}

CLF_FUNCTION void mwc64x_step(Mwc64xState* s) {
  const cl_uint x = CLF_MWC64X_A * s->x + s->c;
  const cl_uint carry = x < s->c ? 1u : 0u;
  s->c = clf_mul_hi32(CLF_MWC64X_A, s->x) + carry;
  s->x = x;
}

CLF_FUNCTION cl_uint mwc64x_next_uint(Mwc64xState* s) {
  const cl_uint result = s->x ^ s->c;
  mwc64x_step(s);
  return result;
}

CLF_FUNCTION cl_float mwc64x_next_float(Mwc64xState* s) {
  return clf_uint_to_unit_float(mwc64x_next_uint(s));
}

#endif  // SHARED_RANDOM_H

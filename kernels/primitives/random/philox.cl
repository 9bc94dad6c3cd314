// Fills a buffer with stream `stream` of Philox4x32-10 under `seed`: element i is word i % 4
// of block i / 4, so every work-item computes its blocks independently (grid-stride over
// blocks) and stores them as one 16-byte vector.
#include "kernels/primitives/random/random.cl"

#define PHILOX_FILL(NAME, TYPE, TYPE4, CONVERT, CONVERT4)                        \
  __kernel void NAME(__global TYPE* out, uint n, ulong seed, ulong stream) {     \
    const uint blocks = n / 4 + (n % 4 != 0); /* n + 3 would wrap near 2^32 */   \
    for (uint b = get_global_id(0); b < blocks; b += get_global_size(0)) {       \
      const uint4 bits = philox_block(seed, stream, b);                          \
      if (4 * b + 3 < n) {                                                       \
        ((__global TYPE4*)out)[b] = CONVERT4(bits);                              \
      } else {                                                                   \
        const uint words[4] = {bits.x, bits.y, bits.z, bits.w};                  \
        for (uint k = 0; 4 * b + k < n; ++k) out[4 * b + k] = CONVERT(words[k]); \
      }                                                                          \
    }                                                                            \
  }

#define AS_IS(x) (x)
#define UNIT_FLOAT4(bits) (convert_float4((bits) >> 8) * (1.0f / 16777216.0f))

PHILOX_FILL(philox_fill_uint, uint, uint4, AS_IS, AS_IS)
PHILOX_FILL(philox_fill_float, float, float4, clf_uint_to_unit_float, UNIT_FLOAT4)

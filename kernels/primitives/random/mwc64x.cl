// Fills a buffer with a stream of MWC64X (Kloosterman's generator) from its first
// state `start` (mwc64x_init(seed, stream), computed on the host). The sequence is inherently
// serial, so work-item g takes the run of `chunk` elements at g * chunk and jumps there with
// skip-ahead: its state is start times chunk_multiplier^g, where chunk_multiplier = A^chunk
// mod M (also from the host).
#include "kernels/primitives/random/random.cl"

#define MWC64X_FILL(NAME, TYPE, CONVERT)                                                       \
  __kernel void NAME(__global TYPE* out, uint n, Mwc64xState start, uint chunk,                \
                     ulong chunk_multiplier) {                                                 \
    const uint g = get_global_id(0);                                                           \
    const ulong first = (ulong)g * chunk;                                                      \
    if (first >= n) return;                                                                    \
    Mwc64xState state = mwc64x_skip_by_multiplier(start, mwc64x_pow_mod(chunk_multiplier, g)); \
    const uint end = (uint)min((ulong)n, first + chunk);                                       \
    for (uint i = (uint)first; i < end; ++i) out[i] = CONVERT(mwc64x_next_uint(&state));       \
  }

#define AS_IS(x) (x)
MWC64X_FILL(mwc64x_fill_uint, uint, AS_IS)
MWC64X_FILL(mwc64x_fill_float, float, clf_uint_to_unit_float)

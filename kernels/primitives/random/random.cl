// The device side of the random number generators (Philox4x32-10 and MWC64X), for app kernels:
// #include "kernels/primitives/random/random.cl". The functions live in shared/random.h so the host
// compiles the very same code for its references; see there for streams and seeding.
#ifndef KERNELS_RANDOM_RANDOM_CL
#define KERNELS_RANDOM_RANDOM_CL
#include "shared/random.h"
#endif  // KERNELS_RANDOM_RANDOM_CL

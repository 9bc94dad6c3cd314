// Kernels and device functions for cl-info's self-test and the framework's tests.
#include "shared/cl-info/selftest.h"

__kernel void selftest_particles(__global SelfTestParticle* particles, float dt, uint n) {
  const uint i = get_global_id(0);
  if (i < n) particles[i] = selftest_step(particles[i], dt);
}

// y = a*x + y
__kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

// Sum of n values by one work-group (local size a power of two), in local memory: checks
// __local arguments and barriers.
__kernel void group_sum(__global const float* x, uint n, __local float* scratch,
                        __global float* sum) {
  const uint lid = get_local_id(0);
  const uint size = get_local_size(0);
  float acc = 0.0f;
  for (uint i = lid; i < n; i += size) acc += x[i];
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = size / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) *sum = scratch[0];
}

// What cl-info's self-test moves between host and device: a particle under gravity, stepped by
// kernels/cl-info/selftest.cl and, with the same function, on the host to check the result.
#ifndef SHARED_SELFTEST_H
#define SHARED_SELFTEST_H

#include "shared/cl_types.h"

typedef struct SelfTestParticle {
  cl_float4 position;
  cl_float4 velocity;
  cl_float mass;
  cl_int id;
} SelfTestParticle;
CLF_SHARED_STRUCT(SelfTestParticle)
#define SELFTEST_PARTICLE_FIELDS(FIELD) FIELD(position) FIELD(velocity) FIELD(mass) FIELD(id)

// One explicit Euler step under constant gravity (-9.81 along y).
CLF_FUNCTION SelfTestParticle selftest_step(SelfTestParticle p, cl_float dt) {
  p.velocity.y -= 9.81f * dt;
  p.position.x += p.velocity.x * dt;
  p.position.y += p.velocity.y * dt;
  p.position.z += p.velocity.z * dt;
  return p;
}

#endif  // SHARED_SELFTEST_H

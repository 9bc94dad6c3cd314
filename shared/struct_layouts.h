// Every struct declared in shared/, with its fields, so tests/test_struct_layout.cpp can check
// that host and device agree on sizes and offsets. A test fails if a shared struct is missing
// here: add each new one as STRUCT(Name, NAME_FIELDS) with its NAME_FIELDS(FIELD) list.
#ifndef SHARED_STRUCT_LAYOUTS_H
#define SHARED_STRUCT_LAYOUTS_H

#include "shared/boids.h"
#include "shared/kalah.h"
#include "shared/kalah_endgame.h"
#include "shared/random.h"
#include "shared/raytracer.h"
#include "shared/selftest.h"

#define CLF_SHARED_STRUCTS(STRUCT)                   \
  STRUCT(SelfTestParticle, SELFTEST_PARTICLE_FIELDS) \
  STRUCT(PhiloxState, PHILOX_STATE_FIELDS)           \
  STRUCT(Mwc64xState, MWC64X_STATE_FIELDS)           \
  STRUCT(KalahBoard, KALAH_BOARD_FIELDS)             \
  STRUCT(KalahEndgamePly, KALAH_ENDGAME_PLY_FIELDS)  \
  STRUCT(RtMaterial, RT_MATERIAL_FIELDS)             \
  STRUCT(RtSphere, RT_SPHERE_FIELDS)                 \
  STRUCT(RtPlane, RT_PLANE_FIELDS)                   \
  STRUCT(RtLight, RT_LIGHT_FIELDS)                   \
  STRUCT(RtCamera, RT_CAMERA_FIELDS)                 \
  STRUCT(RtFrameParams, RT_FRAME_PARAMS_FIELDS)      \
  STRUCT(RtBvhNode, RT_BVH_NODE_FIELDS)              \
  STRUCT(RtHit, RT_HIT_FIELDS)                       \
  STRUCT(BoidsRules, BOIDS_RULES_FIELDS)             \
  STRUCT(BoidsGrid, BOIDS_GRID_FIELDS)               \
  STRUCT(BoidsSums, BOIDS_SUMS_FIELDS)               \
  STRUCT(BoidsView, BOIDS_VIEW_FIELDS)

#endif  // SHARED_STRUCT_LAYOUTS_H

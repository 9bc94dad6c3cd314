// The raytracer's shared structs for the layout check (shared/struct_layouts.h says how).
#ifndef SHARED_RAYTRACER_STRUCT_LAYOUTS_H
#define SHARED_RAYTRACER_STRUCT_LAYOUTS_H

#include "shared/raytracer/path.h"

#define RAYTRACER_STRUCTS(STRUCT)                       \
  STRUCT(RtMaterial, RT_MATERIAL_FIELDS)                \
  STRUCT(RtSphere, RT_SPHERE_FIELDS)                    \
  STRUCT(RtPlane, RT_PLANE_FIELDS)                      \
  STRUCT(RtLight, RT_LIGHT_FIELDS)                      \
  STRUCT(RtCamera, RT_CAMERA_FIELDS)                    \
  STRUCT(RtFrameParams, RT_FRAME_PARAMS_FIELDS)         \
  STRUCT(RtBvhNode, RT_BVH_NODE_FIELDS)                 \
  STRUCT(RtHit, RT_HIT_FIELDS)                          \
  STRUCT(RtTriangle, RT_TRIANGLE_FIELDS)                \
  STRUCT(RtTriangleShading, RT_TRIANGLE_SHADING_FIELDS) \
  STRUCT(RtMeshNode, RT_MESH_NODE_FIELDS)               \
  STRUCT(RtInstance, RT_INSTANCE_FIELDS)                \
  STRUCT(RtTexture, RT_TEXTURE_FIELDS)                  \
  STRUCT(RtEmitter, RT_EMITTER_FIELDS)                  \
  STRUCT(RtLightSample, RT_LIGHT_SAMPLE_FIELDS)         \
  STRUCT(RtSurfacePoint, RT_SURFACE_POINT_FIELDS)       \
  STRUCT(RtBsdfSample, RT_BSDF_SAMPLE_FIELDS)           \
  STRUCT(RtRayCounts, RT_RAY_COUNTS_FIELDS)

#endif  // SHARED_RAYTRACER_STRUCT_LAYOUTS_H

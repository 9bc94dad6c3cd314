// The raytracer's scene types and constants. The renderer in shared/raytracer/ is written once
// and compiled both as C++ (the CPU reference renderer, tests) and as OpenCL C
// (kernels/raytracer/*.cl), so host and device evaluate the same formulas in the same order.
//
// Conventions: vectors are cl_float4 with w unused (0); directions are unit length; a ray is
// o + t d for t in (0, t_max), and rays leaving a surface start off it (rt_surface_offset). Host
// vectors have no operators, so the math goes through the rt_ helpers of
// shared/raytracer/vector.h. Pointers to scene arrays are RT_GLOBAL (__global on the device).
//
// The BVH is a Karras (2012) radix tree over spheres sorted by the Morton codes of their
// centres: n - 1 internal nodes (0 .. n - 2, node 0 the root) followed by n leaves
// (n - 1 .. 2n - 2; leaf n - 1 + i holds sorted sphere i). With one sphere, node 0 is its leaf.
#ifndef SHARED_RAYTRACER_TYPES_H
#define SHARED_RAYTRACER_TYPES_H

#include "shared/cl_types.h"

#if defined(__OPENCL_VERSION__)
#ifdef RT_NO_CONTRACT
// Tests build the kernels without multiply-add contraction, as the host compiles the reference.
#pragma OPENCL FP_CONTRACT OFF
#endif
#define RT_GLOBAL __global
#define rt_sqrtf sqrt
#define rt_powf pow
#define rt_fabsf fabs
#define rt_floorf floor
#define rt_fminf fmin
#define rt_fmaxf fmax
#define rt_sinf sin
#define rt_cosf cos
#define rt_copysignf copysign
#define rt_atan2f atan2
#define rt_acosf acos
#else
#include <math.h>
#define RT_GLOBAL
#define rt_sqrtf sqrtf
#define rt_powf powf
#define rt_fabsf fabsf
#define rt_floorf floorf
#define rt_fminf fminf
#define rt_fmaxf fmaxf
#define rt_sinf sinf
#define rt_cosf cosf
#define rt_copysignf copysignf
#define rt_atan2f atan2f
#define rt_acosf acosf
#endif

// A secondary ray's start off its surface as a share of the hit's coordinates (2^-15: about 256
// units in the last place; rt_surface_offset).
#define RT_OFFSET_SHARE 3.0517578125e-5f
#define RT_PI 3.14159265358979f
#define RT_INFINITY 1e30f
// The BVH traversal stack; the tree's depth is at most 30 Morton bits + 32 index bits.
#define RT_STACK_SIZE 64
// The two-level traversal's stack: one entry per level of the instance BVH, one marker, one per
// level of a mesh BVH (the host build refuses trees that would not fit).
#define RT_MESH_STACK_SIZE 96
#define RT_MAX_DEPTH 16
#define RT_MAX_AA 8

#define RT_MODE_WHITTED 0
#define RT_MODE_PATH 1

#define RT_HIT_NONE 0
#define RT_HIT_SPHERE 1
#define RT_HIT_PLANE 2
#define RT_HIT_TRIANGLE 3

// Every material carries both descriptions: the Phong fields the Whitted mode shades with and
// the metallic-roughness fields (glTF's model) the path tracer samples; each is derived from the
// other where a scene gives only one (apps/raytracer/scene.cpp). Emission counts in both modes.
typedef struct RtMaterial {
  cl_float4 color;        // base colour, linear rgb in [0, 1]
  cl_float4 emission;     // emitted radiance, linear rgb (0: not a light)
  cl_float ambient;       // Whitted: share of the colour seen without any light
  cl_float diffuse;       // Whitted: Lambert weight
  cl_float specular;      // Whitted: Phong weight
  cl_float shininess;     // Whitted: Phong exponent
  cl_float reflectivity;  // Whitted: 0 matte, 1 perfect mirror
  cl_int texture;         // base-colour texture (multiplies color), -1: none
  cl_float metallic;      // path: 0 dielectric (diffuse under a clear coat), 1 metal
  cl_float roughness;     // path: GGX roughness, alpha = roughness^2
  cl_float transmission;  // both: share of light refracted (1: clear glass)
  cl_float ior;           // both: index of refraction of a transmissive material
  // Maps on meshes (glTF's; -1: none), read at a hit's texture coordinates:
  cl_int metallic_roughness_texture;  // path: blue x metallic, green x roughness
  cl_int emissive_texture;            // both: multiplies emission (sRGB, as the base colour)
  cl_int normal_texture;              // both: tangent-space normals, x and y times normal_scale
  cl_float normal_scale;
  cl_float pad0, pad1;
} RtMaterial;
CLF_SHARED_STRUCT(RtMaterial)
// clang-format off
#define RT_MATERIAL_FIELDS(FIELD) \
  FIELD(color) FIELD(emission) FIELD(ambient) FIELD(diffuse) FIELD(specular) FIELD(shininess) \
  FIELD(reflectivity) FIELD(texture) FIELD(metallic) FIELD(roughness) FIELD(transmission) \
  FIELD(ior) FIELD(metallic_roughness_texture) FIELD(emissive_texture) FIELD(normal_texture) \
  FIELD(normal_scale) FIELD(pad0) FIELD(pad1)
// clang-format on

typedef struct RtSphere {
  cl_float4 center_radius;  // xyz centre, w radius
  cl_uint material;
  cl_uint pad0, pad1, pad2;
} RtSphere;
CLF_SHARED_STRUCT(RtSphere)
#define RT_SPHERE_FIELDS(FIELD) \
  FIELD(center_radius) FIELD(material) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// The points p with dot(normal, p) = offset. With checker_size > 0 the plane alternates between
// the material's colour and checker_color in squares of that size.
typedef struct RtPlane {
  cl_float4 normal;  // unit length
  cl_float4 checker_color;
  cl_float offset;
  cl_float checker_size;
  cl_uint material;
  cl_uint pad0;
} RtPlane;
CLF_SHARED_STRUCT(RtPlane)
#define RT_PLANE_FIELDS(FIELD) \
  FIELD(normal) FIELD(checker_color) FIELD(offset) FIELD(checker_size) FIELD(material) FIELD(pad0)

typedef struct RtLight {
  cl_float4 position;
  cl_float4 color;  // rgb
  cl_float intensity;
  cl_float pad0, pad1, pad2;
} RtLight;
CLF_SHARED_STRUCT(RtLight)
#define RT_LIGHT_FIELDS(FIELD) \
  FIELD(position) FIELD(color) FIELD(intensity) FIELD(pad0) FIELD(pad1) FIELD(pad2)

// A pinhole camera: the ray through image point (u, v) in [0, 1]^2 (v down) has direction
// forward + (2u - 1) right + (1 - 2v) up, with right and up scaled by the field of view.
typedef struct RtCamera {
  cl_float4 position;
  cl_float4 forward;
  cl_float4 right;
  cl_float4 up;
} RtCamera;
CLF_SHARED_STRUCT(RtCamera)
#define RT_CAMERA_FIELDS(FIELD) FIELD(position) FIELD(forward) FIELD(right) FIELD(up)

// Everything one frame needs besides the arrays.
typedef struct RtFrameParams {
  RtCamera camera;
  cl_float4 background;
  cl_float4 jitter;  // xy: sub-sample offset in [0, 1) (0.5 = centre), for accumulation
  cl_uint width;
  cl_uint height;
  cl_uint sphere_count;
  cl_uint plane_count;
  cl_uint light_count;
  cl_uint max_depth;       // reflection bounces after the primary hit
  cl_uint aa;              // aa x aa samples per pixel
  cl_uint use_bvh;         // 0: test every sphere
  cl_uint shadows;         // 0: every light reaches every point
  cl_uint frame_index;     // frames accumulated before this one (0: start over)
  cl_uint instance_count;  // mesh instances (shared/raytracer/mesh_types.h)
  cl_uint mode;            // RT_MODE_WHITTED or RT_MODE_PATH
  cl_uint emitter_count;   // emissive spheres and triangles, the path tracer's area lights
  cl_float emitter_power;  // their summed luminance x area (shared/raytracer/emitters.h)
  // The environment image rays leaving the scene see (shared/raytracer/sky.h); sky_width 0: none,
  // they see `background`.
  cl_uint sky_width;
  cl_uint sky_height;
  cl_float sky_intensity;  // multiplies its texels
  cl_float sky_turn;       // about +y, as a share of a full turn
  cl_uint sky_sampled;     // 1: the path tracer samples it as a light (sky_cdf holds its tables)
  cl_uint pad0;
} RtFrameParams;
CLF_SHARED_STRUCT(RtFrameParams)
// clang-format off
#define RT_FRAME_PARAMS_FIELDS(FIELD) \
  FIELD(camera) FIELD(background) FIELD(jitter) FIELD(width) FIELD(height) \
  FIELD(sphere_count) FIELD(plane_count) FIELD(light_count) FIELD(max_depth) FIELD(aa) \
  FIELD(use_bvh) FIELD(shadows) FIELD(frame_index) FIELD(instance_count) FIELD(mode) \
  FIELD(emitter_count) FIELD(emitter_power) FIELD(sky_width) FIELD(sky_height) \
  FIELD(sky_intensity) FIELD(sky_turn) FIELD(sky_sampled) FIELD(pad0)
// clang-format on

// A BVH node: bounds, children (internal) or sphere (leaf, left = -1), parent (-1 at the root).
typedef struct RtBvhNode {
  cl_float4 bounds_min;
  cl_float4 bounds_max;
  cl_int left;
  cl_int right;
  cl_int parent;
  cl_int sphere;
} RtBvhNode;
CLF_SHARED_STRUCT(RtBvhNode)
#define RT_BVH_NODE_FIELDS(FIELD) \
  FIELD(bounds_min) FIELD(bounds_max) FIELD(left) FIELD(right) FIELD(parent) FIELD(sphere)

// The nearest surface along a ray.
typedef struct RtHit {
  cl_float t;
  cl_int kind;      // RT_HIT_NONE, RT_HIT_SPHERE, RT_HIT_PLANE, RT_HIT_TRIANGLE
  cl_int index;     // into the spheres, planes or triangles
  cl_int instance;  // a triangle's instance, else -1
  cl_float u, v;    // a triangle's barycentric coordinates of corners 1 and 2
  cl_int pad0, pad1;
} RtHit;
CLF_SHARED_STRUCT(RtHit)
// clang-format off
#define RT_HIT_FIELDS(FIELD) \
  FIELD(t) FIELD(kind) FIELD(index) FIELD(instance) FIELD(u) FIELD(v) FIELD(pad0) FIELD(pad1)
// clang-format on

#endif  // SHARED_RAYTRACER_TYPES_H

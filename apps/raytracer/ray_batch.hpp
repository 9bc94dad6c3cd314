// Batches of rays for comparing tracers (cl-raytracer rays): every tracer gets the same rays and
// answers in the same form. Generated on the host from a scene's camera at an image size:
// primary rays through the pixel centres, then from each primary hit (found by the CPU
// reference, HostScene) a shadow ray towards the first light and an incoherent secondary ray.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/raytracer/host_scene.hpp"

namespace raytracer {

enum class RayKind { primary, shadow, secondary };
const char* ray_kind_name(RayKind kind);
// Shadow rays ask only whether anything blocks them (any hit); the others want the nearest hit.
inline bool is_occlusion(RayKind kind) { return kind == RayKind::shadow; }

// A ray is o + t d for 0 < t < t_max, as in the renderer.
struct RayBatch {
  RayKind kind = RayKind::primary;
  std::vector<cl_float4> origins;     // xyz the origin, w t_max
  std::vector<cl_float4> directions;  // unit length, w 0
  std::size_t size() const { return origins.size(); }
};

// A tracer's answers for a batch, in its order: the nearest hit of each ray (RtHit, kind
// RT_HIT_NONE where it missed), or for occlusion batches 1 where something blocks the ray.
struct RayResults {
  std::vector<RtHit> hits;
  std::vector<cl_uint> occluded;
};

struct RayBatches {
  RayBatch primary;
  RayBatch shadow;     // empty when the scene has no light
  RayBatch secondary;  // one per primary hit
  const RayBatch& of(RayKind kind) const;
};

// Pixels in the order the primary rays are generated: 8x8 tiles, each as four 4x4 quads, so 16
// consecutive rays (an Embree packet) cover a 4x4 square and 64 (a GPU work-group) an 8x8 one.
std::vector<std::pair<int, int>> tiled_pixel_order(int width, int height);

// One ray per pixel through its centre, in tiled_pixel_order, t_max RT_INFINITY.
RayBatch make_primary_rays(const Scene& scene, int width, int height);

// From each primary ray's hit in `primary_hits` (the nearest hits of `primary`; misses give no
// rays), offset along the normal facing the camera as the renderer's are (rt_surface_offset): a
// shadow ray to the scene's first light up to its distance, where the surface faces the light (the
// renderer traces no others), and a secondary ray in a cosine-weighted direction about the normal,
// drawn from Philox with `seed` (stream: the primary ray's index), so the batch is the same on
// every machine.
RayBatches make_secondary_rays(const HostScene& scene, RayBatch primary,
                               const std::vector<RtHit>& primary_hits, std::uint64_t seed);

// Every batch of an image: primary rays, their nearest hits by the CPU reference (on all host
// threads), then the shadow and secondary rays from those hits.
RayBatches make_ray_batches(const HostScene& scene, int width, int height, std::uint64_t seed = 1);

// The CPU reference's answers (HostScene::trace) for the rays at `indices` of `batch`, in that
// order, on all host threads.
RayResults trace_reference(const HostScene& scene, const RayBatch& batch,
                           const std::vector<std::size_t>& indices);

// The answers at `indices` (in that order) out of a whole batch's.
RayResults select_results(const RayResults& results, const std::vector<std::size_t>& indices);

// `count` indices spread evenly over [0, size) (all of them when size <= count).
std::vector<std::size_t> spread_indices(std::size_t size, std::size_t count);

}  // namespace raytracer

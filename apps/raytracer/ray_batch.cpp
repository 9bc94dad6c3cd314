#include "apps/raytracer/ray_batch.hpp"

#include <cmath>
#include <numeric>

#include "apps/raytracer/parallel_chunks.hpp"
#include "shared/random.h"
#include "shared/raytracer/random.h"

namespace raytracer {

namespace {

constexpr std::size_t kHostChunk = 1024;  // rays per task on the host threads

void append_ray(RayBatch& batch, cl_float4 origin, cl_float4 direction, float t_max) {
  origin.w = t_max;
  batch.origins.push_back(origin);
  batch.directions.push_back(direction);
}

}  // namespace

const char* ray_kind_name(RayKind kind) {
  switch (kind) {
    case RayKind::primary:
      return "primary";
    case RayKind::shadow:
      return "shadow";
    case RayKind::secondary:
      return "secondary";
  }
  return "?";
}

const RayBatch& RayBatches::of(RayKind kind) const {
  return kind == RayKind::primary ? primary : kind == RayKind::shadow ? shadow : secondary;
}

std::vector<std::pair<int, int>> tiled_pixel_order(int width, int height) {
  std::vector<std::pair<int, int>> pixels;
  pixels.reserve(static_cast<std::size_t>(width) * height);
  for (int tile_y = 0; tile_y < height; tile_y += 8) {
    for (int tile_x = 0; tile_x < width; tile_x += 8) {
      for (int quad = 0; quad < 4; ++quad) {
        const int quad_x = tile_x + 4 * (quad & 1);
        const int quad_y = tile_y + 4 * (quad >> 1);
        for (int y = quad_y; y < std::min(quad_y + 4, height); ++y) {
          for (int x = quad_x; x < std::min(quad_x + 4, width); ++x) pixels.push_back({x, y});
        }
      }
    }
  }
  return pixels;
}

RayBatch make_primary_rays(const Scene& scene, int width, int height) {
  const RtCamera camera = make_camera(scene.camera, width, height);
  RayBatch batch;
  batch.kind = RayKind::primary;
  for (const auto& [x, y] : tiled_pixel_order(width, height)) {
    // The renderer's camera ray for the pixel's centre (rt_pixel with one sample, no jitter).
    const float u = (static_cast<float>(x) + 0.5f) / static_cast<float>(width);
    const float v = (static_cast<float>(y) + 0.5f) / static_cast<float>(height);
    append_ray(batch, camera.position, rt_primary_direction(&camera, u, v), RT_INFINITY);
  }
  return batch;
}

RayBatches make_secondary_rays(const HostScene& scene, RayBatch primary,
                               const std::vector<RtHit>& primary_hits, std::uint64_t seed) {
  RayBatches batches;
  batches.shadow.kind = RayKind::shadow;
  batches.secondary.kind = RayKind::secondary;
  const std::vector<RtLight>& lights = scene.scene().lights;
  for (std::size_t i = 0; i < primary.size(); ++i) {
    const RtHit& hit = primary_hits[i];
    if (hit.kind == RT_HIT_NONE) continue;
    cl_float4 origin = primary.origins[i];
    origin.w = 0.0f;
    const cl_float4 direction = primary.directions[i];
    const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
    const cl_float4 normal = scene.normal(hit, origin, direction);
    const cl_float4 start = rt_add_scaled(point, normal, rt_surface_offset(point, hit.t));
    if (!lights.empty()) {
      const cl_float4 to_light = rt_sub(lights[0].position, point);
      const float distance = std::sqrt(rt_dot(to_light, to_light));
      const cl_float4 l = rt_scale(to_light, 1.0f / distance);
      if (rt_dot(normal, l) > 0.0f) append_ray(batches.shadow, start, l, distance);
    }
    PhiloxState rng = philox_init(seed, i);
    const float u1 = philox_next_float(&rng);
    const float u2 = philox_next_float(&rng);
    // The path tracer's diffuse bounce (shared/raytracer/random.h).
    append_ray(batches.secondary, start, rt_normalize(rt_sample_cosine(normal, u1, u2)),
               RT_INFINITY);
  }
  batches.primary = std::move(primary);
  return batches;
}

RayBatches make_ray_batches(const HostScene& scene, int width, int height, std::uint64_t seed) {
  RayBatch primary = make_primary_rays(scene.scene(), width, height);
  std::vector<std::size_t> all(primary.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const RayResults hits = trace_reference(scene, primary, all);
  return make_secondary_rays(scene, std::move(primary), hits.hits, seed);
}

RayResults trace_reference(const HostScene& scene, const RayBatch& batch,
                           const std::vector<std::size_t>& indices) {
  RayResults results;
  const bool occlusion = is_occlusion(batch.kind);
  if (occlusion) {
    results.occluded.resize(indices.size());
  } else {
    results.hits.resize(indices.size());
  }
  for_each_chunk(indices.size(), kHostChunk, 0, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      cl_float4 origin = batch.origins[indices[k]];
      const float t_max = origin.w;
      origin.w = 0.0f;
      const RtHit hit = scene.trace(origin, batch.directions[indices[k]], t_max, occlusion);
      if (occlusion) {
        results.occluded[k] = hit.kind != RT_HIT_NONE ? 1 : 0;
      } else {
        results.hits[k] = hit;
      }
    }
  });
  return results;
}

RayResults select_results(const RayResults& results, const std::vector<std::size_t>& indices) {
  RayResults selected;
  for (const std::size_t i : indices) {
    if (!results.hits.empty()) selected.hits.push_back(results.hits[i]);
    if (!results.occluded.empty()) selected.occluded.push_back(results.occluded[i]);
  }
  return selected;
}

std::vector<std::size_t> spread_indices(std::size_t size, std::size_t count) {
  std::vector<std::size_t> indices;
  const std::size_t n = std::min(size, count);
  for (std::size_t k = 0; k < n; ++k) indices.push_back(k * size / n);
  return indices;
}

}  // namespace raytracer

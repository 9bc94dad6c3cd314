// DeviceRenderer::trace_rays: a ray batch traced through the renderer's scene buffers with the
// frames' rt_trace (kernels/raytracer/trace_rays.cl), for cl-raytracer rays.
#include <algorithm>
#include <chrono>

#include "apps/raytracer/ray_batch.hpp"
#include "apps/raytracer/renderer.hpp"
#include "framework/error.hpp"
#include "framework/sources.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

std::vector<double> DeviceRenderer::trace_rays(const RayBatch& batch, int repeat,
                                               RayResults* results) {
  if (!spheres_) throw clf::Error("DeviceRenderer::trace_rays: no scene set");
  if (batch.size() == 0 || repeat < 1) {
    throw clf::Error("DeviceRenderer::trace_rays: needs at least one ray and one repeat");
  }
  build_bvh();
  const bool occlusion = is_occlusion(batch.kind);
  std::unique_ptr<clf::CLKernel>& kernel = occlusion ? occluded_rays_kernel_ : nearest_rays_kernel_;
  if (!kernel) {
    kernel = std::make_unique<clf::CLKernel>(
        runtime_, clf::kernel_source("kernels/raytracer/trace_rays.cl"),
        occlusion ? "rt_trace_occluded" : "rt_trace_nearest", build_options_);
  }
  RenderSettings settings;
  settings.use_bvh = true;
  const RtFrameParams params =
      make_frame_params(scene_, resolve_settings(scene_, settings), 0,
                        static_cast<cl_uint>(instance_count_), emitter_list_);
  const cl_uint count = static_cast<cl_uint>(batch.size());
  clf::Buffer<cl_float4> origins(runtime_, batch.origins);
  clf::Buffer<cl_float4> directions(runtime_, batch.directions);
  clf::Buffer<RtHit> hits(runtime_, occlusion ? 1 : count);
  clf::Buffer<cl_uint> occluded(runtime_, occlusion ? count : 1);
  // 64 consecutive rays per work-group: an 8x8 tile of primary rays (tiled_pixel_order).
  std::size_t group = 64;
  while (group > kernel->max_work_group_size() && group > 1) group /= 2;
  auto launch = [&](auto& answers) {
    return (*kernel)(
        clf::Range::linear(count, group), params, clf::read_only(*spheres_),
        clf::read_only(*planes_), clf::read_only(*materials_), clf::read_only(*lights_), *nodes_,
        clf::read_only(*mesh_nodes_), clf::read_only(*instances_), clf::read_only(*triangles_),
        clf::read_only(*triangle_shading_), clf::read_only(*textures_), clf::read_only(*texels_),
        clf::read_only(*emitters_), clf::read_only(*sky_), clf::read_only(*sky_cdf_),
        clf::read_only(origins), clf::read_only(directions), count, clf::write_only(answers));
  };
  std::vector<double> milliseconds;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const clf::Event event = occlusion ? launch(occluded) : launch(hits);
    event.wait();
    const double wall_ms = clf::milliseconds_since(start);
    milliseconds.push_back(runtime_.span_ms({event}, wall_ms));
  }
  results->hits = occlusion ? std::vector<RtHit>{} : hits.host();
  results->occluded = occlusion ? occluded.host() : std::vector<cl_uint>{};
  return milliseconds;
}

}  // namespace raytracer

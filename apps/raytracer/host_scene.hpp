// A scene's arrays on the host, as the shared code of shared/raytracer/ traces them: the mesh
// geometry (apps/raytracer/mesh_geometry.hpp), the sphere BVH and the emitters, built once, and
// rt_trace, rt_surface and rt_pixel called on them: the CPU reference renderer draws with it,
// and the ray batches (ray_batch.hpp) are generated with it and checked against it.
#pragma once

#include <vector>

#include "apps/raytracer/emitters.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/render_settings.hpp"

namespace raytracer {

class HostScene {
 public:
  // Builds the BVHs (throws clf::Error as build_mesh_geometry does). Keeps a reference to
  // `scene`, which must outlive this object. The mesh geometry is the one DeviceRenderer builds
  // from the same scene (the build is deterministic), so triangle and instance indices agree.
  // Without sphere_bvh the sphere BVH is left out (frames whose params say use_bvh = 0 test
  // every sphere).
  explicit HostScene(const Scene& scene, bool sphere_bvh = true);

  const Scene& scene() const { return scene_; }
  const MeshGeometry& geometry() const { return geometry_; }
  const EmitterList& emitters() const { return emitters_; }

  // The nearest surface (or, with any_hit, any surface) along o + t d, 0 < t < t_max:
  // the renderer's rt_trace through the BVHs.
  RtHit trace(cl_float4 origin, cl_float4 direction, float t_max, bool any_hit) const;
  // The unit normal at a hit, turned towards the ray's origin (smooth where the mesh is): the
  // renderer's rt_surface.
  cl_float4 normal(const RtHit& hit, cl_float4 origin, cl_float4 direction) const;
  // Pixel (x, y) of the frame `params` describes (make_frame_params with this scene's
  // instances and emitters): the renderer's rt_pixel.
  cl_float4 pixel(const RtFrameParams& params, int x, int y, RtRayCounts* counts) const;

 private:
  const Scene& scene_;
  const MeshGeometry geometry_;
  const std::vector<RtBvhNode> sphere_nodes_;
  const EmitterList emitters_;
  // The scene's environment image and its sampling tables, else one unused element each.
  const cl_float4 no_sky_{};
  const cl_float no_sky_cdf_ = 0;
  const cl_float4* const sky_;
  const cl_float* const sky_cdf_;
  const RtFrameParams params_;
};

}  // namespace raytracer

#include "apps/raytracer/host_scene.hpp"

namespace raytracer {

namespace {

RenderSettings bvh_settings(const Scene& scene) {
  RenderSettings settings;  // only the BVH switch and the counts matter to rt_trace
  settings.use_bvh = true;
  return resolve_settings(scene, settings);
}

}  // namespace

HostScene::HostScene(const Scene& scene, bool sphere_bvh)
    : scene_(scene),
      geometry_(build_mesh_geometry(scene)),
      sphere_nodes_(sphere_bvh ? build_bvh_reference(scene.spheres) : std::vector<RtBvhNode>{}),
      emitters_(build_emitters(scene)),
      sky_(sky_image(scene) ? sky_image(scene)->radiance.data() : &no_sky_),
      sky_cdf_(sky_image(scene) && !sky_image(scene)->distribution.empty()
                   ? sky_image(scene)->distribution.data()
                   : &no_sky_cdf_),
      params_(make_frame_params(scene, bvh_settings(scene), 0,
                                static_cast<cl_uint>(geometry_.instances.size()), emitters_)) {}

#define HOST_SCENE_ARGUMENTS                                                                  \
  scene_.spheres.data(), scene_.planes.data(), scene_.materials.data(), scene_.lights.data(), \
      sphere_nodes_.data(), geometry_.nodes.data(), geometry_.instances.data(),               \
      geometry_.triangles.data(), geometry_.shading.data(), geometry_.textures.data(),        \
      geometry_.texels.data(), emitters_.emitters.data(), sky_, sky_cdf_

RtHit HostScene::trace(cl_float4 origin, cl_float4 direction, float t_max, bool any_hit) const {
  return rt_trace(HOST_SCENE_ARGUMENTS, &params_, origin, direction, t_max, any_hit ? 1 : 0);
}

cl_float4 HostScene::normal(const RtHit& hit, cl_float4 origin, cl_float4 direction) const {
  const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
  cl_float4 normal;
  RtMaterial material;
  cl_float4 base_color;
  cl_int front;
  const cl_int linear = 0;  // texture colours do not matter to the normal
  rt_surface(HOST_SCENE_ARGUMENTS, hit, point, direction, linear, &normal, &material, &base_color,
             &front);
  return normal;
}

cl_float4 HostScene::pixel(const RtFrameParams& params, int x, int y, RtRayCounts* counts) const {
  return rt_pixel(HOST_SCENE_ARGUMENTS, &params, static_cast<cl_uint>(x), static_cast<cl_uint>(y),
                  counts);
}

}  // namespace raytracer

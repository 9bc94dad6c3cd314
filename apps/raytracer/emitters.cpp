#include "apps/raytracer/emitters.hpp"

#include <cmath>

namespace raytracer {

namespace {

struct Candidate {
  RtEmitter emitter;
  double power;
};

double triangle_area(const RtEmitter& e) {
  const cl_float4 c = rt_cross(rt_sub(e.v1, e.v0), rt_sub(e.v2, e.v0));
  return 0.5 * std::sqrt(static_cast<double>(rt_dot(c, c)));
}

void add_spheres(const Scene& scene, std::vector<Candidate>& out) {
  for (const RtSphere& sphere : scene.spheres) {
    if (sphere.material >= scene.materials.size()) continue;
    const cl_float4 emission = scene.materials[sphere.material].emission;
    const double luminance = rt_luminance(emission);
    if (luminance <= 0) continue;
    RtEmitter e{};
    e.kind = RT_HIT_SPHERE;
    e.v0 = sphere.center_radius;
    e.emission = emission;
    const double r = sphere.center_radius.w;
    out.push_back({e, luminance * 4.0 * M_PI * r * r});
  }
}

void add_triangles(const Scene& scene, std::vector<Candidate>& out) {
  for (const MeshInstance& instance : scene.instances) {
    if (instance.mesh >= scene.meshes.size()) continue;  // build_mesh_geometry reports it
    const TriangleMesh& mesh = *scene.meshes[instance.mesh];
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      const cl_uint material = instance.material >= 0 ? static_cast<cl_uint>(instance.material)
                                                      : mesh.shading[t].material;
      if (material >= scene.materials.size()) continue;
      // Emission that varies over the surface (a texture) is reached by paths only: the points
      // drawn here would all carry the material's factor.
      if (scene.materials[material].emissive_texture >= 0) continue;
      const cl_float4 emission = scene.materials[material].emission;
      const double luminance = rt_luminance(emission);
      if (luminance <= 0) continue;
      RtEmitter e{};
      e.kind = RT_HIT_TRIANGLE;
      e.v0 = instance.transform.apply_point(mesh.triangles[t].v0);
      e.v1 = instance.transform.apply_point(mesh.triangles[t].v1);
      e.v2 = instance.transform.apply_point(mesh.triangles[t].v2);
      e.emission = emission;
      const double area = triangle_area(e);
      if (area > 0) out.push_back({e, luminance * area});
    }
  }
}

}  // namespace

EmitterList build_emitters(const Scene& scene) {
  std::vector<Candidate> candidates;
  add_spheres(scene, candidates);
  add_triangles(scene, candidates);
  EmitterList list;
  double total = 0;
  for (const Candidate& c : candidates) total += c.power;
  double running = 0;
  for (Candidate& c : candidates) {
    running += c.power;
    c.emitter.cdf = static_cast<float>(running / total);
    list.emitters.push_back(c.emitter);
  }
  // Rounding must not leave a u in [0, 1) past the last emitter.
  if (!list.emitters.empty()) list.emitters.back().cdf = 1.0f;
  list.total_power = static_cast<float>(total);
  return list;
}

}  // namespace raytracer

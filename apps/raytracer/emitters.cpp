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

// Walker's alias table by Vose's construction, in double: slot i keeps emitter i with chance
// keep, else takes its alias, so that a slot drawn uniformly gives every emitter its share of the
// power. Each step fills a slot whose share is below the mean from one above it.
void fill_alias_table(const std::vector<double>& powers, double total,
                      std::vector<RtEmitter>& emitters) {
  const std::size_t n = powers.size();
  std::vector<double> scaled(n);
  std::vector<cl_uint> below;
  std::vector<cl_uint> above;
  for (std::size_t i = 0; i < n; ++i) {
    scaled[i] = powers[i] / total * static_cast<double>(n);
    (scaled[i] < 1.0 ? below : above).push_back(static_cast<cl_uint>(i));
  }
  while (!below.empty() && !above.empty()) {
    const cl_uint small = below.back();
    below.pop_back();
    const cl_uint large = above.back();
    above.pop_back();
    emitters[small].keep = static_cast<float>(scaled[small]);
    emitters[small].alias = large;
    scaled[large] = (scaled[large] + scaled[small]) - 1.0;
    (scaled[large] < 1.0 ? below : above).push_back(large);
  }
  // What is left holds the mean share up to rounding: it keeps its own emitter.
  for (const std::vector<cl_uint>* rest : {&below, &above}) {
    for (const cl_uint i : *rest) {
      emitters[i].keep = 1.0f;
      emitters[i].alias = i;
    }
  }
}

}  // namespace

EmitterList build_emitters(const Scene& scene) {
  std::vector<Candidate> candidates;
  add_spheres(scene, candidates);
  add_triangles(scene, candidates);
  EmitterList list;
  std::vector<double> powers;
  double total = 0;
  for (const Candidate& c : candidates) {
    list.emitters.push_back(c.emitter);
    powers.push_back(c.power);
    total += c.power;
  }
  fill_alias_table(powers, total, list.emitters);
  list.total_power = static_cast<float>(total);
  return list;
}

}  // namespace raytracer

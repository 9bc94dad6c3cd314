// The built-in scene "cornell": a box after the Cornell box, lit by an emissive panel in its
// ceiling, holding a glass sphere, a brushed gold sphere and a white one: the path tracer's
// materials and area light in one picture. The box's five walls are planes; its open front faces
// the camera.
#include "apps/raytracer/procedural_mesh.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer {

namespace {

// A path-traced material: base colour, metallic, roughness; the Whitted fields derived.
RtMaterial physical_material(Vec3 color, float metallic, float roughness) {
  RtMaterial m =
      make_material(color, 0.05f, 0.9f, 0.3f * (1 - roughness),
                    2.0f / std::max(roughness * roughness * roughness * roughness, 1e-4f) - 2.0f,
                    metallic * (1 - roughness));
  m.metallic = metallic;
  m.roughness = roughness;
  return m;
}

}  // namespace

Scene cornell_scene() {
  Scene scene;
  scene.name = "cornell";
  scene.width = 600;
  scene.height = 600;
  auto material = [&scene](const RtMaterial& m) {
    scene.materials.push_back(m);
    return static_cast<cl_uint>(scene.materials.size() - 1);
  };
  const cl_uint white = material(physical_material({0.73f, 0.73f, 0.73f}, 0, 1));
  const cl_uint red = material(physical_material({0.65f, 0.05f, 0.05f}, 0, 1));
  const cl_uint green = material(physical_material({0.12f, 0.45f, 0.15f}, 0, 1));
  RtMaterial glass_material = physical_material({1, 1, 1}, 0, 0);
  glass_material.transmission = 1;
  glass_material.ior = 1.5f;
  const cl_uint glass = material(glass_material);
  const cl_uint gold = material(physical_material({1.0f, 0.71f, 0.29f}, 1, 0.25f));
  RtMaterial lamp_material = physical_material({0.8f, 0.8f, 0.8f}, 0, 1);
  lamp_material.emission = rt_vec(17, 12, 4);  // a warm panel, as the original's
  const cl_uint lamp = material(lamp_material);

  // The inside of [-1, 1] x [0, 2] x [-1, 1], open towards the camera (z = -1).
  scene.planes.push_back(make_plane({0, 1, 0}, 0, white));    // floor
  scene.planes.push_back(make_plane({0, -1, 0}, -2, white));  // ceiling
  scene.planes.push_back(make_plane({0, 0, -1}, -1, white));  // back
  scene.planes.push_back(make_plane({1, 0, 0}, -1, red));     // left
  scene.planes.push_back(make_plane({-1, 0, 0}, -1, green));  // right
  scene.spheres.push_back(make_sphere({-0.42f, 0.35f, 0.25f}, 0.35f, glass));
  scene.spheres.push_back(make_sphere({0.45f, 0.3f, -0.2f}, 0.3f, gold));
  scene.spheres.push_back(make_sphere({0.2f, 0.25f, 0.6f}, 0.25f, white));

  // The lamp: a 0.5 x 0.5 panel just below the ceiling, facing down.
  scene.meshes.push_back(std::make_shared<const TriangleMesh>(make_quad_mesh(lamp)));
  MeshInstance panel;
  panel.transform = Transform::translation(0, 1.995f, 0) * Transform::rotation(0, 1.5707963f) *
                    Transform::scale(0.25f, 0.25f, 1);
  scene.instances.push_back(panel);
  // The Whitted mode's light, where the panel is.
  scene.lights.push_back(make_light({0, 1.9f, 0}, {1, 0.85f, 0.6f}, 0.8f));

  scene.camera.position = {0, 1, -3.9f};
  scene.camera.look_at = {0, 1, 0};
  scene.camera.fov_y = 38.0f * 3.14159265f / 180.0f;
  scene.background = {0, 0, 0};
  return scene;
}

}  // namespace raytracer

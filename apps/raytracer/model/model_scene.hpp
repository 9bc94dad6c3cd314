// Loaded models turned into what the renderers trace: meshes as TriangleMesh (each once),
// instances with their transforms, materials mapped onto the Whitted model, textures.
#pragma once

#include "apps/raytracer/model/model.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer::model {

// A model's column-major 4x4 transform as the renderer's affine Transform.
Transform to_transform(const Mat4& matrix);

// Appends the model's meshes, materials and textures to `scene` and returns the index its first
// mesh got there (place it with add_model_instances, as often as wanted).
std::uint32_t add_model_meshes(const Model& model, Scene& scene);
// Places the model's instances, whose meshes add_model_meshes put at first_mesh, each by
// `placement` after its own transform. material_override >= 0 (a material of the scene)
// replaces the model's materials on every triangle.
void add_model_instances(const Model& model, std::uint32_t first_mesh, const Transform& placement,
                         cl_int material_override, Scene& scene);
// Both: the model once, in one place.
void add_model_to_scene(const Model& model, const Transform& placement, cl_int material_override,
                        Scene& scene);

// The model alone: a camera framing it from its default view (right-handed, as glTF and OBJ
// are), a white light near the camera, a dark blue background.
Scene scene_from_model(const Model& model);

// Whitted parameters for a metallic-roughness material: the base colour diffuse, a Phong
// highlight that narrows as roughness falls, metals reflect as they get smooth. The material's
// textures are the scene's from `first_texture` on (where the model's were added).
RtMaterial whitted_material(const Material& material, cl_int first_texture);

}  // namespace raytracer::model

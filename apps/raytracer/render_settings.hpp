// What a frame is rendered with, and the frame parameters both renderers pass to the shared
// per-pixel code.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "apps/raytracer/emitters.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer {

// whitted: point lights, hard shadows, mirror reflections (the seed's renderer). path: unbiased
// progressive path tracing, one path per sample, accumulated while nothing changes.
enum class RenderMode { whitted, path };

// "whitted" or "path" (clf::Error naming the option and the choices otherwise).
RenderMode parse_render_mode(const std::string& text);
const char* render_mode_name(RenderMode mode);
// Bounces when none are asked for: 3 reflections (Whitted); 8 for paths, which Russian roulette
// ends sooner where little light is left.
int default_depth(RenderMode mode);

// How the renderer builds its mesh BVHs: the host's binned SAH (best to trace; the default for
// static meshes), the device's linear BVH (built in a fraction of the time) or the device's PLOC
// (between the two: apps/raytracer/device_mesh_bvh.hpp).
enum class MeshBvhBuilder { host_sah, device_lbvh, device_ploc };

// "sah", "lbvh" or "ploc" (clf::Error naming the option and the choices otherwise).
MeshBvhBuilder parse_mesh_bvh_builder(const std::string& text);
const char* mesh_bvh_builder_name(MeshBvhBuilder builder);

struct RenderSettings {
  RenderMode mode = RenderMode::whitted;
  int width = 0;  // 0: the scene's own size
  int height = 0;
  int depth = 3;  // reflection bounces (whitted), path length in bounces (path)
  int aa = 1;     // aa x aa samples per pixel
  bool shadows = true;
  bool use_bvh = true;
};

// The settings with the scene's size filled in and the ranges checked (clf::Error naming the
// option otherwise).
RenderSettings resolve_settings(const Scene& scene, RenderSettings settings);

// Sub-sample offset of accumulated frame k: the centre for k = 0, then an R2 low-discrepancy
// sequence, so accumulated frames cover the pixel evenly.
cl_float4 frame_jitter(cl_uint frame_index);

// The scene's environment image, or null where it has none (or it is not read yet: rays leaving
// the scene then see the background colour).
const EnvironmentImage* sky_image(const Scene& scene);

// instance_count: the mesh instances traced (MeshGeometry::instances, which leaves out
// instances of empty meshes); emitters: the scene's (build_emitters).
RtFrameParams make_frame_params(const Scene& scene, const RenderSettings& settings,
                                cl_uint frame_index, cl_uint instance_count,
                                const EmitterList& emitters);

// The box around the sphere centres (min, max) and the host-built BVH (same layout and
// algorithm as the device build, so tests compare them node for node).
void sphere_center_bounds(const std::vector<RtSphere>& spheres, cl_float4* lo, cl_float4* hi);
std::vector<RtBvhNode> build_bvh_reference(const std::vector<RtSphere>& spheres);

// The CPU reference renderer: plain C++ over the shared per-pixel code, on `threads` threads
// (0: all cores). Returns RGBA pixels (R in the low byte), row by row from the top: `frames`
// frames averaged as the device accumulates them.
std::vector<cl_uint> render_reference(const Scene& scene, const RenderSettings& settings,
                                      unsigned threads = 0, int frames = 1);

// The same average before display, linear radiance (path mode's tests measure it), of frames
// first_frame .. first_frame + frames - 1 (other frames draw other random numbers).
std::vector<cl_float4> render_reference_radiance(const Scene& scene, const RenderSettings& settings,
                                                 int frames, int first_frame = 0,
                                                 unsigned threads = 0);

// The reference's colours of the given (x, y) pixels only: checks a device image of a scene too
// large to render whole on the CPU in good time.
std::vector<cl_uint> render_reference_pixels(const Scene& scene, const RenderSettings& settings,
                                             const std::vector<std::pair<int, int>>& pixels,
                                             unsigned threads = 0);

}  // namespace raytracer

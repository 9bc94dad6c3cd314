// The cl-raytracer subcommands (render, bench), kept out of main.cpp so tests can run them.
#pragma once

#include <string>

#include "apps/raytracer/render_settings.hpp"
#include "framework/device_set.hpp"
#include "framework/runtime.hpp"

namespace raytracer {

struct RenderCommand {
  std::string scene = "seed";
  std::string size;  // "WxH"; empty: the scene's own size
  std::string mode = "whitted";
  int frames = 1;
  int depth = -1;  // -1: the mode's default (default_depth)
  int aa = 1;
  bool no_shadows = false;
  bool reference = false;             // the CPU reference renderer instead of the device
  bool brute = false;                 // test every sphere instead of the BVH
  bool rebuild_bvh = false;           // rebuild the BVH every frame (as if the spheres moved)
  std::string out = "raytracer.png";  // with animation: a pattern with one %d (animation.hpp)
  std::string json;                   // per-frame statistics as JSON
  int animation = 0;             // > 0: an orbit of this many frames, spread across the MPI ranks
  std::string mesh_bvh = "sah";  // how the devices' mesh BVHs are built (parse_mesh_bvh_builder)
  std::string environment;       // an environment image instead of the scene's sky
  float environment_intensity = 1;
};

struct BenchCommand {
  int frames = 0;     // 0: 20 on a GPU, 3 on a CPU
  bool full = false;  // every size even on a CPU device
  std::string json;
};

// cl-raytracer rays: the same ray batches traced by the device and by Embree (ray_batch.hpp,
// embree_tracer.hpp), verified against each other and the CPU reference, then timed.
struct RaysCommand {
  std::string scene = "instances:4096";
  std::string size = "1920x1080";
  int repeat = 5;        // timed runs per tracer and kind (after one warm-up); medians reported
  unsigned threads = 0;  // Embree's host threads; 0: every hardware thread
  bool no_embree = false;
  std::string mesh_bvh = "sah";  // our mesh BVHs: sah (host), lbvh or ploc (device)
  std::string json;
};

// Parses "WxH" (clf::Error naming the option and value otherwise).
void parse_size(const std::string& text, int* width, int* height);

// Each prints to stdout and returns the process exit code; errors throw clf::Error.
// render and bench use every device of the set (each frame split across them by rows).
int run_render(const RenderCommand& command, clf::DeviceSet* devices);
int run_bench(const BenchCommand& command, clf::DeviceSet& devices);
int run_rays(const RaysCommand& command, clf::Runtime& runtime);

}  // namespace raytracer

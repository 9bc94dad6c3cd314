// The cl-raytracer subcommands (render, bench), kept out of main.cpp so tests can run them.
#pragma once

#include <string>

#include "apps/raytracer/render_settings.hpp"
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
  bool reference = false;    // the CPU reference renderer instead of the device
  bool brute = false;        // test every sphere instead of the BVH
  bool rebuild_bvh = false;  // rebuild the BVH every frame (as if the spheres moved)
  std::string out = "raytracer.png";
  std::string json;  // per-frame statistics as JSON
};

struct BenchCommand {
  int frames = 0;     // 0: 20 on a GPU, 3 on a CPU
  bool full = false;  // every size even on a CPU device
  std::string json;
};

// Parses "WxH" (clf::Error naming the option and value otherwise).
void parse_size(const std::string& text, int* width, int* height);

// Both print to stdout and return the process exit code; errors throw clf::Error.
int run_render(const RenderCommand& command, clf::Runtime* runtime);
int run_bench(const BenchCommand& command, clf::Runtime& runtime);

}  // namespace raytracer

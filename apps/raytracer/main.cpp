// cl-raytracer: renders scenes headless (render), runs the benchmark suite (bench).
#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/raytracer/commands.hpp"
#include "framework/cli.hpp"
#include "framework/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cl-raytracer: a ray tracer on OpenCL (spheres, planes, shadows, reflections, BVH)"};
  app.fallthrough();  // device options may follow the subcommand
  clf::DeviceOptions device;
  device.add_to(app);

  raytracer::RenderCommand render;
  auto* render_app = app.add_subcommand("render", "render a scene headless to a PNG");
  render_app
      ->add_option("--scene", render.scene, "seed, aalborg, random:N[:SEED] or a JSON scene file")
      ->capture_default_str();
  render_app->add_option("--size", render.size, "image size WxH (default: the scene's)");
  render_app->add_option("--frames", render.frames, "frames to render (accumulated into the image)")
      ->capture_default_str();
  render_app->add_option("--depth", render.depth, "reflection bounces")->capture_default_str();
  render_app->add_option("--aa", render.aa, "N: NxN samples per pixel")->capture_default_str();
  render_app->add_option("--out", render.out, "PNG file to write")->capture_default_str();
  render_app->add_flag("--reference", render.reference, "render with the CPU reference renderer");
  render_app->add_flag("--brute", render.brute, "test every sphere instead of using the BVH");
  render_app->add_flag("--no-shadows", render.no_shadows, "no shadow rays");
  render_app->add_flag("--rebuild-bvh", render.rebuild_bvh, "rebuild the BVH every frame");
  render_app->add_option("--json", render.json, "write per-frame statistics to this JSON file");

  raytracer::BenchCommand bench;
  auto* bench_app = app.add_subcommand("bench", "the scene suite as a table");
  bench_app->add_option("--frames", bench.frames, "frames per case (default: 20 GPU, 3 CPU)");
  bench_app->add_flag("--full", bench.full, "every size even on a CPU device");
  bench_app->add_option("--json", bench.json, "write the results to this JSON file");
  app.require_subcommand(1);

  CLI11_PARSE(app, argc, argv);
  try {
    if (device.handle_list_devices()) return 0;
    if (render_app->parsed()) {
      std::unique_ptr<clf::Runtime> runtime;
      if (!render.reference) {
        device.request.profiling = true;  // per-stage times from device events
        runtime = device.make_runtime();
      }
      return raytracer::run_render(render, runtime.get());
    }
    device.request.profiling = true;
    auto runtime = device.make_runtime();
    return raytracer::run_bench(bench, *runtime);
  } catch (const std::exception& error) {
    std::cerr << "cl-raytracer: " << error.what() << "\n";
    return 1;
  }
}

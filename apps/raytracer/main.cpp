// cl-raytracer: renders scenes headless (render), runs the benchmark suite (bench), measures
// rays/s against Embree (rays), and with a display and GTK4 opens the interactive window (gui,
// the default when there is a display).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "apps/raytracer/commands.hpp"
#include "framework/cli.hpp"
#include "framework/error.hpp"
#include "framework/process_group.hpp"
#if CLF_RAYTRACER_GUI
#include "apps/raytracer/gui.hpp"
#endif

int main(int argc, char** argv) {
  CLI::App app{
      "cl-raytracer: a ray tracer on OpenCL (spheres, planes, triangle meshes, shadows, "
      "reflections, BVH)"};
  app.fallthrough();  // device options may follow the subcommand
  clf::DeviceOptions device;
  device.add_to(app);

  raytracer::RenderCommand render;
  auto* render_app = app.add_subcommand("render", "render a scene headless to a PNG");
  render_app
      ->add_option(
          "--scene", render.scene,
          "seed, aalborg, random:N[:SEED], a JSON scene file or a model (.gltf, .glb, .obj)")
      ->capture_default_str();
  render_app->add_option("--size", render.size, "image size WxH (default: the scene's)");
  render_app
      ->add_option("--frames", render.frames,
                   "frames to render, accumulated into the image (path: samples per pixel / aa^2)")
      ->capture_default_str();
  render_app->add_option("--mode", render.mode, "whitted or path (progressive path tracing)")
      ->capture_default_str();
  render_app->add_option("--depth", render.depth,
                         "bounces (default: 3 whitted, 8 path; path tracing also stops paths "
                         "early by Russian roulette)");
  render_app->add_option("--aa", render.aa, "N: NxN samples per pixel")->capture_default_str();
  render_app
      ->add_option("--out", render.out,
                   "PNG file to write; with --animation a pattern such as frames/frame_%04d.png")
      ->capture_default_str();
  render_app->add_option("--animation", render.animation,
                         "N: an orbit of N frames about the camera's target, one PNG each "
                         "(--frames accumulated per frame); under mpirun spread across the ranks");
  render_app
      ->add_option("--mesh-bvh", render.mesh_bvh,
                   "how the devices build the mesh BVHs: sah (binned SAH on the host; best to "
                   "trace), lbvh or ploc (on the device; quicker to build for large meshes)")
      ->capture_default_str();
  render_app->add_option("--environment", render.environment,
                         "an environment image around the scene (a Radiance .hdr panorama, "
                         "or a PNG/JPEG one), instead of the scene's own");
  render_app
      ->add_option("--environment-intensity", render.environment_intensity,
                   "multiplies the environment image's radiance")
      ->capture_default_str();
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

  raytracer::RaysCommand rays;
  auto* rays_app = app.add_subcommand(
      "rays", "rays/s of the device against Intel Embree on the same rays, verified first");
  rays_app->add_option("--scene", rays.scene, "a scene name, scene file or model, as for render")
      ->capture_default_str();
  rays_app->add_option("--size", rays.size, "image size WxH of the ray batches")
      ->capture_default_str();
  rays_app->add_option("--repeat", rays.repeat, "timed runs per tracer and ray kind (median)")
      ->capture_default_str();
  rays_app->add_option("--threads", rays.threads, "Embree's threads (0: every hardware thread)")
      ->capture_default_str();
  rays_app->add_flag("--no-embree", rays.no_embree, "time the device alone");
  rays_app
      ->add_option("--mesh-bvh", rays.mesh_bvh,
                   "our mesh BVHs: sah (binned SAH on the host), lbvh (linear BVH on the device) "
                   "or ploc (clustered on the device)")
      ->capture_default_str();
  rays_app->add_option("--json", rays.json, "write the results to this JSON file");
#if CLF_RAYTRACER_GUI
  raytracer::GuiOptions gui;
  auto* gui_app = app.add_subcommand("gui", "the interactive window (default with a display)");
  gui_app
      ->add_option(
          "--scene", gui.scene,
          "seed, aalborg, random:N[:SEED], a JSON scene file or a model (.gltf, .glb, .obj)")
      ->capture_default_str();
  gui_app->add_option("--mode", gui.mode, "whitted or path (progressive path tracing)")
      ->capture_default_str();
  gui_app->add_option("--scale", gui.scale, "rendered pixels per window pixel (0.1 .. 1)")
      ->check(CLI::Range(0.1, 1.0));
  gui_app->add_option(
      "--smoke-test", gui.smoke_screenshot,
      "render a few frames, save the window to this PNG, check it is not blank, quit");
  gui_app->add_option("--smoke-frames", gui.smoke_frames,
                      "frames before the smoke-test screenshot");
#endif
  app.require_subcommand(0, 1);

  CLI11_PARSE(app, argc, argv);
  try {
    if (device.handle_list_devices()) return 0;
    if (render_app->parsed()) {
      std::unique_ptr<clf::DeviceSet> devices;
      if (!render.reference) {
        device.request.profiling = true;  // per-stage times from device events
        devices = device.make_device_set();
      }
      return raytracer::run_render(render, devices.get());
    }
    if (bench_app->parsed()) {
      device.request.profiling = true;
      auto devices = device.make_device_set();
      return raytracer::run_bench(bench, *devices);
    }
    if (rays_app->parsed()) {
      device.request.profiling = true;  // kernel times from device events
      auto runtime = device.make_runtime();
      return raytracer::run_rays(rays, *runtime);
    }
#if CLF_RAYTRACER_GUI
    const bool has_display =
        std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
    if (gui_app->parsed() || has_display) {
      gui.request = device.request;
      gui.request.profiling = true;
      return raytracer::run_gui(gui);
    }
#endif
    std::cerr << app.help()
              << "\ncl-raytracer: no display: use a subcommand (render, bench, rays)\n";
    return 2;
  } catch (const std::exception& error) {
    if (render_app->parsed() && render.animation > 0 && clf::ProcessGroup::world().size() > 1) {
      // The other ranks would wait for this one for ever: end them all.
      const clf::ProcessGroup& group = clf::ProcessGroup::world();
      // One write, so that the ranks' messages, which mpirun merges, never interleave mid-line.
      std::cerr << "cl-raytracer (" + group.describe() + "): " + error.what() + "\n" << std::flush;
      group.abort(1);
    }
    std::cerr << "cl-raytracer: " << error.what() << "\n";
    return 1;
  }
}

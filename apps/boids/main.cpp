// cl-boids: flocking on a sort-based neighbour grid (issue 6). Headless subcommands `run`,
// `bench` and `sweep`; with a display and GTK4, no subcommand (or `gui`) opens the window (gui.cpp,
// boids_gui). The logic lives in boids_core.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "apps/boids/commands.hpp"
#include "apps/boids/sweep.hpp"
#include "framework/cli.hpp"
#if CLF_BOIDS_GUI
#include "apps/boids/gui.hpp"
#endif

int main(int argc, char** argv) try {
  CLI::App app{"Boids: flocking on a sort-based neighbour grid, on an OpenCL device."};
  clf::DeviceOptions device_options;
  device_options.add_to(app);
  app.require_subcommand(0, 1);

  boids::RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "headless run: steps/s and ms per stage");
  run_options.add_to(*run);
  boids::BenchOptions bench_options;
  CLI::App* bench =
      app.add_subcommand("bench", "sweep N for the default and the dense density, 2D and 3D");
  bench_options.add_to(*bench);
  boids::SweepOptions sweep_options;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "many independent runs (lists of N, dims, seeds, rules) over --devices: a CSV");
  sweep_options.add_to(*sweep);
  // The device options may follow the subcommand: `cl-boids run --n 1000 --device 1`.
  run->fallthrough();
  bench->fallthrough();
  sweep->fallthrough();
#if CLF_BOIDS_GUI
  boids::GuiOptions gui_options;
  gui_options.model.count = 20000;  // flocks form within seconds and it runs smoothly on a CPU
  CLI::App* gui = app.add_subcommand("gui", "the GTK4 window (the default with a display)");
  gui_options.model.add_to(*gui);
  gui->add_option("--smoke-test", gui_options.smoke_screenshot,
                  "run a few frames, save the window to this PNG, check it is not blank, quit");
  gui->add_option("--smoke-frames", gui_options.smoke_frames,
                  "frames before the smoke-test screenshot")
      ->capture_default_str();
  gui->fallthrough();
#endif
  CLI11_PARSE(app, argc, argv);

  if (device_options.handle_list_devices()) return 0;
  if (run->parsed()) return boids::run_command(run_options, device_options, std::cout);
  if (bench->parsed()) return boids::bench_command(bench_options, device_options, std::cout);
  if (sweep->parsed()) return boids::sweep_command(sweep_options, device_options, std::cout);
#if CLF_BOIDS_GUI
  const bool has_display =
      std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
  if (gui->parsed() || has_display) {
    gui_options.request = device_options.request;
    return boids::run_gui(gui_options);
  }
#endif
  std::cerr << app.help() << "\ncl-boids: no display: use a subcommand (run, bench, sweep)\n";
  return 2;
} catch (const std::exception& error) {
  std::cerr << "cl-boids: " << error.what() << "\n";
  return 1;
}

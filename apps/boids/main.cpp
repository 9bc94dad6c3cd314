// cl-boids: flocking on a sort-based neighbour grid (issue 6). Headless subcommands `run` and
// `bench`; the logic lives in boids_core.
#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/boids/commands.hpp"
#include "framework/cli.hpp"

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
  // The device options may follow the subcommand: `cl-boids run --n 1000 --device 1`.
  run->fallthrough();
  bench->fallthrough();
  CLI11_PARSE(app, argc, argv);

  if (device_options.handle_list_devices()) return 0;
  if (run->parsed()) return boids::run_command(run_options, device_options, std::cout);
  if (bench->parsed()) return boids::bench_command(bench_options, device_options, std::cout);
  std::cout << app.help() << "\n(the GTK4 window is not built yet: use `run` or `bench`)\n";
  return 0;
} catch (const std::exception& error) {
  std::cerr << "cl-boids: " << error.what() << "\n";
  return 1;
}

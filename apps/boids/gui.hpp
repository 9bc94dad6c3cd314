// The GTK4 window of cl-boids (built when GTK4 is found: library boids_gui; boids_core stays
// GTK-free).
#pragma once

#include <string>

#include "apps/boids/commands.hpp"
#include "framework/device.hpp"

namespace boids {

struct GuiOptions {
  ModelOptions model;  // the starting N, dims, box, rules, seed and neighbour method
  clf::DeviceRequest request;
  // Smoke test: after smoke_frames frames (a rule changed half way), save the window to this
  // PNG, check it is not blank and that the UI never stalled, and quit (exit 1 on failure).
  std::string smoke_screenshot;
  int smoke_frames = 20;
};

// Opens the window and runs until it closes. Returns the exit status; throws clf::Error for
// bad starting options (named as on the command line).
int run_gui(const GuiOptions& options);

}  // namespace boids

// The GTK4 window of cl-raytracer (built when GTK4 is found: library raytracer_gui).
#pragma once

#include <string>

#include "framework/device.hpp"

namespace raytracer {

struct GuiOptions {
  std::string scene = "seed";
  std::string mode = "whitted";  // or "path"
  clf::DeviceRequest request;
  double scale = 1.0;            // rendered pixels per window pixel
  std::string smoke_screenshot;  // smoke test: after smoke_frames frames save the window here,
  int smoke_frames = 3;          // check it is not blank, and quit (exit 1 if it is)
};

// Opens the window and runs until it closes. Returns the exit status.
int run_gui(const GuiOptions& options);

}  // namespace raytracer

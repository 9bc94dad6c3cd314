// The GTK4 window of cl-mankalah (built when GTK4 is found: library mankalah_gui).
#pragma once

#include <string>

#include "framework/device.hpp"

namespace mankalah {

struct GuiOptions {
  std::string engine;           // "": perfect where the endgame databases are, else alphabeta
  std::string db_dir;           // the endgame databases ("": the default folder)
  int time_ms = 1000;           // per AI move
  std::string side = "bottom";  // the human's side
  std::string first = "human";  // human|ai
  bool match = false;           // start in Calvin's two-game match
  clf::DeviceRequest request;   // for gpu-layered
  // Smoke test: the human plays smoke_moves moves (bonzo's choice), every second AI search is
  // ended with "move now" after 300 ms, the others run their time; then the window is saved
  // here, checked not to be blank, every answer to have come in time and the UI never to have
  // stalled, and the program quits (exit 1 on failure).
  std::string screenshot;
  int smoke_moves = 2;
};

// Opens the window and runs until it closes. Returns the exit status.
int run_gui(const GuiOptions& options);

}  // namespace mankalah

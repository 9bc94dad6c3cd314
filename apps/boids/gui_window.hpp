// The boids window's state (Gui), shared by its parts: the side panel (gui_panel.cpp), the
// controller that requests frames and shows them (gui_controller.cpp), the input handlers
// (gui_input.cpp), and the wiring (gui.cpp). The worker side is FrameMaker (gui_frame_maker).
#pragma once

#include <gtk/gtk.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "apps/boids/gui.hpp"
#include "apps/boids/gui_frame_maker.hpp"
#include "apps/boids/gui_slider.hpp"
#include "apps/gtk/frame_view.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"

namespace boids {

using Clock = std::chrono::steady_clock;

inline constexpr int kMaxFrameSide = 1024;  // frames are scaled up to the window beyond this
inline constexpr double kMinLog10N = 2.0;   // the N slider: 100 ..
inline constexpr double kMaxLog10N = 6.5;   // .. about 3 million

// A slider bound to one model parameter.
struct Parameter {
  const char* label;
  float* value;
  SliderScale scale;  // widened to the starting value (fit_slider_scale)
};

struct Gui {
  GuiOptions options;
  GtkApplication* app = nullptr;
  GtkWindow* window = nullptr;
  std::unique_ptr<clf::gtk::FrameView> view;
  std::unique_ptr<clf::gtk::LatestOnlyWorker<FrameRequest, FrameResult>> worker;
  clf::gtk::SmokeTest smoke;
  GtkWidget* pause_button = nullptr;
  GtkWidget* goal_toggle = nullptr;
  GtkWidget* dims_dropdown = nullptr;
  std::vector<std::pair<GtkWidget*, Parameter>> sliders;

  // The model as the controls set it.
  ModelOptions model;
  std::size_t count = 0;
  bool goal_on = true;
  bool goal_placed = false;  // the mouse has been over the frame
  cl_float4 goal{};
  int device = -1;
  std::uint64_t generation = 0;

  // The camera (3D).
  float yaw = 0.6f, pitch = 0.45f, zoom = 1.0f;
  float drag_yaw = 0, drag_pitch = 0;
  bool dragging = false;

  bool running = true;
  int pending_steps = 0;  // Step presses not yet sent
  bool dirty = true;      // something to redraw while paused
  bool in_flight = false;
  // What the last frame was drawn with, to map the mouse into the world.
  int frame_width = 0, frame_height = 0;
  BoidsRules frame_rules{};
  float frame_yaw = 0, frame_pitch = 0, frame_zoom = 1;

  Clock::time_point last_frame = Clock::now();
  Clock::time_point last_tick = Clock::now();
  double longest_tick_gap_ms = 0;  // the UI's longest stall once frames flow
  double fps = 0;
  int frames_shown = 0;
  std::size_t steps_done = 0;
  int screenshots = 0;
  bool smoke_rule_changed = false;
  float smoke_separation = 0;
  BoidsRules first_frame_rules{};  // what the sliders started the simulation with

  BoidsRules rules() const;

  std::pair<int, int> frame_size(int dims) const;

  void request_frame();

  // Every frame-clock tick: keep one request in flight while running or while there is
  // something to show.
  void tick();

  void receive(FrameResult result);

  // Smoke test: half way, change a rule as a slider would (set_rules between steps); at the
  // end check that it reached the simulation, the window is not blank and the UI never stalled.
  void smoke_steps();

  void set_running(bool run);

  void step_once();

  void reset();

  void screenshot();

  // The mouse at (x, y) in the frame view: the goal goes there.
  void move_goal(double x, double y);
};

inline Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

// The side panel: device, space, every weight and radius, N, and the actions (gui_panel.cpp).
GtkWidget* build_panel(Gui* g);
// Mouse on the frame view (goal, orbit, zoom), the window's keys and the frame-clock tick
// (gui_input.cpp).
void add_input_handlers(Gui* g, GtkWindow* window);

}  // namespace boids

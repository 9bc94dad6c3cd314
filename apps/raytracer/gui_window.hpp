// The raytracer window's state (Gui), shared by its parts: the controller that asks for frames
// and shows them (gui_controller.cpp), opening and saving files (gui_files.cpp), the side panel
// (gui_panel.cpp), the mouse and keys (gui_input.cpp) and the wiring (gui.cpp). The worker side
// is RenderState (gui_render_state.hpp); the camera is a CameraRig (camera_rig.hpp).
#pragma once

#include <gtk/gtk.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/gtk/frame_view.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"
#include "apps/raytracer/camera_rig.hpp"
#include "apps/raytracer/gui.hpp"
#include "apps/raytracer/gui_render_state.hpp"

namespace raytracer {

using Clock = std::chrono::steady_clock;

// A still view keeps accumulating frames up to these: Whitted images only gain anti-aliasing
// (converged long before), path-traced ones lose noise for much longer.
inline constexpr cl_uint kMaxWhittedFrames = 64;
inline constexpr cl_uint kMaxPathFrames = 4096;

// Radians the camera turns per pixel dragged: orbiting, and looking around (finer).
inline constexpr float kOrbitPerPixel = 0.01f;
inline constexpr float kLookPerPixel = 0.004f;

enum class CameraMode { orbit, fly };

// The keys held down for flying: +1 / -1 / 0 along each of the camera's axes.
struct FlyKeys {
  bool forward = false, back = false, left = false, right = false, up = false, down = false;
  bool any() const { return forward || back || left || right || up || down; }
};

struct Gui {
  GuiOptions options;
  GtkApplication* app = nullptr;
  GtkWindow* window = nullptr;
  std::unique_ptr<clf::gtk::FrameView> view;
  std::unique_ptr<clf::gtk::LatestOnlyWorker<ViewRequest, ViewResult>> worker;
  clf::gtk::SmokeTest smoke;

  // Panel widgets (gui_panel.cpp).
  GtkWidget* scene_label = nullptr;
  GtkWidget* message = nullptr;
  GtkWidget* mode_dropdown = nullptr;
  GtkWidget* fly_toggle = nullptr;
  GtkWidget* light_toggle = nullptr;
  GtkWidget* light_scales[3] = {nullptr, nullptr, nullptr};
  GtkWidget* depth_spin = nullptr;
  GtkWidget* aa_spin = nullptr;
  GtkWidget* grid_spin = nullptr;
  bool updating_controls = false;  // set while code moves a control, so its handler ignores it

  // The scene shown (as opened) and the one asked for: they differ while a file opens.
  std::shared_ptr<const Scene> scene;
  SceneChoice shown;
  SceneChoice wanted;
  std::uint64_t next_generation = 1;
  bool keep_view_on_open = false;  // a reload keeps the camera and light where they are

  // The view: camera, light and render settings as the controls set them.
  CameraRig camera;
  std::uint64_t view_generation = 0;  // the scene generation camera and light belong to
  CameraMode camera_mode = CameraMode::orbit;
  float fly_speed = 1;  // scene units per second
  FlyKeys fly_keys;
  Clock::time_point last_fly_tick = Clock::now();
  double drag_x = 0, drag_y = 0;  // the drag's offset at the last update
  bool drag_looks = false;        // this drag turns the view in place (mouse look)
  bool drag_moves_light = false;
  Vec3 drag_light;
  Vec3 light;
  RenderMode mode = RenderMode::whitted;
  int depth = 3, aa = 1, grid = 10, device = -1;
  bool shadows = true;
  double scale = 1.0;

  // Frames.
  std::uint64_t next_serial = 1;
  std::uint64_t latest_serial = 0;
  int last_width = 0, last_height = 0;  // the view's size when the last request was made
  Clock::time_point last_frame = Clock::now();
  double fps = 0;
  int frames_shown = 0;
  int screenshots = 0;
  // The last frame as rendered (the accumulated image), for "Save image".
  int image_width = 0, image_height = 0;
  std::vector<cl_uint> image;

  // gui_controller.cpp
  // Asks the worker for a frame of the current view; `accumulate` continues the last image.
  void submit(bool accumulate = false);
  void receive(ViewResult result);
  void show_status(const ViewResult& result);
  void adopt_opened_scene(const ViewResult& result);
  void log_frame(const ViewResult& result) const;
  // The view as the scene's camera and first light have it.
  void reset_view();
  void set_light_from_scene();
  void set_mode(RenderMode next);
  void set_camera_mode(CameraMode next);
  // Moves the camera by the fly keys held, for the time since the last call (at most 0.1 s).
  void fly();
  // A line in the panel under the actions (errors in red); also logged for tests.
  void show_message(const std::string& text, bool error);
  void screenshot();
  void sync_light_controls();

  // gui_files.cpp
  // A scene or model file (or built-in name), or an image to surround the scene asked for last
  // (shown, or still opening); reload opens that scene again.
  void open(const std::string& source);
  void reload();
  // Asks for `choice`, keeping the view unless a scene not yet shown is opening.
  void reopen_wanted(SceneChoice choice);
  void save_image(const std::string& path);
  void save_scene(const std::string& path);
  // The scene with the view as it is now: the camera, the light, the sphere grid, the size.
  Scene scene_as_shown() const;
};

inline Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

// The side panel: scene actions, mode, camera, light, quality and device (gui_panel.cpp).
GtkWidget* build_panel(Gui* g);
// Mouse on the frame view, the window's keys and the frame-clock tick (gui_input.cpp).
void add_input_handlers(Gui* g, GtkWindow* window);
// The dialogs (file choosers) and dropping files onto the window (gui_files.cpp).
void ask_to_open(Gui* g);
void ask_to_save_image(Gui* g);
void ask_to_save_scene(Gui* g);
void accept_dropped_scenes(Gui* g);

}  // namespace raytracer

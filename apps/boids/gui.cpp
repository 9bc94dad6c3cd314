// The cl-boids window: the flock drawn on the device (FrameRenderer) into the shared frame view,
// the side panel beside it; the goal follows the mouse; 2D, or 3D with a camera that orbits
// (drag) and zooms (scroll); an overlay with fps and device time per stage. A worker thread
// (clf::gtk::run_window) owns the device: the UI sends it one request at a time, holding
// everything the frame depends on, and never waits on the device.
#include "apps/boids/gui.hpp"

#include <memory>
#include <string>

#include "apps/boids/gui_window.hpp"
#include "apps/gtk/window_app.hpp"
#include "framework/error.hpp"

namespace boids {

namespace {

void build_window(Gui* g, GtkApplication* app, GtkWindow* window) {
  g->app = app;
  g->window = window;
  g->view = std::make_unique<clf::gtk::FrameView>();
  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append(GTK_BOX(root), g->view->widget());
  gtk_box_append(GTK_BOX(root), build_panel(g));
  gtk_window_set_child(window, root);

  add_input_handlers(g, window);

  g->smoke.start(app, window, g->options.smoke_screenshot);
}

}  // namespace

int run_gui(const GuiOptions& options) {
  // The starting options are checked before a window opens, named as on the command line.
  std::size_t count = options.model.count;
  if (count == 0) throw clf::Error("--n must be at least 1, got 0");
  if (!options.model.init_file.empty())
    throw clf::Error("--init: the window starts from --seed (use `cl-boids run --init`)");
  const BoidsRules rules = options.model.rules(count);
  if (!options.model.brute) make_grid(rules, options.model.cell_width, ~0ull);
  if (options.smoke_frames < 2)
    throw clf::Error("--smoke-frames must be at least 2, got " +
                     std::to_string(options.smoke_frames));
  if (!clf::gtk::open_display("cl-boids", "use `cl-boids run` headless")) return 1;
  Gui gui;
  gui.options = options;
  gui.model = options.model;
  gui.count = count;
  auto maker = std::make_shared<FrameMaker>(options.request);
  Gui* g = &gui;
  return clf::gtk::run_window<FrameRequest, FrameResult>(
      {"org.opencl_apps.boids", "cl-boids", 1200, 820}, gui.worker,
      [maker](const FrameRequest& r) { return maker->make(r); },
      [g](FrameResult result) { g->receive(std::move(result)); },
      [g](GtkApplication* app, GtkWindow* window) { build_window(g, app, window); }, gui.smoke);
}

}  // namespace boids

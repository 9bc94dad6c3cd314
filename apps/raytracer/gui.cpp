// The cl-raytracer window: the frame fills the window and follows its size; the camera orbits or
// flies; files open from a chooser, by dropping them onto the window or by reloading; the image
// and the scene save to files; Whitted or path-traced rendering. Frames are rendered on a worker
// thread that only ever runs the newest request (clf::gtk::LatestOnlyWorker), and a still view
// keeps accumulating frames. The parts: gui_window.hpp.
#include "apps/raytracer/gui.hpp"

#include "apps/gtk/event_log.hpp"
#include "apps/gtk/window_app.hpp"
#include "apps/raytracer/gui_window.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/scene_source.hpp"

namespace raytracer {

namespace {

void build_window(Gui* g, GtkWindow* window) {
  g->window = window;
  g->view = std::make_unique<clf::gtk::FrameView>();
  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append(GTK_BOX(root), g->view->widget());
  // The panel scrolls where the window is too short for it.
  GtkWidget* scroller = gtk_scrolled_window_new();
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
                                 GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(scroller), TRUE);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), build_panel(g));
  gtk_box_append(GTK_BOX(root), scroller);
  gtk_window_set_child(window, root);
  add_input_handlers(g, window);
  accept_dropped_scenes(g);
  g->smoke.start(g->app, window, g->options.smoke_screenshot);
  clf::gtk::log_widget_bounds("view", g->view->widget());
}

}  // namespace

int run_gui(const GuiOptions& options) {
  if (!clf::gtk::open_display("cl-raytracer", "use `cl-raytracer render` headless")) return 1;
  Gui gui;
  gui.options = options;
  gui.mode = parse_render_mode(options.mode);
  gui.depth = default_depth(gui.mode);
  // The first scene opens before the window shows, so a bad --scene fails at once; later ones
  // open on the worker thread.
  gui.scene = std::make_shared<const Scene>(open_scene(options.scene));
  gui.shown = gui.wanted = {options.scene, gui.next_generation++, ""};
  gui.view_generation = gui.shown.generation;
  gui.reset_view();
  gui.set_light_from_scene();
  gui.fly_speed = fly_speed(scene_bounds(scene_with_grid(*gui.scene, gui.grid)), gui.scene->camera);
  gui.scale = options.scale;
  auto state = std::make_shared<RenderState>(gui.scene, gui.shown, options.request);
  Gui* g = &gui;
  return clf::gtk::run_window<ViewRequest, ViewResult>(
      {"org.opencl_apps.raytracer", "cl-raytracer", 1100, 760}, gui.worker,
      [state](const ViewRequest& r) { return state->render(r); },
      [g](ViewResult result) { g->receive(std::move(result)); },
      [g](GtkApplication* app, GtkWindow* window) {
        g->app = app;
        build_window(g, window);
        g->submit();
      },
      gui.smoke);
}

}  // namespace raytracer

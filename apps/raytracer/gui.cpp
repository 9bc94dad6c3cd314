// The cl-raytracer window: the frame fills the window and follows its size; drag to orbit,
// scroll to zoom, a light mode in which dragging moves the light; controls for the light,
// reflection depth, anti-aliasing, sphere count, shadows, resolution and device; an overlay
// with fps and per-stage times; a screenshot action. Frames are rendered on a worker thread
// that only ever runs the newest request (clf::gtk::LatestOnlyWorker), and a still camera keeps
// accumulating jittered frames.
#include "apps/raytracer/gui.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/gtk/controls.hpp"
#include "apps/gtk/event_log.hpp"
#include "apps/gtk/frame_view.hpp"
#include "apps/gtk/input.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"
#include "apps/gtk/window_app.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/renderer.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/device.hpp"

namespace raytracer {

namespace {

constexpr cl_uint kMaxAccumulatedFrames = 64;

struct ViewRequest {
  std::uint64_t serial = 0;
  int width = 0, height = 0;
  CameraView camera;
  Vec3 light;
  int depth = 3, aa = 1, grid = 10;
  bool shadows = true;
  bool accumulate = false;
  int device = -1;  // index into enumerate_devices(), -1: the options' choice
};

struct ViewResult {
  std::uint64_t serial = 0;
  int width = 0, height = 0;
  std::vector<cl_uint> rgba;
  FrameTimings timings;
  std::size_t spheres = 0;
  std::size_t triangles = 0;  // placed in the world (instances count their mesh)
  std::string device;
  std::string error;
};

// What the worker thread owns: the device, the renderer and the scene state on it.
class RenderState {
 public:
  RenderState(Scene base, clf::DeviceRequest request)
      : base_(std::move(base)), request_(std::move(request)) {}

  ViewResult render(const ViewRequest& r) {
    ViewResult result;
    result.serial = r.serial;
    try {
      if (!renderer_ || r.device != device_) {
        renderer_.reset();
        runtime_.reset();
        if (r.device >= 0) {
          clf::DeviceRequest settings = request_;
          runtime_ =
              std::make_unique<clf::Runtime>(clf::enumerate_devices().at(r.device), settings);
        } else {
          runtime_ = std::make_unique<clf::Runtime>(request_);
        }
        renderer_ = std::make_unique<DeviceRenderer>(*runtime_);
        device_ = r.device;
        grid_ = -1;
      }
      if (r.grid != grid_) {
        scene_ = base_.name == "seed" ? seed_scene(r.grid) : base_;
        renderer_->set_scene(scene_);
        grid_ = r.grid;
      }
      if (!scene_.lights.empty()) {
        const cl_float4 p = to_float4(r.light);
        if (p.x != scene_.lights[0].position.x || p.y != scene_.lights[0].position.y ||
            p.z != scene_.lights[0].position.z) {
          scene_.lights[0].position = p;
          renderer_->set_lights(scene_.lights);
        }
      }
      renderer_->set_camera(r.camera);
      RenderSettings settings;
      settings.width = r.width;
      settings.height = r.height;
      settings.depth = r.depth;
      settings.aa = r.aa;
      settings.shadows = r.shadows;
      if (!r.accumulate) renderer_->reset_accumulation();
      // set_camera restarts accumulation; an accumulating request continues it.
      result.timings = renderer_->render(settings, r.accumulate);
      result.rgba = renderer_->image();
      result.width = r.width;
      result.height = r.height;
      result.spheres = scene_.spheres.size();
      result.triangles = placed_triangle_count(scene_);
      result.device = runtime_->device_name();
    } catch (const std::exception& error) {
      result.error = error.what();
    }
    return result;
  }

 private:
  Scene base_;
  Scene scene_;
  clf::DeviceRequest request_;
  std::unique_ptr<clf::Runtime> runtime_;
  std::unique_ptr<DeviceRenderer> renderer_;
  int device_ = -2;
  int grid_ = -1;
};

struct Gui {
  GuiOptions options;
  Scene scene;
  GtkApplication* app = nullptr;
  GtkWindow* window = nullptr;
  std::unique_ptr<clf::gtk::FrameView> view;
  std::unique_ptr<clf::gtk::LatestOnlyWorker<ViewRequest, ViewResult>> worker;
  GtkWidget* light_scales[3] = {nullptr, nullptr, nullptr};
  GtkWidget* light_toggle = nullptr;
  GtkWidget* depth_spin = nullptr;
  GtkWidget* aa_spin = nullptr;
  GtkWidget* grid_spin = nullptr;

  // Orbit camera around `target`.
  Vec3 target;
  float yaw = 0, pitch = 0, distance = 1;
  float drag_yaw = 0, drag_pitch = 0;
  Vec3 drag_light;
  Vec3 light;
  int depth = 3, aa = 1, grid = 10, device = -1;
  bool shadows = true;
  double scale = 1.0;
  bool updating_controls = false;

  std::uint64_t next_serial = 1;
  std::uint64_t latest_serial = 0;
  int last_width = 0, last_height = 0;
  std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
  double fps = 0;
  int frames_shown = 0;
  int screenshots = 0;
  clf::gtk::SmokeTest smoke;

  CameraView camera() const {
    CameraView c = scene.camera;
    c.look_at = target;
    c.position = {target.x + distance * std::cos(pitch) * std::sin(yaw),
                  target.y + distance * std::sin(pitch),
                  target.z + distance * std::cos(pitch) * std::cos(yaw)};
    return c;
  }

  void reset_view() {
    target = scene.camera.look_at;
    const Vec3 p = scene.camera.position;
    const float dx = p.x - target.x, dy = p.y - target.y, dz = p.z - target.z;
    distance = std::sqrt(dx * dx + dy * dy + dz * dz);
    yaw = std::atan2(dx, dz);
    pitch = std::asin(dy / distance);
  }

  void submit(bool accumulate = false) {
    ViewRequest r;
    r.serial = next_serial++;
    latest_serial = r.serial;
    int w = view->width(), h = view->height();
    if (w <= 0 || h <= 0) {
      w = 640;
      h = 640;
    }
    last_width = view->width();
    last_height = view->height();
    r.width = std::max(16, static_cast<int>(w * scale));
    r.height = std::max(16, static_cast<int>(h * scale));
    r.camera = camera();
    r.light = light;
    r.depth = depth;
    r.aa = aa;
    r.grid = grid;
    r.shadows = shadows;
    r.accumulate = accumulate;
    r.device = device;
    worker->submit(r);
  }

  // For tests that drive the window from outside (clf::gtk::log_event; off unless asked for).
  void log_frame(const ViewResult& result) const {
    if (!clf::gtk::events_enabled()) return;
    const CameraView c = camera();
    char camera_json[160], light_json[96];
    std::snprintf(camera_json, sizeof camera_json, "[%.4f,%.4f,%.4f,%.4f]", c.position.x,
                  c.position.y, c.position.z, c.fov_y);
    std::snprintf(light_json, sizeof light_json, "[%.4f,%.4f,%.4f]", light.x, light.y, light.z);
    clf::gtk::log_event("frame", {{"width", result.width},
                                  {"height", result.height},
                                  clf::gtk::EventField::raw("camera", camera_json),
                                  clf::gtk::EventField::raw("light", light_json)});
  }

  void receive(ViewResult result) {
    if (!result.error.empty()) {
      view->set_overlay_text("error: " + result.error);
      std::cerr << "cl-raytracer: " << result.error << "\n";
      smoke.finish(false, result.error);
      return;
    }
    view->show_rgba(result.width, result.height, result.rgba);
    log_frame(result);
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_frame).count();
    last_frame = now;
    fps = fps == 0 ? 1000.0 / ms : 0.8 * fps + 0.2 * (1000.0 / ms);
    std::ostringstream text;
    text.setf(std::ios::fixed);
    text.precision(1);
    text << fps << " fps   bvh " << result.timings.bvh_ms << " ms   trace "
         << result.timings.trace_ms << " ms   copy " << result.timings.copy_ms << " ms\n"
         << result.width << "x" << result.height << "   " << result.spheres << " spheres   "
         << result.triangles << " triangles   depth " << depth << "   aa " << aa << "x" << aa
         << "   frames " << result.timings.accumulated << "\n"
         << result.device;
    view->set_overlay_text(text.str());
    ++frames_shown;
    // Still camera: keep refining, unless a newer request is already on its way.
    if (result.serial == latest_serial && result.timings.accumulated < kMaxAccumulatedFrames)
      submit(true);
    // Smoke test: once frames have been shown in a laid-out window, let it draw, then save it.
    if (smoke.active() && frames_shown >= options.smoke_frames && view->width() > 0) {
      smoke.screenshot_after(
          300, [this] { return std::to_string(frames_shown) + " frames"; },
          clf::gtk::more_colors_than(50));
    }
  }

  void screenshot() { clf::gtk::save_screenshot(window, "raytracer", &screenshots); }

  void sync_light_scales() {
    updating_controls = true;
    const float values[3] = {light.x, light.y, light.z};
    for (int i = 0; i < 3; ++i) gtk_range_set_value(GTK_RANGE(light_scales[i]), values[i]);
    updating_controls = false;
  }
};

Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

void on_drag_begin(GtkGestureDrag*, double, double, gpointer data) {
  Gui* g = gui_of(data);
  g->drag_yaw = g->yaw;
  g->drag_pitch = g->pitch;
  g->drag_light = g->light;
}

void on_drag_update(GtkGestureDrag*, double dx, double dy, gpointer data) {
  Gui* g = gui_of(data);
  if (gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(g->light_toggle))) {
    // Light mode: the light moves in the ground plane, as seen from the camera.
    const float k = g->distance / 300.0f;
    const float cy = std::cos(g->yaw), sy = std::sin(g->yaw);
    g->light.x =
        g->drag_light.x - k * static_cast<float>(dx) * cy + k * static_cast<float>(dy) * sy;
    g->light.z =
        g->drag_light.z + k * static_cast<float>(dx) * sy + k * static_cast<float>(dy) * cy;
    g->sync_light_scales();
  } else {
    g->yaw = g->drag_yaw - static_cast<float>(dx) * 0.01f;
    g->pitch = std::clamp(g->drag_pitch + static_cast<float>(dy) * 0.01f, -1.5f, 1.5f);
  }
  g->submit();
}

gboolean on_scroll(GtkEventControllerScroll*, double, double dy, gpointer data) {
  Gui* g = gui_of(data);
  g->distance = std::clamp(g->distance * std::pow(1.1f, static_cast<float>(dy)), 0.5f, 1e6f);
  g->submit();
  return TRUE;
}

gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType, gpointer data) {
  Gui* g = gui_of(data);
  switch (key) {
    case GDK_KEY_q:
    case GDK_KEY_Escape:
      gtk_window_destroy(g->window);
      return TRUE;
    case GDK_KEY_s:
      g->screenshot();
      return TRUE;
    case GDK_KEY_l:
      gtk_toggle_button_set_active(
          GTK_TOGGLE_BUTTON(g->light_toggle),
          !gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(g->light_toggle)));
      return TRUE;
    case GDK_KEY_r:
      g->reset_view();
      g->submit();
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(g->depth_spin), g->depth + 1);
      return TRUE;
    case GDK_KEY_minus:
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(g->depth_spin), g->depth - 1);
      return TRUE;
    case GDK_KEY_a:
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(g->aa_spin), g->aa % 4 + 1);
      return TRUE;
    default:
      return FALSE;
  }
}

// Re-renders when the view's size changes (the image follows the window).
gboolean on_tick(GtkWidget*, GdkFrameClock*, gpointer data) {
  Gui* g = gui_of(data);
  if (g->view->width() != g->last_width || g->view->height() != g->last_height) g->submit();
  return G_SOURCE_CONTINUE;
}

void on_light_scale(GtkRange*, gpointer data) {
  Gui* g = gui_of(data);
  if (g->updating_controls) return;
  g->light = {static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[0]))),
              static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[1]))),
              static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[2])))};
  g->submit();
}

void on_resolution(GObject* object, GParamSpec*, gpointer data) {
  const guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(object));
  gui_of(data)->scale = i == 0 ? 1.0 : i == 1 ? 0.5 : 0.25;
  gui_of(data)->submit();
}

void on_shadows(GtkCheckButton* button, gpointer data) {
  gui_of(data)->shadows = gtk_check_button_get_active(button);
  gui_of(data)->submit();
}

void on_screenshot(GtkButton*, gpointer data) { gui_of(data)->screenshot(); }

GtkWidget* spin(GtkWidget* box, const char* text, int low, int high, int value,
                void (*changed)(GtkSpinButton*, gpointer), Gui* g) {
  GtkWidget* s = gtk_spin_button_new_with_range(low, high, 1);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  g_signal_connect(s, "value-changed", G_CALLBACK(changed), g);
  return clf::gtk::append_labelled(box, text, s);
}

void build_window(Gui* g, GtkApplication*, GtkWindow* window) {
  g->window = window;
  g->view = std::make_unique<clf::gtk::FrameView>();
  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append(GTK_BOX(root), g->view->widget());

  GtkWidget* panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start(panel, 8);
  gtk_widget_set_margin_end(panel, 8);
  gtk_widget_set_margin_top(panel, 8);
  gtk_widget_set_size_request(panel, 220, -1);
  clf::gtk::append_labelled(panel, "Device",
                            clf::gtk::device_picker(std::max(g->device, 0), [g](int index) {
                              g->device = index;
                              g->submit();
                            }));
  g->light_toggle = gtk_toggle_button_new_with_label("Drag moves the light (L)");
  gtk_box_append(GTK_BOX(panel), g->light_toggle);
  const char* axes[3] = {"Light x", "Light y", "Light z"};
  const float extent = std::max(20.0f, 2.0f * g->distance);
  for (int i = 0; i < 3; ++i) {
    g->light_scales[i] =
        gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, -extent, extent, extent / 200);
    g_signal_connect(g->light_scales[i], "value-changed", G_CALLBACK(on_light_scale), g);
    clf::gtk::append_labelled(panel, axes[i], g->light_scales[i]);
  }
  g->sync_light_scales();
  g->depth_spin = spin(
      panel, "Reflection depth (+/-)", 0, RT_MAX_DEPTH, g->depth,
      +[](GtkSpinButton* s, gpointer data) {
        gui_of(data)->depth = gtk_spin_button_get_value_as_int(s);
        gui_of(data)->submit();
      },
      g);
  g->aa_spin = spin(
      panel, "Anti-aliasing NxN (A)", 1, RT_MAX_AA, g->aa,
      +[](GtkSpinButton* s, gpointer data) {
        gui_of(data)->aa = gtk_spin_button_get_value_as_int(s);
        gui_of(data)->submit();
      },
      g);
  g->grid_spin = spin(
      panel, "Spheres per side (seed: n^3)", 1, 40, g->grid,
      +[](GtkSpinButton* s, gpointer data) {
        gui_of(data)->grid = gtk_spin_button_get_value_as_int(s);
        gui_of(data)->submit();
      },
      g);
  gtk_widget_set_sensitive(g->grid_spin, g->scene.name == "seed");
  GtkWidget* shadows = gtk_check_button_new_with_label("Shadows");
  gtk_check_button_set_active(GTK_CHECK_BUTTON(shadows), TRUE);
  g_signal_connect(shadows, "toggled", G_CALLBACK(on_shadows), g);
  gtk_box_append(GTK_BOX(panel), shadows);
  const char* scales[] = {"100%", "50%", "25%", nullptr};
  GtkWidget* resolution = gtk_drop_down_new_from_strings(scales);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(resolution), g->scale >= 1     ? 0
                                                        : g->scale >= 0.5 ? 1
                                                                          : 2);
  g_signal_connect(resolution, "notify::selected", G_CALLBACK(on_resolution), g);
  clf::gtk::append_labelled(panel, "Resolution", resolution);
  GtkWidget* shot = gtk_button_new_with_label("Screenshot (S)");
  g_signal_connect(shot, "clicked", G_CALLBACK(on_screenshot), g);
  gtk_box_append(GTK_BOX(panel), shot);
  GtkWidget* help = gtk_label_new("Drag: orbit   Scroll: zoom\nR: reset view   Q: quit");
  gtk_widget_set_halign(help, GTK_ALIGN_START);
  gtk_box_append(GTK_BOX(panel), help);
  gtk_box_append(GTK_BOX(root), panel);
  gtk_window_set_child(window, root);

  clf::gtk::PointerHandlers pointer;
  pointer.drag_begin = on_drag_begin;
  pointer.drag_update = on_drag_update;
  pointer.scroll = on_scroll;
  clf::gtk::add_pointer_handlers(g->view->widget(), pointer, g);
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::bubble);
  gtk_widget_add_tick_callback(g->view->widget(), on_tick, g, nullptr);

  g->smoke.start(g->app, window, g->options.smoke_screenshot);
  clf::gtk::log_widget_bounds("view", g->view->widget());
  clf::gtk::log_widget_bounds("light_x", g->light_scales[0]);
  clf::gtk::log_widget_bounds("resolution", resolution);
}

}  // namespace

int run_gui(const GuiOptions& options) {
  if (!clf::gtk::open_display("cl-raytracer", "use `cl-raytracer render` headless")) return 1;
  Gui gui;
  gui.options = options;
  gui.scene = open_scene(options.scene);
  gui.reset_view();
  gui.light = gui.scene.lights.empty()
                  ? Vec3{0, 10, 0}
                  : Vec3{gui.scene.lights[0].position.x, gui.scene.lights[0].position.y,
                         gui.scene.lights[0].position.z};
  gui.scale = options.scale;
  auto state = std::make_shared<RenderState>(gui.scene, options.request);
  Gui* g = &gui;
  return clf::gtk::run_window<ViewRequest, ViewResult>(
      {"org.opencl_apps.raytracer", "cl-raytracer", 1100, 760}, gui.worker,
      [state](const ViewRequest& r) { return state->render(r); },
      [g](ViewResult result) { g->receive(std::move(result)); },
      [g](GtkApplication* app, GtkWindow* window) {
        g->app = app;
        build_window(g, app, window);
        g->submit();
      },
      gui.smoke);
}

}  // namespace raytracer

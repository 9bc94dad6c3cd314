// The cl-boids window: the flock drawn on the device (FrameRenderer) into the shared frame view;
// the goal follows the mouse; sliders for every weight and radius, max speed, dt and N; pause,
// step and reset; 2D, or 3D with a camera that orbits (drag) and zooms (scroll); an overlay with
// fps and device time per stage; device picker and screenshots.
//
// A worker thread (clf::gtk::LatestOnlyWorker) owns the device, the Simulation and the renderer.
// The UI sends it one request at a time, holding everything the frame depends on (rules, N,
// view, steps to run); a change of N, dims, box, device or a reset makes a new Simulation, any
// other change is Simulation::set_rules before the next step (no kernel is rebuilt). The UI thread
// never waits on the device.
#include "apps/boids/gui.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/boids/render.hpp"
#include "apps/boids/simulation.hpp"
#include "apps/gtk/frame_view.hpp"
#include "apps/gtk/input.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"
#include "apps/gtk/window_app.hpp"

namespace boids {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxFrameSide = 1024;  // frames are scaled up to the window beyond this
constexpr double kMinLog10N = 2.0;   // the N slider: 100 ..
constexpr double kMaxLog10N = 6.5;   // .. about 3 million

// Everything one frame depends on.
struct FrameRequest {
  BoidsRules rules{};  // goal and goal_weight from the mouse and the goal toggle
  std::size_t count = 0;
  std::uint64_t seed = 1;
  Method method;
  std::uint64_t generation = 0;  // bumped by reset: a new Simulation from the seed
  int device = -1;               // index into enumerate_devices(), -1: the options' choice
  int steps = 0;                 // steps before drawing
  int width = 0, height = 0;
  float yaw = 0.6f, pitch = 0.45f, zoom = 1.0f;
  bool goal_marker = false;
};

struct FrameResult {
  int width = 0, height = 0;
  std::vector<std::uint32_t> rgba;
  int steps = 0;  // run for this frame
  std::array<double, kStageCount> stage_ms{};
  double draw_ms = 0;
  std::size_t steps_done = 0;
  std::size_t count = 0;
  BoidsRules rules{};  // the rules the simulation has now
  std::string device;
  std::string method;
  std::string warning;  // rules the simulation refused (it kept its old ones)
  std::string error;    // no simulation
};

BoidsView view_of(const BoidsRules& rules, int width, int height, float yaw, float pitch,
                  float zoom) {
  BoidsView view = make_view(rules, width, height, yaw, pitch);
  view.focal *= zoom;
  return view;
}

// Where a world point lands in the frame (as kernels/boids/render.cl maps it); false if behind.
bool project(const BoidsRules& rules, const BoidsView& view, const cl_float4& p, float* sx,
             float* sy) {
  const float L = rules.half_width;
  if (rules.dims == 2) {
    *sx = (p.x + L) / (2.0f * L) * static_cast<float>(view.width);
    *sy = (L - p.y) / (2.0f * L) * static_cast<float>(view.height);
    return true;
  }
  const float cx = p.x * view.right.x + p.y * view.right.y + p.z * view.right.z;
  const float cy = p.x * view.up.x + p.y * view.up.y + p.z * view.up.z;
  const float depth =
      view.distance + p.x * view.forward.x + p.y * view.forward.y + p.z * view.forward.z;
  if (depth <= 0.0f) return false;
  *sx = 0.5f * static_cast<float>(view.width) + view.focal * cx / depth;
  *sy = 0.5f * static_cast<float>(view.height) - view.focal * cy / depth;
  return true;
}

// The world point under frame pixel (sx, sy): in 2D the box, in 3D the plane through the box's
// centre facing the camera. Clamped into the box.
cl_float4 unproject(const BoidsRules& rules, const BoidsView& view, float sx, float sy) {
  const float L = rules.half_width;
  cl_float4 p{};
  if (rules.dims == 2) {
    p.x = sx / static_cast<float>(view.width) * 2.0f * L - L;
    p.y = L - sy / static_cast<float>(view.height) * 2.0f * L;
  } else {
    const float cx = (sx - 0.5f * static_cast<float>(view.width)) * view.distance / view.focal;
    const float cy = (0.5f * static_cast<float>(view.height) - sy) * view.distance / view.focal;
    p.x = cx * view.right.x + cy * view.up.x;
    p.y = cx * view.right.y + cy * view.up.y;
    p.z = cx * view.right.z + cy * view.up.z;
  }
  const float inside = L * 0.999f;
  p.x = std::clamp(p.x, -inside, inside);
  p.y = std::clamp(p.y, -inside, inside);
  p.z = std::clamp(p.z, -inside, inside);
  return p;
}

// A white cross with a dark outline where the goal is.
void draw_goal_marker(const BoidsRules& rules, const BoidsView& view,
                      std::vector<std::uint32_t>& rgba) {
  float fx, fy;
  if (!project(rules, view, rules.goal, &fx, &fy)) return;
  const int cx = static_cast<int>(fx), cy = static_cast<int>(fy);
  auto put = [&](int x, int y, std::uint32_t color) {
    if (x >= 0 && y >= 0 && x < view.width && y < view.height)
      rgba[static_cast<std::size_t>(y) * view.width + x] = color;
  };
  for (int pass = 0; pass < 2; ++pass) {
    const int arm = pass == 0 ? 9 : 8;
    const int thick = pass == 0 ? 1 : 0;
    const std::uint32_t color = pass == 0 ? 0xff202020u : 0xffffffffu;
    for (int d = -arm; d <= arm; ++d) {
      for (int t = -thick; t <= thick; ++t) {
        put(cx + d, cy + t, color);
        put(cx + t, cy + d, color);
      }
    }
  }
}

// Owned by the worker thread: the device, the simulation on it and the renderer.
class FrameMaker {
 public:
  explicit FrameMaker(clf::DeviceRequest request) : request_(std::move(request)) {
    request_.profiling = true;  // per-stage device times
  }

  FrameResult make(const FrameRequest& r) {
    FrameResult result;
    try {
      if (!runtime_ || r.device != device_) {
        renderer_.reset();
        simulation_.reset();
        frame_.reset();
        runtime_ = r.device >= 0 ? std::make_unique<clf::Runtime>(
                                       clf::enumerate_devices().at(r.device), request_)
                                 : std::make_unique<clf::Runtime>(request_);
        renderer_ = std::make_unique<FrameRenderer>(*runtime_);
        device_ = r.device;
      }
      const bool same_box = simulation_ && simulation_->size() == r.count &&
                            simulation_->rules().dims == r.rules.dims &&
                            simulation_->rules().half_width == r.rules.half_width &&
                            generation_ == r.generation;
      if (!same_box) {
        simulation_.reset();
        simulation_ = std::make_unique<Simulation>(*runtime_, r.rules, r.count, r.seed, r.method);
        generation_ = r.generation;
      } else if (std::memcmp(&simulation_->rules(), &r.rules, sizeof(BoidsRules)) != 0) {
        try {
          simulation_->set_rules(r.rules);  // the next step uses them; nothing is recompiled
        } catch (const clf::Error& refused) {
          result.warning = refused.what();
        }
      }
      StageRecorder recorder;
      for (int s = 0; s < r.steps; ++s) simulation_->step(&recorder);
      const BoidsView view =
          view_of(simulation_->rules(), r.width, r.height, r.yaw, r.pitch, r.zoom);
      const std::size_t pixels = static_cast<std::size_t>(r.width) * r.height;
      if (!frame_ || frame_->size() != pixels)
        frame_ = std::make_unique<clf::DeviceBuffer<cl_uchar4>>(*runtime_, pixels);
      runtime_->start_recording();
      renderer_->draw(*simulation_, view, *frame_);
      const std::vector<clf::Event> draw_events = runtime_->stop_recording();
      const std::vector<cl_uchar4> bytes = frame_->read();
      result.rgba.resize(bytes.size());
      std::memcpy(result.rgba.data(), bytes.data(), bytes.size() * sizeof(cl_uchar4));
      if (r.goal_marker) draw_goal_marker(simulation_->rules(), view, result.rgba);

      result.stage_ms = recorder.totals_ms();
      for (const clf::Event& event : draw_events) result.draw_ms += event.duration_ms();
      result.width = r.width;
      result.height = r.height;
      result.steps = r.steps;
      result.steps_done = simulation_->steps_done();
      result.count = simulation_->size();
      result.rules = simulation_->rules();
      result.device = runtime_->device_name();
      result.method = method_text();
    } catch (const std::exception& error) {
      result.error = error.what();
      simulation_.reset();  // rebuilt from the next request
    }
    return result;
  }

 private:
  std::string method_text() const {
    if (simulation_->method().brute) return "brute force";
    const BoidsGrid& g = simulation_->grid();
    std::string cells = std::to_string(g.cells_per_axis);
    for (int d = 1; d < simulation_->rules().dims; ++d)
      cells += "x" + std::to_string(g.cells_per_axis);
    return "grid " + cells + ", " + std::to_string(g.search_cells) + "^" +
           std::to_string(simulation_->rules().dims) + " cells searched, ranges by " +
           to_string(simulation_->cell_ranges());
  }

  clf::DeviceRequest request_;
  std::unique_ptr<clf::Runtime> runtime_;
  std::unique_ptr<FrameRenderer> renderer_;
  std::unique_ptr<Simulation> simulation_;
  std::unique_ptr<clf::DeviceBuffer<cl_uchar4>> frame_;
  int device_ = -2;
  std::uint64_t generation_ = 0;
};

// A slider bound to one model parameter.
struct Parameter {
  const char* label;
  float* value;
  double low, high, step;
  int digits;
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

  BoidsRules rules() const {
    BoidsRules r = model.rules(count);  // validated; half_width from the density or --box
    r.goal_weight = goal_on && goal_placed ? model.wg : 0.0f;
    if (goal_placed) r.goal = goal;
    return r;
  }

  std::pair<int, int> frame_size(int dims) const {
    int w = view->width(), h = view->height();
    if (w <= 0 || h <= 0) w = h = 640;
    if (dims == 2) w = h = std::min(w, h);  // the square box fills a square frame
    const double shrink = std::min(1.0, static_cast<double>(kMaxFrameSide) / std::max(w, h));
    return {std::max(16, static_cast<int>(w * shrink)), std::max(16, static_cast<int>(h * shrink))};
  }

  void request_frame() {
    FrameRequest r;
    try {
      r.rules = rules();
    } catch (const std::exception& error) {
      view->set_overlay_text(std::string("error: ") + error.what());
      dirty = false;
      return;
    }
    r.count = count;
    r.seed = model.seed;
    r.method = model.method();
    r.generation = generation;
    r.device = device;
    r.steps = running ? 1 : std::min(pending_steps, 1);
    pending_steps -= running ? 0 : r.steps;
    std::tie(r.width, r.height) = frame_size(r.rules.dims);
    r.yaw = yaw;
    r.pitch = pitch;
    r.zoom = zoom;
    r.goal_marker = r.rules.goal_weight != 0.0f;
    in_flight = true;
    dirty = false;
    worker->submit(r);
  }

  // Every frame-clock tick: keep one request in flight while running or while there is
  // something to show.
  void tick() {
    const auto now = Clock::now();
    if (frames_shown > 0)
      longest_tick_gap_ms = std::max(
          longest_tick_gap_ms, std::chrono::duration<double, std::milli>(now - last_tick).count());
    last_tick = now;
    if (!in_flight && (running || pending_steps > 0 || dirty)) request_frame();
  }

  void receive(FrameResult result) {
    in_flight = false;
    if (!result.error.empty()) {
      view->set_overlay_text("error: " + result.error);
      std::cerr << "cl-boids: " << result.error << "\n";
      smoke.finish(false, result.error);
      running = false;  // until the user changes something
      return;
    }
    view->show_rgba(result.width, result.height, result.rgba);
    frame_width = result.width;
    frame_height = result.height;
    frame_rules = result.rules;
    frame_yaw = yaw;
    frame_pitch = pitch;
    frame_zoom = zoom;
    steps_done = result.steps_done;
    const auto now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_frame).count();
    last_frame = now;
    fps = fps == 0 ? 1000.0 / std::max(ms, 1e-3) : 0.9 * fps + 0.1 * (1000.0 / std::max(ms, 1e-3));
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << fps << " fps   step " << result.steps_done
         << "   " << result.count << " boids, " << result.rules.dims << "D"
         << (running ? "" : "   PAUSED") << "\n";
    if (result.steps > 0) {
      text << "ms per step:" << std::setprecision(3);
      double total = 0;
      for (int stage = 0; stage < kStageCount; ++stage) {
        const double t = result.stage_ms[stage] / result.steps;
        total += t;
        text << "  " << stage_name(stage) << " " << t;
      }
      text << "  (total " << total << ")\n";
    }
    text << std::setprecision(3) << "draw " << result.draw_ms << " ms   " << result.width << "x"
         << result.height << "   " << result.method << "\n"
         << result.device;
    if (!result.warning.empty()) text << "\nrules refused: " << result.warning;
    view->set_overlay_text(text.str());
    ++frames_shown;
    smoke_steps();
  }

  // Smoke test: half way, change a rule as a slider would (set_rules between steps); at the
  // end check that it reached the simulation, the window is not blank and the UI never stalled.
  void smoke_steps() {
    if (!smoke.active()) return;
    if (!smoke_rule_changed && frames_shown >= options.smoke_frames / 2) {
      smoke_rule_changed = true;
      smoke_separation = model.ws * 2.0f;
      for (auto& [widget, parameter] : sliders) {
        if (parameter.value == &model.ws) gtk_range_set_value(GTK_RANGE(widget), smoke_separation);
      }
    }
    if (frames_shown >= options.smoke_frames && view->width() > 0) {
      const float applied = frame_rules.separation_weight;
      smoke.screenshot_after(
          300,
          [this] {
            std::ostringstream detail;
            detail << frames_shown << " frames, " << steps_done << " steps, longest UI stall "
                   << static_cast<int>(longest_tick_gap_ms) << " ms";
            return detail.str();
          },
          [this, applied](std::size_t colors, std::string* detail) {
            const bool rule_applied = std::fabs(applied - smoke_separation) < 1e-6f;
            if (!rule_applied) *detail += ", the changed w_s did not reach the simulation";
            return colors > 50 && rule_applied && longest_tick_gap_ms < 1000 &&
                   steps_done >= static_cast<std::size_t>(options.smoke_frames);
          });
    }
  }

  void set_running(bool run) {
    running = run;
    gtk_button_set_label(GTK_BUTTON(pause_button), running ? "Pause (space)" : "Run (space)");
    dirty = true;
  }

  void step_once() {
    if (running) set_running(false);
    ++pending_steps;
  }

  void reset() {
    ++generation;
    dirty = true;
  }

  void screenshot() {
    const std::string path = "boids-screenshot-" + std::to_string(++screenshots) + ".png";
    std::string error;
    if (clf::gtk::save_widget_png(gtk_window_get_child(window), path, &error)) {
      std::cout << "wrote " << path << std::endl;
    } else {
      std::cerr << "cl-boids: screenshot failed: " << error << "\n";
    }
  }

  // The mouse at (x, y) in the frame view: the goal goes there.
  void move_goal(double x, double y) {
    if (frame_width <= 0 || dragging) return;
    const double pw = view->width(), ph = view->height();
    const double scale = std::min(pw / frame_width, ph / frame_height);
    if (scale <= 0) return;
    const double fx = (x - 0.5 * (pw - frame_width * scale)) / scale;
    const double fy = (y - 0.5 * (ph - frame_height * scale)) / scale;
    const BoidsView v =
        view_of(frame_rules, frame_width, frame_height, frame_yaw, frame_pitch, frame_zoom);
    goal = unproject(frame_rules, v, static_cast<float>(fx), static_cast<float>(fy));
    goal_placed = true;
    dirty = true;
  }
};

Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

gboolean on_tick(GtkWidget*, GdkFrameClock*, gpointer data) {
  gui_of(data)->tick();
  return G_SOURCE_CONTINUE;
}

void on_motion(GtkEventControllerMotion*, double x, double y, gpointer data) {
  gui_of(data)->move_goal(x, y);
}

void on_drag_begin(GtkGestureDrag*, double, double, gpointer data) {
  Gui* g = gui_of(data);
  if (g->frame_rules.dims != 3) return;
  g->dragging = true;
  g->drag_yaw = g->yaw;
  g->drag_pitch = g->pitch;
}

void on_drag_update(GtkGestureDrag*, double dx, double dy, gpointer data) {
  Gui* g = gui_of(data);
  if (!g->dragging) return;
  g->yaw = g->drag_yaw - static_cast<float>(dx) * 0.01f;
  g->pitch = std::clamp(g->drag_pitch + static_cast<float>(dy) * 0.01f, -1.5f, 1.5f);
  g->dirty = true;
}

void on_drag_end(GtkGestureDrag*, double, double, gpointer data) { gui_of(data)->dragging = false; }

gboolean on_scroll(GtkEventControllerScroll*, double, double dy, gpointer data) {
  Gui* g = gui_of(data);
  g->zoom = std::clamp(g->zoom * std::pow(0.9f, static_cast<float>(dy)), 0.2f, 20.0f);
  g->dirty = true;
  return TRUE;
}

gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType, gpointer data) {
  Gui* g = gui_of(data);
  switch (key) {
    case GDK_KEY_space:
      g->set_running(!g->running);
      return TRUE;
    case GDK_KEY_s:
    case GDK_KEY_S:
      g->step_once();
      return TRUE;
    case GDK_KEY_r:
    case GDK_KEY_R:
      g->reset();
      return TRUE;
    case GDK_KEY_g:
    case GDK_KEY_G:
      gtk_check_button_set_active(GTK_CHECK_BUTTON(g->goal_toggle), !g->goal_on);
      return TRUE;
    case GDK_KEY_c:
    case GDK_KEY_C:
      g->screenshot();
      return TRUE;
    case GDK_KEY_q:
    case GDK_KEY_Q:
    case GDK_KEY_Escape:
      gtk_window_destroy(g->window);
      return TRUE;
    default:
      return FALSE;
  }
}

void on_parameter(GtkRange* range, gpointer data) {
  Gui* g = gui_of(data);
  for (auto& [widget, parameter] : g->sliders) {
    if (widget == GTK_WIDGET(range))
      *parameter.value = static_cast<float>(gtk_range_get_value(range));
  }
  g->dirty = true;
}

// N on a logarithmic slider, rounded to two significant digits.
std::size_t count_of_log10(double v) {
  const double n = std::pow(10.0, v);
  const double unit = std::pow(10.0, std::floor(std::log10(n)) - 1);
  return static_cast<std::size_t>(std::max(1.0, std::round(n / unit) * unit));
}

char* format_count(GtkScale*, double value, gpointer) {
  return g_strdup_printf("%zu", count_of_log10(value));
}

void on_count(GtkRange* range, gpointer data) {
  Gui* g = gui_of(data);
  g->count = count_of_log10(gtk_range_get_value(range));  // a new Simulation on the next frame
  g->dirty = true;
}

void on_dims(GObject* object, GParamSpec*, gpointer data) {
  Gui* g = gui_of(data);
  g->model.dims = gtk_drop_down_get_selected(GTK_DROP_DOWN(object)) == 0 ? 2 : 3;
  g->goal_placed = false;  // the old point is in the other space
  g->dirty = true;
}

void on_bounded(GtkCheckButton* button, gpointer data) {
  gui_of(data)->model.bounded = gtk_check_button_get_active(button);
  gui_of(data)->dirty = true;
}

void on_goal_toggle(GtkCheckButton* button, gpointer data) {
  gui_of(data)->goal_on = gtk_check_button_get_active(button);
  gui_of(data)->dirty = true;
}

GtkWidget* add_labelled(GtkWidget* box, const char* text, GtkWidget* control) {
  GtkWidget* label = gtk_label_new(text);
  gtk_widget_set_halign(label, GTK_ALIGN_START);
  gtk_box_append(GTK_BOX(box), label);
  gtk_box_append(GTK_BOX(box), control);
  return control;
}

GtkWidget* add_button(GtkWidget* box, const char* text, void (*clicked)(GtkButton*, gpointer),
                      Gui* g) {
  GtkWidget* button = gtk_button_new_with_label(text);
  g_signal_connect(button, "clicked", G_CALLBACK(clicked), g);
  gtk_box_append(GTK_BOX(box), button);
  return button;
}

GtkWidget* build_panel(Gui* g) {
  GtkWidget* panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start(panel, 8);
  gtk_widget_set_margin_end(panel, 8);
  gtk_widget_set_margin_top(panel, 8);
  gtk_widget_set_margin_bottom(panel, 8);
  gtk_widget_set_size_request(panel, 300, -1);

  add_labelled(panel, "Device", clf::gtk::device_picker(std::max(g->device, 0), [g](int index) {
                 g->device = index;
                 g->dirty = true;
               }));
  const char* dims[] = {"2D", "3D (drag: orbit, scroll: zoom)", nullptr};
  g->dims_dropdown = gtk_drop_down_new_from_strings(dims);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(g->dims_dropdown), g->model.dims == 2 ? 0 : 1);
  g_signal_connect(g->dims_dropdown, "notify::selected", G_CALLBACK(on_dims), g);
  add_labelled(panel, "Space", g->dims_dropdown);
  GtkWidget* bounded = gtk_check_button_new_with_label("Bounded (walls, not wrap-around)");
  gtk_check_button_set_active(GTK_CHECK_BUTTON(bounded), g->model.bounded);
  g_signal_connect(bounded, "toggled", G_CALLBACK(on_bounded), g);
  gtk_box_append(GTK_BOX(panel), bounded);

  // The sliders in a two-column grid (name, slider) so that all of them fit beside the frame.
  GtkWidget* grid = gtk_grid_new();
  gtk_grid_set_column_spacing(GTK_GRID(grid), 6);
  int row = 0;
  auto add_row = [&](const char* text, GtkWidget* scale) {
    GtkWidget* label = gtk_label_new(text);
    gtk_widget_set_halign(label, GTK_ALIGN_START);
    gtk_widget_set_hexpand(scale, TRUE);
    gtk_scale_set_draw_value(GTK_SCALE(scale), TRUE);
    gtk_scale_set_value_pos(GTK_SCALE(scale), GTK_POS_RIGHT);
    gtk_grid_attach(GTK_GRID(grid), label, 0, row, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), scale, 1, row, 1, 1);
    ++row;
  };
  GtkWidget* n = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, kMinLog10N, kMaxLog10N, 0.01);
  gtk_scale_set_format_value_func(GTK_SCALE(n), format_count, nullptr, nullptr);
  gtk_range_set_value(GTK_RANGE(n), std::log10(static_cast<double>(g->count)));
  g_signal_connect(n, "value-changed", G_CALLBACK(on_count), g);
  add_row("N (new flock)", n);

  ModelOptions& m = g->model;
  const Parameter parameters[] = {
      {"w_c cohesion", &m.wc, 0.0, 0.1, 0.001, 3},
      {"w_s separation", &m.ws, 0.0, 1.0, 0.005, 3},
      {"w_a alignment", &m.wa, 0.0, 1.0, 0.005, 3},
      {"w_g goal", &m.wg, 0.0, 0.5, 0.005, 3},
      {"r_c cohesion", &m.rc, 0.0, 20.0, 0.1, 1},
      {"r_s separation", &m.rs, 0.0, 20.0, 0.1, 1},
      {"r_a alignment", &m.ra, 0.0, 20.0, 0.1, 1},
      {"max speed", &m.max_speed, 0.05, 5.0, 0.05, 2},
      {"dt", &m.dt, 0.01, 1.0, 0.01, 2},
  };
  for (const Parameter& p : parameters) {
    GtkWidget* scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, p.low, p.high, p.step);
    gtk_scale_set_digits(GTK_SCALE(scale), p.digits);
    gtk_range_set_value(GTK_RANGE(scale), *p.value);
    *p.value = static_cast<float>(gtk_range_get_value(GTK_RANGE(scale)));  // as the slider has it
    g->sliders.emplace_back(scale, p);
    g_signal_connect(scale, "value-changed", G_CALLBACK(on_parameter), g);
    add_row(p.label, scale);
  }
  gtk_box_append(GTK_BOX(panel), grid);
  g->goal_toggle = gtk_check_button_new_with_label("Goal follows the mouse (G)");
  gtk_check_button_set_active(GTK_CHECK_BUTTON(g->goal_toggle), g->goal_on);
  g_signal_connect(g->goal_toggle, "toggled", G_CALLBACK(on_goal_toggle), g);
  gtk_box_append(GTK_BOX(panel), g->goal_toggle);

  GtkWidget* buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
  g->pause_button = add_button(
      buttons, "Pause (space)",
      +[](GtkButton*, gpointer d) { gui_of(d)->set_running(!gui_of(d)->running); }, g);
  add_button(
      buttons, "Step (S)", +[](GtkButton*, gpointer d) { gui_of(d)->step_once(); }, g);
  add_button(
      buttons, "Reset (R)", +[](GtkButton*, gpointer d) { gui_of(d)->reset(); }, g);
  gtk_box_append(GTK_BOX(panel), buttons);
  add_button(
      panel, "Screenshot (C)", +[](GtkButton*, gpointer d) { gui_of(d)->screenshot(); }, g);
  GtkWidget* help = gtk_label_new("Mouse: goal   Q: quit");
  gtk_widget_set_halign(help, GTK_ALIGN_START);
  gtk_box_append(GTK_BOX(panel), help);

  GtkWidget* scroller = gtk_scrolled_window_new();
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
                                 GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroller), TRUE);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), panel);
  return scroller;
}

void build_window(Gui* g, GtkApplication* app, GtkWindow* window) {
  g->app = app;
  g->window = window;
  g->view = std::make_unique<clf::gtk::FrameView>();
  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append(GTK_BOX(root), g->view->widget());
  gtk_box_append(GTK_BOX(root), build_panel(g));
  gtk_window_set_child(window, root);

  clf::gtk::PointerHandlers pointer;
  pointer.drag_begin = on_drag_begin;
  pointer.drag_update = on_drag_update;
  pointer.drag_end = on_drag_end;
  pointer.scroll = on_scroll;
  pointer.motion = on_motion;
  clf::gtk::add_pointer_handlers(g->view->widget(), pointer, g);
  // Capture phase: space and the letters reach the window even when a button has the focus.
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::capture);
  gtk_widget_add_tick_callback(g->view->widget(), on_tick, g, nullptr);

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

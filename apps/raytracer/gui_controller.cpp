// What the raytracer window does with its state: asks the worker for frames of the current view
// (newest request only), shows them with their status, keeps a still view accumulating, takes
// over a scene the worker opened, and moves the camera by the fly keys held.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "apps/gtk/event_log.hpp"
#include "apps/raytracer/frame_stats.hpp"
#include "apps/raytracer/gui_window.hpp"

namespace raytracer {

void Gui::submit(bool accumulate) {
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
  r.scene = wanted;
  r.view_generation = view_generation;
  r.camera = camera.view();
  r.light = light;
  r.mode = mode;
  r.depth = depth;
  r.aa = aa;
  r.grid = grid;
  r.shadows = shadows;
  r.accumulate = accumulate;
  r.device = device;
  worker->submit(r);
}

void Gui::receive(ViewResult result) {
  if (result.opened) adopt_opened_scene(result);
  if (!result.open_error.empty()) {
    // The scene shown stays; a reload that failed keeps its view on it.
    if (wanted.generation == result.open_choice.generation) wanted = shown;
    if (view_generation == result.open_choice.generation) view_generation = shown.generation;
    keep_view_on_open = false;
    show_message("Cannot open " + result.open_error, true);
  }
  if (!result.error.empty()) {
    view->set_overlay_text("error: " + result.error);
    std::cerr << "cl-raytracer: " << result.error << "\n";
    smoke.finish(false, result.error);
    return;
  }
  view->show_rgba(result.width, result.height, result.rgba);
  log_frame(result);
  show_status(result);
  image_width = result.width;
  image_height = result.height;
  image = std::move(result.rgba);
  ++frames_shown;
  // Still view: keep refining, unless a newer request is already on its way.
  const cl_uint most = mode == RenderMode::path ? kMaxPathFrames : kMaxWhittedFrames;
  if (result.serial == latest_serial && result.timings.accumulated < most) submit(true);
  // Smoke test: once frames have been shown in a laid-out window, let it draw, then save it.
  if (smoke.active() && frames_shown >= options.smoke_frames && view->width() > 0) {
    smoke.screenshot_after(
        300, [this] { return std::to_string(frames_shown) + " frames"; },
        clf::gtk::more_colors_than(50));
  }
}

void Gui::show_status(const ViewResult& result) {
  const auto now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - last_frame).count();
  last_frame = now;
  fps = fps == 0 ? 1000.0 / ms : 0.8 * fps + 0.2 * (1000.0 / ms);
  const FrameTimings& t = result.timings;
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(1);
  text << fps << " fps   " << render_mode_name(mode) << "   " << samples_per_pixel(t, aa) << " spp";
  // No rays: the renderer did not count them, and the line says nothing of them.
  if (const double rays = rays_per_second(t); rays > 0) text << "   " << rays * 1e-6 << " Mrays/s";
  text << "\nbvh " << t.bvh_ms << " ms   trace " << t.trace_ms << " ms   copy " << t.copy_ms
       << " ms\n"
       << result.width << "x" << result.height << "   " << result.spheres << " spheres   "
       << result.triangles << " triangles   depth " << depth << "   aa " << aa << "x" << aa
       << "   frames " << t.accumulated << "\n"
       << (camera_mode == CameraMode::fly ? "fly" : "orbit") << " camera   " << result.device;
  view->set_overlay_text(text.str());
}

void Gui::adopt_opened_scene(const ViewResult& result) {
  scene = result.opened;
  shown = result.open_choice;
  fly_speed = result.fly_speed;
  if (!keep_view_on_open || view_generation != shown.generation) {
    reset_view();
    set_light_from_scene();
  }
  keep_view_on_open = false;
  view_generation = shown.generation;
  gtk_widget_set_sensitive(grid_spin, scene->name == "seed");
  const std::string label =
      shown.source + (shown.environment.empty() ? "" : " in " + shown.environment);
  gtk_label_set_text(GTK_LABEL(scene_label), label.c_str());
  sync_light_controls();
  show_message("Opened " + label, false);
  clf::gtk::log_event("scene_opened", {{"source", shown.source},
                                       {"environment", shown.environment},
                                       {"generation", static_cast<double>(shown.generation)},
                                       {"spheres", static_cast<double>(scene->spheres.size())},
                                       {"instances", static_cast<double>(scene->instances.size())},
                                       {"fly_speed", fly_speed}});
}

// For tests that drive the window from outside (clf::gtk::log_event; off unless asked for).
void Gui::log_frame(const ViewResult& result) const {
  if (!clf::gtk::events_enabled()) return;
  const CameraView c = camera.view();
  char camera_json[160], look_json[96], light_json[96];
  std::snprintf(camera_json, sizeof camera_json, "[%.4f,%.4f,%.4f,%.4f]", c.position.x,
                c.position.y, c.position.z, c.fov_y);
  std::snprintf(look_json, sizeof look_json, "[%.4f,%.4f,%.4f]", c.look_at.x, c.look_at.y,
                c.look_at.z);
  std::snprintf(light_json, sizeof light_json, "[%.4f,%.4f,%.4f]", light.x, light.y, light.z);
  clf::gtk::log_event("frame", {{"width", result.width},
                                {"height", result.height},
                                clf::gtk::EventField::raw("camera", camera_json),
                                clf::gtk::EventField::raw("look_at", look_json),
                                clf::gtk::EventField::raw("light", light_json),
                                {"mode", render_mode_name(mode)},
                                {"camera_mode", camera_mode == CameraMode::fly ? "fly" : "orbit"},
                                {"accumulated", static_cast<double>(result.timings.accumulated)},
                                {"spp", static_cast<double>(samples_per_pixel(result.timings, aa))},
                                {"generation", static_cast<double>(result.generation)},
                                {"spheres", static_cast<double>(result.spheres)},
                                {"triangles", static_cast<double>(result.triangles)}});
}

void Gui::reset_view() { camera = CameraRig(scene->camera); }

void Gui::set_light_from_scene() {
  light = scene->lights.empty() ? Vec3{0, 10, 0}
                                : Vec3{scene->lights[0].position.x, scene->lights[0].position.y,
                                       scene->lights[0].position.z};
}

void Gui::set_mode(RenderMode next) {
  // Bounces left at one mode's default take the other's (3 reflections; 8 path bounces).
  const bool default_bounces = depth == default_depth(mode);
  mode = next;
  updating_controls = true;
  gtk_drop_down_set_selected(GTK_DROP_DOWN(mode_dropdown), next == RenderMode::path ? 1 : 0);
  if (default_bounces) {
    depth = default_depth(next);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(depth_spin), depth);
  }
  updating_controls = false;
  submit();
}

void Gui::set_camera_mode(CameraMode next) {
  camera_mode = next;
  updating_controls = true;
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(fly_toggle), next == CameraMode::fly);
  updating_controls = false;
  submit(true);  // the view is the same: the image goes on accumulating (the overlay says the mode)
}

void Gui::fly() {
  const auto now = Clock::now();
  // At most a tenth of a second a step: a stalled frame clock must not throw the camera away.
  const float seconds = std::min(0.1f, std::chrono::duration<float>(now - last_fly_tick).count());
  last_fly_tick = now;
  if (!fly_keys.any()) return;
  const float step = fly_speed * seconds;
  const auto axis = [](bool plus, bool minus) {
    return (plus ? 1.0f : 0.0f) - (minus ? 1.0f : 0.0f);
  };
  camera.move(step * axis(fly_keys.right, fly_keys.left), step * axis(fly_keys.up, fly_keys.down),
              step * axis(fly_keys.forward, fly_keys.back));
  submit();
}

void Gui::show_message(const std::string& text, bool error) {
  gtk_label_set_text(GTK_LABEL(message), text.c_str());
  if (error) {
    gtk_widget_add_css_class(message, "error");
    std::cerr << "cl-raytracer: " << text << "\n";
  } else {
    gtk_widget_remove_css_class(message, "error");
  }
  clf::gtk::log_event("message", {{"text", text}, {"error", error}});
}

void Gui::screenshot() { clf::gtk::save_screenshot(window, "raytracer", &screenshots); }

void Gui::sync_light_controls() {
  updating_controls = true;
  const float extent = std::max(20.0f, 2.0f * camera.distance());
  const float values[3] = {light.x, light.y, light.z};
  for (int i = 0; i < 3; ++i) {
    gtk_range_set_range(GTK_RANGE(light_scales[i]), -extent, extent);
    gtk_range_set_increments(GTK_RANGE(light_scales[i]), extent / 200, extent / 20);
    gtk_range_set_value(GTK_RANGE(light_scales[i]), values[i]);
  }
  updating_controls = false;
}

}  // namespace raytracer

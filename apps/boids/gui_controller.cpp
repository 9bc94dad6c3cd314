// What the boids window does: one frame request in flight at a time, built from the controls,
// its result shown with the overlay's figures; pause, step, reset, screenshots, the goal under
// the mouse, and the smoke test's steps. The UI thread never waits on the device.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <tuple>

#include "apps/boids/gui_window.hpp"
#include "apps/gtk/event_log.hpp"

namespace boids {
namespace {

// The command line's rules that the first frame did not run as given (a slider clamped or
// rounded them), e.g. ", --rc 30 ran as 20"; empty when all were kept.
std::string rules_not_kept(const BoidsRules& ran, const ModelOptions& asked) {
  const struct {
    const char* option;
    float ran, asked;
  } rules[] = {
      {"--rc", ran.cohesion_radius, asked.rc},         {"--rs", ran.separation_radius, asked.rs},
      {"--ra", ran.alignment_radius, asked.ra},        {"--wc", ran.cohesion_weight, asked.wc},
      {"--ws", ran.separation_weight, asked.ws},       {"--wa", ran.alignment_weight, asked.wa},
      {"--max-speed", ran.max_speed, asked.max_speed}, {"--dt", ran.dt, asked.dt}};
  std::ostringstream lost;
  for (const auto& rule : rules) {
    if (rule.ran != rule.asked)
      lost << ", " << rule.option << " " << rule.asked << " ran as " << rule.ran;
  }
  return lost.str();
}

}  // namespace

BoidsRules Gui::rules() const {
  BoidsRules r = model.rules(count);  // validated; half_width from the density or --box
  r.goal_weight = goal_on && goal_placed ? model.wg : 0.0f;
  if (goal_placed) r.goal = goal;
  return r;
}

std::pair<int, int> Gui::frame_size(int dims) const {
  int w = view->width(), h = view->height();
  if (w <= 0 || h <= 0) w = h = 640;
  if (dims == 2) w = h = std::min(w, h);  // the square box fills a square frame
  const double shrink = std::min(1.0, static_cast<double>(kMaxFrameSide) / std::max(w, h));
  return {std::max(16, static_cast<int>(w * shrink)), std::max(16, static_cast<int>(h * shrink))};
}

void Gui::request_frame() {
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

void Gui::tick() {
  const auto now = Clock::now();
  if (frames_shown > 0)
    longest_tick_gap_ms = std::max(
        longest_tick_gap_ms, std::chrono::duration<double, std::milli>(now - last_tick).count());
  last_tick = now;
  if (!in_flight && (running || pending_steps > 0 || dirty)) request_frame();
}

void Gui::receive(FrameResult result) {
  in_flight = false;
  if (!result.error.empty()) {
    view->set_overlay_text("error: " + result.error);
    std::cerr << "cl-boids: " << result.error << "\n";
    smoke.finish(false, result.error);
    set_running(false);  // until the user changes something (the button says Run again)
    dirty = false;       // not the same request again at the next tick
    return;
  }
  view->show_rgba(result.width, result.height, result.rgba);
  frame_width = result.width;
  frame_height = result.height;
  frame_rules = result.rules;
  if (frames_shown == 0) first_frame_rules = result.rules;
  frame_yaw = yaw;
  frame_pitch = pitch;
  frame_zoom = zoom;
  steps_done = result.steps_done;
  clf::gtk::log_event("frame", {{"step", static_cast<double>(result.steps_done)},
                                {"n", static_cast<double>(result.count)}});
  const auto now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - last_frame).count();
  last_frame = now;
  fps = fps == 0 ? 1000.0 / std::max(ms, 1e-3) : 0.9 * fps + 0.1 * (1000.0 / std::max(ms, 1e-3));
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << fps << " fps   step " << result.steps_done << "   "
       << result.count << " boids, " << result.rules.dims << "D" << (running ? "" : "   PAUSED")
       << "\n";
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

void Gui::smoke_steps() {
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
          const std::string lost = rules_not_kept(first_frame_rules, options.model);
          if (!lost.empty()) *detail += ", the first frame did not run the rules asked for" + lost;
          return colors > 50 && rule_applied && lost.empty() && longest_tick_gap_ms < 1000 &&
                 steps_done >= static_cast<std::size_t>(options.smoke_frames);
        });
  }
}

void Gui::set_running(bool run) {
  running = run;
  gtk_button_set_label(GTK_BUTTON(pause_button), running ? "Pause (space)" : "Run (space)");
  dirty = true;
}

void Gui::step_once() {
  if (running) set_running(false);
  ++pending_steps;
}

void Gui::reset() {
  ++generation;
  dirty = true;
}

void Gui::screenshot() { clf::gtk::save_screenshot(window, "boids", &screenshots); }

void Gui::move_goal(double x, double y) {
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

}  // namespace boids

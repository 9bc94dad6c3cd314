// The boids window's side panel: device and space, a slider for every weight and radius, max
// speed, dt and N (logarithmic), the box and goal toggles, and pause, step, reset, screenshot.
#include <algorithm>
#include <cmath>

#include "apps/boids/gui_window.hpp"
#include "apps/gtk/controls.hpp"
#include "apps/gtk/event_log.hpp"

namespace boids {

namespace {

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

GtkWidget* add_button(GtkWidget* box, const char* text, void (*clicked)(GtkButton*, gpointer),
                      Gui* g) {
  GtkWidget* button = gtk_button_new_with_label(text);
  g_signal_connect(button, "clicked", G_CALLBACK(clicked), g);
  gtk_box_append(GTK_BOX(box), button);
  return button;
}

// N and every weight and radius, in a two-column grid (name, slider) so that all of them fit
// beside the frame.
GtkWidget* build_sliders(Gui* g) {
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
  const double log10_count = std::log10(static_cast<double>(g->count));
  GtkWidget* n =
      gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, std::min(kMinLog10N, log10_count),
                               std::max(kMaxLog10N, log10_count), 0.01);
  gtk_scale_set_format_value_func(GTK_SCALE(n), format_count, nullptr, nullptr);
  gtk_range_set_value(GTK_RANGE(n), log10_count);
  g_signal_connect(n, "value-changed", G_CALLBACK(on_count), g);
  add_row("N (new flock)", n);
  clf::gtk::log_widget_bounds("n", n);

  ModelOptions& m = g->model;
  const Parameter parameters[] = {
      {"w_c cohesion", &m.wc, {0.0, 0.1, 0.001, 3}},
      {"w_s separation", &m.ws, {0.0, 1.0, 0.005, 3}},
      {"w_a alignment", &m.wa, {0.0, 1.0, 0.005, 3}},
      {"w_g goal", &m.wg, {0.0, 0.5, 0.005, 3}},
      {"r_c cohesion", &m.rc, {0.0, 20.0, 0.1, 1}},
      {"r_s separation", &m.rs, {0.0, 20.0, 0.1, 1}},
      {"r_a alignment", &m.ra, {0.0, 20.0, 0.1, 1}},
      {"max speed", &m.max_speed, {0.05, 5.0, 0.05, 2}},
      {"dt", &m.dt, {0.01, 1.0, 0.01, 2}},
  };
  for (Parameter p : parameters) {
    p.scale = fit_slider_scale(p.scale, *p.value);  // the rules asked for, not the slider's
    GtkWidget* scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, p.scale.low,
                                                p.scale.high, p.scale.step);
    gtk_scale_set_digits(GTK_SCALE(scale), p.scale.digits);
    gtk_range_set_value(GTK_RANGE(scale), *p.value);
    *p.value = static_cast<float>(gtk_range_get_value(GTK_RANGE(scale)));  // as the slider has it
    g->sliders.emplace_back(scale, p);
    g_signal_connect(scale, "value-changed", G_CALLBACK(on_parameter), g);
    add_row(p.label, scale);
  }
  return grid;
}

}  // namespace

GtkWidget* build_panel(Gui* g) {
  GtkWidget* panel = clf::gtk::side_panel(2, 300);

  clf::gtk::append_labelled(panel, "Device",
                            clf::gtk::device_picker(std::max(g->device, 0), [g](int index) {
                              g->device = index;
                              g->dirty = true;
                            }));
  g->dims_dropdown = clf::gtk::string_dropdown({"2D", "3D (drag: orbit, scroll: zoom)"},
                                               g->model.dims == 2 ? 0 : 1);
  g_signal_connect(g->dims_dropdown, "notify::selected", G_CALLBACK(on_dims), g);
  clf::gtk::append_labelled(panel, "Space", g->dims_dropdown);
  GtkWidget* bounded = gtk_check_button_new_with_label("Bounded (walls, not wrap-around)");
  gtk_check_button_set_active(GTK_CHECK_BUTTON(bounded), g->model.bounded);
  g_signal_connect(bounded, "toggled", G_CALLBACK(on_bounded), g);
  gtk_box_append(GTK_BOX(panel), bounded);

  gtk_box_append(GTK_BOX(panel), build_sliders(g));
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

}  // namespace boids

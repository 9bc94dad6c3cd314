// The raytracer window's side panel: the scene (open, reload, save image, save scene, and what
// happened), rendering (mode, depth, anti-aliasing, shadows, resolution, device), the camera
// (fly or orbit, the light) and the seed's sphere grid, with the keys to each.
#include <algorithm>
#include <string>

#include "apps/gtk/controls.hpp"
#include "apps/gtk/event_log.hpp"
#include "apps/gtk/frame_view.hpp"
#include "apps/raytracer/gui_window.hpp"

namespace raytracer {

namespace {

using clf::gtk::append_labelled;
using clf::gtk::button;
using clf::gtk::label;

// A spin button bound to one of the window's integer settings: a change stores it and renders.
GtkWidget* setting_spin(int low, int high, int* setting, Gui* g) {
  GtkWidget* spin = gtk_spin_button_new_with_range(low, high, 1);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(spin), *setting);
  g_object_set_data(G_OBJECT(spin), "setting", setting);
  g_signal_connect(spin, "value-changed", G_CALLBACK(+[](GtkSpinButton* s, gpointer data) {
                     *static_cast<int*>(g_object_get_data(G_OBJECT(s), "setting")) =
                         gtk_spin_button_get_value_as_int(s);
                     if (!gui_of(data)->updating_controls) gui_of(data)->submit();
                   }),
                   g);
  return spin;
}

// `control` under its caption, in a box of their own (for a row of two).
GtkWidget* captioned(const char* caption, GtkWidget* control) {
  GtkWidget* column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
  append_labelled(column, caption, control);
  return column;
}

// Two widgets side by side, each half the row.
void append_pair(GtkWidget* panel, GtkWidget* left, GtkWidget* right) {
  GtkWidget* row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_set_homogeneous(GTK_BOX(row), TRUE);
  gtk_box_append(GTK_BOX(row), left);
  gtk_box_append(GTK_BOX(row), right);
  gtk_box_append(GTK_BOX(panel), row);
}

GtkWidget* with_tooltip(GtkWidget* widget, const char* text) {
  gtk_widget_set_tooltip_text(widget, text);
  return widget;
}

void append_scene_section(GtkWidget* panel, Gui* g) {
  gtk_box_append(GTK_BOX(panel), label("Scene", "heading", GTK_ALIGN_START));
  g->scene_label = label(g->shown.source.c_str(), nullptr, GTK_ALIGN_START);
  gtk_label_set_ellipsize(GTK_LABEL(g->scene_label), PANGO_ELLIPSIZE_START);
  gtk_box_append(GTK_BOX(panel), g->scene_label);
  GtkWidget* open = with_tooltip(
      button(
          "_Open...", +[](GtkButton*, gpointer d) { ask_to_open(gui_of(d)); }, g),
      "A model (.gltf, .glb, .obj) or a scene file (.json); or drop one onto the window (Ctrl+O)");
  GtkWidget* reload =
      with_tooltip(button(
                       "_Reload", +[](GtkButton*, gpointer d) { gui_of(d)->reload(); }, g),
                   "Open the scene's file again, keeping the view (Ctrl+R)");
  append_pair(panel, open, reload);
  GtkWidget* save_image = with_tooltip(
      button(
          "Save _image...", +[](GtkButton*, gpointer d) { ask_to_save_image(gui_of(d)); }, g),
      "The image as accumulated so far, as PNG (Ctrl+S)");
  GtkWidget* save_scene = with_tooltip(
      button(
          "Save sc_ene...", +[](GtkButton*, gpointer d) { ask_to_save_scene(gui_of(d)); }, g),
      "The scene with this view as a scene file (Ctrl+Shift+S)");
  append_pair(panel, save_image, save_scene);
  g->message = label("", nullptr, GTK_ALIGN_START);
  gtk_label_set_wrap(GTK_LABEL(g->message), TRUE);
  gtk_label_set_wrap_mode(GTK_LABEL(g->message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable(GTK_LABEL(g->message), TRUE);
  gtk_label_set_max_width_chars(GTK_LABEL(g->message), 30);
  gtk_box_append(GTK_BOX(panel), g->message);
  clf::gtk::log_widget_bounds("open", open);
  clf::gtk::log_widget_bounds("save_image", save_image);
}

void on_mode(GObject* object, GParamSpec*, gpointer data) {
  Gui* g = gui_of(data);
  if (g->updating_controls) return;
  g->set_mode(gtk_drop_down_get_selected(GTK_DROP_DOWN(object)) == 1 ? RenderMode::path
                                                                     : RenderMode::whitted);
}

void on_resolution(GObject* object, GParamSpec*, gpointer data) {
  const guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(object));
  gui_of(data)->scale = i == 0 ? 1.0 : i == 1 ? 0.5 : 0.25;
  gui_of(data)->submit();
}

void append_render_section(GtkWidget* panel, Gui* g) {
  gtk_box_append(GTK_BOX(panel), label("Rendering", "heading", GTK_ALIGN_START));
  g->mode_dropdown =
      clf::gtk::string_dropdown({"Whitted", "Path tracing"}, g->mode == RenderMode::path ? 1 : 0);
  g_signal_connect(g->mode_dropdown, "notify::selected", G_CALLBACK(on_mode), g);
  append_labelled(panel, "Mode (M)", g->mode_dropdown);
  g->depth_spin = setting_spin(0, RT_MAX_DEPTH, &g->depth, g);
  g->aa_spin = setting_spin(1, RT_MAX_AA, &g->aa, g);
  append_pair(panel, captioned("Bounces (+/-)", g->depth_spin),
              captioned("Samples NxN", g->aa_spin));
  GtkWidget* shadows = gtk_check_button_new_with_label("Shadows");
  gtk_check_button_set_active(GTK_CHECK_BUTTON(shadows), g->shadows);
  g_signal_connect(shadows, "toggled", G_CALLBACK(+[](GtkCheckButton* b, gpointer data) {
                     gui_of(data)->shadows = gtk_check_button_get_active(b);
                     gui_of(data)->submit();
                   }),
                   g);
  gtk_widget_set_valign(shadows, GTK_ALIGN_END);
  const int scale_choice = g->scale >= 1 ? 0 : g->scale >= 0.5 ? 1 : 2;
  GtkWidget* resolution = clf::gtk::string_dropdown({"100%", "50%", "25%"}, scale_choice);
  g_signal_connect(resolution, "notify::selected", G_CALLBACK(on_resolution), g);
  append_pair(panel, captioned("Resolution", resolution), shadows);
  append_labelled(panel, "Device", clf::gtk::device_picker(std::max(g->device, 0), [g](int i) {
                    g->device = i;
                    g->submit();
                  }));
  clf::gtk::log_widget_bounds("mode", g->mode_dropdown);
  clf::gtk::log_widget_bounds("resolution", resolution);
}

void on_light_scale(GtkRange*, gpointer data) {
  Gui* g = gui_of(data);
  if (g->updating_controls) return;
  g->light = {static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[0]))),
              static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[1]))),
              static_cast<float>(gtk_range_get_value(GTK_RANGE(g->light_scales[2])))};
  g->submit();
}

void append_camera_section(GtkWidget* panel, Gui* g) {
  gtk_box_append(GTK_BOX(panel), label("Camera and light", "heading", GTK_ALIGN_START));
  g->fly_toggle = with_tooltip(gtk_toggle_button_new_with_label("Fly: drag looks around (F)"),
                               "Off: dragging orbits the target. WASD, Q/E move either way.");
  g_signal_connect(
      g->fly_toggle, "toggled", G_CALLBACK(+[](GtkToggleButton* b, gpointer data) {
        Gui* g = gui_of(data);
        if (g->updating_controls) return;
        g->set_camera_mode(gtk_toggle_button_get_active(b) ? CameraMode::fly : CameraMode::orbit);
      }),
      g);
  gtk_box_append(GTK_BOX(panel), g->fly_toggle);
  g->light_toggle = gtk_toggle_button_new_with_label("Drag moves the light (L)");
  gtk_box_append(GTK_BOX(panel), g->light_toggle);
  const char* axes[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    g->light_scales[i] = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, -1, 1, 0.01);
    gtk_widget_set_hexpand(g->light_scales[i], TRUE);
    g_signal_connect(g->light_scales[i], "value-changed", G_CALLBACK(on_light_scale), g);
    GtkWidget* row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    gtk_box_append(GTK_BOX(row), label((std::string("Light ") + axes[i]).c_str(), nullptr));
    gtk_box_append(GTK_BOX(row), g->light_scales[i]);
    gtk_box_append(GTK_BOX(panel), row);
  }
  g->sync_light_controls();
  clf::gtk::log_widget_bounds("fly", g->fly_toggle);
  clf::gtk::log_widget_bounds("light_x", g->light_scales[0]);
}

}  // namespace

GtkWidget* build_panel(Gui* g) {
  GtkWidget* panel = clf::gtk::side_panel(4, 240);
  append_scene_section(panel, g);
  append_render_section(panel, g);
  append_camera_section(panel, g);
  g->grid_spin = setting_spin(1, 40, &g->grid, g);
  append_labelled(panel, "Spheres per side (seed: n^3)", g->grid_spin);
  gtk_widget_set_sensitive(g->grid_spin, g->scene->name == "seed");
  gtk_box_append(GTK_BOX(panel), button(
                                     "Screenshot (P)",
                                     +[](GtkButton*, gpointer d) { gui_of(d)->screenshot(); }, g));
  gtk_box_append(GTK_BOX(panel),
                 label("Drag: orbit (fly: look)   Right-drag: look\nWASD: fly   Q/E: down/up   "
                       "Scroll: zoom\nR: reset view   Ctrl+Q, Esc: quit",
                       "dim-label", GTK_ALIGN_START));
  return panel;
}

}  // namespace raytracer

// The raytracer window's input: dragging orbits the camera (or, in fly mode or with the right
// button, turns it in place; in light mode moves the light), scrolling zooms, keys fly the camera
// while held (WASD, and Q/E for down and up) and reach every action; the frame-clock tick flies and
// follows the window's size.
#include <algorithm>
#include <cmath>

#include "apps/gtk/input.hpp"
#include "apps/raytracer/gui_window.hpp"

namespace raytracer {

namespace {

void on_drag_begin(GtkGestureDrag* gesture, double, double, gpointer data) {
  Gui* g = gui_of(data);
  const guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(gesture));
  g->drag_x = g->drag_y = 0;
  g->drag_looks = button == GDK_BUTTON_SECONDARY || g->camera_mode == CameraMode::fly;
  g->drag_moves_light = button == GDK_BUTTON_PRIMARY && !g->drag_looks &&
                        gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(g->light_toggle));
  g->drag_light = g->light;
}

void on_drag_update(GtkGestureDrag*, double dx, double dy, gpointer data) {
  Gui* g = gui_of(data);
  const float step_x = static_cast<float>(dx - g->drag_x);
  const float step_y = static_cast<float>(dy - g->drag_y);
  g->drag_x = dx;
  g->drag_y = dy;
  if (g->drag_moves_light) {
    // The light moves in the ground plane, along the image's right and away from the camera.
    const float k = g->camera.distance() / 300.0f;
    const Vec3 right = g->camera.right(), forward = g->camera.forward();
    const float flat = std::max(1e-3f, std::hypot(forward.x, forward.z));
    g->light.x = g->drag_light.x +
                 k * (static_cast<float>(dx) * right.x - static_cast<float>(dy) * forward.x / flat);
    g->light.z = g->drag_light.z +
                 k * (static_cast<float>(dx) * right.z - static_cast<float>(dy) * forward.z / flat);
    g->sync_light_controls();
  } else if (g->drag_looks) {
    g->camera.look(step_x * kLookPerPixel, step_y * kLookPerPixel);
  } else {
    g->camera.orbit(step_x * kOrbitPerPixel, step_y * kOrbitPerPixel);
  }
  g->submit();
}

gboolean on_scroll(GtkEventControllerScroll*, double, double dy, gpointer data) {
  Gui* g = gui_of(data);
  g->camera.zoom(std::pow(1.1f, static_cast<float>(dy)));
  g->submit();
  return TRUE;
}

// The fly key's flag in `keys`, or nullptr for a key that does not fly.
bool* fly_flag(FlyKeys& keys, guint key) {
  switch (gdk_keyval_to_lower(key)) {
    case GDK_KEY_w:
      return &keys.forward;
    case GDK_KEY_s:
      return &keys.back;
    case GDK_KEY_a:
      return &keys.left;
    case GDK_KEY_d:
      return &keys.right;
    case GDK_KEY_e:
      return &keys.up;
    case GDK_KEY_q:
      return &keys.down;
    default:
      return nullptr;
  }
}

// Ctrl+O open, Ctrl+R reload, Ctrl+S save the image, Ctrl+Shift+S the scene, Ctrl+Q quit.
gboolean on_control_key(Gui* g, guint key) {
  switch (gdk_keyval_to_lower(key)) {
    case GDK_KEY_o:
      ask_to_open(g);
      return TRUE;
    case GDK_KEY_r:
      g->reload();
      return TRUE;
    case GDK_KEY_s:
      if (key == GDK_KEY_S) {
        ask_to_save_scene(g);
      } else {
        ask_to_save_image(g);
      }
      return TRUE;
    case GDK_KEY_q:
      gtk_window_destroy(g->window);
      return TRUE;
    default:
      return FALSE;
  }
}

void toggle(GtkWidget* button) {
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(button),
                               !gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(button)));
}

gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType state, gpointer data) {
  Gui* g = gui_of(data);
  if ((state & GDK_CONTROL_MASK) != 0) return on_control_key(g, key);
  if (bool* flag = fly_flag(g->fly_keys, key)) {
    if (!*flag) {  // not a key repeat: a tap moves a thirtieth of a second's worth
      *flag = true;
      g->last_fly_tick = Clock::now() - std::chrono::milliseconds(33);
      g->fly();
    }
    return TRUE;
  }
  switch (gdk_keyval_to_lower(key)) {
    case GDK_KEY_Escape:
      gtk_window_destroy(g->window);
      return TRUE;
    case GDK_KEY_f:
      toggle(g->fly_toggle);
      return TRUE;
    case GDK_KEY_m:
      g->set_mode(g->mode == RenderMode::path ? RenderMode::whitted : RenderMode::path);
      return TRUE;
    case GDK_KEY_l:
      toggle(g->light_toggle);
      return TRUE;
    case GDK_KEY_p:
      g->screenshot();
      return TRUE;
    case GDK_KEY_r:
      g->reset_view();
      g->submit();
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(g->depth_spin), g->depth + 1);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(g->depth_spin), g->depth - 1);
      return TRUE;
    default:
      return FALSE;
  }
}

void on_key_released(GtkEventControllerKey*, guint key, guint, GdkModifierType, gpointer data) {
  if (bool* flag = fly_flag(gui_of(data)->fly_keys, key)) *flag = false;
}

// A window that loses the keyboard never hears its keys let go: stop flying.
void on_active_changed(GObject* window, GParamSpec*, gpointer data) {
  if (!gtk_window_is_active(GTK_WINDOW(window))) gui_of(data)->fly_keys = FlyKeys{};
}

gboolean on_tick(GtkWidget*, GdkFrameClock*, gpointer data) {
  Gui* g = gui_of(data);
  if (g->fly_keys.any()) g->fly();
  // The image follows the view's size.
  if (g->view->width() != g->last_width || g->view->height() != g->last_height) g->submit();
  return G_SOURCE_CONTINUE;
}

}  // namespace

void add_input_handlers(Gui* g, GtkWindow* window) {
  clf::gtk::PointerHandlers pointer;
  pointer.drag_button = 0;  // any: the secondary button always looks around
  pointer.drag_begin = on_drag_begin;
  pointer.drag_update = on_drag_update;
  pointer.scroll = on_scroll;
  clf::gtk::add_pointer_handlers(g->view->widget(), pointer, g);
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::bubble, on_key_released);
  g_signal_connect(window, "notify::is-active", G_CALLBACK(on_active_changed), g);
  gtk_widget_add_tick_callback(g->view->widget(), on_tick, g, nullptr);
}

}  // namespace raytracer
